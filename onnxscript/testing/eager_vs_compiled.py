"""Asserting that a script function's eager result equals its compiled model's result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx

from onnxscript.testing.values import first_mismatch, run_model
from onnxscript.values import OnnxFunction


def _as_list(result: Any) -> list[Any]:
    return list(result) if isinstance(result, tuple) else [result]


def _feed(value: Any, value_info: onnx.ValueInfoProto) -> Any:
    """An input value as onnxruntime takes it, typed like the model input when the value is
    a Python literal (the compiled model has a fixed element type there)."""
    if hasattr(value, "numpy") and callable(value.numpy):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    if isinstance(value, list) and value_info.type.HasField("sequence_type"):
        return [_feed(v, onnx.ValueInfoProto()) for v in value]
    elem = value_info.type.tensor_type.elem_type if value_info.type.HasField("tensor_type") else 0
    array = np.asarray(value)
    if elem:
        array = array.astype(onnx.helper.tensor_dtype_to_np_dtype(elem))
    elif array.dtype.kind == "f":
        array = array.astype(np.float32)
    return array


def compiled_outputs(
    fn: OnnxFunction, *args: Any, model_options: Mapping[str, Any] | None = None, **kwargs: Any
) -> list[Any]:
    """Run ``fn``'s model (checked with the full onnx checker) with onnxruntime.

    Inputs are given as for an eager call: by position or keyword; attribute values are
    bound into the model. ``model_options`` go to ``to_model_proto`` (``input_types``, ...).
    """
    from onnxscript.language.binding import bind

    bound = bind(fn.call_signature, args, kwargs)
    model = fn.to_model_proto(**{**(model_options or {}), **bound.attributes})
    onnx.checker.check_model(model, full_check=True)
    feeds = [_feed(v, vi) for vi, v in zip(model.graph.input, bound.inputs, strict=False)]
    return run_model(model, feeds)


def assert_same_values(
    actual: Sequence[Any],
    expected: Sequence[Any],
    rtol: float = 1e-5,
    atol: float = 1e-6,
    what: str = "eager",
) -> None:
    """``actual`` and ``expected`` (lists of outputs) agree in count, element type, shape and
    values (floats within tolerance, NaN equal to NaN; everything else exactly); see
    :func:`onnxscript.testing.values.first_mismatch`."""
    found = first_mismatch(actual, expected, rtol, atol, names=(what, "compiled"))
    if found is not None:
        raise AssertionError(found)


def assert_eager_matches_compiled(
    fn: OnnxFunction,
    *args: Any,
    rtol: float = 1e-5,
    atol: float = 1e-6,
    model_options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> tuple[list[Any], list[Any]]:
    """Call ``fn(*args, **kwargs)`` eagerly and run its compiled model on the same inputs;
    assert the outputs agree. Returns (eager outputs, compiled outputs). ``model_options``
    go to ``to_model_proto`` (for example ``input_types``/``output_types`` for a function
    whose annotations leave shapes open)."""
    eager = _as_list(fn(*args, **kwargs))
    compiled = compiled_outputs(fn, *args, model_options=model_options, **kwargs)
    assert_same_values(eager, compiled, rtol, atol)
    return eager, compiled
