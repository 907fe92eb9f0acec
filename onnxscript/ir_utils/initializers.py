"""New constants of a model, in the forms its IR version and opset allow: the one place
passes and rewrites decide how a tensor they computed goes into a graph.

A new constant is an initializer of the main graph (usable there and in its subgraphs)
or a ``Constant`` node (usable anywhere, function bodies included):

- **IR version 4 and later**: an initializer need not be a graph input. A new one is not:
  no caller can change it, so it stays a constant for the passes after (see
  ``value_facts``).
- **Before IR version 4** every initializer is also a graph input: a new one would be a
  new input of the model, a default its callers could feed, no longer a constant for the
  passes after. So new constants of such models are ``Constant`` nodes only, and a
  tensor no ``Constant`` node of the opset can hold (int64 before opset 9, the usual
  case of IR 3) is not added: the caller leaves its node as it is.
- **A Constant node** holds only the element types its opset's ``Constant`` takes: before
  opset 9 float16, float and double (no integers, no bool); later types (bfloat16 from
  13, float8 from 19, 4-bit from 21...) as the schema of each opset lists them.

:func:`constant_form` answers which form a new constant takes, or that it has none (the
caller then leaves the graph as it is); :func:`add_initializer` and :func:`constant_node`
make it.
"""

from __future__ import annotations

import functools
from typing import Literal

import onnx_ir as ir

from onnxscript import schemas
from onnxscript.unique_names import first_free

INITIALIZERS_NEED_NOT_BE_INPUTS = 4
"""The IR version from which an initializer may be absent from the graph inputs."""

ConstantForm = Literal["initializer", "node"]


@functools.lru_cache(maxsize=256)
def constant_node_takes(dtype: ir.DataType, opset: int) -> bool:
    """Whether a standard ``Constant`` node of opset ``opset`` can hold a tensor of
    ``dtype``."""
    facts = schemas.op_facts("", "Constant", opset)
    if facts is None:
        return False
    name = f"tensor({dtype.name.lower()})"
    return any(name in allowed for _, allowed in facts.type_constraints)


def initializers_are_inputs(ir_version: int) -> bool:
    """Whether every initializer of a model of ``ir_version`` must be a graph input."""
    return ir_version < INITIALIZERS_NEED_NOT_BE_INPUTS


def constant_form(
    ir_version: int, opset: int, dtype: ir.DataType, *, initializer: bool
) -> ConstantForm | None:
    """How a new constant of ``dtype`` is written in a model of ``ir_version`` at
    ``opset``: ``"initializer"`` (of the main graph), ``"node"`` (a ``Constant``), or
    None when neither is allowed. ``initializer``: whether an initializer can serve
    where the value is needed (it is used in the main graph or one of its subgraphs, and
    it is not itself a graph output, which must be computed by a node)."""
    if initializer and not initializers_are_inputs(ir_version):
        return "initializer"
    return "node" if constant_node_takes(dtype, opset) else None


def add_initializer(
    main: ir.Graph, name: str, tensor: ir.TensorProtocol, *, ir_version: int
) -> ir.Value:
    """``tensor`` registered in ``main`` (the main graph of a model of ``ir_version``) as
    an initializer named ``name`` (or ``name_1``, ``name_2``... when taken: subgraphs
    copied from one proto repeat their names). Before IR version 4 there is no such
    initializer: ValueError (:func:`constant_form` never answers ``"initializer"`` there)."""
    if initializers_are_inputs(ir_version):
        raise ValueError(f"IR version {ir_version} has no initializer that is not an input")
    value = ir.Value(name=first_free(name, _GraphNames(main)), const_value=tensor)
    value.type = ir.TensorType(tensor.dtype)
    value.shape = ir.Shape(tensor.shape.numpy())
    main.register_initializer(value)
    return value


class _GraphNames:
    """The names of ``graph``'s initializers and inputs, looked up in place (a set of them
    made per new initializer cost a pass over every initializer each time)."""

    __slots__ = ("graph",)

    def __init__(self, graph: ir.Graph) -> None:
        self.graph = graph

    def __contains__(self, name: object) -> bool:
        return name in self.graph.initializers or any(v.name == name for v in self.graph.inputs)


def made_constant(node: ir.Node) -> ir.TensorProtocol | None:
    """The tensor of a standard ``Constant`` node holding it as ``value`` (the form passes
    make), else None."""
    if node.op_type != "Constant" or node.domain not in ("", "ai.onnx"):
        return None
    attr = node.attributes.get("value")
    if attr is None or attr.type != ir.AttributeType.TENSOR:
        return None
    tensor: ir.TensorProtocol = attr.value
    return tensor


def constant_node(tensor: ir.TensorProtocol, name: str | None = None) -> ir.Node:
    """A ``Constant`` node holding ``tensor``, its output typed and given the tensor as its
    value (``const_value``) and named ``name``."""
    node = ir.Node("", "Constant", [], [ir.AttrTensor("value", tensor)])
    out = node.outputs[0]
    out.name = name
    out.const_value = tensor
    out.type = ir.TensorType(tensor.dtype)
    out.shape = ir.Shape(tensor.shape.numpy())
    return node


__all__ = [
    "INITIALIZERS_NEED_NOT_BE_INPUTS",
    "ConstantForm",
    "add_initializer",
    "constant_form",
    "constant_node",
    "constant_node_takes",
    "initializers_are_inputs",
    "made_constant",
]
