"""Every fusion refuses what onnxruntime's CPU kernel cannot run (``cpu_kernels``), and
says why in its tracer report: attention of double (issue 34, case 5; values of another
head size than the keys' are given to MultiHeadAttention 3-D, which takes them), GELUs and FusedMatMul of types or ranks their
kernels lack, position ids of a batch of 1 given to the contrib RotaryEmbedding (expanded
to the input's batch). Each model is run in onnxruntime before and after."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnx.parser
import onnx_ir as ir
import pytest

from onnxscript.optimizer import optimize_ir
from onnxscript.rewriter.ort_fusions import (
    bias_gelu,
    cos_sin_cache,
    fused_matmul_rule_sets,
    gelu,
    optimize_for_ort,
    rotary_embedding,
    sdpa,
)
from tests.rewriter.ort_fusions import fusing
from tests.rewriter.ort_fusions.test_rotary_embedding import _feeds as rope_feeds
from tests.rewriter.ort_fusions.test_rotary_embedding import _rope_model

ort = pytest.importorskip("onnxruntime")


def _attention(dtype: str, v_head: int, head: int = 8) -> onnx.ModelProto:
    """``Softmax(q @ kᵀ / √d) @ v`` of ``q, k [2, 4, S|T, 8]``, ``v [2, 4, T, v_head]``."""
    return onnx.parser.parse_model(f"""
<ir_version: 10, opset_import: ["" : 20]>
g ({dtype}[2, 4, S, {head}] q, {dtype}[2, 4, T, {head}] k, {dtype}[2, 4, T, {v_head}] v)
    => ({dtype}[2, 4, S, {v_head}] y) <float root = {{{head**0.5}}}> {{
  s = CastLike(root, q)
  kt = Transpose<perm=[0, 1, 3, 2]>(k)
  a = MatMul(q, kt)
  b = Div(a, s)
  p = Softmax<axis=-1>(b)
  y = MatMul(p, v)
}}""")


def _run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[Any]:
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    return list(session.run(None, feeds))


def _random_feeds(model: onnx.ModelProto, sizes: dict[str, int]) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    feeds = {}
    for value in model.graph.input:
        tensor = value.type.tensor_type
        shape = [
            d.dim_value if d.HasField("dim_value") else sizes[d.dim_param] for d in tensor.shape.dim
        ]
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        feeds[value.name] = rng.standard_normal(shape).astype(dtype)
    return feeds


def _optimized(proto: onnx.ModelProto) -> tuple[onnx.ModelProto, dict[str, int]]:
    model = ir.from_proto(proto)
    _, counts = optimize_for_ort(model)
    return ir.to_proto(model), counts


def _ops(proto: onnx.ModelProto) -> set[str]:
    return {n.op_type for n in proto.graph.node}


@pytest.mark.parametrize(
    ("dtype", "v_head", "fused", "atol"),
    [
        ("float", 8, True, 1e-5),
        ("float16", 8, True, 2e-3),
        ("float", 6, True, 1e-5),  # keys and values 3-D: of two head sizes
        ("double", 8, False, 1e-12),  # no double kernel
    ],
)
def test_attention_fused_only_where_onnxruntime_runs_it(
    dtype: str, v_head: int, fused: bool, atol: float
) -> None:
    before = _attention(dtype, v_head)
    after, counts = _optimized(before)
    assert ("MultiHeadAttention" in _ops(after)) == fused
    assert (counts["sdpa"] == 1) == fused
    fusing.check_model(after)
    for sizes in ({"S": 3, "T": 5}, {"S": 1, "T": 2}):
        feeds = _random_feeds(before, sizes)
        np.testing.assert_allclose(
            np.asarray(_run(after, feeds)[0], np.float64),
            np.asarray(_run(before, feeds)[0], np.float64),
            atol=atol,
            rtol=1e-3,
        )


@pytest.mark.parametrize(
    ("dtype", "v_head", "reason"),
    [
        ("double", 8, "MultiHeadAttention takes float, float16, not double"),
        ("double", 6, "MultiHeadAttention takes float, float16, not double"),
    ],
)
def test_the_tracer_says_why_attention_is_refused(
    dtype: str, v_head: int, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    model = ir.from_proto(onnx.shape_inference.infer_shapes(_attention(dtype, v_head)))
    optimize_ir(model)  # the scale folded to a constant
    assert sdpa.fuse_sdpa(model, debug=True) == 0
    assert reason in capsys.readouterr().out


def _gelu_model(dtype: str, tanh: bool, bias: bool) -> onnx.ModelProto:
    """Exact or tanh GELU of ``x [2, 8]`` (of ``x + b`` with a 1-D ``b``: then ONNX's
    Gelu op, else written out)."""
    if bias:
        approximate = "tanh" if tanh else "none"
        body = f'h = Add(x, b)\n  y = Gelu<approximate="{approximate}">(h)'
    elif tanh:
        body = """c = Pow(x, three)
  d = Mul(c, k)
  e = Add(x, d)
  f = Mul(e, r)
  t = Tanh(f)
  u = Add(t, one)
  w = Mul(x, u)
  y = Mul(w, half)"""
    else:
        body = """d = Div(x, sq)
  e = Erf(d)
  u = Add(e, one)
  w = Mul(x, u)
  y = Mul(w, half)"""
    numbers = {"three": 3.0, "k": 0.044715, "r": 0.7978845608, "one": 1.0, "half": 0.5}
    numbers["sq"] = 1.4142135624
    constants = ", ".join(f"float {name}_f = {{{value}}}" for name, value in numbers.items())
    casts = "\n  ".join(f"{name} = CastLike({name}_f, x)" for name in numbers)
    return onnx.parser.parse_model(f"""
<ir_version: 10, opset_import: ["" : 20]>
g ({dtype}[2, 8] x, {dtype}[8] b) => ({dtype}[2, 8] y) <{constants}> {{
  {casts}
  {body}
}}""")


@pytest.mark.parametrize(
    ("dtype", "tanh", "bias", "fused"),
    [
        ("float", False, False, "Gelu"),
        ("double", False, False, None),  # com.microsoft.Gelu has no double kernel
        ("float", True, False, "FastGelu"),
        ("double", True, False, "FastGelu"),  # FastGelu of double runs
        ("float", False, True, "BiasGelu"),
        ("double", False, True, None),
        ("double", True, True, "FastGelu"),
    ],
)
def test_gelus_fused_only_for_the_types_their_kernels_take(
    dtype: str, tanh: bool, bias: bool, fused: str | None
) -> None:
    proto = onnx.shape_inference.infer_shapes(_gelu_model(dtype, tanh, bias))
    model = ir.from_proto(proto)
    optimize_ir(model)  # the CastLikes of the constants folded
    before = ir.to_proto(model)
    count = (bias_gelu.fuse_bias_gelu if bias else gelu.fuse_gelu)(model)
    assert count == (fused is not None)
    after = ir.to_proto(model)
    assert (fused in _ops(after)) if fused else not any(n.domain for n in after.graph.node)
    fusing.check_model(after)
    feeds = _random_feeds(before, {})
    if dtype == "double" and not tanh:  # onnxruntime has no Erf of double: the
        with pytest.raises(Exception, match="Erf"):  # model before does not run either
            _run(before, feeds)
        return
    np.testing.assert_allclose(_run(after, feeds)[0], _run(before, feeds)[0], atol=1e-5)


@pytest.mark.parametrize(
    ("rule", "dtype", "reason"),
    [
        (gelu.GeluErfFusion, ir.DataType.BFLOAT16, "Gelu takes float, float16, not bfloat16"),
        (gelu.GeluErfFusion, ir.DataType.DOUBLE, "Gelu takes float, float16, not double"),
        (gelu.GeluTanhFusion, ir.DataType.BFLOAT16, "FastGelu takes double, float, float16"),
        (gelu.GeluTanhFusion, ir.DataType.FLOAT, None),
    ],
)
def test_gelu_checks_say_why(
    rule: type[gelu._GeluFusion], dtype: ir.DataType, reason: str | None
) -> None:
    """The check itself (the patterns' constants of bfloat16 are not read as numbers)."""
    x = ir.Value(name="x", type=ir.TensorType(dtype), shape=ir.Shape([2, 8]))
    result = rule(0, False).check(None, x=x)
    assert bool(result) == (reason is None)
    assert reason is None or reason in result.reason


def _matmul_model(text: str, inputs: str, output: str) -> onnx.ModelProto:
    return onnx.shape_inference.infer_shapes(
        onnx.parser.parse_model(f"""
<ir_version: 10, opset_import: ["" : 20]>
g ({inputs}) => ({output}) <float s = {{0.5}}> {{
  {text}
}}""")
    )


@pytest.mark.parametrize(
    ("text", "inputs", "output", "fused"),
    [
        # Transpose moving A's first dim behind the batch: transBatchA with a 2-D B
        (
            "t = Transpose<perm=[1, 0, 2]>(a)\n  y = MatMul(t, b)",
            "float[3, 2, 5] a, float[5, 4] b",
            "float[2, 3, 4] y",
            False,
        ),
        (
            "t = Transpose<perm=[1, 0, 2]>(a)\n  y = MatMul(t, b)",
            "float[3, 2, 5] a, float[2, 5, 4] b",
            "float[2, 3, 4] y",
            True,
        ),
        (
            "p = MatMul(a, b)\n  y = Mul(p, s)",
            "float[3, 5] a, float[5, 4] b",
            "float[3, 4] y",
            True,
        ),
    ],
)
def test_fused_matmul_only_where_the_kernel_computes_it(
    text: str, inputs: str, output: str, fused: bool
) -> None:
    before = _matmul_model(text, inputs, output)
    model = ir.from_proto(before)
    count = fused_matmul_rule_sets.fused_matmul_rule_sets().apply_to_model(model)
    assert (count > 0) == fused
    after = ir.to_proto(model)
    feeds = _random_feeds(before, {})
    np.testing.assert_allclose(_run(after, feeds)[0], _run(before, feeds)[0], atol=1e-5)


def test_fused_matmul_of_bfloat16_is_refused() -> None:
    before = _matmul_model(
        "p = MatMul(a, b)\n  c = Cast<to=16>(s)\n  y = Mul(p, c)",
        "bfloat16[3, 5] a, bfloat16[5, 4] b",
        "bfloat16[3, 4] y",
    )
    model = ir.from_proto(before)
    assert fused_matmul_rule_sets.fused_matmul_rule_sets().apply_to_model(model) == 0


@pytest.mark.parametrize("positions", ["batch_of_1", "one_dim"])
def test_rotary_position_ids_of_a_batch_of_1_are_expanded(positions: str) -> None:
    """onnxruntime's RotaryEmbedding reads position ids ``[batch, seq]`` of the input's
    batch: ids ``[1, S]`` (or 1-D, unsqueezed) broadcast by the model are expanded."""
    proto = _rope_model(split=True)
    graph = proto.graph
    pos = next(i for i in graph.input if i.name == "pos")
    if positions == "batch_of_1":
        pos.type.tensor_type.shape.dim[0].ClearField("dim_param")
        pos.type.tensor_type.shape.dim[0].dim_value = 1
    else:
        del pos.type.tensor_type.shape.dim[0]
        unsqueeze = next(n for n in graph.node if n.op_type == "Unsqueeze" and n.input[0] == "pos")
        graph.initializer.append(
            onnx.helper.make_tensor("zero_two", onnx.TensorProto.INT64, [2], [0, 2])
        )
        unsqueeze.input[1] = "zero_two"
    del graph.value_info[:]
    proto = onnx.shape_inference.infer_shapes(proto)
    model = ir.from_proto(proto)
    assert rotary_embedding.fuse_rotary_embedding(model) == 1
    assert cos_sin_cache.fuse_cos_sin_cache(model) == 1
    fused = ir.to_proto(model)
    assert "RotaryEmbedding" in _ops(fused)
    for batch, seq in ((2, 5), (3, 1)):
        feeds = rope_feeds(proto, batch, seq)
        feeds["pos"] = feeds["pos"][:1] if positions == "batch_of_1" else feeds["pos"][0]
        np.testing.assert_allclose(_run(fused, feeds)[0], _run(proto, feeds)[0], atol=1e-5)
