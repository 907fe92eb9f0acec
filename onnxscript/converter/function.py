"""Compile one Python function to an IR function: the converter's entry point.

Pipeline: source -> AST -> normalized AST (structured control flow) -> liveness ->
statement-by-statement translation into IR -> SSA naming.
"""

from __future__ import annotations

import ast
import collections.abc
import functools
import inspect
import types
import typing
from collections.abc import Callable
from typing import Any, NamedTuple

from onnxscript.analysis.dead_code import remove_unused_constants
from onnxscript.analysis.liveness import Liveness, analyze
from onnxscript.analysis.names import all_identifiers, attribute_bases, scan
from onnxscript.analysis.naming import assign_names
from onnxscript.converter.context import FunctionContext
from onnxscript.converter.control_flow import _output
from onnxscript.converter.emitter import GraphEmitter
from onnxscript.converter.normalize import FreshNames, check_nesting, normalize
from onnxscript.converter.scope import PythonScope
from onnxscript.converter.statements import Translator
from onnxscript.converter.symbols import AttrRef
from onnxscript.defaults import default_opset_version
from onnxscript.errors import AttributeValueError, ScriptError
from onnxscript.language.attributes import AT, coerce
from onnxscript.language.binding import Param, Signature
from onnxscript.onnx_types import is_tensor_type
from onnxscript.program.graph import AttrParam, Function, Graph, Value
from onnxscript.program.types import SequenceTypeSpec, TypeSpec
from onnxscript.source import SourceText, parse_function, split_docstring
from onnxscript.values import Op, Opset

_ATTR_KINDS = {int: AT.INT, bool: AT.INT, float: AT.FLOAT, str: AT.STRING}
_LIST_KINDS = {int: AT.INTS, bool: AT.INTS, float: AT.FLOATS, str: AT.STRINGS}
_LIST_ORIGINS = (list, tuple, collections.abc.Sequence, collections.abc.MutableSequence)


def _unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(annotation)) == 2:
            return args[0], True
    return annotation, False


def _attribute_type(annotation: Any) -> tuple[type, bool] | None:
    """(base type, is list) if ``annotation`` declares an attribute parameter."""
    if is_tensor_type(annotation):
        return None
    annotation, _ = _unwrap_optional(annotation)
    if annotation in _ATTR_KINDS:
        return annotation, False
    origin = typing.get_origin(annotation)
    if origin in _LIST_ORIGINS:
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        if len(args) == 1 and args[0] in _ATTR_KINDS:
            return args[0], True
    return None


def _input_type(annotation: Any) -> tuple[TypeSpec | None, bool]:
    """(type, recognized) for a tensor (or sequence-of-tensor) input annotation."""
    if annotation is inspect.Parameter.empty:
        return None, True
    if is_tensor_type(annotation):
        return annotation.type_spec(), True
    annotation, _ = _unwrap_optional(annotation)
    if is_tensor_type(annotation):
        return annotation.type_spec(), True
    origin = typing.get_origin(annotation)
    if (origin is typing.Union or origin is types.UnionType) and all(
        is_tensor_type(a) for a in typing.get_args(annotation)
    ):
        return None, True
    if origin in _LIST_ORIGINS:
        args = typing.get_args(annotation)
        if len(args) == 1 and is_tensor_type(args[0]):
            return SequenceTypeSpec(args[0].type_spec()), True
    if isinstance(annotation, type) and annotation.__name__ == "TensorType":
        return None, True
    return None, False


def _output_types(annotation: Any) -> list[TypeSpec | None] | None:
    if annotation is inspect.Signature.empty or annotation is None:
        return None
    if is_tensor_type(annotation):
        return [annotation.type_spec()]
    items: tuple[Any, ...]
    if isinstance(annotation, tuple):
        items = annotation
    elif typing.get_origin(annotation) is tuple:
        items = tuple(a for a in typing.get_args(annotation) if a is not Ellipsis)
    else:
        items = (annotation,)
    result: list[TypeSpec | None] = []
    for item in items:
        spec, ok = _input_type(item)
        result.append(spec if ok else None)
    return result


def _param_error(
    source: SourceText, fdef: ast.FunctionDef, name: str, msg: str, hint: str = ""
) -> ScriptError:
    for arg in [*fdef.args.posonlyargs, *fdef.args.args, *fdef.args.kwonlyargs]:
        if arg.arg == name:
            return source.error(arg, msg, hint)
    return source.error(fdef, msg, hint)


def _default_version(
    fdef: ast.FunctionDef, scope: PythonScope, explicit: Opset | None, ctx_imports: dict[str, int]
) -> int:
    """The ai.onnx opset for Python operators: ``default_opset`` if given, else the one the
    function's op calls use, else the newest one imported in its module, else the newest
    that onnxruntime supports."""
    if explicit is not None:
        return explicit.version
    if "" in ctx_imports:  # an op call translated already
        return ctx_imports[""]
    for base in attribute_bases(fdef):
        obj = scope.lookup(base)
        if isinstance(obj, Opset) and obj.domain == "":
            return obj.version
    op_versions = sorted(
        obj.version
        for name in all_identifiers(fdef)
        if isinstance(obj := scope.lookup(name), Op) and obj.domain == ""
    )
    if op_versions:
        return op_versions[-1]
    versions = sorted(
        {v.version for v in scope.values() if isinstance(v, Opset) and v.domain == ""}
    )
    if versions:
        return versions[-1]
    return default_opset_version()


class Compiled(NamedTuple):
    """The result of compiling one Python function."""

    function: Function
    signature: Signature
    source: SourceText


class PyParam(NamedTuple):
    """A Python parameter, read from the code object (cheaper than ``inspect.signature``)."""

    name: str
    kind: inspect._ParameterKind
    default: Any = inspect.Parameter.empty


def python_parameters(fn: Callable[..., Any]) -> list[PyParam]:
    """The parameters of a plain Python function, in order, with their defaults."""
    code = fn.__code__
    n_pos = code.co_argcount
    n_kw = code.co_kwonlyargcount
    names = code.co_varnames
    defaults = fn.__defaults__ or ()
    kw_defaults = fn.__kwdefaults__ or {}
    first_default = n_pos - len(defaults)
    P = inspect.Parameter
    params = []
    for i in range(n_pos):
        kind = P.POSITIONAL_ONLY if i < code.co_posonlyargcount else P.POSITIONAL_OR_KEYWORD
        default = defaults[i - first_default] if i >= first_default else P.empty
        params.append(PyParam(names[i], kind, default))
    index = n_pos + n_kw
    if code.co_flags & inspect.CO_VARARGS:
        params.append(PyParam(names[index], P.VAR_POSITIONAL))
        index += 1
    for i in range(n_pos, n_pos + n_kw):
        params.append(PyParam(names[i], P.KEYWORD_ONLY, kw_defaults.get(names[i], P.empty)))
    if code.co_flags & inspect.CO_VARKEYWORDS:
        params.append(PyParam(names[index], P.VAR_KEYWORD))
    return params


def compile_function(
    fn: Callable[..., Any],
    opset: Opset,
    default_opset: Opset | None = None,
) -> Compiled:
    """Compile ``fn``: its IR function, calling convention and source."""
    fdef, source = parse_function(fn)
    scope = PythonScope(fn)
    try:
        annotations = inspect.get_annotations(fn, eval_str=True)
    except Exception as exc:
        raise source.error(
            fdef, f"cannot evaluate the annotations of {fn.__name__}: {exc}"
        ) from None
    py_params = python_parameters(fn)

    doc, body = split_docstring(fdef)

    facts = scan(fdef)
    attr_refs: dict[str, AttrRef] = {}
    params: list[Param] = []
    inputs: list[Value] = []
    attr_params: list[AttrParam] = []
    for p in py_params:
        name = p.name
        if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            raise _param_error(
                source,
                fdef,
                name,
                f"*{name} parameters are not supported",
                "list the inputs one by one",
            )
        ann = annotations.get(name, inspect.Parameter.empty)
        attr_type = _attribute_type(ann) if ann is not inspect.Parameter.empty else None
        if attr_type is not None:
            base, is_list = attr_type
            kind = (_LIST_KINDS if is_list else _ATTR_KINDS)[base]
            has_default = p.default is not inspect.Parameter.empty and p.default is not None
            default = None
            if has_default:
                try:
                    default = coerce(p.default, kind)
                except AttributeValueError as exc:
                    raise _param_error(source, fdef, name, f"default of {name!r}: {exc}") from None
            param = AttrParam(name, kind, default, has_default)
            attr_params.append(param)
            attr_refs[name] = AttrRef(param, base, is_list)
            params.append(
                Param(
                    name,
                    is_input=False,
                    optional=p.default is not inspect.Parameter.empty,
                    attr_kind=kind,
                    default=default if has_default else p.default,
                    keyword_only=p.kind == inspect.Parameter.KEYWORD_ONLY,
                )
            )
            continue
        spec, ok = _input_type(ann)
        if not ok:
            raise _param_error(
                source,
                fdef,
                name,
                f"parameter {name!r} has an unsupported annotation {ann!r}",
                "annotate inputs with tensor types (FLOAT, INT64[...], ...) and attributes "
                "with int, float, str, bool or list[int]/list[float]/list[str]",
            )
        if p.default is not inspect.Parameter.empty:
            raise _param_error(
                source,
                fdef,
                name,
                f"input {name!r} cannot have a default value",
                "only attribute parameters (int, float, str, bool, lists) take defaults",
            )
        value = Value(name, spec, name=name, declared_type=spec)
        inputs.append(value)
        params.append(Param(name, is_input=True))

    param_names = {p.name for p in py_params}
    structured = body
    generated: set[str] = set()
    if facts.needs_normalize:
        taken = all_identifiers(fdef) | param_names
        fresh = FreshNames(taken)
        try:
            structured = normalize(body, source, fresh)
        except RecursionError:
            raise source.error(
                fdef,
                f"control flow in {fn.__name__} nests too deeply once early returns are "
                "turned into if/else",
                "ONNX models cannot nest more than about 30 If/Loop subgraphs; combine the "
                "conditions of successive early returns",
            ) from None
        generated = fresh.taken - taken
    if facts.has_compound:
        check_nesting(structured, source)
    liveness = (
        analyze(structured, every_statement=False, has_nested_defs=facts.has_nested_defs)
        if facts.has_compound
        else Liveness()
    )
    # Names the function binds (normalization adds only fresh ones).
    local_names = frozenset(facts.assigned | generated | param_names)
    ctx = FunctionContext(
        source=source,
        scope=scope,
        attr_params=attr_refs,
        resolve_default=functools.partial(_default_version, fdef, scope, default_opset),
        local_names=local_names,
    )
    graph = Graph(fn.__name__, doc_string="")
    builder = GraphEmitter(graph, ctx)
    translator = Translator(ctx, builder, liveness)
    out_types = _output_types(annotations.get("return", inspect.Signature.empty))
    for value in inputs:
        builder.add_input(value)
        translator.env[value.hint] = value
    ret_names = [n for n in generated if n.startswith("return_val")]
    if out_types:
        for i, rname in enumerate(sorted(ret_names, key=lambda n: (len(n), n))):
            spec = out_types[min(i, len(out_types) - 1)]
            dtype = getattr(spec, "dtype", None)
            if dtype:
                translator.declared_returns[rname] = dtype
    translator.block(structured)
    if translator.returned is None:
        raise source.error(
            fdef,
            f"{fn.__name__} does not return anything",
            "a script function must return one or more tensors",
        )
    taken_outputs: set[Value] = set()
    outputs = []
    for i, (sym, node) in enumerate(translator.returned):
        value = translator.to_tensor(sym, node)
        if out_types is not None and i < len(out_types):
            declared = getattr(out_types[i], "dtype", None)
            value = translator.retype_int_like(value, dtype=declared or None)
        outputs.append(_output(builder, value, taken_outputs))
    if out_types is not None:
        if len(out_types) != len(outputs):
            raise source.error(
                translator.return_node,
                f"the return annotation declares {len(out_types)} output(s) but the "
                f"function returns {len(outputs)}",
            )
        for value, spec in zip(outputs, out_types):
            if spec is not None:
                value.declared_type = spec
    graph.outputs = outputs
    if facts.has_compound:
        remove_unused_constants(graph)
    assign_names(graph, fixed=inputs)
    function = Function(
        name=fn.__name__,
        domain=opset.domain,
        graph=graph,
        attr_params=attr_params,
        opset_imports=dict(ctx.opset_imports),
        doc_string=doc,
        callees=list(ctx.callees),
    )
    signature = Signature(fn.__name__, tuple(params))
    return Compiled(function, signature, source)
