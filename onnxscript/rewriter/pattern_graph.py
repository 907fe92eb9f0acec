"""The pattern IR: what a pattern function builds and the matcher walks.

A pattern is a small graph of :class:`NodePattern`s whose inputs are value patterns:
variables (:class:`ValuePattern` with a name, bound to the graph value they meet), outputs
of other node patterns, :class:`Constant`\\ s, :class:`AnyValue` and alternatives
(:class:`OrValue`). Attributes are matched by :class:`AttrConstantPattern` (a given value)
or :class:`AttrPattern` (any value, bound by name). Op types and domains are matched by
:class:`StringPattern`\\ s.
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import onnx_ir as ir

Checker = Callable[..., Any]
"""A node or value checker: ``check(context, node_or_value) -> bool | MatchResult``."""


_T_contra = TypeVar("_T_contra", contravariant=True)


@runtime_checkable
class Predicate(Protocol[_T_contra]):
    """What string and attribute patterns are: ``matches(item) -> bool`` (0.7.2's
    ``_pattern_ir.Pattern``)."""

    def matches(self, item: _T_contra) -> bool: ...


CURRENT_OPSET: contextvars.ContextVar[Any] = contextvars.ContextVar("pattern_opset", default=None)
"""The pattern builder whose domain ``x + y`` and the other operators of value patterns
use (set by :func:`onnxscript.rewriter.pattern_builder.pattern_builder`; the default
domain when unset)."""


class StringPattern:
    """Matches an op type or domain name."""

    def matches(self, text: str) -> bool:
        raise NotImplementedError

    def exact(self) -> str | None:
        """The one string matched, when there is one (used to index nodes)."""
        return None


class StringConstantPattern(StringPattern):
    """Matches one string (a domain "ai.onnx" is the default domain "")."""

    def __init__(self, value: str) -> None:
        self._value = _domain_name(value)

    @property
    def value(self) -> str:
        return self._value

    def matches(self, text: str) -> bool:
        return _domain_name(text) == self._value

    def exact(self) -> str | None:
        return self._value

    def __repr__(self) -> str:
        return repr(self._value)


class PrefixPattern(StringPattern):
    """Matches the strings starting with ``prefix`` (such as ``pkg.torch``)."""

    def __init__(self, prefix: str) -> None:
        self._prefix = prefix

    @property
    def value(self) -> str:
        return self._prefix

    def matches(self, text: str) -> bool:
        return text.startswith(self._prefix)

    def __repr__(self) -> str:
        return f"{self._prefix}*"


def _domain_name(text: str) -> str:
    return "" if text == "ai.onnx" else text


def to_string_pattern(value: str | StringPattern) -> StringPattern:
    return value if isinstance(value, StringPattern) else StringConstantPattern(value)


class AttrPattern:
    """An attribute of any value, bound to ``name`` (the matched ``ir.Attr``) when named;
    ``check(attr) -> bool`` restricts it; ``can_match_none`` lets the attribute be absent
    (then bound to None)."""

    def __init__(
        self,
        name: str | None = None,
        check: Callable[[ir.Attr], bool] | None = None,
        *,
        can_match_none: bool = False,
    ) -> None:
        self._name = name
        self._check = check
        self._can_match_none = can_match_none

    @property
    def name(self) -> str | None:
        return self._name

    @property
    def can_match_none(self) -> bool:
        return self._can_match_none

    def matches(self, attr: ir.Attr) -> bool:
        return self._check is None or bool(self._check(attr))

    def __repr__(self) -> str:
        return f"AttrPattern({self._name!r})"


class AttrConstantPattern(AttrPattern):
    """An attribute whose value equals ``value`` (floats compared with a tolerance)."""

    def __init__(self, value: Any) -> None:
        super().__init__(None)
        self._value = value

    @property
    def value(self) -> Any:
        return self._value

    def matches(self, attr: ir.Attr) -> bool:
        return _same_attribute_value(attr.value, self._value)

    def __repr__(self) -> str:
        return repr(self._value)


def _same_attribute_value(actual: Any, expected: Any) -> bool:
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, Sequence) or len(actual) != len(expected):
            return False
        return all(_same_attribute_value(a, e) for a, e in zip(actual, expected))
    if isinstance(expected, float) and isinstance(actual, (int, float)):
        return math.isclose(actual, expected, rel_tol=1e-6, abs_tol=1e-12)
    if isinstance(expected, ir.DataType):
        return bool(actual == expected.value or actual == expected)
    return bool(actual == expected)


class ValuePattern:
    """A pattern variable: matches any value and binds it to ``name``;
    ``check(context, value)`` restricts it; an omitted input only when
    ``can_match_none`` (bound to None)."""

    def __init__(
        self, name: str | None, check: Checker | None = None, *, can_match_none: bool = False
    ) -> None:
        self._name = name
        self._check = check
        self._can_match_none = can_match_none

    @property
    def name(self) -> str | None:
        return self._name

    @property
    def can_match_none(self) -> bool:
        return self._can_match_none

    @property
    def check_method(self) -> Checker | None:
        return self._check

    def producer(self) -> NodePattern | None:
        return None

    def __repr__(self) -> str:
        return f"ValuePattern({self._name!r})"

    # Operators let pattern functions write ``x + y`` like script code.
    def __add__(self, other: Any) -> ValuePattern:
        return _binary("Add", self, other)

    def __radd__(self, other: Any) -> ValuePattern:
        return _binary("Add", other, self)

    def __sub__(self, other: Any) -> ValuePattern:
        return _binary("Sub", self, other)

    def __rsub__(self, other: Any) -> ValuePattern:
        return _binary("Sub", other, self)

    def __mul__(self, other: Any) -> ValuePattern:
        return _binary("Mul", self, other)

    def __rmul__(self, other: Any) -> ValuePattern:
        return _binary("Mul", other, self)

    def __truediv__(self, other: Any) -> ValuePattern:
        return _binary("Div", self, other)

    def __rtruediv__(self, other: Any) -> ValuePattern:
        return _binary("Div", other, self)

    def __pow__(self, other: Any) -> ValuePattern:
        return _binary("Pow", self, other)

    def __matmul__(self, other: Any) -> ValuePattern:
        return _binary("MatMul", self, other)


def _binary(op_type: str, left: Any, right: Any) -> ValuePattern:
    opset = CURRENT_OPSET.get()
    if opset is not None:
        made: ValuePattern = getattr(opset, op_type)(left, right)
        return made
    node = NodePattern(
        StringConstantPattern(""), StringConstantPattern(op_type), [left, right], {}, [None]
    )
    return node.outputs[0]


class Var(ValuePattern):
    """0.7's name for a pattern variable: ``Var(name, check=..., can_match_none=...)``."""

    def __init__(
        self, name: str | None, *, check: Checker | None = None, can_match_none: bool = False
    ) -> None:
        super().__init__(name, check, can_match_none=can_match_none)


class AttrVar(AttrPattern):
    """0.7's name for an attribute variable: ``AttrVar(name, can_match_none=...)``."""

    def __init__(self, name: str | None, *, can_match_none: bool = False) -> None:
        super().__init__(name, can_match_none=can_match_none)


class AnyValue(ValuePattern):
    """Matches any value, an omitted input included; binds nothing."""

    def __init__(self) -> None:
        super().__init__(None)

    def __repr__(self) -> str:
        return "ANY_VALUE"


ANY_VALUE = AnyValue()


class Constant(ValuePattern):
    """Matches a constant equal to ``value``: a number matches a one-element tensor of any
    rank, a list a 1-D tensor of that length; floats compared with ``rel_tol`` and
    ``abs_tol``. ``ignore_rank=False`` requires a scalar for a number."""

    def __init__(
        self,
        value: int | float | Sequence[int] | Sequence[float],
        rel_tol: float = 1e-5,
        abs_tol: float = 1e-8,
        ignore_rank: bool = True,
    ) -> None:
        super().__init__(None)
        self._value: int | float | list[int | float] = (
            list(value) if isinstance(value, Sequence) else value
        )
        self._rel_tol = rel_tol
        self._abs_tol = abs_tol
        self._ignore_rank = ignore_rank

    @property
    def value(self) -> int | float | list[int | float]:
        return self._value

    @property
    def rel_tol(self) -> float:
        return self._rel_tol

    @property
    def abs_tol(self) -> float:
        return self._abs_tol

    @property
    def ignore_rank(self) -> bool:
        return self._ignore_rank

    def __repr__(self) -> str:
        return f"Constant({self._value!r})"


class OrValue(ValuePattern):
    """Matches the first of ``values`` that matches; binds ``tag_var`` (when given) to the
    matching one's entry of ``tag_values`` (or its index)."""

    def __init__(
        self,
        values: Sequence[Any],
        name: str | None = None,
        tag_var: str | None = None,
        tag_values: Sequence[Any] | None = None,
    ) -> None:
        super().__init__(name)
        if not values:
            raise ValueError("OrValue needs at least one alternative")
        if tag_values is not None and len(tag_values) != len(values):
            raise ValueError("OrValue: tag_values must have one entry per alternative")
        self._values = [to_value_pattern(v) for v in values]
        self._tag_var = tag_var
        self._tag_values = list(tag_values) if tag_values is not None else None

    @property
    def values(self) -> list[ValuePattern | None]:
        return self._values

    @property
    def tag_var(self) -> str | None:
        return self._tag_var

    @property
    def tag_values(self) -> list[Any] | None:
        return self._tag_values

    def tag(self, index: int) -> Any:
        return self._tag_values[index] if self._tag_values is not None else index

    def __repr__(self) -> str:
        return f"OrValue({self._values!r})"


BacktrackingOr = OrValue
"""0.7.2's name for alternatives tried in turn (its ``OrValue`` picks this one or
:class:`OpIdDispatchOr`; ours tries alternatives in turn always)."""


class OpIdDispatchOr(OrValue):
    """Alternatives told apart by the op producing the value: ``op_to_pattern`` maps an
    operator identifier ``(domain, op_type, overload)`` to ``(tag, pattern)``."""

    def __init__(
        self,
        op_to_pattern: Mapping[tuple[str, str, str], tuple[Any, ValuePattern]],
        name: str | None = None,
        tag_var: str | None = None,
    ) -> None:
        self._op_to_pattern = dict(op_to_pattern)
        entries = list(self._op_to_pattern.values())
        super().__init__(
            [pattern for _, pattern in entries],
            name,
            tag_var,
            [tag for tag, _ in entries] if tag_var is not None else None,
        )

    def get_pattern(self, value: ir.Value) -> tuple[Any, ValuePattern] | None:
        """The ``(tag, pattern)`` for the op producing ``value``, or None."""
        producer = value.producer()
        if producer is None:
            return None
        op_id = (producer.domain, producer.op_type, producer.overload)
        return self._op_to_pattern.get(op_id)


class NodeOutputPattern(ValuePattern):
    """Output ``index`` of a node pattern (``name``, when given, binds the matched value)."""

    def __init__(self, node: NodePattern, index: int, name: str | None = None) -> None:
        super().__init__(name)
        self._node = node
        self._index = index

    @property
    def node(self) -> NodePattern:
        return self._node

    @property
    def output_index(self) -> int:
        return self._index

    def producer(self) -> NodePattern:
        return self._node

    def __repr__(self) -> str:
        return f"{self._node.op_text}.outputs[{self._index}]"


class NodePattern:
    """One op of a pattern: domain and op type, inputs, attributes, outputs."""

    def __init__(
        self,
        domain: str | StringPattern,
        op: str | StringPattern,
        inputs: Sequence[Any],
        attributes: dict[str, AttrPattern],
        outputs: Sequence[str | None],
        *,
        allow_other_attributes: bool = True,
        allow_other_inputs: bool = False,
        check: Checker | None = None,
    ) -> None:
        self.domain = to_string_pattern(domain)
        self.op = to_string_pattern(op)
        self.inputs: list[ValuePattern | None] = [to_value_pattern(x) for x in inputs]
        self.attributes = attributes
        self.outputs = [NodeOutputPattern(self, i, name) for i, name in enumerate(outputs)]
        self.allow_other_attributes = allow_other_attributes
        self.allow_other_inputs = allow_other_inputs
        self._check = check

    @property
    def check(self) -> Checker | None:
        """The node checker, ``check(context, node) -> bool | MatchResult``."""
        return self._check

    @property
    def _op_identifier(self) -> tuple[str, str, str] | None:
        """``(domain, op_type, "")`` when both are fixed strings (0.7.2's operator id)."""
        domain, op = self.domain.exact(), self.op.exact()
        return None if domain is None or op is None else (domain, op, "")

    @property
    def op_text(self) -> str:
        domain = self.domain.exact()
        op = self.op.exact()
        op_text = op if op is not None else repr(self.op)
        return f"{domain}::{op_text}" if domain else op_text

    def __repr__(self) -> str:
        return f"NodePattern({self.op_text})"


def to_value_pattern(x: Any) -> ValuePattern | None:
    """What a pattern call's argument stands for: a pattern as is, a number or list of
    numbers a :class:`Constant`, a string a named variable, a callable an anonymous
    variable checked by it, None an omitted input."""
    if x is None or isinstance(x, ValuePattern):
        return x
    if isinstance(x, bool):
        raise TypeError("a bool cannot stand for a value in a pattern; use a Constant")
    if isinstance(x, (int, float)):
        return Constant(x)
    if isinstance(x, str):
        return ValuePattern(x)
    if isinstance(x, Sequence) and all(isinstance(i, (int, float)) for i in x):
        return Constant(list(x))
    if callable(x):
        return ValuePattern(None, check=x)
    raise TypeError(f"cannot use {type(x).__name__} {x!r} as a value in a pattern")


def to_attr_pattern(value: Any) -> AttrPattern:
    """What an attribute keyword of a pattern call stands for: a pattern variable binds
    the attribute by its name; anything else is the value the attribute must have."""
    if isinstance(value, AttrPattern):
        return value
    if isinstance(value, ValuePattern) and not isinstance(value, (Constant, NodeOutputPattern)):
        return AttrPattern(value.name, can_match_none=value.can_match_none)
    if isinstance(value, Constant):
        return AttrConstantPattern(value.value)
    if isinstance(value, NodeOutputPattern):
        raise TypeError("an attribute cannot be matched by the output of a pattern node")
    return AttrConstantPattern(value)


class GraphPattern:
    """A pattern with its inputs (the pattern function's variables) and outputs."""

    def __init__(
        self,
        inputs: Sequence[ValuePattern],
        outputs: Sequence[ValuePattern],
        nodes: Sequence[NodePattern] | None = None,
    ) -> None:
        """``nodes`` (0.7.2's argument) is not needed: the nodes are found from the
        outputs."""
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        if not self.outputs:
            raise ValueError("a pattern must return at least one value")
        for output in self.outputs:
            if not isinstance(output, NodeOutputPattern):
                raise ValueError(
                    f"a pattern output must be computed by an op of the pattern, got {output!r}"
                )
        self.nodes = list(_nodes_before(self.outputs))
        self.required_nodes = list(_nodes_before(self.outputs, alternatives=False))

    @property
    def root(self) -> NodePattern:
        """The node pattern the matcher starts from: the producer of the first output."""
        producer = self.outputs[0].producer()
        assert producer is not None
        return producer

    @property
    def output_nodes(self) -> list[NodePattern]:
        """The producers of the outputs, in the outputs' order, each once."""
        found: list[NodePattern] = []
        for output in self.outputs:
            producer = output.producer()
            if producer is not None and all(producer is not f for f in found):
                found.append(producer)
        return found

    @property
    def has_single_root(self) -> bool:
        """Whether every node is reached from the first output's producer."""
        reached = set(_nodes_before([self.outputs[0]], alternatives=False))
        return all(node in reached for node in self.required_nodes)

    def __repr__(self) -> str:
        return f"GraphPattern(nodes={self.nodes!r})"


def _nodes_before(
    outputs: Sequence[ValuePattern], alternatives: bool = True
) -> Iterator[NodePattern]:
    """The node patterns computing ``outputs``, producers before consumers (those inside
    ``OrValue`` alternatives too when ``alternatives``)."""
    seen: set[int] = set()
    order: list[NodePattern] = []

    def visit_value(value: ValuePattern | None) -> None:
        if isinstance(value, OrValue):
            for alternative in value.values if alternatives else ():
                visit_value(alternative)
        elif value is not None:
            producer = value.producer()
            if producer is not None and id(producer) not in seen:
                seen.add(id(producer))
                for item in producer.inputs:
                    visit_value(item)
                order.append(producer)

    for output in outputs:
        visit_value(output)
    return iter(order)


__all__ = [
    "ANY_VALUE",
    "CURRENT_OPSET",
    "AnyValue",
    "AttrConstantPattern",
    "AttrPattern",
    "AttrVar",
    "BacktrackingOr",
    "Constant",
    "GraphPattern",
    "NodeOutputPattern",
    "NodePattern",
    "OpIdDispatchOr",
    "OrValue",
    "Predicate",
    "PrefixPattern",
    "StringConstantPattern",
    "StringPattern",
    "ValuePattern",
    "Var",
    "to_attr_pattern",
    "to_string_pattern",
    "to_value_pattern",
]
