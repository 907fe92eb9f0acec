"""Tensor inputs with a tensor default: ``def f(X, Bias: FLOAT = op.Constant(value_float=0.0))``.

Python evaluates the default when the ``def`` runs (an eager ``op.Constant`` gives an array),
so the default is data known at compile time. Such an input is optional, as one defaulted
to ``None`` is; the compiled body starts by filling it in::

    Bias = If(OptionalHasElement(Bias), then: Identity(Bias), else: Constant(default))

so that a caller that leaves it out (a function call with fewer inputs, a model run
without it, where the input is ``optional(T)``) gets the default, as an eager call does.
onnxscript 0.7 kept the input required and its default for eager calls only, so that its
compiled function read a missing input. ``OptionalHasElement`` on a tensor (or a missing
input) needs ai.onnx opset 18.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import onnx
import onnx.numpy_helper

from onnxscript import dtypes
from onnxscript.converter.graph_emitter import GraphEmitter
from onnxscript.converter.presence import required_opset
from onnxscript.errors import AttributeValueError
from onnxscript.language.attributes import AT
from onnxscript.language.literals import literal_misfit, python_to_array
from onnxscript.program.graph import Attr, Graph, Value
from onnxscript.value_types import TensorTypeSpec, TypeSpec, element_type

if TYPE_CHECKING:
    from onnxscript.converter.translator import Translator


class InputDefault(NamedTuple):
    """A tensor input (``value``), its default as an array, and the parameter's syntax."""

    value: Value
    array: np.ndarray
    node: ast.arg | ast.FunctionDef


def _as_array(default: Any, dtype: int | None) -> np.ndarray:
    """``default`` as an array; a Python number (or list) takes the declared element type,
    as a literal next to a typed tensor does. Raises AttributeValueError."""
    if isinstance(default, onnx.TensorProto):
        return np.asarray(onnx.numpy_helper.to_array(default))
    inner = getattr(default, "value", None)  # an eager Tensor wraps its array
    if isinstance(inner, (np.ndarray, np.generic)) and not isinstance(default, np.generic):
        default = inner
    if isinstance(default, (np.ndarray, np.generic)):
        return python_to_array(default)
    if isinstance(default, (bool, int, float, str, list, tuple)):
        data = list(default) if isinstance(default, tuple) else default
        fits = dtype is not None and literal_misfit(data, dtype) is None
        return python_to_array(data, dtype if fits else None)
    raise AttributeValueError(
        f"a {type(default).__name__} is not tensor data (use an array, a number or "
        "op.Constant(...))"
    )


def default_array(name: str, default: Any, declared: TypeSpec | None) -> np.ndarray:
    """The default of the tensor input ``name`` as an array of its declared element type,
    or an AttributeValueError saying what to write instead."""
    dtype = declared.dtype if isinstance(declared, TensorTypeSpec) else None
    if declared is not None and not isinstance(declared, TensorTypeSpec):
        raise AttributeValueError(
            f"input {name!r} is not a tensor, so it cannot have a tensor default"
        )
    array = _as_array(default, dtype)
    found = dtypes.onnx_dtype(array.dtype)
    if dtype is not None and found != dtype:
        wanted = dtypes.dtype_name(dtype)
        raise AttributeValueError(
            f"the default of {name!r} has element type {dtypes.dtype_name(found)}, but its "
            f"annotation declares {wanted}: the compiled If would give two element types "
            f"(give a {wanted} default, e.g. np.array(..., dtype=np.{array_dtype(dtype)}))"
        )
    return array


def array_dtype(dtype: int) -> str:
    """numpy's name of an element type (``float32`` for FLOAT), for hints."""
    return str(np.dtype(dtypes.numpy_dtype(dtype)))


def fill_defaults(t: Translator, defaults: Sequence[InputDefault]) -> None:
    """Start the body with the ``If`` that fills each defaulted input, and make the
    input's name mean the filled value."""
    for item in defaults:
        version = t.ctx.default_opset_version()
        needed = required_opset(item.value)
        if version < needed:
            raise t.error(
                item.node,
                f"the tensor default of {item.value.hint!r} is filled in with "
                f"OptionalHasElement, which needs ai.onnx opset {needed} or newer (this "
                f"function uses opset {version})",
                f"import opset{needed} (or newer) as op, or default {item.value.hint!r} to "
                "None and test it with `is None`",
            )
        t.env[item.value.hint] = _filled(t, item)


def _filled(t: Translator, item: InputDefault) -> Value:
    builder = t.builder
    builder.origin = item.node
    has = builder.emit1("OptionalHasElement", item.value, hint=f"has_{item.value.hint}")
    given = GraphEmitter(Graph("then_branch"), t.ctx, parent=builder)
    given.graph.outputs = [given.emit1("Identity", item.value, hint=item.value.hint)]
    fallback = GraphEmitter(Graph("else_branch"), t.ctx, parent=builder)
    fallback.graph.outputs = [fallback.constant(item.array, hint=f"{item.value.hint}_default")]
    (out,) = builder.emit(
        "If",
        [has],
        [
            Attr("then_branch", AT.GRAPH, given.graph),
            Attr("else_branch", AT.GRAPH, fallback.graph),
        ],
        hints=[item.value.hint],
    )
    out.type = element_type(dtypes.onnx_dtype(item.array.dtype))
    return out
