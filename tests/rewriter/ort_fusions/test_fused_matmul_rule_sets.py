"""MatMul with scalar scaling and Transposes folded into com.microsoft FusedMatMul: every
permutation the op can apply (checked against onnxruntime's kernel), chains of them, and
what must not fuse."""

from __future__ import annotations

import pytest

from onnxscript.rewriter.ort_fusions.fused_matmul_rule_sets import (
    flag_perm,
    fused_matmul_rule_sets,
    perm_flags,
)
from tests.rewriter.ort_fusions.fusing import (
    attributes,
    fuse_and_compare,
    input_names,
    node,
    ops,
)

HEADER = '<ir_version: 10, opset_import: ["" : 20]>\n'
SCALARS = "float two = {2.0}, float[1] four = {4.0}, float[5] five = {1, 2, 3, 4, 5}"
FUSED = "com.microsoft::FusedMatMul"


def model(body: str, a: str, b: str, y: str, weights: str = SCALARS, more: str = "") -> str:
    signature = f"(float[{a}] a, float[{b}] b{more}) => (float[{y}] y)"
    return HEADER + f"g {signature} <{weights}> {{\n{body}\n}}"


def fuse(m: object) -> int:
    return fused_matmul_rule_sets().apply_to_model(m)  # type: ignore[arg-type]


def source_shape(target: tuple[int | str, ...], perm: list[int]) -> str:
    """The shape whose Transpose by ``perm`` is ``target``."""
    source: list[int | str] = [0] * len(perm)
    for i, p in enumerate(perm):
        source[p] = target[i]
    return ",".join(map(str, source))


def flags(m: object) -> dict[str, object]:
    return attributes(node(m, "FusedMatMul"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "tail, alpha",
    [("y = Div(m, two)", 0.5), ("y = Mul(m, two)", 2.0), ("y = Mul(four, m)", 4.0)],
)
def test_scalar_scale_becomes_alpha(tail: str, alpha: float) -> None:
    text = model(f"m = MatMul(a, b)\n{tail}", "B,4,6,8", "B,4,8,5", "B,4,6,5")
    fused = fuse_and_compare(text, fuse, 1)
    assert ops(fused) == [FUSED] and flags(fused) == {"alpha": pytest.approx(alpha)}
    assert fused.opset_imports["com.microsoft"] == 1


TRANSPOSES = [
    (rank, which, trans, batch)
    for rank in (2, 3, 4)
    for which in "ab"
    for trans, batch in ((1, 0), (0, 1), (1, 1))
    if flag_perm((trans, batch), rank) is not None  # rank 2 has no batch dims to move
]


@pytest.mark.parametrize("rank, which, trans, batch", TRANSPOSES)
def test_transposes_the_op_can_apply(rank: int, which: str, trans: int, batch: int) -> None:
    perm = flag_perm((trans, batch), rank)
    assert perm is not None
    a_dims, b_dims, y_dims = (
        (3, 4, 6, 8)[4 - rank :],
        (3, 4, 8, 5)[4 - rank :],
        (3, 4, 6, 5)[4 - rank :],
    )
    perm_text = ", ".join(map(str, perm))
    if which == "a":
        a, b = source_shape(a_dims, perm), ",".join(map(str, b_dims))
        body = f"t = Transpose <perm = [{perm_text}]> (a)\n y = MatMul(t, b)"
    else:
        a, b = ",".join(map(str, a_dims)), source_shape(b_dims, perm)
        body = f"t = Transpose <perm = [{perm_text}]> (b)\n y = MatMul(a, t)"
    fused = fuse_and_compare(model(body, a, b, ",".join(map(str, y_dims))), fuse, 1)
    name = which.upper()
    expected = {f"trans{name}": trans, f"transBatch{name}": batch}
    assert flags(fused) == {k: v for k, v in expected.items() if v}


def test_chain_of_transposes_and_scale() -> None:
    body = (
        "ta = Transpose <perm = [0, 1, 3, 2]> (a)\n tb = Transpose <perm = [0, 1, 3, 2]> (b)\n"
        " m = MatMul(ta, tb)\n y = Div(m, two)"
    )
    fused = fuse_and_compare(model(body, "B,4,8,6", "B,4,5,8", "B,4,6,5"), fuse, 3)
    assert ops(fused) == [FUSED]
    assert flags(fused) == {"alpha": pytest.approx(0.5), "transA": 1, "transB": 1}


def test_transpose_of_the_product_swaps_the_operands() -> None:
    body = "m = MatMul(a, b)\n d = Div(m, two)\n y = Transpose <perm = [0, 1, 3, 2]> (d)"
    fused = fuse_and_compare(model(body, "B,4,6,8", "B,4,8,5", "B,4,5,6"), fuse, 2)
    assert ops(fused) == [FUSED]
    assert input_names(node(fused, "FusedMatMul")) == ["b", "a"]
    assert flags(fused) == {"alpha": pytest.approx(0.5), "transA": 1, "transB": 1}


def test_a_second_transpose_undoes_the_first() -> None:
    body = (
        ("t1 = Transpose <perm = [0, 2, 1]> (b)\n m = MatMul(a, t1)\n y = Mul(m, two)")
        .replace("MatMul(a, t1)", "MatMul(a, t2)")
        .replace(
            "t1 = Transpose <perm = [0, 2, 1]> (b)",
            "t1 = Transpose <perm = [0, 2, 1]> (b)\n t2 = Transpose <perm = [0, 2, 1]> (t1)",
        )
    )
    fused = fuse_and_compare(model(body, "4,6,8", "4,8,5", "4,6,5"), fuse, 3)
    assert flags(fused) == {"alpha": pytest.approx(2.0)}


@pytest.mark.parametrize(
    "body, a, b, y, more",
    [
        (
            "t = Transpose <perm = [0, 2, 1, 3]> (b)\n y = MatMul(a, t)",
            "2,3,6,8",
            "2,8,3,5",
            "2,3,6,5",
            "",
        ),
        ("t = Transpose <perm = [2, 1, 0]> (b)\n y = MatMul(a, t)", "4,6,8", "5,8,4", "4,6,5", ""),
        ("m = MatMul(a, b)\n y = Div(m, s)", "6,8", "8,5", "6,5", ", float s"),  # not constant
        ("m = MatMul(a, b)\n y = Mul(m, five)", "6,8", "8,5", "6,5", ""),  # not a scalar
        ("y = MatMul(a, b)", "6,8", "8,5", "6,5", ""),
    ],
)
def test_does_not_fuse(body: str, a: str, b: str, y: str, more: str) -> None:
    fused = fuse_and_compare(model(body, a, b, y, more=more), fuse, 0)
    assert FUSED not in ops(fused)


def test_transpose_used_twice_is_kept() -> None:
    text = model(
        "t = Transpose <perm = [1, 0]> (b)\n m = MatMul(a, t)\n n = Neg(t)\n y = Add(m, n)",
        "6,6",
        "6,6",
        "6,6",
    )
    fuse_and_compare(text, fuse, 0)


def test_integer_product_is_left_alone() -> None:
    text = (
        HEADER
        + "g (int32[2,3] a, int32[3,2] b) => (int32[2,2] y) <int32 two = {2}> "
        + "{ m = MatMul(a, b)\n y = Div(m, two) }"
    )
    fuse_and_compare(text, fuse, 0)


def test_flags_and_permutations_round_trip() -> None:
    for rank in (2, 3, 4, 5):
        for trans in (0, 1):
            for batch in (0, 1):
                perm = flag_perm((trans, batch), rank)
                if perm is not None:
                    assert perm_flags(perm) == (trans, batch)
    assert perm_flags([0, 2, 1, 3]) is None
