"""The least strict type constraints of a compiled function's inputs and outputs, deduced
from the schemas of the ops its body calls (onnxscript 0.7's
``function_libs.tools.torch_lib.deduce_type_constraints``).

Each value of the body gets a :class:`TypeConstraint`, shared by the values an op's schema
says have one type (``Add``'s inputs and output); a value bound to two constraints merges
them into one allowing what both allow. An op output whose type no input decides and that
may have several (``Cast``'s, ``Constant``'s: an attribute decides it) allows nothing that
can be deduced: the empty set. A function input no op reads has no constraint (None).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import onnx

_NO_CONSTRAINT = "None"


def _type_name(type_str: str) -> str:
    """``FLOAT`` for ``tensor(float)`` (other type strings are kept)."""
    if type_str.startswith("tensor(") and type_str.endswith(")"):
        return type_str[len("tensor(") : -1].upper()
    return type_str


class Value:
    """A named value of the function body and the constraint it is bound to."""

    def __init__(self, name: str) -> None:
        self.type_constraint: TypeConstraint | None = None
        self.name = name

    def merge_type_constraint(self, other: Value) -> None:
        """Make this value and ``other`` share one constraint (both must not lack one)."""
        mine, theirs = self.type_constraint, other.type_constraint
        if mine is None and theirs is None:
            raise ValueError(
                f"Cannot merge two values without type constraints. {self} and {other}"
            )
        if mine is None:
            assert theirs is not None
            theirs.bind_value(self)
        elif theirs is None:
            mine.bind_value(other)
        elif mine is not theirs:
            theirs.merge_type_constraint(mine)

    def __repr__(self) -> str:
        return f"Value(name={self.name}, type_constraint={self.type_constraint})"


class TypeConstraint:
    """Type constraint shared by multiple values: the type strings they may have."""

    def __init__(self, name: str, type_strs: set[str]) -> None:
        self.name = name
        self.type_strs = type_strs
        self.values: set[Value] = set()

    def merge_type_constraint(self, other: TypeConstraint) -> None:
        """Take over ``other``'s values; allow only what both allow (named ``self.other``)."""
        self.type_strs = self.type_strs & other.type_strs
        self.name = f"{self.name}.{other.name}"
        for value in list(other.values):
            self.bind_value(value)

    def bind_value(self, value: Value) -> None:
        value.type_constraint = self
        self.values.add(value)

    def __repr__(self) -> str:
        names = sorted(value.name for value in self.values)
        return f"TypeConstraint(name={self.name}, type_strs={self.type_strs}, values={names})"


@dataclasses.dataclass(repr=False)
class OnnxFunctionTypeConstraints:
    """The constraints of a function's inputs and outputs (and, when asked, of every value
    of its body), by value name; ``__str__`` lists them with the constraints' names."""

    input_type_constraints: dict[str, TypeConstraint | None]
    output_type_constraints: dict[str, TypeConstraint | None]
    intermediate_type_constraints: dict[str, TypeConstraint | None]

    def __repr__(self) -> str:
        lines = ["Type Constraints:", "  Inputs: "]
        lines += _listed(self.input_type_constraints)
        lines.append("  Outputs: ")
        lines += _listed(self.output_type_constraints)
        lines.append("  Type Constraints: ")
        signature = {**self.input_type_constraints, **self.output_type_constraints}
        lines += _constraints(signature.values())
        if self.intermediate_type_constraints:
            lines.append("  Intermediate Values: ")
            lines += _listed(self.intermediate_type_constraints)
            lines.append("  Intermediate Type Constraints: ")
            lines += _constraints(self.intermediate_type_constraints.values())
        return "\n".join(lines)

    __str__ = __repr__


def _listed(constraints: dict[str, TypeConstraint | None]) -> list[str]:
    return [
        f"    {name}: {_NO_CONSTRAINT if c is None else c.name}" for name, c in constraints.items()
    ]


def _constraints(constraints: Any) -> list[str]:
    seen: dict[int, TypeConstraint] = {}
    for constraint in constraints:
        if constraint is not None:
            seen.setdefault(id(constraint), constraint)
    return [f"    {c.name}: {c.type_strs}" for c in seen.values()]


class TypeConstraintDeducer:
    """Deduces the constraints of one compiled function (``onnxscript.OnnxFunction``)."""

    def __init__(self, onnx_function: Any) -> None:
        self.onnx_function = onnx_function
        self.values: dict[str, Value] = {}

    def type_constraints(self, signature_only: bool = True) -> OnnxFunctionTypeConstraints:
        """The constraints found, named ``T0``, ``T1``, ... in order of first appearance
        (inputs, then outputs, then the body's other values)."""
        proto = self.function_proto
        inputs = {name: self.values[name].type_constraint for name in proto.input}
        outputs = {name: self.values[name].type_constraint for name in proto.output}
        intermediate = (
            {} if signature_only else {n: v.type_constraint for n, v in self.values.items()}
        )
        numbered: dict[int, str] = {}
        for constraints in (inputs, outputs, intermediate):
            for constraint in constraints.values():
                if constraint is not None and id(constraint) not in numbered:
                    numbered[id(constraint)] = f"T{len(numbered)}"
                    constraint.name = numbered[id(constraint)]
        return OnnxFunctionTypeConstraints(inputs, outputs, intermediate)

    def deduce(self, signature_only: bool = True) -> OnnxFunctionTypeConstraints:
        """Walk the function's body (nested graphs included) and return the constraints."""
        self.values = {}
        self.function_proto: onnx.FunctionProto = self.onnx_function.to_function_proto()
        versions = {o.domain: o.version for o in self.function_proto.opset_import}
        self.opset_version: int = versions.get("", versions.get("ai.onnx", 1))
        for name in self.function_proto.input:
            self.values[name] = Value(name)
        for node in self.function_proto.node:
            self._process_node(node)
        return self.type_constraints(signature_only)

    def _value(self, name: str) -> Value:
        return self.values.setdefault(name, Value(name))

    def _process_node(self, node: onnx.NodeProto) -> None:
        if node.domain not in ("", "ai.onnx"):
            raise NotImplementedError("Nested function is not supported yet.")
        schema = onnx.defs.get_schema(node.op_type, self.opset_version, node.domain)
        constraints = {
            c.type_param_str: TypeConstraint(
                f"{node.op_type}.{c.type_param_str}", {_type_name(t) for t in c.allowed_type_strs}
            )
            for c in schema.type_constraints
        }
        # An output's type no input decides comes from an attribute, or (If, Loop, Scan)
        # from the nested graphs' outputs, bound below.
        has_graphs = any(a.HasField("g") or a.graphs for a in node.attribute)
        input_params = None if has_graphs else {p.type_str for p in schema.inputs}
        self._bind(list(node.input), schema.inputs, constraints, None)
        self._bind(list(node.output), schema.outputs, constraints, input_params)
        for attribute in node.attribute:
            graphs = [attribute.g] if attribute.HasField("g") else list(attribute.graphs)
            for graph in graphs:
                for inner in graph.node:
                    self._process_node(inner)
        self._bind_subgraph_outputs(node)

    def _bind(
        self,
        names: Sequence[str],
        params: Sequence[onnx.defs.OpSchema.FormalParameter],
        constraints: dict[str, TypeConstraint],
        input_params: set[str] | None,
    ) -> None:
        """Bind the values ``names`` to the constraints of their schema parameters (the
        last one repeated for variadic ones); ``input_params`` are the type parameters an
        input decides, for outputs."""
        for index, name in enumerate(names):
            if not name or not params:
                continue
            param = params[min(index, len(params) - 1)]
            constraint = constraints.get(param.type_str)
            if constraint is None:
                constraint = TypeConstraint(param.type_str, {_type_name(param.type_str)})
            elif input_params is not None and param.type_str not in input_params:
                if len(constraint.type_strs) != 1:  # an attribute decides the type
                    constraint = TypeConstraint(constraint.name, set())
            elif not param.is_homogeneous:  # each value of a variadic one has its own
                constraint = TypeConstraint(constraint.name, set(constraint.type_strs))
            value = self._value(name)
            if value.type_constraint is None:
                constraint.bind_value(value)
            elif value.type_constraint is not constraint:
                constraint.merge_type_constraint(value.type_constraint)

    def _bind_subgraph_outputs(self, node: onnx.NodeProto) -> None:
        """An If's outputs are its branches'; a Loop's carried values are its body's."""
        graphs = {a.name: a.g for a in node.attribute if a.HasField("g")}
        if node.op_type == "If":
            for branch in ("then_branch", "else_branch"):
                for outer, inner in zip(node.output, graphs[branch].output):
                    self._merge(outer, inner.name)
        elif node.op_type == "Loop":
            body = graphs["body"]
            carried = len(node.input) - 2
            for i in range(carried):
                self._merge(node.output[i], body.output[1 + i].name)
                self._merge(node.input[2 + i], body.input[2 + i].name)

    def _merge(self, a: str, b: str) -> None:
        first, second = self._value(a), self._value(b)
        if first.type_constraint is None and second.type_constraint is None:
            return
        first.merge_type_constraint(second)


def deduce_type_constraints(
    onnx_function: Any, signature_only: bool = True
) -> OnnxFunctionTypeConstraints:
    """The least strict type constraints of a compiled function (``@script``), deduced from
    the schemas of the ops its body calls (nested graphs included; a call to another
    function is not supported). ``signature_only=False`` adds every value of the body."""
    return TypeConstraintDeducer(onnx_function).deduce(signature_only)


__all__ = [
    "OnnxFunctionTypeConstraints",
    "TypeConstraint",
    "TypeConstraintDeducer",
    "Value",
    "deduce_type_constraints",
]
