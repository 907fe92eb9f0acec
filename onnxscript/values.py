"""What users hold: opsets, ops and script functions.

Calling an :class:`Op` or an :class:`OnnxFunction` outside a script hands the call to the
current evaluator (``onnxscript.evaluator.protocol``), which runs it on arrays or records
it; inside a ``@script`` function the same calls are compiled instead.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, overload

import onnx
from typing_extensions import ParamSpec, TypeVar

from onnxscript import schemas
from onnxscript.errors import OnnxScriptError, for_user
from onnxscript.language import binding as sig_mod
from onnxscript.language.callables import FunctionRef, GraphBody, OpRef

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from onnx_ir.schemas import OpSignature

    from onnxscript.program.graph import Function

_P = ParamSpec("_P", default=...)
_R = TypeVar("_R", default=Any)
"""The parameters and return type of a decorated function (``OnnxFunction[_P, _R]``)."""


def _eval_op(op: OpRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
    """Hand an op call to the current evaluator (``evaluator.context.eval_op``). The
    evaluator is imported on the first call, which then binds the real function here."""
    global _eval_op, _eval_function
    from onnxscript.evaluator import context

    _eval_op, _eval_function = context.eval_op, context.eval_function
    return _eval_op(op, args, kwargs)


def _eval_function(function: FunctionRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
    """Hand a script-function call to the current evaluator (imported on first use)."""
    global _eval_op, _eval_function
    from onnxscript.evaluator import context

    _eval_op, _eval_function = context.eval_op, context.eval_function
    return _eval_function(function, args, kwargs)


class Opset:
    """A versioned operator domain: ``Opset("", 18).Add`` is the ``Add`` op of opset 18.

    Ops of domains that onnx defines are checked against onnx's schemas; ops of custom
    domains are accepted as written (positional arguments are inputs, keyword arguments
    attributes).
    """

    if TYPE_CHECKING:
        # Type checkers see an opset made in code as a _CustomOpset, which accepts any op
        # name; the standard opsets (``opset18``: stubs in onnxscript/opsets) declare their
        # ops, so a misspelt one is an error. mypy reads __new__ only when the class shows
        # it no __init__, hence the split.
        def __new__(cls, domain: str, version: int) -> _CustomOpset: ...

    else:

        def __init__(self, domain: str, version: int) -> None:
            self._setup(domain, version)

    def _setup(self, domain: str, version: int) -> None:
        if not isinstance(domain, str):
            raise TypeError(f"Opset domain must be a str, got {type(domain).__name__}")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise TypeError(f"Opset version must be a positive int, got {version!r}")
        self.domain = schemas.canonical_domain(domain)
        self.version = version
        self._ops: dict[str, Op] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.domain!r}, {self.version})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Opset)
            and self.domain == other.domain
            and self.version == other.version
        )

    def __hash__(self) -> int:
        return hash((self.domain, self.version))

    @property
    def has_schemas(self) -> bool:
        """Whether onnx defines the ops of this domain (so op names are checked)."""
        return schemas.has_schemas(self.domain)

    def lookup(self, name: str) -> Op | None:
        """The op called ``name``, or ``None`` if this (standard) domain has no such op."""
        cached = self._ops.get(name)
        if cached is not None:
            return cached
        if self.has_schemas and schemas.op_facts(self.domain, name, self.version) is None:
            return None
        op = Op(self, name)
        self._ops[name] = op
        return op

    def suggestions(self, name: str) -> list[str]:
        """Op names of this opset close to ``name``."""
        if not self.has_schemas:
            return []
        return schemas.suggest(self.domain, name, self.version)

    def _op_attribute(self, name: str) -> Op:
        """``opset.Add``: the op, or an AttributeError suggesting close names."""
        if name.startswith("__") or name == "_ops":
            raise AttributeError(name)
        op = self.lookup(name)
        if op is None:
            close = self.suggestions(name)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            raise AttributeError(
                f"opset {self.domain or 'ai.onnx'} version {self.version} has no op "
                f"{name!r}{hint} (a script compiles such a call to a node of a custom op, "
                "which eager mode cannot run: run the compiled model in a runtime that "
                "registers the op)"
            )
        return op

    if not TYPE_CHECKING:
        __getattr__ = _op_attribute

    def __getitem__(self, name: str) -> Op:
        if not isinstance(name, str):
            raise TypeError(f"an opset is indexed by an op name, such as op['Add'], not {name!r}")
        return self._op_attribute(name)

    def __dir__(self) -> list[str]:
        names = list(super().__dir__())
        if self.has_schemas:
            names.extend(schemas.op_names(self.domain, self.version))
        return names


if TYPE_CHECKING:

    class _CustomOpset(Opset):
        """What type checkers see of ``Opset(domain, version)``: its ops are found when they
        are used (checked against onnx's schemas for standard domains), so any name goes."""

        def __getattr__(self, name: str) -> Op: ...


class OpsetLike(Protocol):
    """An object standing for an opset (a builder's ``op``): ``__onnx_opset__()`` gives
    its (domain, version)."""

    def __onnx_opset__(self) -> tuple[str, int]: ...


def as_opset(obj: object) -> Opset | None:
    """``obj`` as an :class:`Opset`: itself, or the opset an op builder records into (an
    object whose class defines ``__onnx_opset__``, such as ``GraphBuilder.op``), so that
    ``@script(default_opset=op)`` and ``op.Add`` in a script work inside builder code.
    None for anything else."""
    if isinstance(obj, Opset):
        return obj
    convert = getattr(type(obj), "__onnx_opset__", None)
    if convert is None:
        return None
    domain, version = convert(obj)
    return _opset_of(domain, version)


@functools.cache
def _opset_of(domain: str, version: int) -> Opset:
    """One ``Opset`` per (domain, version) that builders stand for (its ops are cached)."""
    return Opset(domain, version)


class _SchemaDoc:
    """``Op.__doc__``: the class docstring on the class, the schema's documentation on an op
    (read when asked for, so that making an op does not load onnx's schema registry)."""

    def __init__(self, class_doc: str) -> None:
        self.class_doc = class_doc

    def __get__(self, op: Op | None, owner: type | None = None) -> str | None:
        if op is None:
            return self.class_doc
        schema = op.op_schema
        return schema.doc if schema is not None else None


class Op(OpRef):
    """One operator of an opset. ``op_schema`` is ``None`` for custom-domain ops.

    Calling it outside a script hands ``(self, args, kwargs)`` to the current evaluator.
    """

    def __init__(self, opset: Opset, name: str) -> None:
        super().__init__(opset.domain, name, opset.version)
        self.opset = opset

    @property
    def op_signature(self) -> OpSignature | None:
        """onnx_ir's ``OpSignature`` of this op (``None`` for a custom-domain op, which has
        no schema). The calling convention used here is :attr:`call_signature`."""
        schema = self.op_schema
        if schema is None:
            return None
        from onnxscript.function_schema import op_signature

        return op_signature(schema)

    @property
    def __signature__(self) -> inspect.Signature:
        return to_inspect_signature(self.call_signature)

    def __repr__(self) -> str:
        return f"{self.opset!r}.{self.name}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return _eval_op(self, args, kwargs)
        except OnnxScriptError as exc:
            raise for_user(exc) from exc.__cause__


Op.__doc__ = _SchemaDoc(Op.__doc__ or "")  # type: ignore[assignment]


def to_inspect_signature(sig: sig_mod.Signature) -> inspect.Signature:
    """An ``inspect.Signature`` describing a call signature, for help() and IDEs."""
    if sig.free_form:
        return inspect.Signature(
            [
                inspect.Parameter("inputs", inspect.Parameter.VAR_POSITIONAL),
                inspect.Parameter("attributes", inspect.Parameter.VAR_KEYWORD),
            ]
        )
    params = []
    seen_optional = False
    for p in sig.params:
        if p.variadic:
            params.append(inspect.Parameter(p.name, inspect.Parameter.VAR_POSITIONAL))
            continue
        kind = (
            inspect.Parameter.KEYWORD_ONLY
            if p.keyword_only
            else inspect.Parameter.POSITIONAL_OR_KEYWORD
        )
        if p.is_input and (p.optional or seen_optional) and not p.keyword_only:
            seen_optional = True
            default: Any = None
        elif p.has_default:
            default = p.default
        elif p.optional:
            default = None
        else:
            default = inspect.Parameter.empty
        if (
            kind == inspect.Parameter.POSITIONAL_OR_KEYWORD
            and default is inspect.Parameter.empty
            and seen_optional
        ):
            default = None
        params.append(inspect.Parameter(p.name, kind, default=default))
    # Keyword-only parameters must come after *args in an inspect.Signature.
    positional = [p for p in params if p.kind != inspect.Parameter.KEYWORD_ONLY]
    keyword = [p for p in params if p.kind == inspect.Parameter.KEYWORD_ONLY]
    return inspect.Signature(positional + keyword)


class OnnxFunction(FunctionRef, Generic[_P, _R]):
    """A Python function compiled by ``@script()``.

    ``to_function_proto()`` and ``to_model_proto()`` give protos; calling the object hands
    the call to the current evaluator (by default it runs the function eagerly).

    Type checkers see ``OnnxFunction[<parameters>, <return type>]`` of the decorated
    function: a call with the annotated types (in another script) has the annotated return
    type; a call on arrays or numbers (eager mode) returns ``Any``.
    """

    def __init__(
        self,
        function: Callable[_P, _R],
        opset: Opset,
        ir_function: Function,
        call_signature: sig_mod.Signature,
        model_kwargs: Mapping[str, Any],
        source: str = "",
    ) -> None:
        self.function = function
        self.opset = opset
        self.domain = opset.domain
        self.version = opset.version
        self.function_ir = ir_function
        self.call_signature = call_signature
        self.model_kwargs = dict(model_kwargs)
        self.source = source
        self.name = function.__name__
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__module__ = function.__module__
        self.__doc__ = function.__doc__
        self.__wrapped__ = function
        self.__annotations__ = getattr(function, "__annotations__", {})

    traceable = False
    """Whether calls run the Python body (``TracedOnnxFunction``) rather than the compiled
    function."""

    @functools.cached_property
    def op_schema(self) -> onnx.defs.OpSchema:
        """An ``onnx.defs.OpSchema`` describing this function: inputs typed from their
        annotations, attribute parameters with defaults, outputs."""
        from onnxscript import function_schema as fs
        from onnxscript.language.annotations import output_annotations, type_hints

        graph = self.function_ir.graph
        hints = type_hints(self.function)
        optional = {p.name for p in self.call_signature.inputs if p.optional}
        inputs = []
        for v in graph.inputs:
            name = v.name or v.hint
            annotation = hints.get(name, inspect.Parameter.empty)
            known = v.declared_type or v.type
            inputs.append(fs.annotated(name, annotation, v.hint in optional, known))
        returned = output_annotations(hints.get("return", inspect.Signature.empty))
        if len(returned) != len(graph.outputs):
            returned = [inspect.Parameter.empty] * len(graph.outputs)
        outputs = [
            fs.annotated(v.name or v.hint, annotation, known=v.declared_type or v.type)
            for v, annotation in zip(graph.outputs, returned)
        ]
        attrs = [
            fs.FormalAttribute(a.name, a.kind, a.default, a.has_default)
            for a in self.function_ir.attr_params
        ]
        return fs.build_op_schema(
            self.name, self.domain, self.version, inputs, outputs, attrs, self.__doc__ or ""
        )

    @functools.cached_property
    def op_signature(self) -> OpSignature:
        """onnx_ir's ``OpSignature`` of :attr:`op_schema`, parameters in the function's
        order (what code written for 0.7, torch's OpInfo tests among it, reads: which
        types each input allows, parameters of one ``TypeVar`` sharing one constraint)."""
        from onnxscript.function_schema import op_signature

        return op_signature(self.op_schema, [p.name for p in self.call_signature.params])

    @property
    def __signature__(self) -> inspect.Signature:
        """The Python function's signature (computed on demand: it is rarely needed)."""
        return inspect.signature(self.function)

    def __repr__(self) -> str:
        return f"<OnnxFunction {self.opset.domain}::{self.name}>"

    def to_function_proto(self, *, source_locations: bool = False) -> onnx.FunctionProto:
        """The function as an ``onnx.FunctionProto`` (attribute parameters kept).

        ``source_locations=True`` records on every node where it came from (file, line,
        column, function) in its ``metadata_props`` (keys ``onnxscript.source.*``); by
        default nothing is recorded, so the output does not depend on where the code is.
        """
        from onnxscript.program.serialize import function_to_proto

        return function_to_proto(self.function_ir, source_locations)

    def to_model_proto(self, **kwargs: Any) -> onnx.ModelProto:
        """The function as the main graph of an ``onnx.ModelProto``.

        Keywords: ``ir_version``, ``opset_imports`` (dict or list of OperatorSetIdProto),
        ``input_types``/``output_types`` (one type per input/output, ``None`` to keep),
        ``io_types`` (a type for every untyped input and output), ``value_infos``
        (``{name: TYPE}``), ``source_locations`` (as in :meth:`to_function_proto`, for the
        main graph's nodes and the functions'), ``initializers`` (below), values for
        attribute parameters by name, and any other ``ModelProto`` field (``producer_name``,
        ``doc_string``, ...). Keywords given to ``@script()`` are defaults for these. A type
        given as an ``onnx.TypeProto`` is used exactly (denotations, maps, sparse tensors).

        ``initializers={name: source, ...}`` gives the model initializers, in that order:
        ``source`` is the name of a variable assigned from ``op.Constant(value=...)`` (or
        ``sparse_value=``) at the top level of the function, whose ``Constant`` node becomes
        the initializer ``name`` (every read of the variable, nested graphs included, reads
        it), or a tensor (numpy array, ``onnx.TensorProto``, ``onnx.SparseTensorProto``):
        the default value of the input ``name``, or an initializer nothing reads. Eager calls
        still run the ``Constant`` nodes. A variable that is not such a constant, or a name
        that another value has, is a :class:`onnxscript.errors.LoweringError` naming the
        entry.

        A model that onnx.checker (full) rejects, for example one whose inputs or outputs are
        left without a type or shape, comes with an
        :class:`onnxscript.errors.ModelCheckWarning` saying why.
        """
        from onnxscript.model_checks import warn_if_rejected

        model = self._model(kwargs)
        warn_if_rejected(model)
        return model

    def _model(self, kwargs: Mapping[str, Any]) -> onnx.ModelProto:
        from onnxscript.model_export import to_model_proto

        return to_model_proto(self.function_ir, {**self.model_kwargs, **kwargs})

    def to_graph_proto(self, **kwargs: Any) -> onnx.GraphProto:
        """The main graph of :meth:`to_model_proto` (a graph needs no complete types)."""
        return self._model(kwargs).graph

    @overload
    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...
    @overload
    def __call__(self, *args: ArrayLike, **kwargs: Any) -> Any: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return _eval_function(self, args, kwargs)
        except OnnxScriptError as exc:
            raise for_user(exc) from exc.__cause__


@dataclass(frozen=True)
class FunctionHeader:
    """Who a traced function is (``function_ir`` of a :class:`TracedOnnxFunction`): it has
    no compiled program, only a domain and a name."""

    domain: str
    name: str


class TracedOnnxFunction(FunctionRef, Generic[_P, _R]):
    """A function whose Python body runs each time it is called (``traceable``).

    Eagerly its op calls run on arrays; under a tracing evaluator (torch.onnx's, or
    :class:`onnxscript.GraphBuilder`) they are recorded, and the body may
    branch on Python-side facts (``x.dtype``, ``len(x.shape)``, attribute values).
    ``to_function_proto()`` traces it once on symbolic inputs typed from its annotations.
    """

    traceable = True

    def __init__(self, opset: Opset, function: Callable[_P, _R]) -> None:
        if not isinstance(opset, Opset):
            raise TypeError(f"TracedOnnxFunction needs an Opset first, got {opset!r}")
        if not callable(function):
            raise TypeError(f"TracedOnnxFunction needs a function, got {function!r}")
        self.function = function
        self.opset = opset
        self.domain = opset.domain
        self.version = opset.version
        self.name = function.__name__
        self.source = ""
        self.function_ir = FunctionHeader(opset.domain, function.__name__)  # type: ignore[assignment]
        self.__name__ = function.__name__
        self.__qualname__ = getattr(function, "__qualname__", self.name)
        self.__module__ = getattr(function, "__module__", __name__)
        self.__doc__ = function.__doc__
        self.__wrapped__ = function
        self.__annotations__ = getattr(function, "__annotations__", {})

    @functools.cached_property
    def call_signature(self) -> sig_mod.Signature:  # type: ignore[override]
        """Inputs and attributes read from the annotations (see ``language.annotations``)."""
        from onnxscript.language.annotations import callable_signature

        return callable_signature(self.function, self.name)

    @functools.cached_property
    def op_schema(self) -> onnx.defs.OpSchema:
        """An ``onnx.defs.OpSchema`` of the function, from its annotations."""
        from onnxscript.function_schema import traced_op_schema

        return traced_op_schema(
            self.function, self.name, self.domain, self.version, self.__doc__ or ""
        )

    op_signature = OnnxFunction.op_signature  # from its op_schema, as for script functions

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.function)

    def __repr__(self) -> str:
        return f"<TracedOnnxFunction {self.domain}::{self.name}>"

    @overload
    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...
    @overload
    def __call__(self, *args: ArrayLike, **kwargs: Any) -> Any: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return _eval_function(self, args, kwargs)
        except OnnxScriptError as exc:
            raise for_user(exc) from exc.__cause__

    def to_function_proto(self, **attributes: Any) -> onnx.FunctionProto:
        """The function traced once on symbolic inputs typed from its annotations.

        Attribute parameters are read by the body as Python values, so they are fixed by
        tracing: pass values for those without a default (``to_function_proto(axis=0)``).
        """
        import onnx_ir as ir

        from onnxscript.builder.trace import trace_function

        traced = trace_function(
            self.function, self.name, self.domain, self.call_signature, attributes
        )
        return ir.serde.serialize_function(traced)


class GraphFunction(GraphBody):
    """A nested function marked with ``@graph()``: a graph-valued attribute, such as a
    ``Scan`` or ``Loop`` body. It is compiled where it is used inside a script."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__doc__ = function.__doc__
        self.__wrapped__ = function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<GraphFunction {self.__qualname__}>"


def graph() -> Callable[[Callable[..., Any]], GraphFunction]:
    """Mark a function defined inside a script as a graph attribute (a ``Scan`` or ``Loop``
    body, for example). It is compiled where it is used and may read enclosing variables."""

    def transform(fn: Callable[..., Any]) -> GraphFunction:
        if not inspect.isfunction(fn):
            raise TypeError(f"@graph() can only decorate a function, not {type(fn).__name__}")
        return GraphFunction(fn)

    return transform


__all__ = [
    "FunctionHeader",
    "GraphFunction",
    "OnnxFunction",
    "Op",
    "Opset",
    "OpsetLike",
    "TracedOnnxFunction",
    "as_opset",
    "graph",
    "to_inspect_signature",
]
