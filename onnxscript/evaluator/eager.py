"""Eager evaluation on arrays: what the array evaluators do for ``eval_op`` and
``eval_function``.

Arguments are sorted into inputs and attributes by ``language.binding.bind`` (the
converter's rule), Python numbers become tensors by ``binding.literal_input_type`` (also
the converter's rule), attribute values are checked by ``language.attributes.coerce``, and
the evaluator's backend runs the op. Results are numpy arrays, or :class:`Tensor` objects
when a ``Tensor`` was passed in (inside a script function running eagerly every value is a
``Tensor``).

A call that only passes arrays positionally to an op (attributes by keyword) takes a short
path: no binding, one cache lookup and one session run.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import onnx

from onnxscript.errors import AttributeValueError, BindingError, InputTypeError
from onnxscript.evaluator.errors import op_failure
from onnxscript.evaluator.inputs import convert_op_inputs
from onnxscript.evaluator.op_call import ArrayRunner, OpCall
from onnxscript.evaluator.protocol import FunctionRef, GraphBody, OpRef
from onnxscript.evaluator.tensor import AttrTensor, Tensor, wrap
from onnxscript.language.attributes import AT, coerce, infer_kind
from onnxscript.language.binding import (
    BoundArguments,
    Signature,
    bind,
    declared_output_count,
    output_count,
)
from onnxscript.language.binding import describe as describe_signature

_MANY = 1 << 30
_IN_SCRIPT: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "onnxscript_in_script", default=False
)
"""Whether a script function's body is running eagerly: its calls of script functions are
not checked for input shapes (a compiled model checks only its own inputs' shapes), and
its op calls give the script's output count, not every declared output."""
_MAX_KEYWORD_CALLS = 64


@dataclass
class OpPlan:
    """What eager calls of one op need, computed once per op object.

    ``default_outputs`` is the output count of a call that does not ask for one: in a
    script, every output up to the last required one; outside (``outside_script``), every
    output the schema declares (``None``: it depends on the call). ``direct`` is the plan
    for calls outside a script when that count differs from the script's.
    """

    signature: Signature
    schema: onnx.defs.OpSchema | None
    attr_kinds: dict[str, int]
    sequence_slots: tuple[bool, ...]
    default_outputs: int | None
    min_args: int
    max_args: int
    fast: bool
    plain_call: OpCall | None
    keyword_calls: dict[Hashable, OpCall] = field(default_factory=dict)
    outside_script: bool = False
    direct: OpPlan | None = None


def _is_sequence_type(type_str: str, constraints: Mapping[str, Sequence[str]]) -> bool:
    allowed = constraints.get(type_str, (type_str,))
    return bool(allowed) and all(t.startswith("seq(") for t in allowed)


def _plan(op: OpRef) -> OpPlan:
    plan: OpPlan | None = op.__dict__.get("_eager_plan")
    if plan is not None:
        return plan
    sig = op.call_signature
    inputs = sig.inputs
    sequence_slots = tuple(_is_sequence_type(p.type_var, sig.type_constraints) for p in inputs)
    default = sig.default_num_outputs()
    variadic = [i for i, p in enumerate(inputs) if p.variadic]
    required = [i for i, p in enumerate(inputs) if not p.optional and not p.variadic]
    fast = (
        not sig.free_form
        and default is not None
        and not any(sequence_slots)
        and (not variadic or (len(inputs) == 1 and variadic == [0]))
        and not any(p.attr_kind == AT.GRAPH for p in sig.attributes)
    )
    if variadic:
        min_args, max_args = max(inputs[0].min_arity, 1), _MANY
    else:
        min_args, max_args = (required[-1] + 1 if required else 0), len(inputs)
    plan = OpPlan(
        signature=sig,
        schema=op.op_schema,
        attr_kinds={p.name: p.attr_kind for p in sig.attributes},
        sequence_slots=sequence_slots,
        default_outputs=default,
        min_args=min_args,
        max_args=max_args,
        fast=fast,
        plain_call=_plain_call(op, sig, default if fast else None),
    )
    declared = declared_output_count(sig, op.domain)
    if default is not None and declared != default:
        plan.direct = replace(
            plan,
            default_outputs=declared,
            fast=fast and declared is not None,
            plain_call=_plain_call(op, sig, declared if fast else None),
            keyword_calls={},
            outside_script=True,
        )
    op.__dict__["_eager_plan"] = plan
    return plan


def _plain_call(op: OpRef, sig: Signature, count: int | None) -> OpCall | None:
    """The call of ``op`` without attributes giving ``count`` outputs (``None`` if the op
    needs attributes, or no count is given)."""
    if count is None or any(not p.optional and not p.has_default for p in sig.attributes):
        return None
    key = (op.domain, op.name, op.version, (), count)
    return OpCall(op.domain, op.name, op.version, (), count, key, sig, op.op_schema)


# -- running --------------------------------------------------------------------------------


def run_call(evaluator: ArrayRunner, call: OpCall, inputs: Sequence[Any]) -> list[Any]:
    """Run ``call`` with ``evaluator``'s backend; failures name the op and the user's line."""
    try:
        return evaluator.run(call, inputs)
    except InputTypeError:
        raise
    except Exception as exc:
        raise op_failure(call.label, call.op_type, inputs, exc) from exc


def _finish(outputs: list[Any], wrapped: bool, count: int) -> Any:
    if count == 1:
        out = outputs[0]
        if wrapped:
            return Tensor.of(out) if type(out) is np.ndarray else wrap(out)
        return out
    if wrapped:
        outputs = [wrap(o) for o in outputs]
    return tuple(outputs)


def _keyword_key(kwargs: Mapping[str, Any]) -> Hashable:
    """A hashable key for attribute keywords (raises TypeError for unhashable values)."""
    parts: list[Hashable] = []
    for name, value in kwargs.items():
        kind = type(value)
        if kind is list or kind is tuple:
            parts.append((name, kind, tuple(value), tuple(map(type, value))))
        else:
            parts.append((name, kind, value))
    key = tuple(parts)
    hash(key)
    return key


def _requested_outputs(kwargs: Mapping[str, Any]) -> tuple[Mapping[str, Any], int | None]:
    """The keywords without ``_outputs``, and the output count it asks for."""
    rest = dict(kwargs)
    count = rest.pop("_outputs")
    if count is None:
        return rest, None
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise TypeError(f"_outputs must be a number of outputs, got {count!r}")
    return rest, count


def run_op(
    evaluator: ArrayRunner, op: OpRef, args: Sequence[Any], kwargs: Mapping[str, Any]
) -> Any:
    """Run ``op(*args, **kwargs)`` with ``evaluator``'s backend.

    ``_outputs=k`` in ``kwargs`` asks for ``k`` outputs (what ``a, b = op.X(...)`` does in a
    script). Otherwise a call from a script gives every output up to the last required
    one, as compiled; a call outside scripts every output the schema declares (that the
    spec allows for the call: ``binding.declared_output_count``). The result is one value
    or a tuple.

    Calls that pass only arrays (or Tensors) positionally, and attributes by keyword, skip
    argument binding: the op's ``OpCall`` for those attribute values is prepared once.
    """
    n_outputs = None
    if kwargs and "_outputs" in kwargs:
        kwargs, n_outputs = _requested_outputs(kwargs)
    plan = _plan(op)
    if plan.direct is not None and not _IN_SCRIPT.get():
        plan = plan.direct
    if plan.fast and n_outputs is None and plan.min_args <= len(args) <= plan.max_args:
        arrays = []
        wrapped = False
        for a in args:
            kind = type(a)
            if kind is np.ndarray and a.dtype.isnative and a.dtype.kind != "O":
                arrays.append(a)
            elif kind is Tensor:
                arrays.append(a.value)
                wrapped = True
            else:
                break
        else:
            if not kwargs:
                call = plan.plain_call
            else:
                try:
                    call = plan.keyword_calls.get(_keyword_key(kwargs))
                except TypeError:
                    call = None
            if call is not None:
                return _finish(run_call(evaluator, call, arrays), wrapped, call.n_outputs)
    return _run_op_general(evaluator, op, plan, args, kwargs, n_outputs)


def _has_tensor(values: Any) -> bool:
    for v in values:
        if isinstance(v, Tensor) and not isinstance(v, AttrTensor):
            return True
        if isinstance(v, list) and _has_tensor(v):
            return True
    return False


def _bind(plan: OpPlan, args: Sequence[Any], kwargs: Mapping[str, Any]) -> BoundArguments:
    sig = plan.signature
    try:
        return bind(sig, args, kwargs)
    except BindingError as exc:
        accepted = describe_signature(sig)
        raise BindingError(f"{exc} ({accepted})" if accepted else str(exc)) from None


def _attribute(op: OpRef, name: str, kind: int | None, value: Any) -> tuple[int, Any]:
    """(kind, value) of an attribute given as ``value``; ``kind`` is the schema's, or
    ``None`` for ops without a schema (then it is inferred from the value)."""
    if kind is None:
        kind = infer_kind(value)
        if kind is None:
            raise TypeError(
                f"{op.name}(): cannot tell the attribute type of {name}={value!r}; give a "
                "number, a string, a non-empty list or a numpy array"
            )
    try:
        return kind, coerce(value, kind)
    except AttributeValueError as exc:
        raise AttributeValueError(f"{op.name}(): attribute {name!r}: {exc}") from None


def _attributes(
    op: OpRef, plan: OpPlan, given: Mapping[str, Any]
) -> tuple[list[tuple[str, int, Any]], dict[str, Any]]:
    """The call's attributes as ``(name, kind, value)``, and the graph attributes given as
    Python functions (``@graph()`` bodies), which eager mode calls instead."""
    free_form = plan.signature.free_form
    attributes: list[tuple[str, int, Any]] = []
    python_bodies: dict[str, Any] = {}
    for name, value in given.items():
        kind = None if free_form else plan.attr_kinds[name]
        if isinstance(value, AttrTensor):
            value = value.attr_value
        elif isinstance(value, Tensor):
            value = value.value
        if (kind == AT.GRAPH or kind is None) and callable(value):
            if not isinstance(value, GraphBody):
                raise TypeError(
                    f"{op.name}(): attribute {name!r} is the plain function "
                    f"{getattr(value, '__qualname__', value)!r}; decorate a function used as "
                    "a graph attribute with @graph()"
                )
            python_bodies[name] = value
            continue
        attributes.append((name, *_attribute(op, name, kind, value)))
    return attributes, python_bodies


def _run_op_general(
    evaluator: ArrayRunner,
    op: OpRef,
    plan: OpPlan,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    n_outputs: int | None,
) -> Any:
    bound = _bind(plan, args, kwargs)
    wrapped = _has_tensor(bound.inputs)
    attributes, python_bodies = _attributes(op, plan, bound.attributes)
    inputs = convert_op_inputs(op.name, plan.signature, plan.sequence_slots, bound.inputs)
    if python_bodies:
        from onnxscript.evaluator.graph_ops import run_with_python_bodies

        outputs = run_with_python_bodies(
            op, inputs, {n: v for n, _, v in attributes}, python_bodies, n_outputs
        )
        return _finish(outputs, wrapped, len(outputs))
    count = _output_count(op, plan, attributes, inputs, n_outputs)
    key: Hashable = (op.domain, op.name, op.version, _attributes_key(attributes), count)
    call = OpCall(op.domain, op.name, op.version, tuple(attributes), count, key, plan.signature,
                  plan.schema)  # fmt: skip
    if (
        plan.fast
        and kwargs
        and n_outputs is None
        and count == plan.default_outputs
        and len(plan.keyword_calls) < _MAX_KEYWORD_CALLS
        and all(name in plan.attr_kinds for name in kwargs)
    ):
        with contextlib.suppress(TypeError):  # unhashable attribute values are not cached
            plan.keyword_calls[_keyword_key(kwargs)] = call
    return _finish(run_call(evaluator, call, inputs), wrapped, count)


def _freeze(value: Any) -> Hashable:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if hasattr(value, "SerializeToString"):
        return (type(value).__name__, value.SerializeToString())
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    return value  # type: ignore[no-any-return]


def _attributes_key(attributes: Sequence[tuple[str, int, Any]]) -> Hashable:
    return tuple((name, kind, _freeze(value)) for name, kind, value in attributes)


def _graph_outputs(graph: Any) -> int | None:
    return len(graph.output) if isinstance(graph, onnx.GraphProto) else None


def _output_count(
    op: OpRef,
    plan: OpPlan,
    attributes: Sequence[tuple[str, int, Any]],
    inputs: Sequence[Any],
    n_outputs: int | None,
) -> int:
    """Outside scripts, every declared output the spec allows for the call; else the
    shared rule (``binding.output_count``), then, eagerly, the length of Split's ``split``
    input, which is known here."""
    attrs = {name: value for name, _, value in attributes}
    if plan.outside_script and n_outputs is None:
        formals = plan.signature.inputs
        given = [p.name for p, v in zip(formals, inputs, strict=False) if v is not None]
        declared = declared_output_count(plan.signature, op.domain, attrs, given)
        if declared is not None:
            return declared
    try:
        return output_count(plan.signature, n_outputs, attrs, _graph_outputs)
    except BindingError as exc:
        derived = _split_count(op, attrs, inputs) if n_outputs is None else None
        if derived is not None:
            return derived
        if n_outputs is not None:
            raise TypeError(str(exc)) from None
        raise TypeError(
            f"{exc}: unpack them in a script (`a, b = op.{op.name}(...)`), pass num_outputs= "
            "if the op has it, or call onnxscript.evaluator.call_op(op, args, kwargs, "
            "n_outputs=...)"
        ) from None


def _split_count(op: OpRef, attrs: Mapping[str, Any], inputs: Sequence[Any]) -> int | None:
    """Split's output count when its ``split`` sizes are given (eager mode sees them)."""
    if op.domain != "" or op.name != "Split":
        return None
    split = inputs[1] if len(inputs) > 1 else None
    if isinstance(split, np.ndarray):
        return int(split.size)
    given = attrs.get("split")
    return len(given) if isinstance(given, list) else None


# -- script functions ------------------------------------------------------------------------


def run_function(
    evaluator: ArrayRunner, fn: FunctionRef, args: Sequence[Any], kwargs: Mapping[str, Any]
) -> Any:
    """Run a script function eagerly: its Python code, rewritten so that operators, ``and``/
    ``or``/``not``, indexing and op calls mean what they mean when compiled (see
    ``onnxscript.evaluator.script_rewrite``); its op calls go to the current evaluator."""
    from onnxscript.evaluator.script_rewrite import eager_function

    impl = eager_function(fn)
    if kwargs and evaluator.ignore_unknown_function_kwargs:
        kwargs = {k: v for k, v in kwargs.items() if k in impl.param_names}
    try:
        bound = bind(impl.signature, args, kwargs)
    except BindingError as exc:
        raise BindingError(str(exc)) from None
    wrapped = _has_tensor(args) or _has_tensor(kwargs.values())
    nested = _IN_SCRIPT.get()
    call_args = impl.prepare_arguments(bound.inputs, bound.attributes, check_shapes=not nested)
    token = None if nested else _IN_SCRIPT.set(True)
    try:
        result = impl.function(*call_args)
    finally:
        if token is not None:
            _IN_SCRIPT.reset(token)
    return impl.finish(result, wrapped)
