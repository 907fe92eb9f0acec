"""Translation of Python expressions to IR values (or compile-time symbols)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np
import onnx

from onnxscript import dtypes
from onnxscript.converter import (
    control_flow,
    optional_values,
    presence,
    target,
    type_inference,
    unknown_ops,
)
from onnxscript.converter.calls import translate_call
from onnxscript.converter.context import FunctionContext
from onnxscript.converter.graph_emitter import GraphEmitter
from onnxscript.converter.scope import MISSING
from onnxscript.converter.symbols import AttrRef, Const, NestedGraph, Sym, SymTuple
from onnxscript.errors import AttributeValueError, ScriptError
from onnxscript.language.attributes import AT
from onnxscript.language.literals import literal_misfit
from onnxscript.language.operators import AST_BINARY, AST_COMPARE, AST_UNARY, PY_BINARY
from onnxscript.program.graph import Attr, Graph, Value
from onnxscript.value_types import OptionalTypeSpec, TensorTypeSpec
from onnxscript.values import GraphFunction, OnnxFunction, Op, Opset

_TENSOR_LIKE = (int, float, bool, np.ndarray, np.generic, onnx.TensorProto)


def _a(noun: str) -> str:
    """``noun`` with its indefinite article, by its first letter: "an Opset", "a tuple"."""
    return f"{'an' if noun[:1].lower() in tuple('aeiou') else 'a'} {noun}"


def _is_tensor_data(value: Any) -> bool:
    if isinstance(value, _TENSOR_LIKE):
        return True
    if isinstance(value, (list, tuple)):
        return all(_is_tensor_data(v) or isinstance(v, str) for v in value)
    return isinstance(value, str)


K = TypeVar("K")


class ExpressionTranslator:
    """Translates expressions in the current graph (``builder``) and environment (``env``)."""

    def __init__(self, ctx: FunctionContext, builder: GraphEmitter) -> None:
        self.ctx = ctx
        self.builder = builder
        self.env: dict[str, Sym] = {}
        # Cache of attribute parameters promoted to tensors, per graph builder.
        self._attr_tensors: dict[tuple[GraphEmitter, str], Value] = {}
        # Values that stand for Python ints (loop indices of `range` and int arithmetic on
        # them): like Python numbers, they take the other operand's type in operators.
        self.int_like: set[Value] = set()
        # Globals, closure variables and builtins read so far (they do not change while
        # the function compiles).
        self._outer_names: dict[str, Const] = {}
        # Undo logs of the nested scopes (branches, loop bodies) being translated: the
        # value each variable had before the scope first changed it.
        self._undo: list[dict[str, Sym | None]] = []
        # Attribute parameters ended by `del` (restored when the enclosing scope ends, as
        # deleted variables are, then ended after it: see `end_names`).
        self.deleted_attrs: set[str] = set()
        # Variables deleted with `del` somewhere (for the message of a later read).
        self.deleted_names: set[str] = set()
        # The optional inputs: whether they are there is known only at run time.
        self.optional_inputs: set[Value] = set()
        # Optional values read as tensors (OptionalGetElement), per graph builder.
        self.unwrapped: dict[tuple[GraphEmitter, Value], Value] = {}

    # -- variables ------------------------------------------------------------------------

    def set_var(self, name: str, sym: Sym) -> None:
        """Bind a Python variable (undone when the enclosing branch or body ends)."""
        if self._undo and name not in self._undo[-1]:
            self._undo[-1][name] = self.env.get(name)
        self.env[name] = sym

    def del_var(self, name: str) -> None:
        """Unbind a Python variable (``del``)."""
        if self._undo and name not in self._undo[-1]:
            self._undo[-1][name] = self.env.get(name)
        del self.env[name]
        self.deleted_names.add(name)

    def end_names(self, names: set[str]) -> None:
        """Unbind variables and attribute parameters that a branch or loop body deleted: after
        it they may be unbound, so reading them is an error (as Python's may be)."""
        for name in names:
            if name in self.env:
                self.del_var(name)
            elif name in self.ctx.attr_params:
                self.deleted_attrs.add(name)

    @contextmanager
    def scope(self) -> Iterator[set[str]]:
        """Variables set inside get their earlier values back at the end. Branches and loop
        bodies are translated this way instead of on a copy of every variable, which kept
        compile time linear in long functions. The set yielded receives, at the end, the
        names bound before and deleted inside (see :meth:`end_names`)."""
        log: dict[str, Sym | None] = {}
        self._undo.append(log)
        deleted = set(self.deleted_attrs)
        ended: set[str] = set()
        try:
            yield ended
        finally:
            self._undo.pop()
            env = self.env
            ended.update(n for n, old in log.items() if old is not None and n not in env)
            ended.update(self.deleted_attrs - deleted)
            self.deleted_attrs = deleted
            for name, old in log.items():
                if old is None:
                    env.pop(name, None)
                else:
                    env[name] = old

    # -- errors and locations -------------------------------------------------------------

    def error(self, node: ast.AST | None, message: str, hint: str = "") -> ScriptError:
        return self.ctx.source.error(node, message, hint)

    def locate(self, node: ast.AST) -> None:
        """Remember the AST node being translated: nodes emitted now come from it."""
        self.builder.origin = node

    def text(self, node: ast.AST) -> str:
        return self.ctx.source.segment(node)

    # -- names ----------------------------------------------------------------------------

    def lookup(self, name: str, node: ast.AST) -> Sym:
        found = self.env.get(name)
        if found is not None:
            return found
        if name in self.ctx.attr_params:
            if name in self.deleted_attrs:
                raise self.error(
                    node,
                    f"Unbound name: {name}",
                    f"the attribute parameter '{name}' was deleted with `del` before this line",
                )
            return self.ctx.attr_params[name]
        if name in self.deleted_names:
            raise self.error(
                node,
                f"Unbound name: {name}",
                f"'{name}' was deleted with `del` before this line (on some path that "
                "reaches it); assign it again before reading it",
            )
        if name in self.ctx.local_names:
            raise self.error(
                node,
                f"Unbound name: {name}",
                f"'{name}' is assigned in this function but has no value here; "
                "assign it before this line (on every path that reaches it)",
            )
        outer = self._outer_names.get(name)
        if outer is not None:
            return outer
        value = self.ctx.scope.lookup(name)
        if value is MISSING:
            raise self.error(
                node,
                f"Unbound name: {name}",
                f"'{name}' is not a variable of the function, a global or a closure "
                "variable; check the spelling or define it before use",
            )
        outer = self._outer_names[name] = Const(value, name)
        return outer

    # -- entry points ---------------------------------------------------------------------

    def expr(self, node: ast.expr, n_outputs: int | None = None, hints: Sequence[str] = ()) -> Sym:
        """Translate ``node``. ``n_outputs``/``hints`` apply when it is a call."""
        self.builder.origin = node
        kind = type(node)
        if kind is ast.Name:  # the most common expression: a variable
            found = self.env.get(node.id)  # type: ignore[attr-defined]
            if found is not None:
                return found
            return self.lookup(node.id, node)  # type: ignore[attr-defined]
        if kind is ast.Call:
            return translate_call(self, node, n_outputs, hints)  # type: ignore[arg-type]
        method = _EXPR_METHODS.get(kind)
        if method is None:
            raise self.unsupported(node)
        result: Sym = method(self, node)
        return result

    def unsupported(self, node: ast.AST) -> ScriptError:
        kind = type(node).__name__
        hints = {
            "Lambda": "define a nested function with `def` and pass it as a graph attribute",
            "ListComp": "write the loop explicitly with `for i in range(n)`",
            "GeneratorExp": "write the loop explicitly with `for i in range(n)`",
            "DictComp": "dictionaries are not tensors; compute values with ops",
            "SetComp": "sets are not tensors; compute values with ops",
            "Dict": "dictionaries are not tensors; pass attributes as keyword arguments",
            "Set": "sets are not tensors; use a list of constants",
            "JoinedStr": "build strings outside the script and use them as constants",
            "Await": "scripts are not asynchronous",
            "Yield": "scripts cannot be generators",
            "NamedExpr": "assign the value in a separate statement",
            "Starred": "unpacking with * is only allowed in call arguments",
        }
        return self.error(
            node,
            f"unsupported Python expression ({kind}): {self.text(node)}",
            hints.get(kind, "see docs/language.md for the supported subset"),
        )

    def require_same_dtype(
        self, node: ast.AST, first: int | None, second: int | None, message: str, hint: str
    ) -> None:
        """A ScriptError when two element types are both known and differ; ``message`` has
        ``{0}``/``{1}`` for their names. ONNX never converts types implicitly."""
        if first is not None and second is not None and first != second:
            names = (dtypes.dtype_name(first), dtypes.dtype_name(second))
            raise self.error(node, message.format(*names), hint)

    def truth(self, value: Any, node: ast.AST) -> bool:
        """Python's truth value of a compile-time condition, or a ScriptError."""
        try:
            return bool(value)
        except Exception as exc:
            raise self.error(
                node, f"cannot decide the condition {self.text(node)}: {exc}"
            ) from None

    def known_present(self, value: Value) -> bool:
        """Whether ``value`` is surely there (not an optional input or optional value)."""
        return value not in self.optional_inputs and presence.is_present_type(value)

    def is_int_like(self, sym: Sym) -> bool:
        """Whether ``sym`` is a tensor standing for a Python int (a ``range`` loop index)."""
        return isinstance(sym, Value) and sym in self.int_like

    def is_python_int(self, sym: Sym) -> bool:
        """Whether ``sym`` is a Python int: an int constant or a value standing for one."""
        if isinstance(sym, Const):
            return isinstance(sym.value, int) and not isinstance(sym.value, bool)
        return self.is_int_like(sym)

    def retype_int_like(
        self, value: Value, dtype: int | None = None, like: Value | None = None
    ) -> Value:
        """A Python-int-like value in the element type its context needs (as Python would
        use an int next to a float)."""
        if not self.is_int_like(value):
            return value
        if dtype is not None:
            if dtype == dtypes.INT64:
                return value
            return self.builder.emit1("Cast", value, hint=value.hint, to=dtype)
        if like is not None:
            known = type_inference.known_dtype(like)
            if known == dtypes.INT64:
                return value
            if known is not None:
                return self.builder.emit1("Cast", value, hint=value.hint, to=known)
            return self.builder.emit1("CastLike", value, like, hint=value.hint)
        return value

    def tensor(self, node: ast.expr, like: Value | None = None, dtype: int | None = None) -> Value:
        """Translate ``node`` and make it a tensor value."""
        return self.to_tensor(self.expr(node), node, like=like, dtype=dtype)

    # -- promotion ------------------------------------------------------------------------

    def to_tensor(
        self, sym: Sym, node: ast.AST, like: Value | None = None, dtype: int | None = None
    ) -> Value:
        """Make ``sym`` a tensor value.

        Python numbers take the element type ``dtype`` if given, else that of ``like`` (with
        a ``CastLike`` when it is only known at run time), else their default (int -> INT64,
        float -> FLOAT, bool -> BOOL, str -> STRING).
        """
        if isinstance(sym, Value):
            if isinstance(sym.type, OptionalTypeSpec):
                return optional_values.unwrap(self, sym)
            return sym
        if isinstance(sym, Const):
            return self.const_tensor(sym.value, node, like=like, dtype=dtype, name=sym.name)
        if isinstance(sym, AttrRef):
            return self.attr_tensor(sym, node, like=like, dtype=dtype)
        if isinstance(sym, SymTuple):
            return self.tuple_tensor(sym, node, like=like, dtype=dtype)
        raise self.error(
            node,
            f"a nested function cannot be used as a tensor: {self.text(node)}",
            f"pass it as a graph attribute, e.g. op.Scan(..., body={self.text(node)})",
        )

    def const_tensor(
        self,
        value: Any,
        node: ast.AST,
        like: Value | None = None,
        dtype: int | None = None,
        name: str | None = None,
    ) -> Value:
        if value is None:
            raise self.error(
                node,
                "None cannot be used as a tensor here",
                "None only stands for an omitted optional input of an op call",
            )
        if not _is_tensor_data(value):
            raise self.error(
                node,
                f"{self.text(node)} is {_a(type(value).__name__)}, not a tensor",
                "only numbers, strings, lists of them, numpy arrays and tensors can be "
                "used as tensor values",
            )
        is_python = not isinstance(value, (np.ndarray, np.generic, onnx.TensorProto))
        if is_python and dtype is None and like is not None:
            dtype = type_inference.known_dtype(like)
            if dtype is None:
                raw = self._constant(value, None, None, node)
                return self.builder.emit1("CastLike", raw, like, hint=raw.hint)
        if is_python and dtype is not None:
            self.check_literal_fits(value, dtype, node)
        else:
            dtype = None
        hint = name if isinstance(value, (np.ndarray, onnx.TensorProto)) else None
        return self._constant(value, dtype, hint, node)

    def _constant(self, value: Any, dtype: int | None, hint: str | None, node: ast.AST) -> Value:
        """A constant node, or a located error for data no tensor can hold exactly."""
        try:
            return self.builder.constant(value, dtype, hint=hint)
        except AttributeValueError as exc:
            raise self.error(node, str(exc)) from None

    def check_declared_dtype(
        self, value: Value, declared: int | None, node: ast.AST, what: str
    ) -> None:
        """A ScriptError when ``value``'s known element type is not the ``declared`` one
        (onnx.checker would reject the model: ONNX never converts types)."""
        known = type_inference.known_dtype(value)
        if declared and known is not None and known != declared:
            name = dtypes.dtype_name(declared)
            raise self.error(
                node,
                f"this is {dtypes.dtype_name_with_article(known)} tensor, but {what} "
                f"declares {name}",
                f"convert it with op.Cast(..., to={name}), or change the annotation",
            )

    def check_literal_fits(self, value: Any, dtype: int, node: ast.AST) -> None:
        """A ScriptError when the literal cannot take element type ``dtype`` (the rule
        shared with eager mode: ``language.literals.literal_misfit``)."""
        misfit = literal_misfit(value, dtype)
        if misfit is not None:
            raise self.error(node, *misfit)

    def attr_tensor(
        self, ref: AttrRef, node: ast.AST, like: Value | None = None, dtype: int | None = None
    ) -> Value:
        """An attribute parameter as a tensor: ``Constant(value_float=@alpha)`` etc."""
        key = (self.builder, ref.param.name)
        base = self._find_attr_tensor(ref.param.name)
        if base is None:
            py = ref.python_type
            if ref.is_list:
                field = {
                    int: "value_ints",
                    bool: "value_ints",
                    float: "value_floats",
                    str: "value_strings",
                }[py]
                kind = {int: AT.INTS, bool: AT.INTS, float: AT.FLOATS, str: AT.STRINGS}[py]
            else:
                field = {
                    int: "value_int",
                    bool: "value_int",
                    float: "value_float",
                    str: "value_string",
                }[py]
                kind = {int: AT.INT, bool: AT.INT, float: AT.FLOAT, str: AT.STRING}[py]
            base = self.builder.emit(
                "Constant",
                [],
                [Attr(field, kind, ref=ref.param.name)],
                hints=[ref.param.name],
                attr_values={field: None},
            )[0]
            self.ctx.default_opset_version()
            base.type = TensorTypeSpec(
                {int: dtypes.INT64, bool: dtypes.INT64, float: dtypes.FLOAT, str: dtypes.STRING}[
                    py
                ],
                None,
            )
            if py is bool:
                base = self.builder.emit1("Cast", base, hint=ref.param.name, to=dtypes.BOOL)
            self._attr_tensors[key] = base
        target = (
            dtype if dtype is not None else (type_inference.known_dtype(like) if like else None)
        )
        if target is not None:
            if base.dtype == target:
                return base
            return self.builder.emit1("Cast", base, hint=ref.param.name, to=target)
        if like is not None:
            return self.builder.emit1("CastLike", base, like, hint=ref.param.name)
        return base

    def _find_attr_tensor(self, name: str) -> Value | None:
        return self.find_in_scope(self._attr_tensors, name)

    def find_in_scope(self, cache: Mapping[tuple[GraphEmitter, K], Value], key: K) -> Value | None:
        """A value cached per graph for ``key``, made in the current graph or one enclosing
        it (those run first, so their values serve nested graphs too)."""
        builder: GraphEmitter | None = self.builder
        while builder is not None:
            found = cache.get((builder, key))
            if found is not None:
                return found
            builder = builder.parent
        return None

    def tuple_tensor(
        self, sym: SymTuple, node: ast.AST, like: Value | None = None, dtype: int | None = None
    ) -> Value:
        """``[n, -1]`` with tensor ``n``: a 1-D tensor concatenating the items."""
        if all(isinstance(s, Const) for s in sym.items):
            return self.const_tensor([s.value for s in sym.items], node, like=like, dtype=dtype)  # type: ignore[union-attr]
        anchor = next((s for s in sym.items if isinstance(s, Value)), None)
        parts = []
        minus_one = self.builder.constant([-1])
        for item in sym.items:
            if isinstance(item, SymTuple):
                raise self.error(node, "nested tuples cannot be used as tensors")
            value = self.to_tensor(item, node, like=anchor if dtype is None else None, dtype=dtype)
            parts.append(self.builder.emit1("Reshape", value, minus_one, hint="item"))
        return self.builder.emit1("Concat", *parts, hint="concat", axis=0)

    # -- simple expressions ---------------------------------------------------------------

    def expr_Constant(self, node: ast.Constant) -> Sym:
        if node.value is Ellipsis:
            return Const(Ellipsis)
        if isinstance(node.value, (bytes, complex)):
            raise self.error(
                node,
                f"{type(node.value).__name__} literals are not supported",
                "use numpy arrays for complex values",
            )
        return Const(node.value)

    def expr_Name(self, node: ast.Name) -> Sym:
        return self.lookup(node.id, node)

    def expr_Attribute(self, node: ast.Attribute) -> Sym:
        base = self.expr(node.value)
        if isinstance(base, Const):
            obj = base.value
            if isinstance(obj, Opset):
                op = obj.lookup(node.attr)
                if op is None:
                    op = unknown_ops.schemaless_op(self.ctx.source, node, obj, node.attr)
                return Const(op)
            try:
                return Const(getattr(obj, node.attr))
            except AttributeError:
                raise self.error(
                    node,
                    f"{self.text(node.value)} has no attribute {node.attr!r}",
                ) from None
        if isinstance(base, Value):
            tensor = self.text(node.value)
            hints = {
                "shape": f"use op.Shape({tensor})",
                "dtype": "element types are static; annotate the input",
                "T": f"use op.Transpose({tensor})",
                "ndim": f"use op.Size(op.Shape({tensor}))",
            }
            raise self.error(
                node,
                f"tensors have no attribute {node.attr!r} in scripts",
                hints.get(node.attr, "call an op instead"),
            )
        raise self.error(node, f"{self.text(node)}: attribute access is not supported here")

    def expr_Tuple(self, node: ast.Tuple) -> Sym:
        return self._sequence(node.elts)

    def expr_List(self, node: ast.List) -> Sym:
        sym = self._sequence(node.elts)
        if isinstance(sym, Const):
            return Const(list(sym.value))
        return sym

    def _sequence(self, elts: list[ast.expr]) -> Sym:
        items: list[Sym] = []
        for elt in elts:
            if isinstance(elt, ast.Starred):
                expanded = self.expr(elt.value)
                if isinstance(expanded, SymTuple):
                    items.extend(expanded.items)
                elif isinstance(expanded, Const) and isinstance(expanded.value, (list, tuple)):
                    items.extend(Const(v) for v in expanded.value)
                else:
                    raise self.error(elt, "only tuples and lists can be unpacked with *")
            else:
                items.append(self.expr(elt))
        if all(isinstance(i, Const) for i in items):
            return Const(tuple(i.value for i in items))  # type: ignore[union-attr]
        return SymTuple(tuple(items))

    def expr_Subscript(self, node: ast.Subscript) -> Sym:
        base = self.expr(node.value)
        if isinstance(base, SymTuple):
            index = self.expr(node.slice)
            if isinstance(index, Const) and isinstance(index.value, (int, slice)):
                picked = base.items[index.value]
                return SymTuple(tuple(picked)) if isinstance(picked, tuple) else picked
            raise self.error(node, "a tuple of tensors can only be indexed by a constant")
        if isinstance(base, Const) and not isinstance(base.value, (np.ndarray, onnx.TensorProto)):
            index = self.expr(node.slice)
            if isinstance(index, Const):
                try:
                    return Const(base.value[index.value])
                except Exception as exc:
                    raise self.error(node, f"cannot evaluate {self.text(node)}: {exc}") from None
        return target.subscript(self, node, base)

    def expr_IfExp(self, node: ast.IfExp) -> Sym:
        test = self.expr(node.test)
        if isinstance(test, Const):
            return self.expr(node.body if self.truth(test.value, node.test) else node.orelse)
        return control_flow.conditional_expression(self, node, test)

    # -- operators ------------------------------------------------------------------------

    def expr_BinOp(self, node: ast.BinOp) -> Sym:
        """Left-nested chains (``a + b + c + ...``) are walked in a loop, not by recursion,
        so that long generated sums do not exhaust Python's stack."""
        chain = [node]
        while isinstance(chain[-1].left, ast.BinOp):
            chain.append(chain[-1].left)
        left = self.expr(chain[-1].left)
        for binop in reversed(chain):
            left = self._binary(binop, left, self.expr(binop.right))
        return left

    def _binary(self, node: ast.BinOp, left: Sym, right: Sym) -> Sym:
        symbol = AST_BINARY[type(node.op)]
        if (
            isinstance(left, Const)
            and isinstance(right, Const)
            and not isinstance(left.value, Opset)
        ):
            try:
                return Const(PY_BINARY[symbol](left.value, right.value))
            except Exception as exc:
                raise self.error(node, f"cannot evaluate {self.text(node)}: {exc}") from None
        return target.binary(self, node, symbol, left, right)

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Sym:
        operand = self.expr(node.operand)
        if isinstance(operand, Const):
            try:
                if isinstance(node.op, ast.Not):
                    return Const(not operand.value)
                if isinstance(node.op, ast.USub):
                    return Const(-operand.value)
                if isinstance(node.op, ast.UAdd):
                    return Const(+operand.value)
                if isinstance(node.op, ast.Invert):
                    return Const(~operand.value)
            except Exception as exc:
                raise self.error(node, f"cannot evaluate {self.text(node)}: {exc}") from None
        return target.unary(self, node, AST_UNARY[type(node.op)], operand)

    def expr_BoolOp(self, node: ast.BoolOp) -> Sym:
        values = [self.expr(v) for v in node.values]
        if all(
            isinstance(v, Const) and not isinstance(v.value, (np.ndarray, onnx.TensorProto))
            for v in values
        ):
            consts = [v.value for v in values]  # type: ignore[union-attr]
            result: Any = consts[0]
            try:
                for value in consts[1:]:
                    is_and = isinstance(node.op, ast.And)
                    result = (result and value) if is_and else (result or value)
            except Exception as exc:
                raise self.error(node, f"cannot evaluate {self.text(node)}: {exc}") from None
            return Const(result)
        return target.boolean(self, node, isinstance(node.op, ast.And), values)

    def expr_Compare(self, node: ast.Compare) -> Sym:
        values = [self.expr(node.left), *(self.expr(c) for c in node.comparators)]
        symbols = [AST_COMPARE[type(op)] for op in node.ops]
        return target.compare_chain(self, node, symbols, values)

    # -- helpers for calls ----------------------------------------------------------------

    def graph_attribute(self, sym: Sym, node: ast.AST) -> Graph:
        """The graph of a nested function passed as a graph attribute. Its body is
        statements, so the statement translator (``statements.FunctionTranslator``) does it."""
        raise NotImplementedError

    def callee_kind(self, sym: Sym) -> str:
        if isinstance(sym, Const):
            obj = sym.value
            if isinstance(obj, Op):
                return "op"
            if isinstance(obj, OnnxFunction):
                return "function"
            if isinstance(obj, GraphFunction):
                return "graph"
            return "python"
        if isinstance(sym, NestedGraph):
            return "graph"
        return "value"


_EXPR_METHODS: dict[type, Callable[[ExpressionTranslator, Any], Sym]] = {
    getattr(ast, name[len("expr_") :]): method
    for name, method in vars(ExpressionTranslator).items()
    if name.startswith("expr_")
}
"""Expression kind -> translating method (a static dispatch table)."""
