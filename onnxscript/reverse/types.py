"""Type annotations (``FLOAT["N", 3]``, ``list[INT64[...]]``) for ONNX ``TypeProto``s.

Annotations only exist for tensors and sequences of tensors; other types (optionals, maps,
nested sequences) are written as ``onnx.helper`` calls that build the ``TypeProto``.
"""

from __future__ import annotations

import onnx

from onnxscript.errors import TranslationError
from onnxscript.onnx_types import TYPES_BY_DTYPE
from onnxscript.reverse.literals import string

# The annotation classes that ``onnxscript`` exports (``FLOAT``, ...), by ONNX data type code.
DTYPE_NAMES: dict[int, str] = {code: cls.__name__ for code, cls in TYPES_BY_DTYPE.items()}


class Imports:
    """The names from ``onnxscript`` (and the modules) that emitted code uses."""

    __slots__ = ("aliases", "constant_opsets", "modules", "names", "np", "onnx", "opsets")

    def __init__(self, aliases: dict[str, str] | None = None) -> None:
        self.names: set[str] = set()
        self.modules: set[str] = set()
        self.opsets: set[str] = set()
        # Opsets used only for the Constant statements of initializers (imported, but not
        # needed by the compiled model).
        self.constant_opsets: set[str] = set()
        # Names the module imports under another name (a function or attribute of the
        # model has the usual one): "np" -> "np_1".
        self.aliases: dict[str, str] = dict(aliases or {})
        self.np = self.aliases.get("np", "np")
        self.onnx = self.aliases.get("onnx", "onnx")

    def name(self, name: str) -> str:
        """Import ``name`` (from ``onnxscript`` or its runtime helpers); how code says it."""
        self.names.add(name)
        return self.aliases.get(name, name)

    def module(self, name: str) -> str:
        """Import the module ``np`` or ``onnx``; how code says it."""
        self.modules.add(name)
        return self.aliases.get(name, name)

    def dtype(self, code: int) -> str:
        return self.name(DTYPE_NAMES[code])


def _dims(shape: onnx.TensorShapeProto) -> str:
    parts = []
    for dim in shape.dim:
        if dim.HasField("dim_value"):
            if dim.dim_value < 0:
                raise TranslationError(
                    f"a shape has the dimension {dim.dim_value}: no tensor has a negative size"
                )
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
    """A Python expression that builds ``t`` with ``onnx.helper`` (denotations included,
    through :func:`onnxscript.reverse.runtime.with_denotations`)."""
    onnx_name = imports.module("onnx")
    which = t.WhichOneof("value")
    dims: onnx.TensorShapeProto | None = None
    if which == "tensor_type" or which == "sparse_tensor_type":
        tt = t.tensor_type if which == "tensor_type" else t.sparse_tensor_type
        shape = f"[{_dims(tt.shape)}]" if tt.HasField("shape") else "None"
        fn = "make_tensor_type_proto" if which == "tensor_type" else "make_sparse_tensor_type_proto"
        text = f"{onnx_name}.helper.{fn}({tt.elem_type}, {shape})"
        dims = tt.shape if tt.HasField("shape") else None
    elif which == "sequence_type":
        inner = type_expression(t.sequence_type.elem_type, imports)
        text = f"{onnx_name}.helper.make_sequence_type_proto({inner})"
    elif which == "optional_type":
        inner = type_expression(t.optional_type.elem_type, imports)
        text = f"{onnx_name}.helper.make_optional_type_proto({inner})"
    elif which == "map_type":
        inner = type_expression(t.map_type.value_type, imports)
        text = f"{onnx_name}.helper.make_map_type_proto({t.map_type.key_type}, {inner})"
    else:
        text = f"{onnx_name}.TypeProto()"
    return _with_denotations(text, t, dims, imports)


def _with_denotations(
    text: str, t: onnx.TypeProto, dims: onnx.TensorShapeProto | None, imports: Imports
) -> str:
    """``text`` wrapped in a call that sets the type's and its dimensions' denotations."""
    args = []
    if t.HasField("denotation"):
        args.append(f"denotation={string(t.denotation)}")
    if dims is not None and any(d.HasField("denotation") for d in dims.dim):
        items = [string(d.denotation) if d.HasField("denotation") else "None" for d in dims.dim]
        args.append(f"dims=[{', '.join(items)}]")
    if not args:
        return text
    return f"{imports.name('with_denotations')}({text}, {', '.join(args)})"


def has_denotation(t: onnx.TypeProto) -> bool:
    """Whether ``t`` (or a type inside it) has a denotation, which annotations cannot give."""
    if t.HasField("denotation"):
        return True
    which = t.WhichOneof("value")
    if which == "tensor_type" or which == "sparse_tensor_type":
        tt = t.tensor_type if which == "tensor_type" else t.sparse_tensor_type
        return any(d.HasField("denotation") for d in tt.shape.dim)
    if which == "sequence_type":
        return has_denotation(t.sequence_type.elem_type)
    if which == "optional_type":
        return has_denotation(t.optional_type.elem_type)
    if which == "map_type":
        return has_denotation(t.map_type.value_type)
    return False


def has_type(t: onnx.TypeProto) -> bool:
    """Whether ``t`` says anything (an untyped value has an empty ``TypeProto``)."""
    return t.WhichOneof("value") is not None
