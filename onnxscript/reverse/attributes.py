"""Attribute values as Python expressions (``axis=1``, ``to=FLOAT``, ``mode="constant"``).

Graph-valued attributes are not handled here: the source writer writes nested graphs as
statements or ``@graph()`` functions.
"""

from __future__ import annotations

import functools

import onnx
import onnx.defs

from onnxscript.reverse.graph_model import TranslationError
from onnxscript.reverse.literals import float32, text_or_bytes
from onnxscript.reverse.tensors import TensorWriter, sparse_expression
from onnxscript.reverse.types import DTYPE_NAMES, Imports, type_expression

AT = onnx.AttributeProto

# Integer attributes of standard ops that hold an element type; ``to=FLOAT`` reads better
# than ``to=1`` and compiles to the same attribute.
_DTYPE_ATTRIBUTES = frozenset({"to", "dtype", "output_dtype", "stash_type"})

PYTHON_KINDS: dict[int, str] = {
    AT.INT: "int",
    AT.FLOAT: "float",
    AT.STRING: "str",
    AT.INTS: "list[int]",
    AT.FLOATS: "list[float]",
    AT.STRINGS: "list[str]",
}


# The value fields of an attribute and the kind each one means, in the order that decides
# when a (malformed) proto sets several: single values first.
_FIELD_KINDS = (
    ("f", AT.FLOAT),
    ("i", AT.INT),
    ("s", AT.STRING),
    ("t", AT.TENSOR),
    ("g", AT.GRAPH),
    ("sparse_tensor", AT.SPARSE_TENSOR),
    ("tp", AT.TYPE_PROTO),
    ("floats", AT.FLOATS),
    ("ints", AT.INTS),
    ("strings", AT.STRINGS),
    ("tensors", AT.TENSORS),
    ("graphs", AT.GRAPHS),
    ("sparse_tensors", AT.SPARSE_TENSORS),
    ("type_protos", AT.TYPE_PROTOS),
)


def attribute_kind(attr: onnx.AttributeProto) -> int:
    """The attribute's type, also for old protos that leave ``type`` unset."""
    if attr.type:
        return int(attr.type)
    present = {descriptor.name for descriptor, _ in attr.ListFields()}  # set or non-empty
    for name, kind in _FIELD_KINDS:
        if name in present:
            return kind
    return 0


@functools.lru_cache(maxsize=4096)
def schema_attribute_kind(domain: str, op_type: str, name: str, version: int) -> int:
    """The kind the op's schema declares for attribute ``name`` (0 when unknown)."""
    try:
        schema = onnx.defs.get_schema(op_type, version, domain)
    except Exception:
        return 0
    attr = schema.attributes.get(name)
    return int(attr.type) if attr is not None else 0  # type: ignore[call-overload]


class AttributeWriter:
    """Writes attribute values; module-level definitions go through ``tensors``."""

    def __init__(self, tensors: TensorWriter, imports: Imports) -> None:
        self.tensors = tensors
        self.imports = imports

    def value(
        self, attr: onnx.AttributeProto, domain: str, value_name: str, file_key: str | None
    ) -> str:
        """The Python expression of a (non-graph, non-reference) attribute."""
        kind = attribute_kind(attr)
        if kind == AT.INT:
            if not domain and attr.name in _DTYPE_ATTRIBUTES and attr.i in DTYPE_NAMES:
                return self.imports.dtype(attr.i)
            return str(attr.i)
        if kind == AT.FLOAT:
            return float32(attr.f)
        if kind == AT.STRING:
            return text_or_bytes(attr.s)
        if kind == AT.TENSOR:
            return self.tensors.expression(attr.t, value_name, file_key)
        if kind == AT.INTS:
            return "[" + ", ".join(str(i) for i in attr.ints) + "]"
        if kind == AT.FLOATS:
            return "[" + ", ".join(float32(f) for f in attr.floats) + "]"
        if kind == AT.STRINGS:
            return "[" + ", ".join(text_or_bytes(s) for s in attr.strings) + "]"
        if kind == AT.SPARSE_TENSOR:
            return sparse_expression(attr.sparse_tensor, self.tensors, value_name)
        if kind == AT.TYPE_PROTO:
            return type_expression(attr.tp, self.imports)
        if kind == AT.TENSORS:
            return (
                "[" + ", ".join(self.tensors.expression(t, value_name) for t in attr.tensors) + "]"
            )
        if kind == AT.SPARSE_TENSORS:
            return (
                "["
                + ", ".join(
                    sparse_expression(t, self.tensors, value_name) for t in attr.sparse_tensors
                )
                + "]"
            )
        if kind == AT.TYPE_PROTOS:
            return "[" + ", ".join(type_expression(t, self.imports) for t in attr.type_protos) + "]"
        raise TranslationError(f"attribute {attr.name!r} has an unsupported type {kind}")

    def default(self, attr: onnx.AttributeProto) -> str:
        """A function attribute parameter's default value."""
        return self.value(attr, "x", "default", None)
