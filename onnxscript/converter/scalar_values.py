"""Which values are known to be scalars (rank 0) while a graph is being built.

A ``while`` loop's condition enters the ``Loop`` as a scalar: a condition of unknown rank is
reshaped to one first (``Reshape(c, [])``), which is useless when the condition is already a
scalar, such as a scalar ``BOOL`` input or a comparison of scalars. Ranks are not tracked in
general, so this looks at declared types and, for computed values, at the node that made
them: a scalar constant, an elementwise op on scalars, or a reduction of everything with
``keepdims=0``.
"""

from __future__ import annotations

from onnxscript.converter.graph_emitter import GraphEmitter
from onnxscript.program.graph import Node, Value
from onnxscript.value_types import TensorTypeSpec

# Standard ops whose output has the broadcast shape of their inputs (for Cast-like ops, the
# first input's shape).
_ELEMENTWISE = frozenset(
    {
        "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual",
        "Not", "And", "Or", "Xor", "IsNaN", "IsInf",
        "Add", "Sub", "Mul", "Div", "Mod", "Pow", "Max", "Min", "Sum", "Mean",
        "Neg", "Abs", "Sign", "Sqrt", "Exp", "Log", "Floor", "Ceil", "Round", "Reciprocal",
        "Relu", "Sigmoid", "Tanh", "Where", "Identity", "Cast",
    }
)  # fmt: skip
_FIRST_INPUT = frozenset({"CastLike"})
_REDUCTIONS = frozenset(
    {
        "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
        "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare",
    }
)  # fmt: skip
_MAX_DEPTH = 16  # how far back through producers to look


def is_scalar(builder: GraphEmitter, value: Value, depth: int = 0) -> bool:
    """Whether ``value`` (readable in ``builder``'s graph) is known to have rank 0."""
    for spec in (value.type, value.declared_type):
        if isinstance(spec, TensorTypeSpec) and spec.shape == ():
            return True
    if depth >= _MAX_DEPTH:
        return False
    node = _producer(builder, value)
    if node is None or node.domain not in ("", "ai.onnx"):
        return False
    op = node.op_type
    if op == "Constant":
        return _scalar_constant(node)
    if op in _ELEMENTWISE or op in _FIRST_INPUT:
        inputs = node.inputs[:1] if op in _FIRST_INPUT else node.inputs
        return bool(inputs) and all(
            v is not None and is_scalar(builder, v, depth + 1) for v in inputs
        )
    if op in _REDUCTIONS:
        return _reduces_everything(node)
    return False


def _producer(builder: GraphEmitter, value: Value) -> Node | None:
    """The node that computes ``value``, in ``builder``'s graph or an enclosing one."""
    current: GraphEmitter | None = builder
    while current is not None:
        if current.produces(value):
            for node in reversed(current.graph.nodes):
                if any(out is value for out in node.outputs):
                    return node
            return None
        current = current.parent
    return None


def _scalar_constant(node: Node) -> bool:
    if len(node.attrs) != 1 or node.attrs[0].ref is not None:
        return False
    attr = node.attrs[0]
    if attr.name in ("value_float", "value_int", "value_string"):
        return True
    dims = getattr(attr.value, "dims", None)
    return attr.name == "value" and dims is not None and len(dims) == 0


def _reduces_everything(node: Node) -> bool:
    """A reduction over all axes without keeping them: one input (no ``axes``) and
    ``keepdims=0``."""
    if len([v for v in node.inputs if v is not None]) != 1:
        return False
    values = {a.name: a.value for a in node.attrs if a.ref is None}
    if any(a.ref is not None for a in node.attrs) or "axes" in values:
        return False
    return values.get("keepdims") == 0 and not values.get("noop_with_empty_axes", 0)
