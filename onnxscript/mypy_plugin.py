"""A mypy plugin that accepts tensor-type annotations such as ``FLOAT[64, "N"]``.

Type checkers reject literal shapes inside ``X[...]`` because they are not types. This
plugin tells mypy that ``FLOAT[...]`` (any shape) means the class ``FLOAT``. Enable it in
the mypy configuration::

    [tool.mypy]
    plugins = ["onnxscript.mypy_plugin"]

The type-analysis hook replaces ``FLOAT[...]`` by ``FLOAT``. But before any type is
analysed, mypy looks for type variables in a function's signature and reads a string
dimension (``"N"``) as a forward reference to a name ``N``, which does not exist. So, once
a file is parsed (``get_additional_deps``, the one hook that sees the syntax tree before
names are looked up), the string dimensions in its signatures are turned into what an int
dimension is: a raw literal, which nothing looks up (mypy keeps the original string of such
an argument in ``UnboundType.original_str_expr``). mypy re-parses an unchanged file whose
imports changed without that hook, so such files are kept out of its cache
(``report_config_data``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from mypy.nodes import (
    AssignmentStmt,
    Block,
    BytesExpr,
    ClassDef,
    Decorator,
    Expression,
    FuncDef,
    Import,
    ImportAll,
    ImportFrom,
    IndexExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OverloadedFuncDef,
    Statement,
    StrExpr,
    TupleExpr,
)
from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.typeops import make_simplified_union
from mypy.types import (
    CallableType,
    FunctionLike,
    Instance,
    RawExpressionType,
    TupleType,
    Type,
    TypeList,
    TypeVarType,
    UnboundType,
    UnionType,
    get_proper_type,
)

from onnxscript.onnx_types import _ALL_TYPES

_MODULE = "onnxscript.onnx_types."
_TYPE_NAMES = frozenset(t.__name__ for t in _ALL_TYPES)
_TENSOR_TYPE = _MODULE + "TensorType"
_OPSET_MODULES = ("onnxscript.opsets._ai_onnx.", "onnxscript.opsets._ai_onnx_ml.")


def _drop_shape(ctx: AnalyzeTypeContext) -> Type:
    name = ctx.type.name
    fullname = name if name.startswith(_MODULE) else _MODULE + name.rsplit(".", 1)[-1]
    return ctx.api.named_type(fullname, [])


def _is_tensor_type_name(name: str) -> bool:
    """Whether an unresolved name (``FLOAT``, ``onnxscript.INT64``) is a tensor type's."""
    return name.rpartition(".")[2] in _TYPE_NAMES


def _as_raw(arg: Type) -> Type:
    """A string dimension as a raw literal (what mypy makes of an int dimension); any other
    type argument as it is."""
    if isinstance(arg, UnboundType) and arg.original_str_expr is not None:
        return RawExpressionType(arg.original_str_expr, "builtins.str", arg.line, arg.column)
    return arg


def _fix_shapes(typ: Type | None) -> bool:
    """Turn the string dimensions of tensor types inside ``typ`` into raw literals; whether
    there were any."""
    found = False
    if isinstance(typ, UnboundType):
        if _is_tensor_type_name(typ.name):
            args = tuple(_as_raw(a) for a in typ.args)
            changed = any(a is not b for a, b in zip(args, typ.args))
            typ.args = args
            return changed
        for arg in typ.args:
            found = _fix_shapes(arg) or found
    elif isinstance(typ, (UnionType, TypeList)):
        for item in typ.items:
            found = _fix_shapes(item) or found
    elif isinstance(typ, CallableType):
        for arg in [*typ.arg_types, typ.ret_type]:
            found = _fix_shapes(arg) or found
    return found


def _fix_assigned_shape(value: Expression) -> bool:
    """``Batch = FLOAT["N", 3]`` may be a type alias, whose target mypy reads as a type with
    the same lookups: its string dimensions become bytes, which mypy makes raw literals of
    (the value still means the class: ``TensorType``'s metaclass takes any index)."""
    if not (isinstance(value, IndexExpr) and isinstance(value.base, (NameExpr, MemberExpr))):
        return False
    if not _is_tensor_type_name(value.base.name):
        return False
    index = value.index
    items = index.items if isinstance(index, TupleExpr) else [index]
    raw = [_bytes(i) if isinstance(i, StrExpr) else i for i in items]
    if all(a is b for a, b in zip(raw, items)):
        return False
    if isinstance(index, TupleExpr):
        index.items = raw
    else:
        value.index = raw[0]
    return True


def _bytes(text: StrExpr) -> Expression:
    found = BytesExpr(text.value)
    found.set_line(text)
    return found


def _fix_statements(statements: list[Statement]) -> bool:
    """Fix the string dimensions in the signature of every function among ``statements``
    and in assignments that may be type aliases, nested ones included (in classes,
    functions, ``if``/``with``/``try``/loop bodies); whether there were any."""
    found = False
    for node in statements:
        if isinstance(node, Decorator):
            node = node.func
        if isinstance(node, OverloadedFuncDef):
            found = _fix_statements(list(node.items)) or found
            continue
        if isinstance(node, FuncDef):
            found = _fix_shapes(node.type) or found
            if node.unanalyzed_type is not node.type:
                found = _fix_shapes(node.unanalyzed_type) or found
        elif isinstance(node, AssignmentStmt):
            found = _fix_assigned_shape(node.rvalue) or found
        for block in _blocks(node):
            found = _fix_statements(block.body) or found
    return found


def _blocks(node: Node) -> list[Block]:
    """The blocks of statements directly inside ``node``."""
    if isinstance(node, ClassDef):
        return [node.defs]
    found: list[Block] = []
    for attribute in ("body", "else_body", "finally_body", "handlers"):
        value = getattr(node, attribute, None)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Block):
                found.append(item)
    return found


def _tensor_items(typ: Type) -> tuple[list[Type], bool]:
    """The tensor types (``FLOAT``, ...) that an argument's type is or holds, and whether it
    is a union of them (``FLOAT | DOUBLE``)."""
    proper = get_proper_type(typ)
    items = proper.items if isinstance(proper, UnionType) else [proper]
    found: list[Type] = [
        item
        for item in map(get_proper_type, items)
        if isinstance(item, Instance) and item.type.has_base(_TENSOR_TYPE)
    ]
    return found, isinstance(proper, UnionType) and bool(found)


def _mentions(formal: Type, var: TypeVarType) -> bool:
    """Whether an op's formal input type is ``T`` or ``T | ArrayLike``."""
    proper = get_proper_type(formal)
    items = proper.items if isinstance(proper, UnionType) else [proper]
    return any(isinstance(i, TypeVarType) and i.id == var.id for i in map(get_proper_type, items))


def _union_for(var: TypeVarType, formals: list[Type], actuals: list[list[Type]]) -> Type | None:
    """The union of the tensor types passed for the type variable ``var`` when one of the
    arguments is a union (``None`` otherwise: mypy's own inference stands)."""
    found: list[Type] = []
    saw_union = False
    for formal, given in zip(formals, actuals):
        if not _mentions(formal, var):
            continue
        for typ in given:
            items, is_union = _tensor_items(typ)
            found.extend(items)
            saw_union = saw_union or is_union
    return make_simplified_union(found) if saw_union and len(found) > 1 else None


def _op_signature(ctx: MethodContext, name: str) -> CallableType | None:
    """The op's signature as the stub declares it (type variables unsolved), with ``self``."""
    receiver = get_proper_type(ctx.type)
    if not isinstance(receiver, Instance):
        return None
    method = receiver.type.get_method(name)
    if isinstance(method, Decorator):
        method = method.func
    signature = getattr(method, "type", None)
    return signature if isinstance(signature, CallableType) else None


def _op_result(name: str, ctx: MethodContext) -> Type:
    """An op's result type where an input is a union of tensor types: ``op.Relu(x)`` with
    ``x: FLOAT | DOUBLE`` is ``FLOAT | DOUBLE``. mypy solves the op's type variable with
    the join of the union's items (their base class ``TensorType``), which a function
    declared to return ``FLOAT | DOUBLE`` cannot return."""
    signature = _op_signature(ctx, name)
    if signature is None or len(signature.arg_types) != len(ctx.arg_types) + 1:
        return ctx.default_return_type
    formals = signature.arg_types[1:]

    def solved(declared: Type, inferred: Type) -> Type:
        declared = get_proper_type(declared)
        if isinstance(declared, TypeVarType):
            return _union_for(declared, formals, ctx.arg_types) or inferred
        proper = get_proper_type(inferred)
        if (
            isinstance(declared, TupleType)
            and isinstance(proper, TupleType)
            and len(declared.items) == len(proper.items)
        ):
            items = [solved(d, i) for d, i in zip(declared.items, proper.items)]
            return proper.copy_modified(items=items)
        if (
            isinstance(declared, Instance)
            and isinstance(proper, Instance)
            and declared.type is proper.type
            and len(declared.args) == len(proper.args)
        ):  # tuple[T, ...] (Split), list[T]
            args = [solved(d, i) for d, i in zip(declared.args, proper.args)]
            return proper.copy_modified(args=args)
        return inferred

    return solved(signature.ret_type, ctx.default_return_type)


_OPERATORS = frozenset(
    {
        "__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__",
        "__matmul__", "__lt__", "__le__", "__gt__", "__ge__", "__and__", "__or__", "__xor__",
        "__lshift__", "__rshift__",
    }
)  # fmt: skip
"""The binary operators of tensor types whose other operand may be a union (see
:func:`_operator_signature`)."""


def _operator_signature(ctx: MethodSigContext) -> FunctionLike:
    """``x + y`` with both annotated ``FLOAT | DOUBLE``: mypy checks each pairing
    (``FLOAT + DOUBLE`` too), which the operators refuse, as ONNX does not promote. The
    annotations say that both have one of the types, not that they differ, so an operand
    that is a union holding the receiver's type is accepted (``FLOAT + INT64`` is still
    an error)."""
    signature = ctx.default_signature
    receiver = get_proper_type(ctx.type)
    if len(ctx.args) != 1 or len(ctx.args[0]) != 1 or not isinstance(signature, CallableType):
        return signature
    other = ctx.api.get_expression_type(ctx.args[0][0])
    items, is_union = _tensor_items(other)
    if not is_union or not any(get_proper_type(i) == receiver for i in items):
        return signature
    widened = make_simplified_union([signature.arg_types[0], other])
    return signature.copy_modified(arg_types=[widened])


def _imports_onnxscript(file: MypyFile) -> bool:
    for node in file.imports:
        if isinstance(node, Import):
            names = [n for n, _ in node.ids]
        elif isinstance(node, (ImportFrom, ImportAll)):
            names = [node.id]
        else:
            continue
        if any(n == "onnxscript" or n.startswith("onnxscript.") for n in names):
            return True
    return False


class TensorTypePlugin(Plugin):
    """Resolves ``onnxscript`` tensor annotations with shapes to their element-type class."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._fixed: set[str] = set()
        """Modules whose signatures had string dimensions (in this run)."""

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        # Called once per file after parsing and before semantic analysis: the only point
        # at which a plugin sees signatures before mypy looks names up in them.
        if _imports_onnxscript(file) and _fix_statements(file.defs):
            self._fixed.add(file.fullname)
        return []

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        # A module with string dimensions is never taken from mypy's cache: when mypy
        # re-checks an unchanged module whose imports changed, it parses it again without
        # calling get_additional_deps, so the dimensions would not be fixed. Its cache
        # entry records a value that the check (which returns None) never matches.
        if not ctx.is_check and ctx.id in self._fixed:
            return "string dimensions"
        return None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname.startswith(_OPSET_MODULES):
            return functools.partial(_op_result, fullname.rpartition(".")[2])
        return None

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], FunctionLike] | None:
        owner, _, name = fullname.rpartition(".")
        if name in _OPERATORS and owner.startswith(_MODULE):
            return _operator_signature
        return None

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if fullname.startswith(_MODULE) and fullname[len(_MODULE) :] in _TYPE_NAMES:
            return _drop_shape
        return None


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point."""
    return TensorTypePlugin
