"""The small IR between the converter and onnx protos, and its lowering."""

from onnxscript.program.graph import Attr, AttrParam, Function, Graph, Node, SourceLocation, Value
from onnxscript.value_types import (
    Dim,
    OptionalTypeSpec,
    SequenceTypeSpec,
    TensorTypeSpec,
    TypeSpec,
)

__all__ = [
    "Attr",
    "AttrParam",
    "Dim",
    "Function",
    "Graph",
    "Node",
    "OptionalTypeSpec",
    "SequenceTypeSpec",
    "SourceLocation",
    "TensorTypeSpec",
    "TypeSpec",
    "Value",
]
