"""Emitting IR nodes into a graph, with constants shared within a graph and its subgraphs."""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np
import onnx

from onnxscript import dtypes, schemas
from onnxscript.converter import type_checks, type_inference
from onnxscript.errors import AttributeValueError
from onnxscript.language.attributes import AT, infer_kind, tensor_from_value
from onnxscript.language.binding import Signature, signature_for
from onnxscript.language.literals import INT64_MAX, INT64_MIN, python_to_array
from onnxscript.program.graph import Attr, Graph, Node, SourceLocation, Value
from onnxscript.source import SourceText
from onnxscript.value_types import element_type


@functools.lru_cache(maxsize=1024, typed=True)  # 1 and True must not share a name
def _scalar_hint(item: float | int | bool) -> str:
    """A readable name for a scalar constant: ``c2``, ``c0_5``, ``c_neg1``, ``true``."""
    if isinstance(item, bool):
        return "true" if item else "false"
    text = repr(item).replace("-", "neg").replace(".", "_").replace("+", "")
    if _HINT_TEXT.fullmatch(text):
        return f"c{text}" if text[0].isdigit() else f"c_{text}"
    return "const"


_HINT_TEXT = re.compile(r"[0-9a-z_]{1,12}")


def _const_hint(array: np.ndarray) -> str:
    if array.ndim == 0 and array.dtype.kind in "biuf":
        return _scalar_hint(array.item())
    return "const"


class OpsetUser(Protocol):
    """What a builder needs from the function being compiled."""

    @property
    def source(self) -> SourceText: ...

    def default_opset_version(self) -> int: ...


class GraphEmitter:
    """Appends nodes to one graph. ``parent`` is the builder of the enclosing graph.

    Nodes the converter adds on its own (``Add`` for ``+``, ``Slice`` for ``x[1:]``, ...)
    use the function's default ai.onnx opset, which ``ctx`` provides.
    """

    def __init__(self, graph: Graph, ctx: OpsetUser, parent: GraphEmitter | None = None) -> None:
        self.graph = graph
        self.ctx = ctx
        self.parent = parent
        self._constants: dict[tuple[Any, ...], Value] = {}
        self._produced: set[Value] = set()
        self._inputs: set[Value] = set()
        # Nodes a subgraph needs before its first statement (an else branch that only keeps
        # a value) come from the statement that made the subgraph.
        self.origin: ast.AST | None = parent.origin if parent is not None else None
        self._located: ast.AST | None = None
        self._last_location: SourceLocation | None = None

    def _location(self) -> SourceLocation | None:
        origin = self.origin
        if origin is self._located:  # several nodes often come from one expression
            return self._last_location
        line = getattr(origin, "lineno", None)
        location = None
        if line is not None:
            source = self.ctx.source
            location = SourceLocation(
                source.filename,
                line + source.line_offset,
                source.column(origin),  # type: ignore[arg-type]
                source.function,
            )
        self._located, self._last_location = origin, location
        return location

    def add_input(self, value: Value) -> None:
        """Make ``value`` an input of this graph."""
        self.graph.inputs.append(value)
        self._inputs.add(value)

    def produces(self, value: Value) -> bool:
        """Whether a node of this graph computes ``value``."""
        return value in self._produced

    def sees(self, value: Value) -> bool:
        """Whether ``value`` can be read in this graph (defined here or in an outer graph)."""
        builder: GraphEmitter | None = self
        while builder is not None:
            if value in builder._produced or value in builder._inputs:
                return True
            builder = builder.parent
        return False

    def emit(
        self,
        op_type: str,
        inputs: Sequence[Value | None],
        attrs: Sequence[Attr] = (),
        *,
        domain: str = "",
        n_outputs: int = 1,
        hints: Sequence[str] = (),
        sig: Signature | None = None,
        attr_values: Mapping[str, Any] | None = None,
    ) -> list[Value]:
        """Add a node and return its output values (typed when the schema tells)."""
        if n_outputs == 1:
            outputs = [Value(hints[0] if hints else "tmp")]
        else:
            outputs = [
                Value(hints[i] if i < len(hints) else (hints[-1] if hints else "tmp"))
                for i in range(n_outputs)
            ]
        if sig is not None and not sig.free_form and (not domain or schemas.has_schemas(domain)):
            self._check_types(op_type, domain, sig, inputs, attrs, attr_values, n_outputs)
        if sig is not None or not domain:
            if attr_values is None:
                # Only standard ops read attribute values for their output types (Cast, ...).
                attr_values = (
                    {a.name: a.value for a in attrs if a.ref is None}
                    if attrs and not domain
                    else {}
                )
            inferred = type_inference.infer_output_types(
                op_type, domain, sig, inputs, attr_values, n_outputs
            )
            for value, (dtype, partner) in zip(outputs, inferred):
                if dtype is not None:
                    value.type = element_type(dtype)
                elif partner is not None:
                    value.same_type_as = partner
        self.graph.nodes.append(
            Node(
                op_type,
                domain,
                inputs if type(inputs) is list else list(inputs),
                outputs,
                attrs if type(attrs) is list else list(attrs),
                "",
                "",
                "",
                self._location(),
            )
        )
        self._produced.update(outputs)
        return outputs

    def _check_types(
        self,
        op_type: str,
        domain: str,
        sig: Signature,
        inputs: Sequence[Value | None],
        attrs: Sequence[Attr],
        attr_values: Mapping[str, Any] | None,
        n_outputs: int,
    ) -> None:
        """A located ScriptError when the schema refuses an input's element type (or an
        element-type attribute, or the output count an attribute fixes)."""
        problem = type_checks.input_problem(op_type, domain, self.origin, sig, inputs)
        if problem is None and op_type in type_checks.ATTRIBUTE_CHECKED_OPS:
            values = attr_values
            if values is None:
                values = {a.name: a.value for a in attrs if a.ref is None}
            problem = type_checks.attribute_problem(op_type, sig, values, n_outputs)
        if problem is not None:
            raise self.ctx.source.error(self.origin, problem.message, problem.hint)

    def emit1(self, op_type: str, *inputs: Value | None, hint: str = "tmp", **attrs: Any) -> Value:
        """Add a standard-domain node with one output and plain attribute values."""
        attr_list = []
        for key, value in attrs.items():
            kind = infer_kind(value)
            if kind is None:
                raise TypeError(f"cannot infer attribute kind of {key}={value!r}")
            if kind == AT.TENSOR:
                value = tensor_from_value(value)
            attr_list.append(Attr(key, kind, value))
        return self.emit(
            op_type,
            list(inputs),
            attr_list,
            hints=[hint],
            sig=signature_for("", op_type, self.ctx.default_opset_version()),
            attr_values=attrs,
        )[0]

    def _scalar_constant(
        self, value: float | int | bool, code: int, field: tuple[str, type], hint: str | None
    ) -> Value:
        """A scalar constant made without numpy (the common case of literals)."""
        converted = field[1](value)
        key = (code, (), converted, hint)
        found = self._find_constant(key)
        if found is not None:
            return found
        self.ctx.default_opset_version()
        tensor = onnx.TensorProto()
        tensor.data_type = code
        getattr(tensor, field[0]).append(converted)
        if hint is None:
            hint = _scalar_hint(bool(value) if code == dtypes.BOOL else converted)
        out = self.emit(
            "Constant",
            [],
            [Attr("value", AT.TENSOR, tensor)],
            hints=[hint],
            attr_values={"value": tensor},
        )[0]
        self._constants[key] = out
        return out

    def _find_constant(self, key: tuple[Any, ...]) -> Value | None:
        builder: GraphEmitter | None = self
        while builder is not None:
            found = builder._constants.get(key)
            if found is not None:
                return found
            builder = builder.parent
        return None

    def constant(self, value: Any, dtype: int | None = None, hint: str | None = None) -> Value:
        """A ``Constant`` node for a Python/numpy value, reused within the graph and its
        subgraphs. ``dtype`` converts Python numbers to that element type."""
        kind = type(value)
        if kind is int or kind is float or kind is bool:
            code = dtype if dtype is not None else _DEFAULT_CODES[kind]
            if kind is int and code == dtypes.INT64 and not INT64_MIN <= value <= INT64_MAX:
                raise AttributeValueError(
                    f"the integer {value} does not fit in INT64 (-2**63 to 2**63 - 1)"
                )
            field = _SCALAR_FIELDS.get(code)
            if field is not None:
                return self._scalar_constant(value, code, field, hint)
        if isinstance(value, onnx.TensorProto):
            array = onnx.numpy_helper.to_array(value)
            dtype = value.data_type
        else:
            array = python_to_array(value, dtype)
        if dtype is not None and dtypes.onnx_dtype(array.dtype) != dtype:
            array = array.astype(dtypes.numpy_dtype(dtype))
        code = dtype if dtype is not None else dtypes.onnx_dtype(array.dtype)
        key = (
            code,
            array.shape,
            array.tobytes() if array.dtype != object else repr(array.tolist()),
            hint,
        )
        found = self._find_constant(key)
        if found is not None:
            return found
        self.ctx.default_opset_version()
        if isinstance(value, onnx.TensorProto) and dtype == value.data_type:
            tensor = onnx.TensorProto()
            tensor.CopyFrom(value)
            tensor.name = ""
        else:
            tensor = (
                onnx.helper.make_tensor("", code, array.shape, array.flatten().tolist())
                if array.dtype == object
                else _tensor_of(array, code)
            )
        out = self.emit(
            "Constant",
            [],
            [Attr("value", AT.TENSOR, tensor)],
            hints=[hint or _const_hint(array)],
            attr_values={"value": tensor},
        )[0]
        self._constants[key] = out
        return out


_DEFAULT_CODES = {int: dtypes.INT64, float: dtypes.FLOAT, bool: dtypes.BOOL}
# Element types whose scalars are written without numpy: (TensorProto field, Python type).
_SCALAR_FIELDS: dict[int, tuple[str, type]] = {
    dtypes.FLOAT: ("float_data", float),
    onnx.TensorProto.DOUBLE: ("double_data", float),
    dtypes.INT64: ("int64_data", int),
    onnx.TensorProto.INT32: ("int32_data", int),
    dtypes.BOOL: ("int32_data", int),
}


_RAW_OK = frozenset({dtypes.FLOAT, onnx.TensorProto.DOUBLE, dtypes.INT64, onnx.TensorProto.INT32})


def _tensor_of(array: np.ndarray, code: int) -> onnx.TensorProto:
    order = array.dtype.byteorder
    if code in _RAW_OK and (order == "<" or (order in "=|" and sys.byteorder == "little")):
        # The common numeric types, little-endian: the bytes are the tensor's raw data.
        tensor = onnx.TensorProto()
        tensor.data_type = code
        tensor.dims.extend(array.shape)
        tensor.raw_data = array.tobytes()
        return tensor
    tensor = onnx.numpy_helper.from_array(array)
    if tensor.data_type != code:
        tensor = onnx.helper.make_tensor("", code, array.shape, array.flatten().tolist())
    return tensor
