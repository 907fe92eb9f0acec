"""onnxscript 0.7's ``onnxscript.utils.evaluation_utils``: the data of a backend-test folder
(``test_data_set_0/input_<i>.pb``, ``output_<i>.pb``) and random inputs for a model."""

from __future__ import annotations

import pathlib
from typing import Any

import numpy as np
import onnx
import onnx.numpy_helper


def _numbered(folder: pathlib.Path, prefix: str) -> list[pathlib.Path]:
    """``<prefix>_<i>.pb`` files of ``folder``, in the order of ``i``."""
    found = []
    for path in folder.glob(f"{prefix}_*.pb"):
        index = path.stem.removeprefix(f"{prefix}_")
        if index.isdigit():
            found.append((int(index), path))
    return [path for _, path in sorted(found)]


def _read_tensor(path: pathlib.Path) -> np.ndarray[Any, Any]:
    return onnx.numpy_helper.to_array(onnx.load_tensor(str(path)))


def load_test_data(
    qual_model_dir: str, input_names: list[str]
) -> tuple[dict[str, np.ndarray[Any, Any]], list[np.ndarray[Any, Any]]]:
    """The inputs (by the given names, in file order) and expected outputs of the first
    data set in ``qual_model_dir/test_data_set_0`` (tensors). AssertionError when the
    folder has fewer input files than names, IndexError when it has more."""
    data = pathlib.Path(qual_model_dir) / "test_data_set_0"
    inputs: dict[str, np.ndarray[Any, Any]] = {}
    for index, path in enumerate(_numbered(data, "input")):
        inputs[input_names[index]] = _read_tensor(path)
    assert len(inputs) == len(input_names), "Some inputs are missing."
    outputs = [_read_tensor(path) for path in _numbered(data, "output")]
    return inputs, outputs


def generate_random_input(model: onnx.ModelProto) -> dict[str, np.ndarray[Any, Any]]:
    """Random values for every input of the main graph (those with an initializer too),
    from numpy's global generator: floats uniform in [-0.5, 0.5), integers in [3, 100),
    booleans either way. A dimension that is not a number is 0. Other element types:
    TypeError."""
    inputs: dict[str, np.ndarray[Any, Any]] = {}
    for value in model.graph.input:
        tensor = value.type.tensor_type
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        shape = tuple(d.dim_value if d.HasField("dim_value") else 0 for d in tensor.shape.dim)
        if np.issubdtype(dtype, np.floating):
            inputs[value.name] = np.asarray(np.random.rand(*shape)).astype(dtype) - dtype.type(0.5)
        elif np.issubdtype(dtype, np.integer):
            inputs[value.name] = np.random.randint(3, 100, size=shape, dtype=dtype)
        elif dtype == np.bool_:
            inputs[value.name] = np.random.randint(0, 2, size=shape).astype(np.bool_)
        else:
            raise TypeError(f"Unsupported dtype {dtype!r} for random input {value.name!r}")
    return inputs


__all__ = ["generate_random_input", "load_test_data"]
