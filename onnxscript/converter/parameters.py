"""A script function's parameters: which are inputs (tensor annotations, a ``TypeVar`` or
``Union`` of tensor types included: ``language.annotations`` decides) and which are attributes
(``int``, ``float``, ``str``, ``bool`` and lists of them), with their types and defaults,
and the types its return annotation declares."""

from __future__ import annotations

import ast
import inspect
import typing
from collections.abc import Callable
from typing import Any, NamedTuple

from onnxscript.converter.input_defaults import InputDefault, default_array
from onnxscript.converter.symbols import AttrRef
from onnxscript.errors import AttributeValueError, ScriptError
from onnxscript.language.annotations import (
    ATTR_KINDS,
    LIST_KINDS,
    LIST_ORIGINS,
    annotation_type,
    is_tensor_annotation,
    output_annotations,
    unwrap_optional,
)
from onnxscript.language.attributes import coerce
from onnxscript.language.binding import Param
from onnxscript.onnx_types import is_tensor_type
from onnxscript.program.graph import AttrParam, Value
from onnxscript.source import SourceText
from onnxscript.value_types import TypeSpec


def _attribute_type(annotation: Any) -> tuple[type, bool] | None:
    """(base type, is list) if ``annotation`` declares an attribute parameter."""
    if is_tensor_type(annotation):
        return None
    annotation, _ = unwrap_optional(annotation)
    if _is_attribute_kind(annotation):
        return annotation, False
    origin = typing.get_origin(annotation)
    if origin in LIST_ORIGINS:
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        if len(args) == 1 and _is_attribute_kind(args[0]):
            return args[0], True
    return None


def _is_attribute_kind(annotation: Any) -> bool:
    """Whether the annotation is ``int``, ``float``, ``bool`` or ``str`` (an annotation may
    be any object, such as a list, which cannot be looked up in a dict)."""
    return isinstance(annotation, type) and annotation in ATTR_KINDS


def _input_type(annotation: Any) -> tuple[TypeSpec | None, bool]:
    """(type, recognized) for a tensor (or sequence-of-tensor) input annotation: the one
    type it declares, ``None`` for one that allows several (a ``TypeVar``, a ``Union``) or
    any (no annotation), as 0.7 records them."""
    if not is_tensor_annotation(annotation):
        return None, False
    return annotation_type(annotation), True


def output_types(annotation: Any) -> list[TypeSpec | None] | None:
    """The types a return annotation declares, one per output (``None`` without one)."""
    if annotation is inspect.Signature.empty or annotation is None:
        return None
    return [_input_type(item)[0] for item in output_annotations(annotation)]


def _param_node(fdef: ast.FunctionDef, name: str) -> ast.arg | None:
    """The syntax of the parameter ``name`` of ``fdef``."""
    for arg in [*fdef.args.posonlyargs, *fdef.args.args, *fdef.args.kwonlyargs]:
        if arg.arg == name:
            return arg
    return None


def _param_error(
    source: SourceText, fdef: ast.FunctionDef, name: str, msg: str, hint: str = ""
) -> ScriptError:
    node = _param_node(fdef, name)
    return source.error(node if node is not None else fdef, msg, hint)


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


class Parameters(NamedTuple):
    """A function's parameters, in order: the calling convention (``params``), the graph
    inputs, the attribute parameters (``attr_params``, with ``attr_refs`` by name) and the
    tensor defaults of inputs (``defaults``)."""

    params: list[Param]
    inputs: list[Value]
    attr_params: list[AttrParam]
    attr_refs: dict[str, AttrRef]
    defaults: list[InputDefault]

    def optional_inputs(self) -> list[Value]:
        """The inputs a caller may omit (tensor parameters with a default)."""
        input_params = [p for p in self.params if p.is_input]
        return [v for v, p in zip(self.inputs, input_params) if p.optional]


def _attribute_param(
    source: SourceText, fdef: ast.FunctionDef, p: PyParam, base: type, is_list: bool
) -> tuple[Param, AttrParam, AttrRef]:
    kind = (LIST_KINDS if is_list else ATTR_KINDS)[base]
    has_default = p.default is not inspect.Parameter.empty and p.default is not None
    default = None
    if has_default:
        try:
            default = coerce(p.default, kind)
        except AttributeValueError as exc:
            raise _param_error(source, fdef, p.name, f"default of {p.name!r}: {exc}") from None
    param = AttrParam(p.name, kind, default, has_default)
    call_param = Param(
        p.name,
        is_input=False,
        optional=p.default is not inspect.Parameter.empty,
        attr_kind=kind,
        default=default if has_default else p.default,
        keyword_only=p.kind == inspect.Parameter.KEYWORD_ONLY,
    )
    return call_param, param, AttrRef(param, base, is_list)


def _input_param(source: SourceText, fdef: ast.FunctionDef, p: PyParam, annotation: Any) -> Value:
    spec, ok = _input_type(annotation)
    if not ok:
        raise _param_error(
            source,
            fdef,
            p.name,
            f"parameter {p.name!r} has an unsupported annotation {annotation!r}",
            "annotate inputs with tensor types (FLOAT, INT64[...], ...) and attributes "
            "with int, float, str, bool or list[int]/list[float]/list[str]",
        )
    return Value(p.name, spec, name=p.name, declared_type=spec)


def _input_default(
    source: SourceText, fdef: ast.FunctionDef, p: PyParam, value: Value
) -> InputDefault:
    """The tensor default of the input ``value`` (parameter ``p``), or a located error."""
    try:
        array = default_array(p.name, p.default, value.declared_type)
    except AttributeValueError as exc:
        raise _param_error(
            source,
            fdef,
            p.name,
            f"default of {p.name!r}: {exc}",
            "a tensor input takes None (optional) or tensor data (an array, a number, "
            "op.Constant(...)) of its annotated element type as its default",
        ) from None
    node = _param_node(fdef, p.name)
    return InputDefault(value, array, node if node is not None else fdef)


def read_parameters(
    fn: Callable[..., Any],
    fdef: ast.FunctionDef,
    source: SourceText,
    annotations: dict[str, Any],
) -> Parameters:
    """The parameters of ``fn`` (whose definition is ``fdef``), or a located ScriptError."""
    found = Parameters([], [], [], {}, [])
    for p in python_parameters(fn):
        if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            raise _param_error(
                source, fdef, p.name, f"*{p.name} parameters are not supported",
                "list the inputs one by one",
            )  # fmt: skip
        annotation = annotations.get(p.name, inspect.Parameter.empty)
        attr_type = (
            _attribute_type(annotation) if annotation is not inspect.Parameter.empty else None
        )
        if attr_type is not None:
            call_param, param, ref = _attribute_param(source, fdef, p, *attr_type)
            found.params.append(call_param)
            found.attr_params.append(param)
            found.attr_refs[p.name] = ref
        else:
            value = _input_param(source, fdef, p, annotation)
            found.inputs.append(value)
            if p.default is None or p.default is inspect.Parameter.empty:
                found.params.append(Param(p.name, is_input=True, optional=p.default is None))
                continue
            default = _input_default(source, fdef, p, value)
            found.defaults.append(default)
            found.params.append(Param(p.name, is_input=True, optional=True, default=default.array))
    return found
