"""Python values as ONNX attribute values: kinds, checks and conversions.

Every front end (the converter, with values known at compile time, eager mode and tracing)
uses these, so that all accept and reject the same values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnx.numpy_helper

from onnxscript.errors import AttributeValueError
from onnxscript.language.literals import INT64_MAX, INT64_MIN, python_to_array
from onnxscript.onnx_types import is_tensor_type

AT = onnx.AttributeProto

KIND_NAMES: dict[int, str] = {
    AT.FLOAT: "float",
    AT.INT: "int",
    AT.STRING: "str",
    AT.TENSOR: "tensor",
    AT.GRAPH: "graph",
    AT.SPARSE_TENSOR: "sparse tensor",
    AT.TYPE_PROTO: "type",
    AT.FLOATS: "list[float]",
    AT.INTS: "list[int]",
    AT.STRINGS: "list[str]",
    AT.TENSORS: "list[tensor]",
    AT.GRAPHS: "list[graph]",
    AT.SPARSE_TENSORS: "list[sparse tensor]",
    AT.TYPE_PROTOS: "list[type]",
}

_LIST_OF: dict[int, int] = {
    AT.FLOATS: AT.FLOAT,
    AT.INTS: AT.INT,
    AT.STRINGS: AT.STRING,
    AT.TENSORS: AT.TENSOR,
    AT.GRAPHS: AT.GRAPH,
    AT.SPARSE_TENSORS: AT.SPARSE_TENSOR,
    AT.TYPE_PROTOS: AT.TYPE_PROTO,
}


def kind_name(kind: int) -> str:
    """A readable name for an attribute kind (``"list[int]"``)."""
    return KIND_NAMES.get(kind, f"attribute type {kind}")


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def infer_kind(value: Any) -> int | None:
    """The attribute kind a Python value naturally has, or ``None`` if it has none.

    An empty list has no natural kind; neither has a value that is not attribute data.
    """
    if isinstance(value, (bool, np.bool_)) or _is_int(value):
        return AT.INT
    if is_tensor_type(value):
        return AT.INT
    if isinstance(value, (float, np.floating)):
        return AT.FLOAT
    if isinstance(value, (str, bytes)):
        return AT.STRING
    if isinstance(value, (onnx.TensorProto, np.ndarray)):
        return AT.TENSOR
    if isinstance(value, onnx.SparseTensorProto):
        return AT.SPARSE_TENSOR
    if isinstance(value, onnx.TypeProto):
        return AT.TYPE_PROTO
    if isinstance(value, (list, tuple)) and value:
        kinds = {infer_kind(v) for v in value}
        if kinds == {AT.INT}:
            return AT.INTS
        if kinds <= {AT.INT, AT.FLOAT}:
            return AT.FLOATS
        if kinds == {AT.STRING}:
            return AT.STRINGS
        if kinds == {AT.TENSOR}:
            return AT.TENSORS
    return None


def tensor_from_value(value: Any, name: str = "") -> onnx.TensorProto:
    """A TensorProto for a Python scalar, list, numpy array or TensorProto.

    Python ``int`` becomes INT64, ``float`` FLOAT, ``bool`` BOOL and ``str`` STRING, as in
    the ``Constant(value=...)`` sugar of the script language.
    """
    if isinstance(value, onnx.TensorProto):
        return value
    array = python_to_array(value)
    tensor = onnx.numpy_helper.from_array(array, name)
    return tensor


def _is_tensor_object(value: Any) -> bool:
    """A tensor of another library that converts itself to numpy (``onnx_ir.Tensor``,
    ``torch.Tensor``): accepted wherever a tensor attribute is."""
    return callable(getattr(value, "numpy", None)) and hasattr(value, "shape")


def coerce(value: Any, kind: int) -> Any:
    """``value`` converted to the Python form of an attribute of ``kind``.

    Raises :class:`AttributeValueError` with a readable message when it does not fit.
    """
    if kind == AT.INT:
        if is_tensor_type(value):
            return int(value.dtype)
        if isinstance(value, (bool, np.bool_)) or _is_int(value):
            number = int(value)
            if not INT64_MIN <= number <= INT64_MAX:
                raise AttributeValueError(
                    f"the integer {number} does not fit in an INT attribute (64 bits)"
                )
            return number
    elif kind == AT.FLOAT:
        if _is_number(value):
            return float(value)
    elif kind == AT.STRING:
        if isinstance(value, (str, bytes)):
            return value
    elif kind == AT.TENSOR:
        if isinstance(value, onnx.TensorProto):
            return value
        if _is_tensor_object(value):
            return tensor_from_value(np.asarray(value.numpy()), getattr(value, "name", "") or "")
        if isinstance(value, (int, float, bool, str, list, tuple, np.ndarray, np.generic)):
            try:
                return tensor_from_value(value)
            except AttributeValueError:
                raise  # says why (an int past INT64, a ragged list, ...)
            except (ValueError, TypeError):
                pass
    elif kind == AT.SPARSE_TENSOR:
        if isinstance(value, onnx.SparseTensorProto):
            return value
    elif kind == AT.TYPE_PROTO:
        if isinstance(value, onnx.TypeProto):
            return value
        if is_tensor_type(value):
            return value.to_type_proto()
    elif kind in _LIST_OF:
        if isinstance(value, (list, tuple)):
            return [coerce(v, _LIST_OF[kind]) for v in value]
        if isinstance(value, np.ndarray) and value.ndim == 1 and kind in (AT.INTS, AT.FLOATS):
            return [coerce(v, _LIST_OF[kind]) for v in value.tolist()]
    elif kind == AT.GRAPH:
        if value is not None and not isinstance(value, _PLAIN_DATA):
            return value  # a nested function, GraphFunction or GraphProto: the caller's
        raise AttributeValueError(
            f"expected a graph (a nested function decorated with @graph()), got {_describe(value)}"
        )
    raise AttributeValueError(f"expected a value of type {kind_name(kind)}, got {_describe(value)}")


_PLAIN_DATA = (bool, int, float, complex, str, bytes, list, tuple, dict, np.ndarray, np.generic)


def _describe(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        inner = ", ".join(sorted({type(v).__name__ for v in value})) or "empty"
        return f"{type(value).__name__} of {inner} {value!r}"
    if isinstance(value, np.ndarray):
        return f"numpy array of {value.dtype} with shape {value.shape}"
    return f"{type(value).__name__} {value!r}"
