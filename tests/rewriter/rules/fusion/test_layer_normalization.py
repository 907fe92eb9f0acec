"""LayerNormalization fusion from the mean / variance decomposition."""

from __future__ import annotations

import pytest

from tests.rewriter.rules.fusion.fusing import attrs, fused, header, node_of

BODY = """
    two = Constant<value = float {2.0}>()
    axes = Constant<value = int64[1] {-1}>()
    eps = Constant<value = float {1e-5}>()
    m = ReduceMean(x, axes)
    d = Sub(x, m)
    p = Pow(d, two)
    v = ReduceMean(p, axes)
    a = Add(v, eps)
    s = Sqrt(a)
    n = Div(d, s)
    sc = Mul(n, w)
    y = Add(sc, b)
"""


def layer_norm(body: str = BODY) -> str:
    return header("float[2,3,8] x, float[8] w, float[8] b", "float[2,3,8] y") + " {" + body + "}"


def test_with_bias_fuses() -> None:
    model, ops, counts = fused(layer_norm())
    assert counts["LayerNormalization"] == 1 and ops == {"LayerNormalization": 1}
    node = node_of(model, "LayerNormalization")
    assert list(node.input) == ["x", "w", "b"] and attrs(node)["axis"] == -1
    assert attrs(node)["epsilon"] == pytest.approx(1e-5)


def test_without_bias_fuses() -> None:
    _, ops, _ = fused(layer_norm(BODY.replace("y = Add(sc, b)", "y = Mul(sc, b)")))
    assert ops == {"LayerNormalization": 1, "Mul": 1}


def test_variance_over_other_axes_is_not_fused() -> None:
    body = BODY.replace(
        "v = ReduceMean(p, axes)", "ax2 = Constant<value = int64[1] {1}>()\n v = ReduceMean(p, ax2)"
    )
    _, _, counts = fused(layer_norm(body))
    assert counts["LayerNormalization"] == 0
