"""The helpers onnxscript 0.7 defined at its ATen module paths, as 0.7.2 behaves black-box:
``core.aten_std``/``aten_var`` and their ``_mean``/``_dim``/``_correction`` forms (torch
decomposes these overloads, so they are not registered), ``aten_hstack``/``aten_vstack``
(which fail on 0.7.2), ``common.cast_to``/``constant``/``merge_dims``/``Rank``/``IsScalar``;
eagerly on arrays and traced by torch.onnx in a translation of the user's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from onnxscript import opset18 as op  # noqa: E402
from onnxscript.function_libs.torch_lib.ops import common, core  # noqa: E402

X = np.arange(12, dtype=np.float32).reshape(3, 4) ** 1.5
T = torch.from_numpy(X)

STATISTICS: list[tuple[str, Callable[[Any], Any], Callable[[Any], Any]]] = [
    ("std", lambda x: core.aten_std(x), lambda t: torch.std(t)),
    ("std biased", lambda x: core.aten_std(x, False), lambda t: torch.std(t, unbiased=False)),
    (
        "std_dim",
        lambda x: core.aten_std_dim(x, [1], True, True),
        lambda t: torch.std(t, [1], unbiased=True, keepdim=True),
    ),
    (
        "std_correction",
        lambda x: core.aten_std_correction(x, [0], 0.0),
        lambda t: torch.std(t, [0], correction=0),
    ),
    ("var", lambda x: core.aten_var(x), lambda t: torch.var(t)),
    (
        "var_dim",
        lambda x: core.aten_var_dim(x, [0], False),
        lambda t: torch.var(t, [0], unbiased=False),
    ),
    (
        "var_correction None",
        lambda x: core.aten_var_correction(x, None, None),
        lambda t: torch.var(t),
    ),
    (
        "var_correction",
        lambda x: core.aten_var_correction(x, [1], 2.0, True),
        lambda t: torch.var(t, [1], correction=2, keepdim=True),
    ),
    ("var_mean", lambda x: core.aten_var_mean(x), lambda t: torch.var_mean(t)),
    (
        "var_mean_dim",
        lambda x: core.aten_var_mean_dim(x, [1], False, True),
        lambda t: torch.var_mean(t, [1], unbiased=False, keepdim=True),
    ),
    (
        "var_mean_correction",
        lambda x: core.aten_var_mean_correction(x, [0], 0.5),
        lambda t: torch.var_mean(t, [0], correction=0.5),
    ),
    (
        "std_mean",
        lambda x: core.aten_std_mean(x, False),
        lambda t: torch.std_mean(t, unbiased=False),
    ),
    (
        "std_mean_dim",
        lambda x: core.aten_std_mean_dim(x, [0]),
        lambda t: torch.std_mean(t, [0]),
    ),
    (
        "std_mean_correction",
        lambda x: core.aten_std_mean_correction(x, None, 1.0, True),
        lambda t: torch.std_mean(t, correction=1, keepdim=True),
    ),
]


def _pair(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, tuple) else (value,)


@pytest.mark.parametrize(("name", "ours", "reference"), STATISTICS, ids=[s[0] for s in STATISTICS])
def test_statistics_eagerly(name: str, ours: Callable, reference: Callable):
    got, expected = _pair(ours(X)), _pair(reference(T))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(np.asarray(g), e.numpy(), rtol=1e-5)


def test_stacks_eagerly():
    a, b = np.arange(3, dtype=np.float32), np.arange(3, 6, dtype=np.float32)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    np.testing.assert_array_equal(core.aten_hstack([a, b]), torch.hstack([ta, tb]).numpy())
    np.testing.assert_array_equal(core.aten_vstack([a, b]), torch.vstack([ta, tb]).numpy())
    np.testing.assert_array_equal(core.aten_hstack([X, X]), torch.hstack([T, T]).numpy())
    np.testing.assert_array_equal(core.aten_vstack([X, X]), torch.vstack([T, T]).numpy())
    scalar = np.float32(2.0)
    np.testing.assert_array_equal(core.aten_hstack([scalar, a]), [2.0, 0.0, 1.0, 2.0])


def _export_relu_as(translation: Callable[[Any], Any], x: torch.Tensor) -> np.ndarray:
    """Export ``relu(x)`` (first dim dynamic) with ``translation`` standing for relu (its
    input is the FX node's, whose shape torch.onnx gives; values made inside have none)
    and run the model in onnxruntime."""
    import onnxruntime as ort

    class Relu(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.relu(x)

    def relu(self: Any) -> Any:
        return translation(self)

    program = torch.onnx.export(
        Relu().eval(),
        (x,),
        dynamo=True,
        custom_translation_table={torch.ops.aten.relu.default: relu},
        dynamic_shapes=({0: torch.export.Dim("n")},),
        optimize=False,
        verbose=False,
    )
    session = ort.InferenceSession(program.model_proto.SerializeToString())
    return session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]


TRACED: list[tuple[str, Callable[[Any], Any], Callable[[Any], Any]]] = [
    ("std", lambda s: op.Add(s, core.aten_std(s)), lambda t: t + torch.std(t)),
    (
        "var_mean_dim",
        lambda s: op.Add(op.Mul(s, 0.0), op.Mul(*core.aten_var_mean_dim(s, [1], True, True))),
        lambda t: torch.zeros_like(t) + torch.mul(*torch.var_mean(t, [1], keepdim=True)),
    ),
    (
        "std_correction",
        lambda s: op.Sub(s, core.aten_std_correction(s, [0], 0.0, True)),
        lambda t: t - torch.std(t, [0], correction=0, keepdim=True),
    ),
    (
        "hstack",
        lambda s: op.Sub(
            op.Slice(core.aten_hstack([s, s]), [4], [8], [1]), op.Slice(s, [0], [4], [1])
        ),
        lambda t: torch.zeros_like(t),
    ),
    (
        "vstack",
        lambda s: op.Add(op.Mul(s, 0.0), op.ReduceSum(core.aten_vstack([s, s]), [0], keepdims=0)),
        lambda t: torch.zeros_like(t) + 2 * t.sum(0),
    ),
    ("cast_to", lambda s: common.cast_to(op.Cast(s, to=7), 1), lambda t: t.long().float()),
    (
        "merge_dims",
        lambda s: op.Add(
            s, op.Expand(op.CastLike(0.0, s), common.merge_dims([op.Shape(s, start=0, end=1), 4]))
        ),
        lambda t: t,
    ),
    (
        "constant",
        lambda s: op.Mul(s, common.constant(2.0, 1)),
        lambda t: t * 2,
    ),
    (
        "Rank and IsScalar",
        lambda s: op.Add(
            s, op.Add(op.CastLike(common.Rank(s), s), op.CastLike(common.IsScalar(s), s))
        ),
        lambda t: t + 2,
    ),
]


@pytest.mark.parametrize(("name", "ours", "reference"), TRACED, ids=[s[0] for s in TRACED])
def test_traced_by_torch_onnx(name: str, ours: Callable, reference: Callable):
    x = torch.from_numpy(np.arange(20, dtype=np.float32).reshape(5, 4) / 3)
    got = _export_relu_as(ours, x)
    np.testing.assert_allclose(got, reference(x).numpy(), rtol=1e-5, atol=1e-5)


def test_cast_to_a_complex_type_gives_the_pair_layout():
    pairs = np.asarray(common.cast_to(X, 14))
    assert pairs.shape == (3, 4, 2) and pairs.dtype == np.float32
    np.testing.assert_array_equal(pairs[..., 0], X)
    np.testing.assert_array_equal(pairs[..., 1], 0)
    assert np.asarray(common.cast_to(X, 15)).dtype == np.float64


def test_constant_merge_dims_rank_and_is_scalar_eagerly():
    assert np.asarray(common.constant(3, 7)).dtype == np.int64
    np.testing.assert_array_equal(common.constant(np.array([1.0, 2.0], np.float32), 1), [1, 2])
    np.testing.assert_array_equal(common.merge_dims([1, 2, 3]), [1, 2, 3])
    np.testing.assert_array_equal(common.merge_dims([np.array([2]), np.int64(5), 3]), [2, 5, 3])
    assert int(common.Rank(X)) == 2
    assert not bool(common.IsScalar(X)) and bool(common.IsScalar(np.float32(1.0)))
    assert common.Rank.to_function_proto().domain == "pkg.onnxscript.torch_lib.common"
