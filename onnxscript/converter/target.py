"""The language rules (``onnxscript.language``) carried out by the converter: operands are
compile-time symbols, and emitting an op adds a node to the graph being built.

A :class:`SymbolTarget` serves one expression (``node``): errors of the rules become
:class:`ScriptError` located there.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import onnx

from onnxscript import dtypes
from onnxscript.converter import presence, type_inference
from onnxscript.converter.symbols import AttrRef, Const, Sym
from onnxscript.errors import OperatorTypeError, ScriptError
from onnxscript.language import indexing
from onnxscript.language import operators as rules
from onnxscript.language.target import ATTR, INDEX, LITERAL, TENSOR
from onnxscript.program.graph import Value

if TYPE_CHECKING:
    from onnxscript.converter.translator import Translator

R = TypeVar("R")
_ARRAYS = (np.ndarray, np.generic, onnx.TensorProto)
_BOUND_FIELDS = {"start": "lower", "stop": "upper", "step": "step"}


class SymbolTarget:
    """:class:`~onnxscript.language.indexing.IndexTarget` over converter symbols."""

    __slots__ = ("node", "t")

    def __init__(self, t: Translator, node: ast.AST) -> None:
        self.t = t
        self.node = node

    def kind(self, operand: Sym) -> int:
        if isinstance(operand, Value):
            return INDEX if operand in self.t.int_like else TENSOR
        if isinstance(operand, AttrRef):
            return ATTR
        if isinstance(operand, Const) and isinstance(operand.value, _ARRAYS):
            return TENSOR
        return LITERAL

    def literal(self, operand: Sym) -> Any:
        return operand.value if isinstance(operand, Const) else None

    def dtype(self, value: Value) -> int | None:
        return type_inference.known_dtype(value)

    def tensor(self, operand: Sym, *, dtype: int | None = None, like: Any = None) -> Value:
        return self.t.to_tensor(operand, self.node, like=like, dtype=dtype)

    def retype_index(self, value: Value, *, dtype: int | None = None, like: Any = None) -> Value:
        return self.t.retype_int_like(value, dtype=dtype, like=like)

    def emit(self, op_type: str, *inputs: Value, **attributes: Any) -> Value:
        if op_type == "OptionalHasElement":
            version = self.t.ctx.default_opset_version()
            presence.require_opset(version, inputs[0], "comparing a tensor with None")
        return self.t.builder.emit1(op_type, *inputs, hint=op_type.lower(), **attributes)

    def mark_index(self, value: Value) -> Value:
        self.t.int_like.add(value)
        return value

    def static(self, operand: Sym) -> tuple[bool, Any]:
        if isinstance(operand, Const):
            return True, operand.value
        return False, None

    def python(self, value: Any) -> Const:
        return Const(value)

    # -- indexing ---------------------------------------------------------------------------

    def slice_bound(self, item: ast.Slice, part: str) -> int | Value | None:
        node = getattr(item, _BOUND_FIELDS[part])
        if node is None:
            return None
        sym = self.t.expr(node)
        if not isinstance(sym, Const):
            return self.t.to_tensor(sym, node, dtype=dtypes.INT64)
        value = sym.value
        if value is None:
            return None
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            return int(value)
        raise self.t.error(node, f"slice bounds must be integers, got {type(value).__name__}")

    def gather_index(self, item: ast.expr) -> tuple[Value, bool]:
        sym = self.t.expr(item)
        if not isinstance(sym, Const):
            return self.t.to_tensor(sym, item, dtype=dtypes.INT64), True
        value = sym.value
        if isinstance(value, bool) or not isinstance(
            value, (int, np.integer, list, tuple, np.ndarray)
        ):
            raise self.t.error(
                item,
                f"cannot index a tensor with {type(value).__name__} {value!r}",
                "indices are integers, slices, `...`, None, or INT64 tensors",
            )
        misfit = indexing.index_misfit(value)
        if misfit is not None:
            raise self.t.error(item, misfit)
        return self.t.builder.constant(np.asarray(value, dtype=np.int64)), np.ndim(value) > 0

    def int_vector(self, parts: Sequence[int | Value]) -> Value:
        builder = self.t.builder
        if all(isinstance(p, int) for p in parts):
            return builder.constant(np.array(parts, dtype=np.int64))
        minus_one = builder.constant(np.array([-1], dtype=np.int64))
        pieces = []
        for p in parts:
            if isinstance(p, int):
                pieces.append(builder.constant(np.array([p], dtype=np.int64)))
                continue
            if type_inference.known_dtype(p) not in (None, dtypes.INT64):
                p = builder.emit1("Cast", p, hint="index", to=dtypes.INT64)
            pieces.append(builder.emit1("Reshape", p, minus_one, hint="index"))
        return builder.emit1("Concat", *pieces, hint="bounds", axis=0)

    def fail(self, item: Any, message: str, hint: str = "", kind: type = TypeError) -> ScriptError:
        return self.t.error(item if item is not None else self.node, message, hint)

    # -- applying the rules -------------------------------------------------------------------

    def apply(self, rule: Callable[..., R], *args: Any) -> R:
        """``rule(self, *args)``, its :class:`OperatorTypeError` made a located ScriptError.
        The nodes it emits come from this target's expression (operands are translated)."""
        self.t.builder.origin = self.node
        try:
            return rule(self, *args)
        except OperatorTypeError as exc:
            raise self.t.error(self.node, exc.message, self._hint(exc)) from None

    def _hint(self, exc: OperatorTypeError) -> str:
        """The rule's hint, with the source text of the operand it is about in place of
        its ``...`` when this expression shows which operand that is."""
        operands = _operand_nodes(self.node)
        if exc.operand is None or exc.operand >= len(operands):
            return exc.hint
        return exc.hint.replace("...", self.t.text(operands[exc.operand]))


def _operand_nodes(node: ast.AST) -> list[ast.expr]:
    """The operands of an operator expression, in the order the rules number them (none
    for ``and``/``or`` and chained comparisons, where the rules do not say which)."""
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.Compare) and len(node.comparators) == 1:
        return [node.left, node.comparators[0]]
    return []


def binary(t: Translator, node: ast.AST, symbol: str, left: Sym, right: Sym) -> Sym:
    """``left <symbol> right`` for arithmetic and bitwise operators."""
    return SymbolTarget(t, node).apply(rules.binary, symbol, left, right)  # type: ignore[no-any-return]


def unary(t: Translator, node: ast.AST, symbol: str, operand: Sym) -> Sym:
    """``-x``, ``+x``, ``~x``, ``not x`` on a tensor operand."""
    return SymbolTarget(t, node).apply(rules.unary, symbol, operand)  # type: ignore[no-any-return]


def boolean(t: Translator, node: ast.AST, is_and: bool, values: Sequence[Sym]) -> Sym:
    """``a and b ...`` / ``a or b ...``."""

    def truth(value: Any) -> bool:
        return t.truth(value, node)

    return SymbolTarget(t, node).apply(rules.boolean, is_and, values, truth)  # type: ignore[no-any-return]


def compare_chain(
    t: Translator, node: ast.Compare, symbols: Sequence[str], values: Sequence[Sym]
) -> Sym:
    """``a < b``, ``a < b <= c``, ...: comparisons of values known now are folded."""

    def fold(compare: Callable[[Any, Any], Any], left: Any, right: Any) -> Any:
        try:
            return compare(left, right)
        except Exception as exc:
            raise t.error(node, f"cannot evaluate {t.text(node)}: {exc}") from None

    known = presence.known_presence(t, node, symbols, values)
    if known is not None:
        return known
    return SymbolTarget(t, node).apply(rules.compare_chain, symbols, values, fold)  # type: ignore[no-any-return]


def subscript(t: Translator, node: ast.Subscript, base: Sym) -> Sym:
    """``base[...]`` of a tensor: ``Slice``/``Gather``/``Unsqueeze``."""
    x = t.to_tensor(base, node.value)
    index = node.slice
    items = list(index.elts) if isinstance(index, ast.Tuple) else [index]
    kinds = "".join(indexing.kind_of_node(e) for e in items)
    return SymbolTarget(t, node).apply(indexing.getitem, x, items, kinds)  # type: ignore[no-any-return]
