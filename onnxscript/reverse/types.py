"""Type annotations (``FLOAT["N", 3]``, ``list[INT64[...]]``) for ONNX ``TypeProto``s.

Annotations only exist for tensors and sequences of tensors; other types (optionals, maps,
nested sequences) are written as ``onnx.helper`` calls that build the ``TypeProto``.
"""

from __future__ import annotations

import onnx

from onnxscript.onnx_types import TYPES_BY_DTYPE
from onnxscript.reverse.literals import string

# The annotation classes that ``onnxscript`` exports (``FLOAT``, ...), by ONNX data type code.
DTYPE_NAMES: dict[int, str] = {code: cls.__name__ for code, cls in TYPES_BY_DTYPE.items()}


class Imports:
    """The names from ``onnxscript`` (and the modules) that emitted code uses."""

    __slots__ = ("constant_opsets", "modules", "names", "opsets")

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.modules: set[str] = set()
        self.opsets: set[str] = set()
        # Opsets used only for the Constant statements of initializers (imported, but not
        # needed by the compiled model).
        self.constant_opsets: set[str] = set()

    def dtype(self, code: int) -> str:
        name = DTYPE_NAMES[code]
        self.names.add(name)
        return name


def _dims(shape: onnx.TensorShapeProto) -> str:
    parts = []
    for dim in shape.dim:
        if dim.HasField("dim_value"):
            parts.append(str(dim.dim_value))
        elif dim.HasField("dim_param"):
            parts.append(string(dim.dim_param))
        else:
            parts.append("None")
    return ", ".join(parts)


def annotation(t: onnx.TypeProto, imports: Imports) -> str | None:
    """The annotation for ``t``, or ``None`` when no annotation expresses it exactly."""
    which = t.WhichOneof("value")
    if which == "tensor_type":
        tt = t.tensor_type
        if tt.elem_type not in DTYPE_NAMES:
            return None
        name = imports.dtype(tt.elem_type)
        if not tt.HasField("shape"):
            return f"{name}[...]"
        if not tt.shape.dim:
            return name
        return f"{name}[{_dims(tt.shape)}]"
    if which == "sequence_type":
        elem = t.sequence_type.elem_type
        if elem.WhichOneof("value") != "tensor_type":
            return None
        inner = annotation(elem, imports)
        return None if inner is None else f"list[{inner}]"
    return None


def type_expression(t: onnx.TypeProto, imports: Imports) -> str:
    """A Python expression that builds ``t`` with ``onnx.helper``."""
    imports.modules.add("onnx")
    which = t.WhichOneof("value")
    if which == "tensor_type" or which == "sparse_tensor_type":
        tt = t.tensor_type if which == "tensor_type" else t.sparse_tensor_type
        shape = f"[{_dims(tt.shape)}]" if tt.HasField("shape") else "None"
        fn = "make_tensor_type_proto" if which == "tensor_type" else "make_sparse_tensor_type_proto"
        return f"onnx.helper.{fn}({tt.elem_type}, {shape})"
    if which == "sequence_type":
        inner = type_expression(t.sequence_type.elem_type, imports)
        return f"onnx.helper.make_sequence_type_proto({inner})"
    if which == "optional_type":
        inner = type_expression(t.optional_type.elem_type, imports)
        return f"onnx.helper.make_optional_type_proto({inner})"
    if which == "map_type":
        inner = type_expression(t.map_type.value_type, imports)
        return f"onnx.helper.make_map_type_proto({t.map_type.key_type}, {inner})"
    return "onnx.TypeProto()"


def has_type(t: onnx.TypeProto) -> bool:
    """Whether ``t`` says anything (an untyped value has an empty ``TypeProto``)."""
    return t.WhichOneof("value") is not None
