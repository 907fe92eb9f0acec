"""Partial evaluation while folding constants: what a node computes when only part of its
inputs is known, per op (0.7.2's partial evaluators, which its users extend).

A partial evaluator is ``fn(node, op, state) -> replacement``: ``op`` a
:class:`~onnxscript.ir_utils.node_recorder.NodeRecorder` to make new nodes with
(``op.Identity(x)``, ``op.Constant(value=...)``), ``state`` the :class:`OptimizerState`
holding what is known symbolically (a shape vector's dims, a sequence's items). It returns
the value(s) replacing the node's outputs, a :class:`Replacement`, or None (no change; it
may still record symbolic values). :data:`registry` maps an op (domain, op type, opset
versions) to its evaluators; ``@registry.register("MyOp", domain="my.domain")`` adds one,
and :class:`~onnxscript.passes.constant_folding.FoldConstantsPass` consults them for every
node before computing it from constants.

The evaluators here: a Cast or CastLike to the type the input has, an Identity, a Concat
of one input, a Reshape or Expand to the input's own shape and an inference Dropout
become Identity; Shape, Size, Gather, Squeeze, Concat, Cast, Reshape, Abs and Add of
shape vectors follow their dims (a part of a shape that is known becomes a constant);
an If whose condition is a constant becomes its branch; SequenceConstruct, SequenceAt,
ConcatFromSequence and SplitToSequence with a known split become plain tensor ops.

The registry is module state filled at import and by users' registrations: registering is
the extension point 0.7.2 documents, so it is kept as a module-level object.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.inference.evaluate import run_op
from onnxscript.ir_utils import value_facts
from onnxscript.ir_utils.graphs import nested_graphs, subgraphs
from onnxscript.ir_utils.node_recorder import NodeRecorder
from onnxscript.ir_utils.value_facts import (
    cast_target,
    constant_array,
    constant_ints,
    constant_tensor,
    same_dims,
)
from onnxscript.unique_names import first_free

SymbolicValue = ir.Value | list[ir.Value] | ir.Shape
"""What is known of a value without its contents: another value it equals, the items of a
sequence, or the dims a shape vector holds."""


class OptimizerState:
    """What partial evaluation knows of values without their contents."""

    def __init__(self) -> None:
        self.symbolic_value_map: dict[ir.Value, SymbolicValue] = {}

    def get_sym_value(self, value: ir.Value | None) -> SymbolicValue | None:
        return None if value is None else self.symbolic_value_map.get(value)

    def set_sym_value(self, value: ir.Value, sym_value: SymbolicValue) -> None:
        self.symbolic_value_map[value] = sym_value

    def get_shape_value(self, value: ir.Value | None) -> ir.Shape | None:
        """The dims a 1-D int64 vector holds: its contents when constant, else what is
        known of them (a Shape node's result, and what was computed from it)."""
        ints = constant_ints(value)
        if ints is not None and value is not None and value.dtype == ir.DataType.INT64:
            array = constant_array(value)
            if array is not None and array.ndim == 1:
                return ir.Shape(ints)
        found = self.get_sym_value(value)
        return found if isinstance(found, ir.Shape) else None


@dataclasses.dataclass
class Replacement:
    """What replaces a node: the values taking its outputs' place, and the new nodes."""

    new_outputs: Sequence[ir.Value]
    new_nodes: Sequence[ir.Node]


ReturnValue = Replacement | Sequence[ir.Value] | ir.Value | None
PartialEvaluatorFunction = Callable[[ir.Node, Any, OptimizerState], ReturnValue]


@dataclasses.dataclass
class PartialEvaluator:
    """A partial evaluator of an op for opset versions ``min_version`` to
    ``max_version`` (None: unbounded)."""

    min_version: int | None
    max_version: int | None
    function: PartialEvaluatorFunction

    def valid_for(self, version: int) -> bool:
        low = self.min_version is None or version >= self.min_version
        return low and (self.max_version is None or version <= self.max_version)


class PartialEvaluatorRegistry:
    """The partial evaluators of each op, by ``(domain, op type)``."""

    def __init__(self) -> None:
        self.op_evaluators: dict[tuple[str, str], list[PartialEvaluator]] = {}

    def lookup_evaluators(self, domain: str, opname: str, version: int) -> list[Any]:
        """The evaluator functions for ``opname`` valid at ``version``, in order."""
        found = self.op_evaluators.get((_domain(domain), opname), [])
        return [e.function for e in found if e.valid_for(version)]

    def register(
        self,
        opname: str,
        domain: str = "",
        version: int | tuple[int | None, int | None] | None = None,
    ) -> Callable[[PartialEvaluatorFunction], PartialEvaluatorFunction]:
        """A decorator registering a partial evaluator of ``opname`` (for opset
        ``version``: one version, a ``(min, max)`` range, or every version when None)."""
        if isinstance(version, tuple):
            low, high = version
        else:
            low, high = version, version

        def decorator(function: PartialEvaluatorFunction) -> PartialEvaluatorFunction:
            entries = self.op_evaluators.setdefault((_domain(domain), opname), [])
            entries.append(PartialEvaluator(low, high, function))
            return function

        return decorator


def _domain(domain: str) -> str:
    return "" if domain == "ai.onnx" else domain


registry = PartialEvaluatorRegistry()
"""The partial evaluators constant folding consults (extend with ``registry.register``)."""


class ReferenceEvaluator:
    """Ops run on arrays by ``onnx.reference`` (what folding computes constants with)."""

    def get_evaluator(self, domain: str, op: str, version: int) -> Callable[..., Any] | None:
        if _domain(domain) != "":
            return None

        def evaluate(*args: Any, **kwargs: Any) -> Any:
            return self.evaluate(domain, op, version, *args, **kwargs)

        return evaluate

    def evaluate(self, domain: str, op: str, version: int, *args: Any, **kwargs: Any) -> Any:
        """The outputs of ``op`` on the arrays ``args`` with attributes ``kwargs``: one
        array, or a tuple of them for several outputs."""
        results = run_op(_domain(domain), op, version, list(args), kwargs)
        return results[0] if len(results) == 1 else tuple(results)


# -- helpers ------------------------------------------------------------------------------


def _value(made: Any) -> ir.Value:
    """A value ``op`` made (typed as such)."""
    assert isinstance(made, ir.Value)
    return made


def _input(node: ir.Node, index: int) -> ir.Value | None:
    return node.inputs[index] if len(node.inputs) > index else None


def _attr_int(node: ir.Node, name: str, default: int) -> int:
    attr = node.attributes.get(name)
    return default if attr is None or attr.is_ref() else int(attr.value)


def _shape_result(
    op: NodeRecorder, state: OptimizerState, node: ir.Node, dims: Sequence[Any]
) -> ReturnValue:
    """The shape vector ``dims``: a constant when every dim is known, else recorded."""
    if all(isinstance(d, int) for d in dims):
        return _value(op.Constant(value=ir.tensor(np.array(list(dims), dtype=np.int64))))
    state.set_sym_value(node.outputs[0], ir.Shape(list(dims)))
    return None


def _same_shape_as(shape: ir.Shape | None, value: ir.Value | None) -> bool:
    """Whether the dims ``shape`` holds are surely ``value``'s dims."""
    if shape is None or value is None or value.shape is None:
        return False
    return same_dims(list(shape), list(value.shape))


# -- the evaluators -------------------------------------------------------------------------


@registry.register("Abs")
def abs(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """A shape vector's dims are >= 0: their Abs is the vector itself."""
    x = _input(node, 0)
    if state.get_shape_value(x) is not None and constant_tensor(x) is None:
        return _value(op.Identity(x))
    return None


@registry.register("Add")
def add(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """Shape vectors added elementwise: the sums where both dims are numbers (the rest
    unknown)."""
    left, right = (state.get_shape_value(_input(node, i)) for i in (0, 1))
    if left is None or right is None or len(left) != len(right):
        return None
    dims = [
        a + b if isinstance(a, int) and isinstance(b, int) else None for a, b in zip(left, right)
    ]
    if all(d is not None for d in dims):
        return None  # a constant computation: folding does it
    state.set_sym_value(node.outputs[0], ir.Shape(dims))
    return None


@registry.register("Cast")
def cast(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """A Cast to the type its input has is an Identity (a shape vector stays one)."""
    x = _input(node, 0)
    to = cast_target(node)  # a type name before opset 6
    if x is None or to is None:
        return None
    if x.dtype is not None and x.dtype == to:
        return _value(op.Identity(x))
    shape = state.get_shape_value(x)
    if shape is not None and to == ir.DataType.INT64:
        state.set_sym_value(node.outputs[0], shape)
    return None


@registry.register("CastLike")
def cast_like(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """A CastLike to the type its input has is an Identity."""
    x, like = _input(node, 0), _input(node, 1)
    if x is not None and like is not None and x.dtype is not None and x.dtype == like.dtype:
        return _value(op.Identity(x))
    return None


@registry.register("Concat")
def concat(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """A Concat of one input is an Identity; a Concat of shape vectors holds their dims."""
    inputs = [v for v in node.inputs if v is not None]
    if len(inputs) == 1:
        return _value(op.Identity(inputs[0]))
    shapes = [state.get_shape_value(v) for v in inputs]
    if not inputs or any(s is None for s in shapes) or _attr_int(node, "axis", 0) not in (0, -1):
        return None
    return _shape_result(op, state, node, [d for s in shapes if s is not None for d in s])


@registry.register("ConcatFromSequence")
def concat_from_sequence(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """Of a sequence whose items are known: a Concat of them (each unsqueezed first when
    ``new_axis``)."""
    items = state.get_sym_value(_input(node, 0))
    if not isinstance(items, list) or not items:
        return None
    axis = _attr_int(node, "axis", 0)
    if _attr_int(node, "new_axis", 0):
        axes = op.Constant(value=ir.tensor(np.array([axis], dtype=np.int64)))
        items = [op.Unsqueeze(item, axes) for item in items]
    return _value(op.Concat(*items, axis=axis))


@registry.register("Dropout", version=(None, 6))
def dropout_is_test(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """Before opset 7 a Dropout is in training mode unless ``is_test`` says otherwise: an
    Identity only with ``is_test=1`` (and its mask unused)."""
    if _attr_int(node, "is_test", 0) != 1:
        return None
    return dropout(node, op, state)


@registry.register("Dropout", version=(7, None))
def dropout(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """A Dropout in inference mode (training_mode absent or a constant false), or of ratio
    0, is an Identity when its mask is unused."""
    x = _input(node, 0)
    mask = node.outputs[1] if len(node.outputs) > 1 else None
    if x is None or (mask is not None and (mask.uses() or mask.is_graph_output())):
        return None
    training, ratio = _input(node, 2), _input(node, 1)
    mode = constant_array(training) if training is not None else np.array(False)
    rate = constant_array(ratio) if ratio is not None else None
    if mode is not None and not bool(mode.ravel()[0]):
        return _value(op.Identity(x))
    if rate is not None and float(rate.ravel()[0]) == 0:
        return _value(op.Identity(x))
    return None


@registry.register("Expand")
def expand(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """An Expand to the shape its input has is an Identity."""
    x = _input(node, 0)
    if _same_shape_as(state.get_shape_value(_input(node, 1)), x):
        return _value(op.Identity(x))
    return None


@registry.register("Gather")
def gather(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """Dims taken from a shape vector by constant indices: a constant when they are
    numbers, else recorded."""
    shape = state.get_shape_value(_input(node, 0))
    indices = constant_array(_input(node, 1))
    if shape is None or indices is None or indices.ndim > 1 or _attr_int(node, "axis", 0) != 0:
        return None
    dims = list(shape)
    try:
        picked = [dims[int(i)] for i in indices.ravel()]
    except IndexError:
        return None
    if indices.ndim == 0:
        if isinstance(picked[0], int):
            return _value(op.Constant(value=ir.tensor(np.array(picked[0], dtype=np.int64))))
        return None
    return _shape_result(op, state, node, picked)


@registry.register("Identity")
def identity(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """What is known of the input is known of the output."""
    known = state.get_sym_value(_input(node, 0))
    if known is not None:
        state.set_sym_value(node.outputs[0], known)
    return None


@registry.register("If")
def if_op(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """An If whose condition is a constant: the nodes of the branch it takes (their value
    names kept unless the graph has them already)."""
    condition = constant_array(_input(node, 0))
    if condition is None or condition.size != 1 or node.graph is None:
        return None
    attr = node.attributes.get("then_branch" if bool(condition.ravel()[0]) else "else_branch")
    if attr is None or attr.is_ref():
        return None
    branch = attr.as_graph()
    if len(branch.outputs) != len(node.outputs):
        return None
    taken = _names(node.graph, node)
    nodes = list(branch)
    for inner in nodes:
        branch.remove(inner)
        for value in inner.outputs:
            if value.name in taken:
                value.name = first_free(value.name or "v", taken)
            taken.add(value.name or "")
    outputs = [
        value if value.producer() in nodes else _value(op.Identity(value))
        for value in branch.outputs
    ]
    branch.outputs.clear()
    return Replacement(outputs, [*nodes, *op.nodes])


def _names(graph: ir.Graph, node: ir.Node) -> set[str]:
    """The value names of ``graph`` and of the subgraphs of its nodes other than ``node``
    (a subgraph may not reuse a name of the graph it is in: a value moved into ``graph``
    must have none of them)."""
    names = {v.name for v in [*graph.inputs, *graph.initializers.values()] if v.name}
    for other in graph:
        names |= {v.name for v in other.outputs if v.name}
        if other is node:
            continue
        for sub in subgraphs(other):
            for inner in nested_graphs(sub):
                names |= {v.name for v in [*inner.inputs, *inner.initializers.values()] if v.name}
                names |= {v.name for n in inner for v in n.outputs if v.name}
    return names


@registry.register("Reshape")
def reshape(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """A Reshape to the shape its input has is an Identity; a reshaped shape vector keeps
    its dims."""
    x, target = _input(node, 0), state.get_shape_value(_input(node, 1))
    if (
        target is not None
        and _same_shape_as(target, x)
        and not _attr_int(node, "allowzero", 0)
        and all(not isinstance(d, int) or d > 0 for d in target)
    ):
        return _value(op.Identity(x))
    known = state.get_shape_value(x)
    if known is not None and target is not None and len(target) == 1:
        state.set_sym_value(node.outputs[0], known)
    return None


@registry.register("SequenceAt")
def sequence_at(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """An item of a sequence whose items are known, at a constant position."""
    items = state.get_sym_value(_input(node, 0))
    position = constant_array(_input(node, 1))
    if not isinstance(items, list) or position is None or position.size != 1:
        return None
    index = int(position.ravel()[0])
    if not -len(items) <= index < len(items):
        return None
    return _value(op.Identity(items[index]))


@registry.register("SequenceConstruct")
def sequence_construct(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """The items of the sequence are its inputs."""
    items = [v for v in node.inputs if v is not None]
    if len(items) == len(node.inputs):
        state.set_sym_value(node.outputs[0], items)
    return None


@registry.register("Shape")
def shape(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """The dims ``Shape(x, start, end)`` holds: a constant when they are numbers, else
    recorded."""
    x = _input(node, 0)
    rank = value_facts.rank(x)
    if x is None or x.shape is None or rank is None:
        return None
    start, end = _attr_int(node, "start", 0), _attr_int(node, "end", rank)
    dims = list(x.shape)[slice(start, end)]
    return _shape_result(op, state, node, dims)


@registry.register("Size")
def size(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """The number of elements of a tensor of static shape."""
    x = _input(node, 0)
    if x is None or x.shape is None or not x.shape.is_static():
        return None
    return _value(
        op.Constant(value=ir.tensor(np.array(int(np.prod(x.shape.numpy())), dtype=np.int64)))
    )


@registry.register("SplitToSequence", version=(13, None))
def split_to_sequence(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """``SplitToSequence`` into a known number of parts -> ``Split`` and a
    ``SequenceConstruct`` of the parts (squeezed when ``keepdims=0`` without a split).
    From opset 13, where Split and Squeeze take sizes and axes as inputs."""
    x, split = _input(node, 0), _input(node, 1)
    rank = value_facts.rank(x)
    axis = _attr_int(node, "axis", 0)
    if x is None or rank is None or not -rank <= axis < rank:
        return None
    length = value_facts.dim(x, axis)
    given = constant_array(split) if split is not None else None
    if split is not None and (given is None or given.ndim > 1):
        return None
    if given is not None and given.ndim == 1:
        sizes = [int(s) for s in given]
    elif isinstance(length, int) and length > 0:
        chunk = 1 if given is None else int(given)
        if chunk <= 0:
            return None  # no chunks of that size: onnxruntime reports it, not the optimizer
        sizes = [min(chunk, length - start) for start in range(0, length, chunk)]
    else:
        return None
    split_value = op.Constant(value=ir.tensor(np.array(sizes, dtype=np.int64)))
    produced = op.Split(x, split_value, axis=axis, _outputs=len(sizes))
    parts = list(produced) if isinstance(produced, tuple) else [produced]
    if given is None and not _attr_int(node, "keepdims", 1):
        axes = op.Constant(value=ir.tensor(np.array([axis], dtype=np.int64)))
        parts = [op.Squeeze(part, axes) for part in parts]
    sequence = _value(op.SequenceConstruct(*parts))
    state.set_sym_value(sequence, parts)
    return sequence


@registry.register("Squeeze")
def squeeze(node: ir.Node, op: Any, state: OptimizerState) -> ReturnValue:
    """A one-dim shape vector squeezed: its dim (a constant when a number)."""
    known = state.get_shape_value(_input(node, 0))
    if known is None or len(known) != 1:
        return None
    (dim,) = list(known)
    if isinstance(dim, int):
        return _value(op.Constant(value=ir.tensor(np.array(dim, dtype=np.int64))))
    return None


__all__ = [
    "OptimizerState",
    "PartialEvaluator",
    "PartialEvaluatorFunction",
    "PartialEvaluatorRegistry",
    "ReferenceEvaluator",
    "Replacement",
    "ReturnValue",
    "SymbolicValue",
    "abs",
    "add",
    "cast",
    "cast_like",
    "concat",
    "concat_from_sequence",
    "dropout",
    "dropout_is_test",
    "expand",
    "gather",
    "identity",
    "if_op",
    "registry",
    "reshape",
    "sequence_at",
    "sequence_construct",
    "shape",
    "size",
    "split_to_sequence",
    "squeeze",
]
