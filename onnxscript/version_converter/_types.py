"""Element types of values against the type constraints of an op's schema, and the
check of a graph converted down: every node's types (recorded, or inferred when not)
against the schema of its op at the target opset."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import onnx_ir as ir

from onnxscript import schemas
from onnxscript.inference.infer import infer_node

Types = Mapping[ir.Value, ir.TypeProtocol]
"""Types of values that do not record one (inferred)."""


def type_string(type_: ir.TypeProtocol) -> str:
    """The ONNX type string of an IR type: ``tensor(float)``, ``seq(tensor(int64))``."""
    if isinstance(type_, ir.SequenceType):
        return f"seq({type_string(type_.elem_type)})"
    if isinstance(type_, ir.OptionalType):
        return f"optional({type_string(type_.elem_type)})"
    kind = "sparse_tensor" if isinstance(type_, ir.SparseTensorType) else "tensor"
    return f"{kind}({type_.dtype.name.lower()})"


def _type(value: ir.Value, types: Types | None) -> ir.TypeProtocol | None:
    if value.type is not None or types is None:
        return value.type
    return types.get(value)


def _actuals(
    formals: Sequence[schemas.Formal], values: Sequence[ir.Value | None]
) -> Iterator[tuple[schemas.Formal, int, ir.Value]]:
    """(formal, position, value) for every present value, a variadic formal taking the
    rest."""
    for position, value in enumerate(values):
        if not formals:
            return
        formal = formals[min(position, len(formals) - 1)]
        if position >= len(formals) and formal.option != schemas.VARIADIC:
            return
        if value is not None:
            yield formal, position, value


def type_errors(node: ir.Node, opset: int, types: Types | None = None) -> list[str]:
    """What in ``node``'s known input and output types (recorded, else in ``types``) the
    schema of its op at ``opset`` does not allow (element types outside a constraint, or
    one type parameter bound to two types)."""
    facts = schemas.op_facts("", node.op_type, opset)
    if facts is None:
        return [f"{node.op_type} does not exist in opset {opset}"]
    allowed = dict(facts.type_constraints)
    bound: dict[str, str] = {}
    problems = []
    for side, formals, values in (
        ("input", facts.inputs, node.inputs),
        ("output", facts.outputs, node.outputs),
    ):
        for formal, position, value in _actuals(formals, values):
            type_ = _type(value, types)
            if type_ is None:
                continue
            actual = type_string(type_)
            permitted = allowed.get(formal.type_str, (formal.type_str,))
            if actual not in permitted:
                problems.append(
                    f"{side} {position} ({formal.name}) is {actual}, which "
                    f"{node.op_type}-{facts.since_version} does not accept"
                )
                continue
            if formal.type_str not in allowed or not formal.homogeneous:
                continue
            first = bound.setdefault(formal.type_str, actual)
            if first != actual:
                problems.append(
                    f"{side} {position} ({formal.name}) is {actual} but {formal.type_str} is "
                    f"already {first}: {node.op_type}-{facts.since_version} needs one type"
                )
    return problems


class _Inference:
    """Types written on values while inferring, to be taken back."""

    def __init__(self, opset: int) -> None:
        self.opset = opset
        self.found: dict[ir.Value, ir.TypeProtocol] = {}
        self.written: list[tuple[ir.Value, ir.TypeProtocol | None, ir.Shape | None]] = []

    def give(self, value: ir.Value, type_: ir.TypeProtocol | None) -> None:
        """``value`` takes ``type_`` when it records none."""
        if value.type is None and type_ is not None:
            self.written.append((value, value.type, value.shape))
            value.type = type_
            self.found[value] = type_

    def graph(self, graph: ir.Graph | ir.Function) -> None:
        for node in graph:
            self._bodies(node)
            if node.domain not in ("", "ai.onnx") or all(o.type is not None for o in node.outputs):
                continue
            self.written += [(o, o.type, o.shape) for o in node.outputs]
            try:
                infer_node(node, self.opset)
            except Exception:
                continue
            for output in node.outputs:
                if output.type is not None:
                    self.found[output] = output.type

    def _bodies(self, node: ir.Node) -> None:
        """The node's subgraphs first (an If or Loop's outputs are its bodies'), their
        inputs typed from the node's (a Loop's iteration count and condition, then its
        carried values; a Scan's states and scanned inputs)."""
        for attr in node.attributes.values():
            if attr.type == ir.AttributeType.GRAPH:
                bodies = [attr.as_graph()]
            elif attr.type == ir.AttributeType.GRAPHS:
                bodies = list(attr.as_graphs())
            else:
                continue
            for body in bodies:
                if node.op_type == "Loop" and node.domain in ("", "ai.onnx"):
                    given: list[ir.TypeProtocol | None] = [
                        ir.TensorType(ir.DataType.INT64),
                        ir.TensorType(ir.DataType.BOOL),
                    ]
                    given += [v.type if v is not None else None for v in node.inputs[2:]]
                    for parameter, type_ in zip(body.inputs, given):
                        self.give(parameter, type_)
                elif node.op_type == "Scan" and node.domain in ("", "ai.onnx"):
                    for parameter, value in zip(body.inputs, node.inputs[-len(body.inputs) :]):
                        self.give(parameter, value.type if value is not None else None)
                self.graph(body)

    def undo(self) -> None:
        for value, recorded, shape in reversed(self.written):
            value.type = recorded
            value.shape = shape


def inferred_types(
    graph: ir.Graph | ir.Function, opset: int, seeds: Types | None = None
) -> dict[ir.Value, ir.TypeProtocol]:
    """The types of the values of ``graph`` (subgraphs included) that record none, as
    the package's inference tells them from their producers at ``opset`` (in node order,
    each from the types found before it; a node's subgraphs before the node), starting
    from ``seeds`` (types of values nothing in the graph produces: a function's
    parameters). The graph is left as it was: what inference writes on the values is
    taken back."""
    inference = _Inference(opset)
    try:
        for value, seed in (seeds or {}).items():
            inference.give(value, seed)
        inference.graph(graph)
    finally:
        inference.undo()
    return inference.found


def parameter_types(model: ir.Model, types: Types) -> dict[ir.Value, ir.TypeProtocol]:
    """The types of the parameters of ``model``'s functions that every call of the
    main graph (subgraphs included) gives one known type (recorded, else in ``types``)."""
    seen: dict[ir.Value, set[str]] = {}
    chosen: dict[ir.Value, ir.TypeProtocol] = {}
    for node in ir.traversal.RecursiveGraphIterator(model.graph):
        function = model.functions.get(node.op_identifier())
        if function is None:
            continue
        for parameter, argument in zip(function.inputs, node.inputs):
            type_ = _type(argument, types) if argument is not None else None
            names = seen.setdefault(parameter, set())
            names.add(type_string(type_) if type_ is not None else "?")
            if type_ is not None:
                chosen[parameter] = type_
    return {p: chosen[p] for p, names in seen.items() if len(names) == 1 and p in chosen}


def _allowed_at(facts: schemas.OpFacts, formal: schemas.Formal) -> frozenset[str]:
    return frozenset(dict(facts.type_constraints).get(formal.type_str, (formal.type_str,)))


def unknown_type_errors(node: ir.Node, opset: int, source: int, types: Types) -> list[str]:
    """The inputs and outputs of ``node`` (converted from opset ``source`` to ``opset``)
    whose element type is neither recorded nor inferred, where the schema at ``opset``
    takes fewer types than the one at ``source``: nothing tells whether the converted
    node is valid. A type parameter bound by one known value is known for all of it."""
    new, old = schemas.op_facts("", node.op_type, opset), schemas.op_facts("", node.op_type, source)
    if new is None or old is None or new.since_version == old.since_version:
        return []
    known: set[str] = set()
    unknown: list[tuple[str, int, schemas.Formal, schemas.Formal | None]] = []
    for side, formals, old_formals, values in (
        ("input", new.inputs, old.inputs, node.inputs),
        ("output", new.outputs, old.outputs, node.outputs),
    ):
        for formal, position, value in _actuals(formals, values):
            if _type(value, types) is not None:
                known.add(formal.type_str)
                continue
            index = min(position, len(old_formals) - 1) if old_formals else -1
            unknown.append((side, position, formal, old_formals[index] if index >= 0 else None))
    problems = []
    for side, position, formal, old_formal in unknown:
        if formal.type_str in known:
            continue
        narrower = old_formal is None or not _allowed_at(old, old_formal) <= _allowed_at(
            new, formal
        )
        if narrower:
            problems.append(
                f"the element type of {side} {position} ({formal.name}) is not known (neither "
                f"recorded nor inferred) and {node.op_type}-{new.since_version} does not take "
                f"every type {node.op_type}-{old.since_version} does"
            )
            known.add(formal.type_str)  # one message per type parameter
    return problems


_FLOAT_TYPES = frozenset(
    {
        ir.DataType.FLOAT,
        ir.DataType.DOUBLE,
        ir.DataType.FLOAT16,
        ir.DataType.BFLOAT16,
    }
)


def rule_errors(node: ir.Node, types: Types) -> list[str]:
    """What ``node`` breaks of its op's rules that no type constraint states: ``Mod`` of
    floating-point numbers needs ``fmod=1`` (onnx's schema text; onnxruntime refuses it
    at run time)."""
    if node.op_type == "Mod" and not node.attributes.get_int("fmod", 0):
        first = node.inputs[0] if node.inputs else None
        type_ = _type(first, types) if first is not None else None
        if type_ is not None and type_.dtype in _FLOAT_TYPES:
            return ["Mod of floating-point numbers needs fmod=1"]
    return []


__all__ = [
    "inferred_types",
    "parameter_types",
    "rule_errors",
    "type_errors",
    "type_string",
    "unknown_type_errors",
]
