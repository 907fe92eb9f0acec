"""Output comparison and model running shared by every check (onnxscript.testing.values)."""

from __future__ import annotations

import numpy as np
import onnx.helper as oh
import pytest

from onnxscript.testing import first_mismatch, run_model

F32 = np.float32


@pytest.mark.parametrize(
    ("actual", "expected", "message"),
    [
        ([np.zeros(2, F32)], [np.zeros(2, F32), np.zeros(2, F32)], "gives 1 output(s)"),
        ([np.zeros(2)], [np.zeros(2, F32)], "dtype float64"),
        ([np.zeros(3, F32)], [np.zeros(2, F32)], "shape (3,)"),
        ([np.array([1.0, 2.0], F32)], [np.array([1.0, 2.1], F32)], "1 of 2 elements"),
        ([np.array([1, 2])], [np.array([1, 3])], "values differ in 1 of 2"),
        ([np.array(["a", "b"], object)], [np.array(["a", "c"], object)], "values differ"),
        ([[np.zeros(2, F32)]], [[np.zeros(2, F32)] * 2], "sequence of 1"),
        ([[np.zeros(2, F32)]], [np.zeros(2, F32)], "list"),
        ([{1: np.zeros(1, F32)}], [{2: np.zeros(1, F32)}], "same keys"),
        ([None], [np.zeros(1, F32)], "no value"),
        ([np.array([1j], np.complex64)], [np.array([2j], np.complex64)], "values differ"),
    ],
)
def test_differences_are_found_and_described(actual, expected, message):
    found = first_mismatch(actual, expected)
    assert found is not None and message in found


def test_agreeing_outputs():
    values = [
        np.array([np.nan, 1.0], F32),
        [np.arange(3), np.array(["x"], object)],
        {5: np.ones(2, F32)},
        None,
    ]
    near = [np.array([np.nan, 1.0 + 1e-7], F32), *values[1:]]
    assert first_mismatch(near, values) is None
    assert first_mismatch([np.array([1.0], F32)], [np.array([1.1], F32)], rtol=0.2) is None


def test_run_model_feeds_inputs_in_order():
    graph = oh.make_graph(
        [oh.make_node("Sub", ["a", "b"], ["c"])],
        "g",
        [oh.make_tensor_value_info(n, 1, [2]) for n in ("a", "b")],
        [oh.make_tensor_value_info("c", 1, [2])],
    )
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)], ir_version=8)
    (out,) = run_model(model, [np.array([5, 5], F32), np.array([1, 2], F32)])
    np.testing.assert_array_equal(out, [4, 3])


def test_run_model_scalars_defaults_and_too_many_inputs():
    graph = oh.make_graph(
        [oh.make_node("Add", ["w", "x"], ["y"])],
        "g",
        [oh.make_tensor_value_info(n, 1, []) for n in ("w", "x")],
        [oh.make_tensor_value_info("y", 1, [])],
        initializer=[oh.make_tensor("w", 1, [], [10.0])],
    )
    for ir_version in (3, 8):  # before IR 4, an input with a default cannot be fed
        model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 9)], ir_version=ir_version)
        fed = run_model(model, [F32(1), F32(2)])[0]
        assert fed == (3 if ir_version >= 4 else 12)
        with pytest.raises(ValueError, match="3 input values"):
            run_model(model, [F32(1), F32(2), F32(3)])
