"""``None`` on some paths: a variable that is a tensor on one branch and ``None`` on another
becomes an ONNX ``optional(tensor)`` value.

Each branch of the ``If`` gives an optional: ``Optional(v)`` for a tensor, an empty
``Optional`` (its ``type`` attribute holding the element type) for ``None``. That needs
ai.onnx opset 15 and the element type at compile time (an empty optional declares it).
Where an optional value is then used as a tensor (an op input, an operator operand, a
condition) it is read with ``OptionalGetElement``, which fails at run time when it is
empty, as Python fails on ``None``; ``x is None`` and ``op.OptionalHasElement(x)`` read
it as it is, and a returned one is an optional output. A loop cannot carry ``None``.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import onnx

from onnxscript import dtypes
from onnxscript.converter import type_inference
from onnxscript.converter.graph_emitter import GraphEmitter
from onnxscript.converter.symbols import Const, Sym
from onnxscript.language.attributes import AT
from onnxscript.language.literals import python_to_array
from onnxscript.program.graph import Attr, Value
from onnxscript.program.proto_types import type_from_proto
from onnxscript.value_types import OptionalTypeSpec, SequenceTypeSpec, TypeSpec, element_type

if TYPE_CHECKING:
    from onnxscript.converter.translator import Translator

MIN_OPSET = 15
"""The first ai.onnx opset with ``Optional``, ``OptionalHasElement``, ``OptionalGetElement``."""


def is_none(sym: Sym | None) -> bool:
    """Whether ``sym`` is Python's ``None``."""
    return isinstance(sym, Const) and sym.value is None


def is_optional(sym: Sym | None) -> bool:
    """Whether ``sym`` is a run-time optional value (it may hold nothing)."""
    return isinstance(sym, Value) and isinstance(sym.type, OptionalTypeSpec)


def _element_type(t: Translator, syms: Sequence[Sym]) -> TypeSpec | None:
    """The type of the present values among ``syms``, when known at compile time."""
    for sym in syms:
        if is_optional(sym):
            return sym.type.elem  # type: ignore[union-attr]
    values = [s for s in syms if isinstance(s, Value)]
    for value in values:
        if isinstance(value.type, SequenceTypeSpec):
            return value.type
        if not t.is_int_like(value):
            dtype = type_inference.known_dtype(value)
            return element_type(dtype) if dtype is not None else None
    if values:
        return element_type(dtypes.INT64)  # loop indices stand for Python ints
    return _literal_type(syms)


def _literal_type(syms: Sequence[Sym]) -> TypeSpec | None:
    """The type a Python literal among ``syms`` gets by default (``1.0`` -> FLOAT)."""
    for sym in syms:
        if isinstance(sym, Const) and sym.value is not None:
            if isinstance(sym.value, onnx.TensorProto):
                return element_type(sym.value.data_type)
            try:
                return element_type(dtypes.onnx_dtype(python_to_array(sym.value).dtype))
            except Exception:
                return None
    return None


def _require_opset(t: Translator, node: ast.AST, name: str) -> None:
    version = t.ctx.default_opset_version()
    if version < MIN_OPSET:
        raise t.error(
            node,
            f"'{name}' is None on one path and a tensor on another: that is an ONNX "
            f"optional value, which needs ai.onnx opset {MIN_OPSET} or newer (this "
            f"function uses opset {version})",
            f"import opset{MIN_OPSET} (or newer) as op, or give '{name}' a tensor on every path",
        )


def _branch_value(t: Translator, sym: Sym, node: ast.AST, elem: TypeSpec) -> Value:
    """``sym`` as an optional value in the current graph. A value whose type is not known
    statically is taken as it is (it may be an optional already)."""
    if isinstance(sym, Value) and (
        is_optional(sym) or (sym.type is None and type_inference.known_dtype(sym) is None)
    ):
        return sym
    if is_none(sym):
        empty = Attr("type", AT.TYPE_PROTO, elem)  # lowered to the TypeProto of elem
        value = t.builder.emit("Optional", [], [empty], hints=["none"])[0]
    else:
        dtype = getattr(elem, "dtype", None)
        tensor = t.to_tensor(sym, node, dtype=None if isinstance(sym, Value) else dtype)
        tensor = t.retype_int_like(tensor, dtype=dtype)
        value = t.builder.emit1("Optional", tensor, hint=tensor.hint)
    value.type = OptionalTypeSpec(elem)
    return value


def optional_branches(
    t: Translator,
    builders: Sequence[GraphEmitter],
    syms: Sequence[Sym],
    node: ast.AST,
    name: str,
) -> tuple[list[Value], OptionalTypeSpec] | None:
    """When some branch gives ``None`` (or an optional value) for ``name``: the optional
    value of each branch (in that branch's graph), and their type. ``None`` otherwise."""
    if not any(is_none(s) or is_optional(s) for s in syms):
        return None
    _require_opset(t, node, name)
    elem = _element_type(t, syms)
    if elem is None:
        raise t.error(
            node,
            f"'{name}' is None on one path, and its element type on the other is not known "
            "when the script is compiled (an empty ONNX optional declares it)",
            f"annotate the function's inputs, or Cast the value given to '{name}'",
        )
    values = []
    saved = t.builder
    try:
        for builder, sym in zip(builders, syms):
            t.builder = builder
            values.append(_branch_value(t, sym, node, elem))
    finally:
        t.builder = saved
    return values, OptionalTypeSpec(elem)


def unwrap(t: Translator, value: Value) -> Value:
    """An optional value read as a tensor: ``OptionalGetElement``, once per graph (a read in
    an enclosing graph, which runs first, serves its subgraphs too)."""
    assert isinstance(value.type, OptionalTypeSpec)
    found = t.find_in_scope(t.unwrapped, value)
    if found is not None:
        return found
    out = t.builder.emit1("OptionalGetElement", value, hint=value.hint)
    out.type = value.type.elem
    t.unwrapped[(t.builder, value)] = out
    return out


def made_type(inputs: Sequence[Value | None], attrs: Mapping[str, Any]) -> TypeSpec | None:
    """The type of what ``op.Optional(...)`` makes: an optional of its input's type, or
    of its ``type`` attribute when it has no input."""
    given = inputs[0] if inputs else None
    if given is not None:
        if isinstance(given.type, SequenceTypeSpec):
            return OptionalTypeSpec(given.type)
        dtype = type_inference.known_dtype(given)
        return OptionalTypeSpec(element_type(dtype)) if dtype is not None else None
    declared = attrs.get("type")
    if isinstance(declared, onnx.TypeProto):
        elem = type_from_proto(declared)
        return OptionalTypeSpec(elem) if elem is not None else None
    return None


def output_type(value: Value, declared: TypeSpec) -> TypeSpec:
    """The type of an output declared ``declared`` (``FLOAT["N"]``, or ``Optional[...]`` of
    it): optional when ``value`` is."""
    if isinstance(value.type, OptionalTypeSpec) and not isinstance(declared, OptionalTypeSpec):
        return OptionalTypeSpec(declared)
    return declared


def loop_carried_error(t: Translator, node: ast.AST, name: str) -> Exception:
    """The error for a loop-carried variable that may be ``None`` when the loop starts."""
    return t.error(
        node,
        f"'{name}' may be None when this loop starts, and a loop-carried value cannot be "
        "None (ONNX Loop carries values of one type)",
        f"give '{name}' a tensor value before the loop",
    )
