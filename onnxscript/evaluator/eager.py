"""Eager calls: ``op.X(...)`` and ``script_function(...)`` on arrays.

``Op.__call__`` and ``OnnxFunction.__call__`` land here. Arguments are sorted into inputs
and attributes by ``onnxscript.signature.bind`` (the converter's rule), Python numbers
become tensors by ``signature.literal_input_type`` (also the converter's rule), attribute
values are checked by ``onnxscript.attributes.coerce``, and the current evaluator runs the
op. Results are numpy arrays, or :class:`Tensor` objects when a ``Tensor`` was passed in
(inside a script function running eagerly every value is a ``Tensor``).

A call that only passes arrays positionally to an op without attributes takes a short
path: no binding, one cache lookup and one session run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import onnx

from onnxscript.attributes import AT, AttributeValueError, coerce, infer_kind
from onnxscript.evaluator import context
from onnxscript.evaluator.arrays import cast_array, describe, literal_array, onnx_dtype
from onnxscript.evaluator.base import OpCall
from onnxscript.evaluator.errors import op_failure
from onnxscript.evaluator.tensor import AttrTensor, Tensor, TensorSequence
from onnxscript.evaluator.typecheck import InputTypeError
from onnxscript.signature import (
    BindingError,
    Signature,
    bind,
    literal_input_type,
    output_count,
)
from onnxscript.signature import describe as describe_signature
from onnxscript.values import GraphFunction

if TYPE_CHECKING:
    from onnxscript.values import OnnxFunction, Op

_MANY = 1 << 30
_MAX_KEYWORD_CALLS = 64


@dataclass
class OpPlan:
    """What eager calls of one op need, computed once per op object."""

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


def _is_sequence_type(type_str: str, constraints: Mapping[str, Sequence[str]]) -> bool:
    allowed = constraints.get(type_str, (type_str,))
    return bool(allowed) and all(t.startswith("seq(") for t in allowed)


def _plan(op: Op) -> OpPlan:
    plan: OpPlan | None = op.__dict__.get("_eager_plan")
    if plan is not None:
        return plan
    sig = op.op_signature
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
    plain_call = None
    needs_attributes = any(not p.optional and not p.has_default for p in sig.attributes)
    if fast and default is not None and not needs_attributes:
        plain_call = OpCall(
            op.domain, op.name, op.version, (), default,
            (op.domain, op.name, op.version, (), default), sig, op.schema,
        )  # fmt: skip
    plan = OpPlan(
        signature=sig,
        schema=op.schema,
        attr_kinds={p.name: p.attr_kind for p in sig.attributes},
        sequence_slots=sequence_slots,
        default_outputs=default,
        min_args=min_args,
        max_args=max_args,
        fast=fast,
        plain_call=plain_call,
    )
    op.__dict__["_eager_plan"] = plan
    return plan


# -- running --------------------------------------------------------------------------------


def run_call(call: OpCall, inputs: Sequence[Any]) -> list[Any]:
    """Run ``call`` with the current evaluator; failures name the op and the user's line."""
    evaluator = context._CURRENT.get() or context.default()
    try:
        return evaluator.run(call, inputs)
    except InputTypeError:
        raise
    except Exception as exc:
        raise op_failure(call.label, call.op_type, inputs, exc) from exc


def _wrap(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return Tensor(value)
    if isinstance(value, list):
        return TensorSequence([_wrap(v) for v in value], getattr(value, "elem_type", None))
    if isinstance(value, np.generic):
        return Tensor(np.asarray(value))
    return value


def _finish(outputs: list[Any], wrapped: bool, count: int) -> Any:
    if count == 1:
        out = outputs[0]
        if wrapped:
            return Tensor.of(out) if type(out) is np.ndarray else _wrap(out)
        return out
    if wrapped:
        outputs = [_wrap(o) for o in outputs]
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


def call_op(
    op: Op,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    n_outputs: int | None = None,
    *,
    wrap: bool = False,
) -> Any:
    """Run ``op(*args, **kwargs)`` eagerly.

    ``n_outputs`` asks for that many outputs (what ``a, b = op.X(...)`` does in a script);
    by default a call gives every output up to the last required one. The result is one
    value or a tuple. ``wrap`` makes results :class:`Tensor` objects even if no ``Tensor``
    was passed in.

    Calls that pass only arrays (or Tensors) positionally, and attributes by keyword, skip
    argument binding: the op's ``OpCall`` for those attribute values is prepared once.
    """
    plan = _plan(op)
    if plan.fast and n_outputs is None and plan.min_args <= len(args) <= plan.max_args:
        arrays = []
        wrapped = wrap
        for a in args:
            kind = type(a)
            if kind is np.ndarray:
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
                return _finish(run_call(call, arrays), wrapped, call.n_outputs)
    return _call_op_general(op, plan, args, kwargs, n_outputs, wrap)


def _has_tensor(values: Any) -> bool:
    for v in values:
        if isinstance(v, Tensor) and not isinstance(v, AttrTensor):
            return True
        if isinstance(v, list) and _has_tensor(v):
            return True
    return False


def _call_op_general(
    op: Op,
    plan: OpPlan,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    n_outputs: int | None,
    wrap: bool,
) -> Any:
    sig = plan.signature
    try:
        bound = bind(sig, args, kwargs)
    except BindingError as exc:
        accepted = describe_signature(sig)
        raise TypeError(f"{exc} ({accepted})" if accepted else str(exc)) from None
    wrapped = wrap or _has_tensor(bound.inputs)
    attributes: list[tuple[str, int, Any]] = []
    python_bodies: dict[str, Any] = {}
    for name, value in bound.attributes.items():
        kind = None if sig.free_form else plan.attr_kinds[name]
        if isinstance(value, AttrTensor):
            value = value.attr_value
        elif isinstance(value, Tensor):
            value = value.value
        if (kind == AT.GRAPH or kind is None) and callable(value):
            if not isinstance(value, GraphFunction):
                raise TypeError(
                    f"{op.name}(): attribute {name!r} is the plain function "
                    f"{getattr(value, '__qualname__', value)!r}; decorate a function used as "
                    "a graph attribute with @graph()"
                )
            python_bodies[name] = value
            continue
        if kind is None:
            kind = infer_kind(value)
            if kind is None:
                raise TypeError(
                    f"{op.name}(): cannot tell the attribute type of {name}={value!r}; give a "
                    "number, a string, a non-empty list or a numpy array"
                )
        try:
            value = coerce(value, kind)
        except AttributeValueError as exc:
            raise TypeError(f"{op.name}(): attribute {name!r}: {exc}") from None
        attributes.append((name, kind, value))
    inputs = convert_op_inputs(op.name, plan, bound.inputs)
    if python_bodies:
        from onnxscript.evaluator.graph_ops import run_with_python_bodies

        outputs = run_with_python_bodies(
            op, inputs, dict((n, v) for n, _, v in attributes), python_bodies, n_outputs
        )
        return _finish(outputs, wrapped, len(outputs))
    count = _output_count(op, plan, attributes, inputs, n_outputs)
    key: Hashable = (op.domain, op.name, op.version, _attributes_key(attributes), count)
    call = OpCall(op.domain, op.name, op.version, tuple(attributes), count, key, sig, plan.schema)
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
    return _finish(run_call(call, inputs), wrapped, count)


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
    op: Op,
    plan: OpPlan,
    attributes: Sequence[tuple[str, int, Any]],
    inputs: Sequence[Any],
    n_outputs: int | None,
) -> int:
    """The shared rule (``signature.output_count``), then, eagerly, the length of Split's
    ``split`` input, which is known here."""
    attrs = {name: value for name, _, value in attributes}
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


def _split_count(op: Op, attrs: Mapping[str, Any], inputs: Sequence[Any]) -> int | None:
    """Split's output count when its ``split`` sizes are given (eager mode sees them)."""
    if op.domain != "" or op.name != "Split":
        return None
    split = inputs[1] if len(inputs) > 1 else None
    if isinstance(split, np.ndarray):
        return int(split.size)
    given = attrs.get("split")
    return len(given) if isinstance(given, list) else None


# -- input conversion -------------------------------------------------------------------------


def _is_sequence_value(value: Any) -> bool:
    """A list that stands for an ONNX sequence (rather than a tensor literal): one returned
    by an op, or a list of arrays or Tensors."""
    if isinstance(value, TensorSequence):
        return True
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(v, (np.ndarray, TensorSequence))
            or (isinstance(v, Tensor) and not isinstance(v, AttrTensor))
            for v in value
        )
    )


def _sequence(value: Any, where: str) -> TensorSequence:
    items = [_element(v, where) for v in value]
    elem_type = getattr(value, "elem_type", None)
    if elem_type is None and items and isinstance(items[0], np.ndarray):
        elem_type = onnx_dtype(items[0].dtype)
    return TensorSequence(items, elem_type)


def _element(value: Any, where: str) -> Any:
    if isinstance(value, Tensor):
        return value.value
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, np.generic):
        return np.asarray(value)
    if isinstance(value, list):
        return [_element(v, where) for v in value]
    return literal_array(value, None, where)


def literal_to_array(value: Any, dtype: int | None, where: str) -> np.ndarray:
    """A literal, an attribute parameter, or a list mixing tensors and literals, as an array
    of element type ``dtype`` (the converter's ``to_tensor`` for non-tensor values)."""
    if isinstance(value, AttrTensor):
        return value.value if dtype is None else cast_array(value.value, dtype)
    if isinstance(value, (list, tuple)) and any(
        isinstance(v, (Tensor, np.ndarray, np.generic)) for v in value
    ):
        anchor = next(
            (v for v in value if isinstance(v, (np.ndarray, np.generic))
             or (isinstance(v, Tensor) and not isinstance(v, AttrTensor))),
            None,
        )  # fmt: skip
        target = dtype
        if target is None and anchor is not None:
            target = onnx_dtype(
                np.asarray(anchor.value if isinstance(anchor, Tensor) else anchor).dtype
            )
        parts = []
        for v in value:
            if isinstance(v, (list, tuple)):
                raise TypeError(f"{where}: nested lists of tensors cannot be used as tensors")
            if isinstance(v, Tensor) and not isinstance(v, AttrTensor):
                parts.append(v.value.reshape(-1))
            elif isinstance(v, (np.ndarray, np.generic)):
                parts.append(np.asarray(v).reshape(-1))
            else:
                parts.append(literal_to_array(v, target, where).reshape(-1))
        if len({p.dtype for p in parts}) > 1:
            raise TypeError(
                f"{where}: the items of {describe(value)} have different element types "
                f"({', '.join(sorted(str(p.dtype) for p in parts))}); cast them to one type"
            )
        return np.concatenate(parts)
    return literal_array(value, dtype, where)


def convert_op_inputs(name: str, plan: OpPlan, values: Sequence[Any]) -> list[Any]:
    """Bound input values as arrays (sequences as lists of arrays, ``None`` kept)."""
    sig = plan.signature
    arrays: list[Any] = [None] * len(values)
    pending = []
    n_formal = len(plan.sequence_slots)
    for slot, value in enumerate(values):
        if value is None:
            continue
        if isinstance(value, Tensor) and not isinstance(value, AttrTensor):
            arrays[slot] = value.value
        elif isinstance(value, np.ndarray):
            arrays[slot] = value
        elif isinstance(value, np.generic):
            arrays[slot] = np.asarray(value)
        elif isinstance(value, (list, tuple)) and (
            (n_formal and plan.sequence_slots[min(slot, n_formal - 1)])
            or (_is_sequence_value(value) and _may_be_sequence(plan, slot))
        ):
            arrays[slot] = _sequence(value, f"{name}() sequence input")
        else:
            pending.append(slot)
    for slot in pending:
        concrete, partners = literal_input_type(sig, slot)
        dtype = concrete
        if dtype is None:
            for partner in partners:
                other = arrays[partner] if partner < len(arrays) else None
                if isinstance(other, np.ndarray) and partner not in pending:
                    dtype = onnx_dtype(other.dtype)
                    break
        where = f"{name}(): input {_input_name(sig, slot)!r}"
        arrays[slot] = literal_to_array(values[slot], dtype, where)
    return arrays


def _may_be_sequence(plan: OpPlan, slot: int) -> bool:
    """Whether input ``slot`` accepts a sequence (free-form ops accept anything)."""
    sig = plan.signature
    if sig.free_form or not sig.inputs:
        return True
    type_var = sig.input_type_var(slot)
    allowed = sig.type_constraints.get(type_var, (type_var,))
    return any(t.startswith(("seq(", "optional(seq(")) for t in allowed)


def _input_name(sig: Signature, slot: int) -> str:
    inputs = sig.inputs
    if not inputs:
        return str(slot)
    return inputs[min(slot, len(inputs) - 1)].name


# -- script functions ------------------------------------------------------------------------


def call_function(
    fn: OnnxFunction, args: Sequence[Any], kwargs: Mapping[str, Any], *, wrap: bool = False
) -> Any:
    """Run a script function eagerly: its Python code, rewritten so that operators, ``and``/
    ``or``/``not``, indexing and op calls mean what they mean when compiled (see
    ``onnxscript.evaluator.script_rewrite``)."""
    from onnxscript.evaluator.script_rewrite import eager_function

    impl = eager_function(fn)
    evaluator = context._CURRENT.get() or context.default()
    if kwargs and evaluator.ignore_unknown_function_kwargs:
        kwargs = {k: v for k, v in kwargs.items() if k in impl.param_names}
    try:
        bound = bind(fn.op_signature, args, kwargs)
    except BindingError as exc:
        raise TypeError(str(exc)) from None
    wrapped = wrap or _has_tensor(args) or _has_tensor(kwargs.values())
    call_args = impl.prepare_arguments(bound.inputs, bound.attributes)
    result = impl.function(*call_args)
    return impl.finish(result, wrapped)
