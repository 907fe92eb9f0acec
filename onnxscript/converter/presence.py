"""Tests of presence: ``x is None``, ``x is not None``, ``x == None``, ``x != None`` and
``op.OptionalHasElement(x)`` / ``op.OptionalGetElement(x)`` in a script.

A comparison with ``None`` compiles to ``OptionalHasElement`` (negated for ``is``/``==``;
the rule is ``language.operators.presence``, shared with eager mode). Where the compiler
knows the answer it is folded: a value computed by a node, or a required input, is always
there. An optional input is not known: in a ``FunctionProto`` the caller decides, so it
is a run-time test. ``OptionalHasElement`` takes a plain tensor (or a missing input) from
ai.onnx opset 18 on, an ``optional(T)`` value from opset 15 on; below that, a
:class:`ScriptError` names the opset needed.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING

from onnxscript.converter.symbols import AttrRef, Const, Sym
from onnxscript.errors import OperatorTypeError
from onnxscript.program.graph import Value
from onnxscript.value_types import OptionalTypeSpec, SequenceTypeSpec, TensorTypeSpec

if TYPE_CHECKING:
    from onnxscript.converter.translator import Translator

OPTIONAL_OPS = frozenset({"OptionalHasElement", "OptionalGetElement"})
"""The ops that read an optional value (or an omitted input) as it is."""
_ASKS_PRESENT = {"is": False, "==": False, "is not": True, "!=": True}


def _tested(left: Sym, right: Sym) -> Sym | None:
    """The operand compared with ``None``, if exactly one side is ``None``."""
    left_none = isinstance(left, Const) and left.value is None
    right_none = isinstance(right, Const) and right.value is None
    if left_none == right_none:
        return None
    return right if left_none else left


def known_presence(
    t: Translator, node: ast.AST, symbols: Sequence[str], values: Sequence[Sym]
) -> Const | None:
    """The result of a single comparison with ``None`` when known at compile time."""
    if len(symbols) != 1 or symbols[0] not in _ASKS_PRESENT:
        return None
    tested = _tested(values[0], values[1])
    if isinstance(tested, AttrRef):
        raise t.error(
            node,
            f"cannot compare the attribute parameter '{tested.param.name}' with None: "
            "ONNX has no run-time test for an attribute that was not given",
            f"give '{tested.param.name}' a default value and compare it with that value",
        )
    if isinstance(tested, Value) and t.known_present(tested):
        return Const(_ASKS_PRESENT[symbols[0]])
    return None


def is_present_type(value: Value) -> bool:
    """Whether ``value``'s static type says it is a tensor or sequence (never absent)."""
    return isinstance(value.type, (TensorTypeSpec, SequenceTypeSpec))


def required_opset(value: Value | None) -> int:
    """The ai.onnx opset ``OptionalHasElement``/``OptionalGetElement`` need for ``value``."""
    return 15 if value is not None and isinstance(value.type, OptionalTypeSpec) else 18


def require_opset(version: int, value: Value | None, what: str) -> None:
    """An :class:`OperatorTypeError` when opset ``version`` cannot express ``what`` on
    ``value`` (a plain tensor or an omitted optional input needs opset 18)."""
    needed = required_opset(value)
    if version < needed:
        raise OperatorTypeError(
            f"{what} tests whether an optional input was given, which needs ai.onnx "
            f"opset {needed} or newer (this function uses opset {version})",
            f"import opset{needed} (or newer) as op",
        )
