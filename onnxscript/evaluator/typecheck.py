"""Checks of eager input values against what an op schema or a script function accepts.

Run when a backend prepares a new runner (once per op and input types), so a mistyped
input gets a ``TypeError`` that names the op, the parameter, the value and what the
schema accepts, instead of a runtime error about a one-node model the user never wrote.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from onnxscript.dtypes import dtype_name, numpy_dtype, onnx_dtype, type_string
from onnxscript.errors import InputTypeError
from onnxscript.evaluator.op_call import OpCall
from onnxscript.evaluator.tensor import describe


def value_type_string(value: Any) -> str:
    """The schema type string of an eager value: ``tensor(float)``, ``seq(tensor(int64))``."""
    if isinstance(value, np.ndarray):
        return type_string(onnx_dtype(value.dtype))
    if isinstance(value, list):
        if not value:
            elem_type = getattr(value, "elem_type", None)
            return f"seq({type_string(elem_type)})" if elem_type else "seq(?)"
        return f"seq({value_type_string(value[0])})"
    return "?"


def _accepted(allowed: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(allowed[:limit])
    if len(allowed) > limit:
        shown += f", ... ({len(allowed)} types)"
    return shown


def check_op_inputs(call: OpCall, inputs: Sequence[Any]) -> None:
    """Raise :class:`InputTypeError` if an input's type does not fit ``call``'s schema."""
    schema = call.schema
    if schema is None or not schema.inputs:
        return
    formals = schema.inputs
    constraints = {c.type_param_str: list(c.allowed_type_strs) for c in schema.type_constraints}
    bound: dict[str, tuple[str, str]] = {}
    for slot, value in enumerate(inputs):
        if value is None:
            continue
        formal = formals[min(slot, len(formals) - 1)]
        actual = value_type_string(value)
        type_str = formal.type_str
        allowed = constraints.get(type_str, [type_str])
        name = formal.name
        if actual not in allowed:
            var = f" ({type_str})" if type_str in constraints else ""
            raise InputTypeError(
                f"{call.op_type}(): input {name!r} got {describe(value)}, which is {actual}; "
                f"{call.label} accepts {_accepted(allowed)}{var} for {name!r}"
            )
        if type_str in constraints and formal.is_homogeneous:
            previous = bound.get(type_str)
            if previous is not None and previous[0] != actual:
                raise InputTypeError(
                    f"{call.op_type}(): input {name!r} got {describe(value)}, which is "
                    f"{actual}, but input {previous[1]!r} is {previous[0]}; {call.label} "
                    f"needs the same type for both (type {type_str}); cast one of them"
                )
            bound[type_str] = (actual, name)


def check_function_input(
    function_name: str, param: str, value: Any, dtype: int | None, shape: Any
) -> None:
    """Raise :class:`InputTypeError` if ``value`` does not fit a script function's input
    annotation (element type ``dtype``; ``shape`` a tuple of dims, or ``None``)."""
    if not isinstance(value, np.ndarray):
        return
    if dtype:
        actual = onnx_dtype(value.dtype)
        if actual != dtype:
            expected = numpy_dtype(dtype)
            raise InputTypeError(
                f"{function_name}(): input {param!r} got {describe(value)}, but its annotation "
                f"accepts {_type_text(dtype, shape)} (numpy {expected}); convert it, e.g. "
                f"x.astype(np.{expected})"
            )
    if isinstance(shape, tuple):
        if value.ndim != len(shape):
            raise InputTypeError(
                f"{function_name}(): input {param!r} got {describe(value)}, but its annotation "
                f"{_type_text(dtype, shape)} has rank {len(shape)}"
            )
        for axis, (dim, size) in enumerate(zip(shape, value.shape, strict=False)):
            if isinstance(dim, int) and dim != size:
                raise InputTypeError(
                    f"{function_name}(): input {param!r} got {describe(value)}, but its "
                    f"annotation {_type_text(dtype, shape)} fixes dimension {axis} to {dim}"
                )


def _type_text(dtype: int | None, shape: Any) -> str:
    name = dtype_name(dtype) if dtype else "TENSOR"
    if shape is None:
        return f"{name}[...]"
    if not shape:
        return f"{name} (a scalar)"
    return f"{name}[{', '.join(repr(d) if d is not None else 'None' for d in shape)}]"
