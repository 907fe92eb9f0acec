"""Calls in scripts: ops (``op.Add(...)``), other script functions, compile-time Python."""

from __future__ import annotations

import ast
import builtins
import inspect
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from onnxscript.converter import onnx_equivalents, optional_values, presence
from onnxscript.converter.symbols import AttrRef, Const, NestedGraph, Sym, SymTuple
from onnxscript.errors import AttributeValueError, BindingError, OperatorTypeError
from onnxscript.language.attributes import AT, coerce, infer_kind, kind_name
from onnxscript.language.binding import (
    Signature,
    bind,
    describe,
    literal_input_type,
    output_count,
)
from onnxscript.program.graph import Attr, Graph, Value
from onnxscript.value_types import OptionalTypeSpec, TensorTypeSpec, element_type
from onnxscript.values import GraphFunction, OnnxFunction, Op

if TYPE_CHECKING:
    from onnxscript.converter.translator import Translator


class _Arg:
    """A call argument: its symbol and the AST node it came from (for errors)."""

    __slots__ = ("node", "sym")

    def __init__(self, sym: Sym, node: ast.AST) -> None:
        self.sym = sym
        self.node = node


def _arguments(t: Translator, call: ast.Call) -> tuple[list[_Arg | None], dict[str, _Arg | None]]:
    args: list[_Arg | None] = []
    for arg in call.args:
        if isinstance(arg, ast.Starred):
            sym = t.expr(arg.value)
            if isinstance(sym, SymTuple):
                args.extend(_Arg(s, arg) for s in sym.items)
            elif isinstance(sym, Const) and isinstance(sym.value, (list, tuple)):
                args.extend(_Arg(Const(v), arg) for v in sym.value)
            else:
                raise t.error(arg, "only tuples and lists can be unpacked with * in a call")
            continue
        sym = t.expr(arg)
        args.append(None if isinstance(sym, Const) and sym.value is None else _Arg(sym, arg))
    kwargs: dict[str, _Arg | None] = {}
    for kw in call.keywords:
        if kw.arg is None:
            sym = t.expr(kw.value)
            if isinstance(sym, Const) and isinstance(sym.value, dict):
                for key, value in sym.value.items():
                    kwargs[str(key)] = None if value is None else _Arg(Const(value), kw)
                continue
            raise t.error(kw, "only a constant dict can be unpacked with ** in a call")
        sym = t.expr(kw.value)
        kwargs[kw.arg] = None if isinstance(sym, Const) and sym.value is None else _Arg(sym, kw)
    return args, kwargs


def translate_call(
    t: Translator, call: ast.Call, n_outputs: int | None, hints: Sequence[str]
) -> Sym:
    callee = t.expr(call.func)
    kind = t.callee_kind(callee)
    if kind == "op":
        assert isinstance(callee, Const)
        return op_call(t, call, callee.value, n_outputs, hints)
    if kind == "function":
        assert isinstance(callee, Const)
        return function_call(t, call, callee.value, n_outputs, hints)
    if kind == "graph":
        raise t.error(
            call,
            f"{t.text(call.func)} is a graph function and cannot be called directly",
            f"pass it as a graph attribute, e.g. op.Scan(..., body={t.text(call.func)})",
        )
    if kind == "value":
        raise t.error(call, f"{t.text(call.func)} is a tensor, not a function")
    assert isinstance(callee, Const)
    return python_call(t, call, callee.value)


def python_call(t: Translator, call: ast.Call, fn: Any) -> Sym:
    """A call to a plain Python callable, evaluated now when its arguments are constants."""
    if fn is builtins.range:
        raise t.error(call, "range() can only be used as the iterable of a `for` loop")
    args, kwargs = _arguments(t, call)
    values = []
    for arg in args:
        if arg is not None and not isinstance(arg.sym, Const):
            raise _python_on_tensor(t, call, fn)
        values.append(None if arg is None else arg.sym.value)  # type: ignore[union-attr]
    kw_values = {}
    for key, arg in kwargs.items():
        if arg is not None and not isinstance(arg.sym, Const):
            raise _python_on_tensor(t, call, fn)
        kw_values[key] = None if arg is None else arg.sym.value  # type: ignore[union-attr]
    if not callable(fn):
        raise t.error(call, f"{t.text(call.func)} is not callable")
    try:
        return Const(fn(*values, **kw_values))
    except Exception as exc:
        raise t.error(
            call, f"evaluating {t.text(call)} at compile time failed: {type(exc).__name__}: {exc}"
        ) from None


def _python_on_tensor(t: Translator, call: ast.Call, fn: Any) -> Exception:
    name = getattr(fn, "__name__", t.text(call.func))
    if getattr(fn, "traceable", False):
        return t.error(
            call,
            f"{name} is a traced function: its body runs as Python, so a script cannot call it",
            f"call {name} from Python or from another traced function, or compile it with "
            "@script() (without trace_only) if its body is a script",
        )
    library = onnx_equivalents.library_of(fn)
    if library is not None:
        args = [t.text(arg) for arg in call.args]
        equivalent = onnx_equivalents.equivalent_op_call(name, args)
        return t.error(
            call,
            f"{t.text(call.func)}() is a {library} function and cannot be applied to tensors "
            "in a script",
            f"write {equivalent}"
            if equivalent
            else "compute it with ONNX ops (op.Add, op.ReduceSum, ...: see docs/language.md)",
        )
    if inspect.isfunction(fn):
        return t.error(
            call,
            f"the Python function {name}() cannot be applied to tensors in a script",
            f"decorate {name} with @script() to call it as a script function, or compute "
            "it with ONNX ops",
        )
    return t.error(
        call,
        f"{t.text(call.func)} cannot be applied to tensors in a script: it is not an op or "
        "a script function",
        "compute it with ONNX ops (op.Add, op.ReduceSum, ...: see docs/language.md)",
    )


def _output_count(
    t: Translator,
    call: ast.Call,
    sig: Signature,
    attrs: dict[str, Any],
    n_outputs: int | None,
) -> int:
    """The number of outputs, by the rule shared with eager mode (``output_count``)."""

    def graph_outputs(graph: Any) -> int | None:
        return len(graph.outputs) if isinstance(graph, Graph) else None

    try:
        return output_count(sig, n_outputs, attrs, graph_outputs)
    except BindingError as exc:
        hint = ""
        if n_outputs is None:
            callee = t.text(call.func)
            hint = f"unpack them, e.g. `a, b = {callee}(...)`"
            if sig.free_form or "num_outputs" in sig.attribute_by_name:
                hint += f", or give their number, e.g. {callee}(..., num_outputs=2)"
        raise t.error(call, str(exc), hint) from None


def _input_value(
    t: Translator,
    sig: Signature,
    slot: int,
    arg: _Arg,
    bound_inputs: Sequence[_Arg | None],
) -> Value:
    """A bound input as a tensor; Python numbers get their element type by the rule shared
    with eager mode (``binding.literal_input_type``)."""
    sym = arg.sym
    if isinstance(sym, Value):
        return sym
    concrete, partners = literal_input_type(sig, slot)
    if concrete is not None:
        return t.to_tensor(sym, arg.node, dtype=concrete)
    for partner in partners:
        if partner < len(bound_inputs):
            other = bound_inputs[partner]
            if other is not None and isinstance(other.sym, Value):
                return t.to_tensor(sym, arg.node, like=other.sym)
    return t.to_tensor(sym, arg.node)


def _attribute(
    t: Translator, name: str, arg: _Arg, kind: int | None, op_name: str
) -> tuple[Attr, Any]:
    """An attribute from a call argument. ``kind`` is the schema's, or None (free-form)."""
    sym = arg.sym
    if isinstance(sym, AttrRef):
        if kind is not None and kind != sym.param.kind:
            raise t.error(
                arg.node,
                f"attribute {name!r} of {op_name} is {kind_name(kind)}, but parameter "
                f"{sym.param.name!r} is {kind_name(sym.param.kind)}",
                "declare the parameter with the type the op expects",
            )
        return Attr(name, sym.param.kind, ref=sym.param.name), None
    if isinstance(sym, NestedGraph) or (
        isinstance(sym, Const) and isinstance(sym.value, GraphFunction)
    ):
        if kind is not None and kind != AT.GRAPH:
            raise t.error(arg.node, f"attribute {name!r} of {op_name} is not a graph")
        graph = t.graph_attribute(sym, arg.node)
        return Attr(name, AT.GRAPH, graph), graph
    if isinstance(sym, (Value, SymTuple)):
        raise t.error(
            arg.node,
            f"attribute {name!r} of {op_name} must be known when the script is compiled, "
            "but a tensor computed at run time is given",
            "attributes take Python constants or attribute parameters; pass run-time "
            "values as inputs",
        )
    assert isinstance(sym, Const)
    value = sym.value
    if kind is None:
        kind = infer_kind(value)
        if kind is None:
            raise t.error(
                arg.node,
                f"cannot tell the attribute type of {name}={value!r}",
                "give a non-empty list, a number, a string or a numpy array",
            )
    try:
        coerced = coerce(value, kind)
    except AttributeValueError as exc:
        raise t.error(arg.node, f"attribute {name!r} of {op_name}: {exc}") from None
    return Attr(name, kind, coerced), coerced


def _bind_call(
    t: Translator, call: ast.Call, sig: Signature, callee: str
) -> tuple[list[_Arg | None], list[Attr], dict[str, Any]]:
    """The call's arguments sorted into input slots, and its attributes made IR attributes
    (with their compile-time values, where known)."""
    args, kwargs = _arguments(t, call)
    try:
        bound = bind(sig, args, kwargs)
    except BindingError as exc:
        raise t.error(call, str(exc), describe(sig)) from None
    attrs: list[Attr] = []
    attr_values: dict[str, Any] = {}
    by_name = sig.attribute_by_name
    for name, arg in bound.attributes.items():
        kind = None if sig.free_form else by_name[name].attr_kind
        attr, value = _attribute(t, name, arg, kind, callee)
        attrs.append(attr)
        attr_values[name] = value
    return bound.inputs, attrs, attr_values


def op_call(
    t: Translator, call: ast.Call, op: Op, n_outputs: int | None, hints: Sequence[str]
) -> Sym:
    sig = op.call_signature
    bound_inputs, attrs, attr_values = _bind_call(t, call, sig, op.name)
    if op.domain == "" and op.name in presence.OPTIONAL_OPS:
        inputs = _optional_op_inputs(t, call, op, bound_inputs)
    else:
        bound_inputs = [_read_optional(t, arg) for arg in bound_inputs]
        inputs = [
            None if arg is None else _input_value(t, sig, slot, arg, bound_inputs)
            for slot, arg in enumerate(bound_inputs)
        ]
    count = _output_count(t, call, sig, attr_values, n_outputs)
    outputs = _emit_call(
        t, call, op.name, op.domain, op.version, inputs, attrs, count,
        list(hints) or [op.name.lower()], None if sig.free_form else sig, attr_values,
    )  # fmt: skip
    if op.domain == "" and op.name == "Optional":
        outputs[0].type = optional_values.made_type(inputs, attr_values)
    return _result(outputs, n_outputs)


def _read_optional(t: Translator, arg: _Arg | None) -> _Arg | None:
    """An optional value given to an op's input is read as its tensor (before literals
    take their element type from it)."""
    if arg is not None and optional_values.is_optional(arg.sym):
        assert isinstance(arg.sym, Value)
        return _Arg(optional_values.unwrap(t, arg.sym), arg.node)
    return arg


def _optional_op_inputs(
    t: Translator, call: ast.Call, op: Op, bound: Sequence[_Arg | None]
) -> list[Value | None]:
    """The inputs of ``OptionalHasElement``/``OptionalGetElement``, read as they are (an
    optional input, an optional value); a located error when the op's opset cannot take
    them (a tensor or an omitted input needs opset 18)."""
    inputs: list[Value | None] = []
    for arg in bound:
        if arg is None:
            inputs.append(None)
            continue
        value = arg.sym if isinstance(arg.sym, Value) else t.to_tensor(arg.sym, arg.node)
        if value in t.optional_inputs or presence.is_present_type(value):
            try:
                presence.require_opset(op.version, value, f"op.{op.name}({t.text(arg.node)})")
            except OperatorTypeError as exc:
                raise t.error(call, exc.message, exc.hint) from None
        inputs.append(value)
    return inputs


def _emit_call(
    t: Translator,
    call: ast.Call,
    name: str,
    domain: str,
    version: int,
    inputs: list[Value | None],
    attrs: list[Attr],
    count: int,
    hints: list[str],
    sig: Signature | None,
    attr_values: dict[str, Any] | None,
) -> list[Value]:
    """Import the callee's domain and add the call's node."""
    t.ctx.use_opset(domain, version, call)
    t.locate(call)
    return t.builder.emit(
        name, inputs, attrs, domain=domain, n_outputs=count, hints=hints, sig=sig,
        attr_values=attr_values,
    )  # fmt: skip


def _result(outputs: list[Value], n_outputs: int | None) -> Sym:
    """One value, or a tuple when there are several or the call is unpacked."""
    if len(outputs) == 1 and n_outputs is None:
        return outputs[0]
    return SymTuple(tuple(outputs))


def function_call(
    t: Translator,
    call: ast.Call,
    fn: OnnxFunction,
    n_outputs: int | None,
    hints: Sequence[str],
) -> Sym:
    bound_inputs, attrs, _ = _bind_call(t, call, fn.call_signature, fn.name)
    graph = fn.function_ir.graph
    formals = fn.call_signature.inputs
    last_default = max((i + 1 for i, p in enumerate(formals) if p.has_default), default=0)
    bound_inputs = [*bound_inputs, *[None] * (last_default - len(bound_inputs))]
    inputs: list[Value | None] = []
    for slot, arg in enumerate(bound_inputs):
        if arg is None:
            # An input with a tensor default gets it here, so that onnx's shape inference
            # of the callee's body sees a typed input (the callee would fill it in too).
            param = formals[slot] if slot < len(formals) else None
            if param is not None and param.has_default:
                inputs.append(t.builder.constant(param.default))
            else:
                inputs.append(None)
            continue
        declared = graph.inputs[slot].declared_type if slot < len(graph.inputs) else None
        dtype = declared.dtype if isinstance(declared, TensorTypeSpec) else None
        inputs.append(t.to_tensor(arg.sym, arg.node, dtype=dtype))
    count = len(graph.outputs)
    if n_outputs is not None and n_outputs != count:
        raise t.error(call, f"{fn.name} returns {count} value(s), but {n_outputs} are unpacked")
    t.ctx.add_callee(fn.function_ir)
    outputs = _emit_call(
        t, call, fn.name, fn.domain, fn.version, inputs, attrs, count,
        list(hints) or [v.hint for v in graph.outputs], None, None,
    )  # fmt: skip
    for out, formal in zip(outputs, graph.outputs):
        declared = formal.declared_type
        if isinstance(declared, TensorTypeSpec) and declared.dtype:
            out.type = element_type(declared.dtype)
        elif isinstance(formal.type, OptionalTypeSpec):  # the callee may return None
            out.type = formal.type
    return _result(outputs, n_outputs)
