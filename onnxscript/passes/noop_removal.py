"""Removal of nodes that change nothing, told by the types and shapes the exporter wrote:
a Reshape, Expand or step-1 Slice whose result has its input's shape (symbolic dims
compared by name: torch names each dim of a dynamic size), a Reshape or Expand to
``Shape(x)`` of its own input, a Cast or CastLike to the
type the input has, a Transpose by the identity permutation, a Concat of one input or of
one input and others empty along the axis (a partial rotary embedding over the whole
head leaves ``Concat(rotated, x[..., d:])``), and
adding 0 or multiplying by 1 where broadcasting changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.ir_utils.graphs import model_graphs
from onnxscript.ir_utils.value_facts import cast_target, constant_ints
from onnxscript.passes.identity_removal import bypass


class NoOpRemovalPass(ir.passes.InPlacePass):
    """Bypass the nodes whose one output equals their first input."""

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        modified = False
        for graph in list(model_graphs(model)):
            for node in list(graph):
                source = _unchanged_input(node)
                if source is not None:
                    modified |= bypass(graph, node, source)
        return ir.passes.PassResult(model, modified)


def _unchanged_input(node: ir.Node) -> ir.Value | None:
    """The input ``node`` outputs unchanged, or None."""
    if node.domain not in ("", "ai.onnx") or len(node.outputs) != 1 or not node.inputs:
        return None
    if node.op_type == "Concat":
        return _only_nonempty_input(node)
    source, result = node.inputs[0], node.outputs[0]
    if source is None:
        return None
    check = _CHECKS.get(node.op_type)
    return source if check is not None and check(node, source, result) else None


def _same_shape(node: ir.Node, source: ir.Value, result: ir.Value) -> bool:
    """Whether ``result`` is surely a tensor of ``source``'s type and shape (dims equal as
    ``value_facts`` says: numbers, or symbolic dims of one name)."""
    dtype = value_facts.tensor_dtype(source)
    if dtype is None or value_facts.tensor_dtype(result) != dtype:
        return False
    return value_facts.same_shape(source, result)


def _own_shape(node: ir.Node, source: ir.Value, result: ir.Value) -> bool:
    """The result has the input's shape, known or because the target shape is
    ``Shape(input)`` itself (whole: no start or end)."""
    if _same_shape(node, source, result):
        return True
    target = node.inputs[1] if len(node.inputs) > 1 else None
    producer = target.producer() if target is not None else None
    return (
        producer is not None
        and producer.op_type == "Shape"
        and producer.domain in ("", "ai.onnx")
        and producer.inputs[0] is source
        and "start" not in producer.attributes
        and "end" not in producer.attributes
    )


def _unit_steps_same_shape(node: ir.Node, source: ir.Value, result: ir.Value) -> bool:
    steps = node.inputs[4] if len(node.inputs) > 4 else None
    if steps is not None:
        known = constant_ints(steps)  # a graph input's initializer may be overridden
        if known is None or any(s != 1 for s in known):
            return False
    return _same_shape(node, source, result)


def _cast_to_own_type(node: ir.Node, source: ir.Value, result: ir.Value) -> bool:
    target = cast_target(node)  # a type name before opset 6
    return source.dtype is not None and target == source.dtype


def _cast_like_own_type(node: ir.Node, source: ir.Value, result: ir.Value) -> bool:
    like = node.inputs[1] if len(node.inputs) > 1 else None
    return like is not None and source.dtype is not None and source.dtype == like.dtype


def _identity_permutation(node: ir.Node, source: ir.Value, result: ir.Value) -> bool:
    perm = node.attributes.get_ints("perm", None)
    if perm is None:
        return value_facts.rank(source) in (0, 1)
    return list(perm) == list(range(len(perm)))


def _only_nonempty_input(node: ir.Node) -> ir.Value | None:
    """The one input of a Concat whose other inputs are known to be empty along its axis
    (Concat's inputs all have the result's type), or None."""
    kept = [v for v in node.inputs if v is None or not _empty_along(v, node)]
    return kept[0] if len(kept) == 1 else None


def _empty_along(value: ir.Value, concat: ir.Node) -> bool:
    rank = value_facts.rank(value)
    if not rank:
        return False
    axis = concat.attributes.get_int("axis", 0)
    return -rank <= axis < rank and value_facts.static_dim(value, axis) == 0


def _neutral(value: float) -> Callable[[ir.Node, ir.Value, ir.Value], bool]:
    """``x + 0``, ``x - 0``, ``x * 1``, ``x / 1``: the second input is a scalar Constant
    (a number of the program; a weight that happens to be 0, such as a freshly made bias,
    is kept) and broadcasting leaves ``x``'s shape and type as they are."""

    def check(node: ir.Node, source: ir.Value, result: ir.Value) -> bool:
        other = node.inputs[1] if len(node.inputs) == 2 else None
        producer = other.producer() if other is not None else None
        if other is None or producer is None or producer.op_type != "Constant":
            return False
        array = value_facts.constant_array(other, max_size=1)
        if array is None or array.size != 1 or array.dtype.kind not in "biuf":
            return False
        return bool(np.all(array == value)) and _same_shape(node, source, result)

    return check


_CHECKS = {
    "Reshape": _own_shape,
    "Expand": _own_shape,
    "Slice": _unit_steps_same_shape,
    "Cast": _cast_to_own_type,
    "CastLike": _cast_like_own_type,
    "Transpose": _identity_permutation,
    "Add": _neutral(0),
    "Sub": _neutral(0),
    "Mul": _neutral(1),
    "Div": _neutral(1),
}


__all__ = ["NoOpRemovalPass"]
