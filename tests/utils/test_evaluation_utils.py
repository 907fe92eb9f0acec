"""``onnxscript.utils.evaluation_utils``: a backend-test folder's data and random inputs,
as onnxscript 0.7.2 gives them (the random values are numpy's, drawn in the same order)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
import pytest

from onnxscript.testing import node_tests
from onnxscript.utils.evaluation_utils import generate_random_input, load_test_data


@pytest.fixture(scope="module")
def add_case(tmp_path_factory):
    (folder,) = node_tests.generate(tmp_path_factory.mktemp("node"), {"test_add"})
    return folder


def test_load_test_data_names_the_inputs_in_file_order(add_case):
    inputs, outputs = load_test_data(str(add_case), ["p", "q"])
    case = node_tests.load(add_case)
    (expected_inputs, expected_outputs), *_ = case.data_sets
    assert list(inputs) == ["p", "q"]
    np.testing.assert_array_equal(inputs["p"], expected_inputs[0])
    np.testing.assert_array_equal(inputs["q"], expected_inputs[1])
    assert len(outputs) == 1
    np.testing.assert_array_equal(outputs[0], expected_outputs[0])
    np.testing.assert_array_equal(outputs[0], inputs["p"] + inputs["q"])


def test_load_test_data_with_the_wrong_number_of_names(add_case, tmp_path):
    with pytest.raises(AssertionError, match="Some inputs are missing"):
        load_test_data(str(add_case), ["p", "q", "r"])
    with pytest.raises(IndexError):
        load_test_data(str(add_case), ["p"])
    with pytest.raises(AssertionError, match="Some inputs are missing"):
        load_test_data(str(tmp_path / "none"), ["p"])


def _model(*inputs: tuple[str, int, list[object]]) -> onnx.ModelProto:
    infos = [oh.make_tensor_value_info(n, t, s) for n, t, s in inputs]
    return oh.make_model(oh.make_graph([], "g", infos, []))


def test_random_inputs_are_0_7_2s_values():
    model = _model(
        ("x", 1, [3, 4]), ("y", 7, [5]), ("z", 11, ["N", 2]), ("w", 10, [2]), ("u", 3, [4])
    )
    np.random.seed(0)
    values = generate_random_input(model)
    # drawn by onnxscript 0.7.2 after np.random.seed(0)
    assert values["x"].dtype == np.float32 and values["x"].shape == (3, 4)
    np.testing.assert_allclose(
        values["x"].ravel()[:3], [0.04881352, 0.21518934, 0.10276335], rtol=1e-6
    )
    assert values["y"].tolist() == [91, 84, 40, 28, 80] and values["y"].dtype == np.int64
    assert values["z"].shape == (0, 2) and values["z"].dtype == np.float64
    assert (
        values["w"].tolist() == [-0.16259765625, 0.14794921875] and values["w"].dtype == np.float16
    )
    assert values["u"].tolist() == [83, 22, 72, 97] and values["u"].dtype == np.int8


def test_random_inputs_cover_initialized_inputs_and_run():
    model = _model(("x", 1, [2, 3]))
    model.graph.initializer.append(oh.make_tensor("x", 1, [2, 3], [0.0] * 6))
    assert list(generate_random_input(model)) == ["x"]
    values = [generate_random_input(_model(("x", 7, [1000])))["x"] for _ in range(2)]
    assert all(v.min() >= 3 and v.max() < 100 for v in values)
    floats = generate_random_input(_model(("x", 1, [1000])))["x"]
    assert floats.min() >= -0.5 and floats.max() < 0.5
    with pytest.raises(TypeError):
        generate_random_input(_model(("s", 8, [2])))
