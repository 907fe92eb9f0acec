"""RotaryEmbedding fusion: transformers' rotate_half form, full and partial, and the
batch-of-one angles onnxruntime needs expanded."""

from __future__ import annotations

from tests.rewriter.rules.fusion.fusing import attrs, fused, header, node_of

ROPE = """
    one = Constant<value = int64[1] {1}>()
    zero = Constant<value = int64[1] {0}>()
    half = Constant<value = int64[1] {4}>()
    last = Constant<value = int64[1] {-1}>()
    big = Constant<value = int64[1] {9223372036854775807}>()
    emb = Concat<axis=-1>(f, f)
    c3 = Cos(emb)
    s3 = Sin(emb)
    c = Unsqueeze(c3, one)
    s = Unsqueeze(s3, one)
    xc = Mul(x, c)
    x1 = Slice(x, zero, half, last)
    x2 = Slice(x, half, big, last)
    nx2 = Neg(x2)
    rot = Concat<axis=-1>(nx2, x1)
    xs = Mul(rot, s)
    y = Add(xc, xs)
"""


def rope(body: str = ROPE, batch: int = 2) -> str:
    inputs = f"float[2,4,3,8] x, float[{batch},3,4] f"
    return header(inputs, "float[2,4,3,8] y") + " {" + body + "}"


def test_rotate_half_fuses() -> None:
    model, ops, counts = fused(rope())
    assert counts["RotaryEmbedding"] == 1
    assert ops == {"RotaryEmbedding": 1, "Cos": 1, "Sin": 1}
    assert attrs(node_of(model, "RotaryEmbedding")) == {"interleaved": 0}


def test_angles_of_a_batch_of_one_are_expanded_to_the_input_batch() -> None:
    _, ops, _ = fused(rope(batch=1))
    assert ops["RotaryEmbedding"] == 1 and ops["Expand"] == 1


def _partial(cut: str) -> str:
    """A rotation of the first 4 of 8 channels, concatenated with the rest; ``cut`` makes
    ``xr`` (rotated) and ``xp`` (passed) from ``x``."""
    body = ROPE.replace(
        "half = Constant<value = int64[1] {4}>()", "half = Constant<value = int64[1] {2}>()"
    )
    body = body.replace("Mul(x, c)", "Mul(xr, c)").replace(
        "Slice(x, zero, half, last)", "Slice(xr, zero, half, last)"
    )
    body = body.replace("Slice(x, half, big, last)", "Slice(xr, half, big, last)")
    body = body.replace("y = Add(xc, xs)", "r = Add(xc, xs)\n y = Concat<axis=-1>(r, xp)")
    body = "    four = Constant<value = int64[1] {4}>()\n" + cut + body
    # the constants the cut uses must come first
    head, rest = body.split("    emb =", 1)
    lines = head.splitlines()
    constants = [ln for ln in lines if "Constant" in ln]
    others = [ln for ln in lines if ln.strip() and "Constant" not in ln]
    return rope("\n".join(constants + others) + "\n    emb =" + rest).replace(
        "float[2,3,4] f", "float[2,3,2] f"
    )


SLICED = "    xr = Slice(x, zero, four, last)\n    xp = Slice(x, four, big, last)\n"
SPLIT = "    sizes = Constant<value = int64[2] {4, 4}>()\n    xr, xp = Split<axis=-1>(x, sizes)\n"


def test_partial_rotation_gets_rotary_embedding_dim() -> None:
    for cut in (SLICED, SPLIT):
        model, ops, _ = fused(_partial(cut))
        assert ops["RotaryEmbedding"] == 1, cut
        assert "Slice" not in ops and "Split" not in ops and "Concat" not in ops, ops
        assert attrs(node_of(model, "RotaryEmbedding"))["rotary_embedding_dim"] == 4


def test_the_rest_concatenated_first_is_no_partial_rotation() -> None:
    text = _partial(SPLIT).replace("Concat<axis=-1>(r, xp)", "Concat<axis=-1>(xp, r)")
    _, ops, _ = fused(text)
    assert ops["RotaryEmbedding"] == 1 and ops["Split"] == 1 and ops["Concat"] == 1


def test_slices_not_at_the_half_do_not_fuse() -> None:
    text = rope(ROPE.replace("Slice(x, half, big, last)", "Slice(x, one, big, last)"))
    _, _, counts = fused(text.replace("float[2,4,3,8] y", "float[2,4,3,8] y"))
    assert counts["RotaryEmbedding"] == 0


def test_halves_in_the_wrong_order_do_not_fuse() -> None:
    _, _, counts = fused(
        rope(ROPE.replace("rot = Concat<axis=-1>(nx2, x1)", "rot = Concat<axis=-1>(x1, nx2)"))
    )
    assert counts["RotaryEmbedding"] == 0


def test_fuse_functions_of_072_leave_no_unused_node() -> None:
    # 0.7.2's rules.fusion._rotary_embedding.fuse_rotary_embedding / fuse_partial_...:
    # a model's RotaryEmbedding found by graph order is the fused one, not a dead one.
    import onnx.parser
    import onnx.shape_inference
    import onnx_ir as ir

    from onnxscript.rewriter.rules.fusion import _rotary_embedding

    for cut in (SLICED, SPLIT):
        proto = onnx.shape_inference.infer_shapes(onnx.parser.parse_model(_partial(cut)))
        model = ir.from_proto(proto)
        assert _rotary_embedding.fuse_rotary_embedding(model, debug=False) == 1
        assert _rotary_embedding.fuse_partial_rotary_embedding(model) == 1
        ropes = [n for n in model.graph if n.op_type == "RotaryEmbedding"]
        assert len(ropes) == 1 and "rotary_embedding_dim" in ropes[0].attributes
        assert all(any(v.uses() or v.is_graph_output() for v in n.outputs) for n in model.graph)
