"""The ``initializers=`` option of ``to_model_proto``: a model's weights as initializers.

Scripts have no initializers: a weight is a ``Constant`` node (``w = op.Constant(value=W)``),
which eager mode runs like any other op. Tools read a model's weights from its initializer
list, by name, so ``to_model_proto(initializers={name: source, ...})`` makes initializers,
in the order given, each from

* the name of a variable of the main graph assigned from ``op.Constant(value=...)`` or
  ``op.Constant(sparse_value=...)`` at the top level of the function: that ``Constant`` node
  becomes the initializer ``name`` and every read of the variable (in nested graphs too)
  reads the initializer;
* a tensor (a numpy array, an ``onnx.TensorProto`` or an ``onnx.SparseTensorProto``): an
  initializer with that value, read by nothing in the script (the default value of the
  graph input of the same name, or a weight the graph does not use).

This runs on the lowered model, so the compiled function itself is not changed.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
import onnx.numpy_helper

from onnxscript.errors import LoweringError
from onnxscript.proto_graphs import subgraphs

_CONSTANT_ATTRIBUTES = ("value", "sparse_value")
_Tensor = onnx.TensorProto | onnx.SparseTensorProto


@dataclass
class _Plan:
    """What the option does to the graph: Constant nodes to remove, values to rename and
    the initializers to add (in order)."""

    removed: set[int] = field(default_factory=set)  # indices of top-level Constant nodes
    renames: dict[str, str] = field(default_factory=dict)
    tensors: list[_Tensor] = field(default_factory=list)


def add_initializers(model: onnx.ModelProto, entries: Any, function: str) -> None:
    """Apply ``initializers=entries`` to ``model`` (the lowered main function ``function``).

    Raises ``TypeError`` for an entry of the wrong type and
    :class:`onnxscript.errors.LoweringError` (a ``ValueError``) naming the entry for one
    that cannot become an initializer.
    """
    if not isinstance(entries, Mapping):
        raise TypeError(
            "initializers must be a dict {initializer name: variable name or tensor}, "
            f"got {type(entries).__name__}"
        )
    if not entries:
        return
    graph = model.graph
    producers = {out: i for i, node in enumerate(graph.node) for out in node.output if out}
    plan = _Plan()
    variables: dict[str, str] = {}  # source variable -> the entry that takes it
    for name, source in entries.items():
        where = f"initializers[{name!r}]"
        if not isinstance(name, str) or not name:
            raise TypeError(f"initializers: the name {name!r} is not a non-empty string")
        if isinstance(source, str):
            tensor = _from_variable(graph, producers, source, where, function)
            if source in variables:
                raise LoweringError(f"{where}: {source!r} is already used by {variables[source]}")
            variables[source] = where
            plan.removed.add(producers[source])
            if name != source:
                plan.renames[source] = name
        else:
            tensor = _from_value(source, where)
        plan.tensors.append(_named(tensor, name))
    _check_names(graph, entries, plan, function)
    _apply(graph, plan)


def _check_names(
    graph: onnx.GraphProto, entries: Mapping[str, Any], plan: _Plan, function: str
) -> None:
    """Each initializer's name must be its own once the variables are renamed: a tensor
    initializer may only share its name with an input (as its default value)."""
    defined: set[str] = set()
    _defined_names(graph, defined)
    others = defined - plan.renames.keys()
    inputs = {i.name for i in graph.input}
    for name, source in entries.items():
        if isinstance(source, str):
            if name != source and name in others:
                raise LoweringError(
                    f"initializers[{name!r}]: {function} already has a value named {name!r}; "
                    "an initializer needs a name of its own"
                )
        elif name in others and name not in inputs:
            raise LoweringError(
                f"initializers[{name!r}]: {function} already has a value named {name!r}; a "
                "tensor initializer is either the default of the input of that name or a "
                "value nothing reads"
            )


def _from_variable(
    graph: onnx.GraphProto, producers: dict[str, int], source: str, where: str, function: str
) -> _Tensor:
    """The tensor of the top-level ``Constant`` node that computes ``source``."""
    index = producers.get(source)
    if index is None:
        raise LoweringError(f"{where}: {_not_a_constant(graph, producers, source, function)}")
    node = graph.node[index]
    attrs = list(node.attribute)
    if (
        node.op_type != "Constant"
        or node.domain not in ("", "ai.onnx")
        or len(attrs) != 1
        or attrs[0].name not in _CONSTANT_ATTRIBUTES
        or attrs[0].ref_attr_name
    ):
        what = (
            f"op.Constant({attrs[0].name}=...)"
            if node.op_type == "Constant" and len(attrs) == 1
            else node.op_type
        )
        raise LoweringError(
            f"{where}: {source!r} is computed by {what}; only a variable assigned from "
            "op.Constant(value=...) or op.Constant(sparse_value=...) can become an initializer"
        )
    attr = attrs[0]
    tensor: _Tensor = attr.t if attr.name == "value" else attr.sparse_tensor
    return tensor


def _not_a_constant(
    graph: onnx.GraphProto, producers: dict[str, int], source: str, function: str
) -> str:
    """Why ``source`` names no top-level node output of ``graph``."""
    if any(i.name == source for i in graph.input):
        return (
            f"{source!r} is an input of {function}, not a constant (give a tensor to make "
            "an initializer that is the input's default value)"
        )
    nested: set[str] = set()
    for node in graph.node:
        for sub in subgraphs(node):
            _defined_names(sub, nested)
    if source in nested:
        return (
            f"{source!r} is assigned inside a nested graph (an if branch or a loop body); "
            f"only constants assigned at the top level of {function} can become initializers"
        )
    constants = [
        node.output[0] for node in graph.node if node.op_type == "Constant" and node.output
    ]
    close = difflib.get_close_matches(source, constants, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"{function} has no variable {source!r}{hint}"


def _from_value(value: Any, where: str) -> _Tensor:
    if isinstance(value, (onnx.TensorProto, onnx.SparseTensorProto)):
        return value
    if isinstance(value, (np.ndarray, np.generic)):
        return onnx.numpy_helper.from_array(np.asarray(value))
    raise TypeError(
        f"{where}: expected the name of a variable assigned from op.Constant(value=...), a "
        f"numpy array or an onnx.TensorProto, got {type(value).__name__}"
    )


def _named(tensor: _Tensor, name: str) -> _Tensor:
    copy = type(tensor)()
    copy.CopyFrom(tensor)
    if isinstance(copy, onnx.SparseTensorProto):
        copy.values.name = name
    else:
        copy.name = name
    return copy


def _defined_names(graph: onnx.GraphProto, found: set[str]) -> None:
    """Every value name ``graph`` and its nested graphs define."""
    found.update(i.name for i in graph.input)
    found.update(t.name for t in graph.initializer)
    found.update(t.values.name for t in graph.sparse_initializer)
    for node in graph.node:
        found.update(node.output)
        for sub in subgraphs(node):
            _defined_names(sub, found)
    found.discard("")


def _apply(graph: onnx.GraphProto, plan: _Plan) -> None:
    if plan.removed:
        kept = [node for i, node in enumerate(graph.node) if i not in plan.removed]
        del graph.node[:]
        graph.node.extend(kept)
    if plan.renames:
        _rename(graph, plan.renames)
    for tensor in plan.tensors:
        if isinstance(tensor, onnx.SparseTensorProto):
            graph.sparse_initializer.append(tensor)
        else:
            graph.initializer.append(tensor)


def _rename(graph: onnx.GraphProto, names: dict[str, str]) -> None:
    """Rename the reads of values (node inputs, graph outputs and value infos, nested graphs
    included); the values no longer have nodes of their own."""
    for info in (*graph.output, *graph.value_info):
        new = names.get(info.name)
        if new is not None:
            info.name = new
    for node in graph.node:
        inputs = node.input
        for i, name in enumerate(inputs):
            new = names.get(name)
            if new is not None:
                inputs[i] = new
        for sub in subgraphs(node):
            _rename(sub, names)
