"""RMSNormalization fusion: the forms torch and transformers write, and what must not fuse."""

from __future__ import annotations

import pytest

from tests.rewriter.rules.fusion.fusing import attrs, fused, header, node_of

CONSTANTS = """
    two = Constant<value = float {2.0}>()
    axes = Constant<value = int64[1] {-1}>()
    eps = Constant<value = float {1e-6}>()
    one = Constant<value = float {1.0}>()
"""


def rms(body: str, x: str = "float[2,3,8] x", w: str = "float[8] w", axes: str = "") -> str:
    constants = CONSTANTS.replace("{-1}", axes) if axes else CONSTANTS
    output = x.rsplit(" ", 1)[0] + " y"
    return header(f"{x}, {w}", output) + " {" + constants + body + "}"


LLAMA = """
    p = Pow(x, two)
    m = ReduceMean<keepdims=1>(p, axes)
    a = Add(m, eps)
    s = Sqrt(a)
    r = Reciprocal(s)
    n = Mul(x, r)
    y = Mul(w, n)
"""


def test_llama_form_fuses_with_epsilon_and_last_axis() -> None:
    model, ops, counts = fused(rms(LLAMA))
    assert counts["RMSNormalization"] == 1 and ops == {"RMSNormalization": 1}
    node = node_of(model, "RMSNormalization")
    assert attrs(node)["axis"] == -1 and attrs(node)["stash_type"] == 1
    assert attrs(node)["epsilon"] == pytest.approx(1e-6)


@pytest.mark.parametrize(
    "body",
    [
        # x * x, 1 / sqrt, operands swapped
        "p = Mul(x, x)\n m = ReduceMean(p, axes)\n a = Add(eps, m)\n s = Sqrt(a)\n"
        " r = Div(one, s)\n n = Mul(r, x)\n y = Mul(n, w)",
        # x / sqrt
        "p = Pow(x, two)\n m = ReduceMean(p, axes)\n a = Add(m, eps)\n s = Sqrt(a)\n"
        " n = Div(x, s)\n y = Mul(w, n)",
    ],
)
def test_variants_fuse(body: str) -> None:
    _, ops, _ = fused(rms(body))
    assert ops == {"RMSNormalization": 1}


def test_mixed_precision_casts_fuse_into_the_op() -> None:
    body = """
    xf = Cast<to=1>(x)
    p = Pow(xf, two)
    m = ReduceMean(p, axes)
    a = Add(m, eps)
    s = Sqrt(a)
    r = Reciprocal(s)
    n = Mul(xf, r)
    h = Cast<to=10>(n)
    y = Mul(w, h)
"""
    model, ops, _ = fused(rms(body, x="float16[2,3,8] x", w="float16[8] w"))
    assert ops == {"RMSNormalization": 1}
    assert attrs(node_of(model, "RMSNormalization"))["stash_type"] == 1


def test_two_trailing_axes_give_axis_minus_two() -> None:
    model, _, _ = fused(
        rms(LLAMA, w="float[3,8] w", axes="{-2, -1}").replace("int64[1]", "int64[2]")
    )
    assert attrs(node_of(model, "RMSNormalization"))["axis"] == -2


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (
            ("axes = Constant<value = int64[1] {-1}>()", "axes = Constant<value = int64[1] {1}>()"),
            "axis",
        ),
        (("keepdims=1", "keepdims=0"), "keepdims"),
        (("n = Mul(x, r)", "n = Mul(w, r)"), "other operand"),
    ],
)
def test_not_fused(change: tuple[str, str], why: str) -> None:
    _, ops, counts = fused(rms(LLAMA).replace(*change))
    assert counts["RMSNormalization"] == 0 and "RMSNormalization" not in ops, why


def test_epsilon_from_an_input_is_not_fused() -> None:
    text = rms(LLAMA, w="float[8] w, float e").replace("a = Add(m, eps)", "a = Add(m, e)")
    _, _, counts = fused(text)
    assert counts["RMSNormalization"] == 0
