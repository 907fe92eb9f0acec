"""Overloads registered for 0.7.2's breadth that torch keeps out of exported graphs
(TorchScript scalar forms, views torch decomposes while tracing, data-dependent results,
constants it folds): run eagerly on arrays against numpy; and the list forms torch does keep
(``concatenate``, ``atleast_nd.Sequence``), exported with a dynamic dim."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript.function_libs.torch_lib.aten import complex as complex_ops
from onnxscript.function_libs.torch_lib.aten import elementwise, shape

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

A = np.arange(6, dtype=np.float32).reshape(2, 3)


def test_scalar_forms_compute_on_numbers():
    assert elementwise.mul_scalars(np.float32(3), np.float32(2)) == 6
    assert bool(elementwise.eq_scalars(np.int64(3), np.int64(3)))
    assert not bool(elementwise.ne_scalars(np.int64(3), np.int64(3)))


@pytest.mark.parametrize(
    ("function", "value", "dtype"),
    [
        (elementwise.tensor_int, 3, np.int64),
        (elementwise.tensor_float, 2.5, np.float32),
        (elementwise.tensor_bool, True, np.bool_),
    ],
)
def test_tensor_of_a_number_has_torchs_default_type(function, value, dtype):
    result = np.asarray(function(value))
    assert result.shape == () and result.dtype == dtype and result == value


def test_tensor_of_a_number_takes_a_dtype():
    assert np.asarray(elementwise.tensor_float(2.5, dtype=11)).dtype == np.float64


def test_matrix_transposes():
    np.testing.assert_array_equal(shape.matrix_transpose(A), A.T)
    np.testing.assert_array_equal(shape.matrix_adjoint(A), A.T)
    np.testing.assert_array_equal(elementwise.conj(A), A)


def test_complex_adjoint_conjugates_the_transpose():
    z = np.random.default_rng(0).random((2, 3, 2), dtype=np.float32)
    expected = np.stack([z[..., 0].T, -z[..., 1].T], axis=-1)
    np.testing.assert_array_equal(complex_ops.matrix_adjoint(z), expected)
    np.testing.assert_array_equal(complex_ops.matrix_transpose(z), z.transpose(1, 0, 2))


def test_data_dependent_booleans():
    assert bool(elementwise.equal(A, A.copy()))
    assert not bool(elementwise.equal(A, A + 1))
    assert bool(elementwise.allclose(A, A + 1e-9))
    assert not bool(elementwise.allclose(A, A + 1))
    assert bool(elementwise.allclose(np.array([np.nan]), np.array([np.nan]), equal_nan=True))
    assert not bool(elementwise.is_nonzero(np.zeros(1, np.float32)))
    assert bool(elementwise.is_nonzero(np.array([[2]])))


def test_where_of_two_numbers_promotes_like_torch():
    result = np.asarray(elementwise.where_scalars(np.array([True, False]), 1.5, 2))
    np.testing.assert_array_equal(result, [1.5, 2.0])
    assert result.dtype == np.float32
    ints = np.asarray(elementwise.where_scalars(np.array([True, False]), 1, 2))
    assert ints.dtype == np.int64


def test_atleast_and_split_list():
    shapes = [np.shape(t) for t in shape.atleast_3d_sequence([np.float32(1), A[0], A])]
    assert shapes == [(1, 1, 1), (1, 3, 1), (2, 3, 1)]
    assert np.shape(shape.atleast_2d(A[0])) == (1, 3)
    assert np.shape(shape.atleast_1d(np.float32(2))) == (1,)
    parts = shape.split_sizes(A, [1, 2], 1)
    np.testing.assert_array_equal(parts[1], A[:, 1:])


def test_getitem_of_a_sequence():
    np.testing.assert_array_equal(shape.getitem([A, A + 1], 1), A + 1)


torch = pytest.importorskip("torch")


class _Lists(torch.nn.Module):
    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        a, b = torch.ops.aten.atleast_2d.Sequence([x, y])
        return torch.ops.aten.concatenate([a, b], 1)


def test_list_forms_export_with_a_dynamic_dim():
    import onnxruntime

    x, y = torch.randn(3, 2), torch.randn(3, 4)
    batch = torch.export.Dim("batch")
    program = torch.onnx.export(
        _Lists().eval(), (x, y), dynamo=True, dynamic_shapes=({0: batch}, {0: batch}), verbose=False
    )
    assert program is not None and program.exported_program is not None
    called = {
        str(n.target) for n in program.exported_program.graph.nodes if n.op == "call_function"
    }
    assert {"aten.atleast_2d.Sequence", "aten.concatenate.default"} <= called, called
    session = onnxruntime.InferenceSession(program.model_proto.SerializeToString())
    for rows in (3, 5):
        a, b = torch.randn(rows, 2), torch.randn(rows, 4)
        (got,) = session.run(None, {"x": a.numpy(), "y": b.numpy()})
        np.testing.assert_allclose(got, torch.cat([a, b], 1).numpy())
