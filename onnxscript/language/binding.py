"""Calling conventions: how call arguments map onto an op's inputs and attributes.

One implementation serves both the converter (arguments are compile-time descriptions) and
eager evaluation (arguments are arrays), so that compiled and eager code cannot disagree on
which argument is an input, which slot an optional input lands in, or how many outputs a
call produces.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from onnxscript import dtypes, schemas
from onnxscript.errors import BindingError

_NO_DEFAULT: Any = inspect.Parameter.empty


@dataclass(slots=True)
class Param:
    """One formal parameter: a tensor input or an attribute.

    For inputs, ``type_var`` is the schema's type string (a constraint name such as ``"T"``
    or a concrete ``"tensor(int64)"``). For attributes, ``attr_kind`` is the
    ``onnx.AttributeProto.AttributeType`` and ``default`` the default value, if any.
    """

    name: str
    is_input: bool
    optional: bool = False
    variadic: bool = False
    type_var: str = ""
    attr_kind: int = 0
    default: Any = _NO_DEFAULT
    keyword_only: bool = False
    min_arity: int = 1
    homogeneous: bool = True

    @property
    def has_default(self) -> bool:
        return self.default is not _NO_DEFAULT

    def __hash__(self) -> int:
        return hash((self.name, self.is_input))


@dataclass(frozen=True)
class OutputParam:
    """One formal output."""

    name: str
    optional: bool = False
    variadic: bool = False
    type_var: str = ""
    homogeneous: bool = True


@dataclass(frozen=True, slots=True)
class InputDtypeRule:
    """What element types one formal input takes: ``allowed`` is ``None`` when the schema's
    type string is not one this check understands; ``shared`` when every tensor bound to
    its type variable must have the same element type."""

    name: str
    type_var: str
    allowed: frozenset[int] | None
    shared: bool


def _dtype_rule(param: Param, constraints: Mapping[str, tuple[str, ...]]) -> InputDtypeRule:
    type_var = param.type_var
    concrete = dtypes.dtype_of_type_string(type_var)
    if concrete is not None:
        return InputDtypeRule(param.name, type_var, frozenset((concrete,)), False)
    strings = constraints.get(type_var)
    if strings is None:
        return InputDtypeRule(param.name, type_var, None, False)
    allowed = dtypes.tensor_dtypes(strings)
    known = all(s.startswith(("tensor(", "seq(", "optional(", "sparse_tensor(")) for s in strings)
    return InputDtypeRule(param.name, type_var, allowed if known else None, param.homogeneous)


@dataclass(frozen=True)
class Signature:
    """The calling convention of an op or a script function.

    ``free_form`` signatures (ops without a schema) take every positional argument as an
    input and every keyword argument as an attribute.
    """

    name: str
    params: tuple[Param, ...]
    outputs: tuple[OutputParam, ...] = ()
    type_constraints: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    free_form: bool = False
    positional_attributes: bool = False
    """Whether attributes (keyword-only) may also follow all inputs positionally."""

    @functools.cached_property
    def inputs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.is_input)

    @functools.cached_property
    def attributes(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if not p.is_input)

    @functools.cached_property
    def required_prefix(self) -> int:
        """How many leading parameters are required, single, positional inputs, when every
        parameter after them may be left out (else -1: no shortcut for binding)."""
        count = 0
        for p in self.params:
            if not (p.is_input and not p.optional and not p.variadic and not p.keyword_only):
                break
            count += 1
        rest = self.params[count:]
        if all(p.optional or (not p.is_input and p.has_default) for p in rest):
            return count
        return -1

    @functools.cached_property
    def param_by_name(self) -> dict[str, Param]:
        return {p.name: p for p in self.params}

    @functools.cached_property
    def positional_params(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if not p.keyword_only)

    @functools.cached_property
    def attribute_by_name(self) -> dict[str, Param]:
        return {p.name: p for p in self.params if not p.is_input}

    @functools.cached_property
    def output_plan(self) -> tuple[tuple[int | None, tuple[int, ...]], ...]:
        """For each formal output: its element type if the schema fixes it, else the input
        slots bound to the same type variable (the output has their element type)."""
        plan: list[tuple[int | None, tuple[int, ...]]] = []
        inputs = self.inputs
        for out in self.outputs:
            if out.variadic and not out.homogeneous:
                # Each output has its own type (Loop, If, Scan): positions do not pair up.
                plan.append((None, ()))
                continue
            fixed = self.fixed_dtype(out.type_var)
            slots = (
                ()
                if fixed is not None
                else tuple(i for i, p in enumerate(inputs) if p.type_var == out.type_var)
            )
            plan.append((fixed, slots))
        return tuple(plan)

    @functools.cached_property
    def input_dtype_rules(self) -> tuple[InputDtypeRule, ...]:
        """For each formal input: the element types its tensors may have (from the type
        constraints), and whether it must agree with the other inputs of its type variable."""
        return tuple(_dtype_rule(p, self.type_constraints) for p in self.inputs)

    def fixed_dtype(self, type_var: str) -> int | None:
        """The element type that ``type_var`` must be when the schema fixes it (a concrete
        ``tensor(int64)``, or a type variable allowed a single type), else None."""
        fixed = dtypes.dtype_of_type_string(type_var)
        if fixed is None:
            allowed = self.type_constraints.get(type_var, ())
            if len(allowed) == 1:
                fixed = dtypes.dtype_of_type_string(allowed[0])
        return fixed

    def default_num_outputs(self) -> int | None:
        """How many outputs a call produces when the caller does not say.

        Every output up to the last required one; ``None`` when a variadic output makes the
        count depend on the call.
        """
        if self.free_form:
            return 1
        count = 0
        for i, out in enumerate(self.outputs):
            if out.variadic:
                return None
            if not out.optional:
                count = i + 1
        return max(count, 1) if self.outputs else 0

    def max_num_outputs(self) -> int | None:
        """The largest number of outputs a call may produce (``None``: unbounded)."""
        if self.free_form or any(o.variadic for o in self.outputs):
            return None
        return len(self.outputs)

    def type_partners(self, input_index: int) -> list[int]:
        """Indices of the other inputs that share input ``input_index``'s type variable."""
        inputs = self.inputs
        if input_index >= len(inputs):
            input_index = len(inputs) - 1
        if input_index < 0:
            return []
        tv = inputs[input_index].type_var
        if not tv or tv.startswith(("tensor(", "seq(", "optional(")):
            return []
        return [i for i, p in enumerate(inputs) if p.type_var == tv and i != input_index]

    def input_type_var(self, input_index: int) -> str:
        inputs = self.inputs
        if not inputs:
            return ""
        return inputs[min(input_index, len(inputs) - 1)].type_var


def literal_input_type(sig: Signature, slot: int) -> tuple[int | None, list[int]]:
    """Where a Python number passed as input ``slot`` gets its element type from.

    Returns (the element type the schema fixes, or None; the other input slots that share
    the input's type variable, whose element type the number must take). Without either,
    the number keeps its default type (int -> INT64, float -> FLOAT, bool -> BOOL).
    """
    if sig.free_form or not sig.inputs:
        return None, []
    concrete = sig.fixed_dtype(sig.input_type_var(slot))
    if concrete is not None:
        return concrete, []
    return None, sig.type_partners(slot)


def describe(sig: Signature) -> str:
    """What a signature accepts, for error messages: ``"Resize takes inputs (X, roi?, ...)
    and attributes (mode, ...); ? marks optional inputs"`` (empty for free-form ops)."""
    if sig.free_form:
        return ""
    ins = ", ".join(p.name + ("?" if p.optional else "") for p in sig.inputs) or "none"
    attrs = ", ".join(p.name for p in sig.attributes) or "none"
    text = f"{sig.name} takes inputs ({ins}) and attributes ({attrs})"
    if any(p.optional for p in sig.inputs):
        text += "; ? marks optional inputs"
    return text


@dataclass
class BoundArguments:
    """Arguments sorted into input slots and attributes.

    ``inputs`` has one entry per input slot (variadic inputs expanded), with ``None`` for an
    omitted optional input; trailing omitted inputs are dropped. ``attributes`` keeps the
    signature's order, then the call's order for attributes of free-form signatures.
    """

    inputs: list[Any]
    attributes: dict[str, Any]


def from_facts(facts: schemas.OpFacts) -> Signature:
    """The signature of an op, from its schema's facts. Attributes are keyword-only."""
    params: list[Param] = []
    for formal in facts.inputs:
        variadic = formal.option == schemas.VARIADIC
        params.append(
            Param(
                formal.name,
                is_input=True,
                optional=formal.option == schemas.OPTIONAL,
                variadic=variadic,
                type_var=formal.type_str,
                min_arity=formal.min_arity if variadic else 1,
                homogeneous=formal.homogeneous,
            )
        )
    for attr in facts.attributes:
        params.append(
            Param(
                attr.name,
                is_input=False,
                optional=not attr.required,
                attr_kind=attr.kind,
                default=attr.default if attr.has_default else _NO_DEFAULT,
                keyword_only=True,
            )
        )
    outputs = tuple(
        OutputParam(
            o.name,
            optional=o.option == schemas.OPTIONAL,
            variadic=o.option == schemas.VARIADIC,
            type_var=o.type_str,
            homogeneous=o.homogeneous,
        )
        for o in facts.outputs
    )
    variadic = any(p.variadic for p in params)
    return Signature(
        facts.name,
        tuple(params),
        outputs,
        dict(facts.type_constraints),
        positional_attributes=not variadic,
    )


@functools.lru_cache(maxsize=2048)
def signature_for(domain: str, name: str, version: int) -> Signature | None:
    """The signature of a standard op at an opset version (``None`` if undefined)."""
    facts = schemas.op_facts(domain, name, version)
    return from_facts(facts) if facts is not None else None


def free_form(name: str) -> Signature:
    """The signature of an op without a schema."""
    return Signature(name, (), (), {}, free_form=True)


def _is_omitted(value: Any) -> bool:
    return value is None


def _positional_slots(sig: Signature, args: Sequence[Any]) -> dict[str, Any]:
    """Positional arguments by parameter name (a variadic input takes all the rest)."""
    slots: dict[str, Any] = {}
    variadic_values: list[Any] = []
    positional = sig.positional_params
    if sig.positional_attributes and len(args) > len(positional):
        # Attributes after every input, in schema order: ``op.Softmax(x, 0)``, as onnxscript
        # 0.7's compiler takes them (the documented form names them).
        positional = positional + tuple(p for p in sig.params if p.keyword_only)
    index = 0
    for arg in args:
        if index >= len(positional):
            n_inputs = sum(1 for p in positional if p.is_input)
            keyword_hint = (
                "; pass attributes by keyword" if any(p.keyword_only for p in sig.params) else ""
            )
            raise BindingError(
                f"{sig.name}() takes at most {len(positional)} positional argument(s) "
                f"({n_inputs} input(s)), but {len(args)} were given{keyword_hint}"
            )
        param = positional[index]
        if param.variadic:
            variadic_values.append(arg)
            slots[param.name] = variadic_values
            continue
        slots[param.name] = arg
        index += 1
    return slots


def _add_keywords(sig: Signature, kwargs: Mapping[str, Any], slots: dict[str, Any]) -> None:
    """Add keyword arguments to ``slots``, refusing unknown and repeated names."""
    by_name = sig.param_by_name
    for key, value in kwargs.items():
        param = by_name.get(key)
        if param is None:
            raise BindingError(
                f"{sig.name}() got an unexpected keyword argument {key!r}; "
                f"it accepts {_describe_params(sig)}"
            )
        if key in slots:
            raise BindingError(f"{sig.name}() got multiple values for argument {key!r}")
        if param.variadic:
            value = list(value) if isinstance(value, (list, tuple)) else [value]
        slots[key] = value


def _input_values(sig: Signature, param: Param, present: bool, value: Any) -> list[Any]:
    """The input slots ``param`` fills (several for a variadic input, ``None`` for an
    omitted optional one), or a BindingError for a missing required input."""
    if param.variadic:
        values = list(value) if present and value is not None else []
        if len(values) < param.min_arity and not param.optional:
            raise BindingError(
                f"{sig.name}() needs at least {param.min_arity} value(s) for variadic "
                f"input {param.name!r}, got {len(values)}"
            )
        return values
    if not present or _is_omitted(value):
        if not param.optional:
            raise BindingError(f"{sig.name}() missing required input {param.name!r}")
        return [None]
    return [value]


def bind(sig: Signature, args: Sequence[Any], kwargs: Mapping[str, Any]) -> BoundArguments:
    """Sort ``args``/``kwargs`` into input slots and attributes, or raise BindingError.

    ``None`` for an input means the optional input is omitted; ``None`` for an attribute
    means it is left out.
    """
    if sig.free_form:
        given = list(args)
        while given and _is_omitted(given[-1]):
            given.pop()
        attrs = {k: v for k, v in kwargs.items() if v is not None}
        return BoundArguments(given, attrs)
    if not kwargs and len(args) == sig.required_prefix and all(a is not None for a in args):
        # Fast path: exactly the leading required inputs, in order; everything after them
        # is optional and left out.
        return BoundArguments(list(args), {})
    slots = _positional_slots(sig, args)
    _add_keywords(sig, kwargs, slots)
    inputs: list[Any] = []
    attributes: dict[str, Any] = {}
    for param in sig.params:
        present = param.name in slots
        value = slots.get(param.name)
        if param.is_input:
            inputs.extend(_input_values(sig, param, present, value))
        elif present and value is not None:
            attributes[param.name] = value
        elif not param.optional and not param.has_default:
            raise BindingError(f"{sig.name}() missing required attribute {param.name!r}")
    while inputs and inputs[-1] is None:
        inputs.pop()
    return BoundArguments(inputs, attributes)


def _describe_params(sig: Signature) -> str:
    ins = [p.name for p in sig.params if p.is_input]
    attrs = [p.name for p in sig.params if not p.is_input]
    parts = []
    if ins:
        parts.append("inputs " + ", ".join(ins))
    if attrs:
        parts.append("attributes " + ", ".join(attrs))
    return "; ".join(parts) or "no arguments"


GRAPH_OUTPUT_RULES: dict[str, tuple[str, int]] = {
    "If": ("then_branch", 0),
    "Loop": ("body", 1),
    "Scan": ("body", 0),
    "SequenceMap": ("body", 0),
}
"""Ops whose output count is their graph attribute's output count (minus the loop
condition for ``Loop``): op name -> (attribute, outputs not returned by the op)."""


def output_count(
    sig: Signature,
    requested: int | None,
    attributes: Mapping[str, Any],
    graph_outputs: Callable[[Any], int | None],
) -> int:
    """How many outputs a call produces, for the converter and eager mode alike.

    ``requested`` is the length of the tuple the call is unpacked into, if it is; otherwise
    the op's default count, else its ``num_outputs`` attribute, else (If/Loop/Scan/
    SequenceMap) the output count of the graph attribute, which ``graph_outputs`` reads
    (``None`` if it cannot tell). Raises :class:`BindingError` when the count is too large
    or cannot be known.
    """
    most = sig.max_num_outputs()
    if requested is not None:
        if most is not None and requested > most:
            raise BindingError(
                f"{sig.name} has at most {most} output(s), but {requested} are unpacked"
            )
        return requested
    default = sig.default_num_outputs()
    if default is not None:
        return default
    count = attributes.get("num_outputs")
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    rule = GRAPH_OUTPUT_RULES.get(sig.name)
    if rule is not None and rule[0] in attributes:
        found = graph_outputs(attributes[rule[0]])
        if found is not None:
            return found - rule[1]
    raise BindingError(f"{sig.name} has a variable number of outputs")


@dataclass(frozen=True)
class _OptionalOutputs:
    """When the spec allows an op's optional outputs: when ``attribute`` is true (false if
    ``invert``), or when input ``input`` is given; otherwise only the first output. The rule
    applies to the schema versions that have that attribute or input (neither: always)."""

    attribute: str = ""
    invert: bool = False
    input: str = ""

    def applies(self, sig: Signature) -> bool:
        if self.attribute:
            return self.attribute in sig.attribute_by_name
        return not self.input or any(p.name == self.input for p in sig.inputs)

    def holds(self, sig: Signature, attributes: Mapping[str, Any], given: Collection[str]) -> bool:
        if self.attribute:
            value = attributes.get(self.attribute, sig.attribute_by_name[self.attribute].default)
            return bool(0 if value is _NO_DEFAULT else value) != self.invert
        return bool(self.input) and self.input in given


OPTIONAL_OUTPUT_RULES: dict[str, tuple[_OptionalOutputs, ...]] = {
    # "When training_mode=False, extra outputs are invalid" (14+); test mode (is_test, 1
    # and 6) gives Y only; 7 and 9 tell the mode only by the output count: Y.
    "BatchNormalization": (
        _OptionalOutputs(attribute="training_mode"),
        _OptionalOutputs(attribute="is_test", invert=True),
        _OptionalOutputs(),
    ),
    # Versions 1 and 6: "If is_test is nonzero, this output [mask] is not filled."
    "Dropout": (_OptionalOutputs(attribute="is_test", invert=True),),
    # "Both past and present state key/values ... shall be used together."
    "Attention": (_OptionalOutputs(input="past_key"),),
}
"""Ops of the standard domain whose optional outputs the spec allows only in some calls."""


def declared_output_count(
    sig: Signature,
    domain: str,
    attributes: Mapping[str, Any] | None = None,
    given: Collection[str] | None = None,
) -> int | None:
    """How many outputs an eager op call outside a script gives when it does not ask:
    every output the schema declares, but only those the spec allows for this call
    (``OPTIONAL_OUTPUT_RULES``: BatchNormalization's statistics only in training mode,
    Attention's present key/value only with a past key/value).

    ``attributes`` and ``given`` (names of the inputs given) are the call's; without them
    the result is ``None`` when it would depend on them. ``None`` also for variadic
    outputs, whose count :func:`output_count` decides.
    """
    if sig.free_form:
        return 1
    if any(o.variadic for o in sig.outputs):
        return None
    declared = len(sig.outputs)
    rules = OPTIONAL_OUTPUT_RULES.get(sig.name, ()) if domain in ("", "ai.onnx") else ()
    rule = next((r for r in rules if r.applies(sig)), None)
    if rule is None:
        return declared
    if rule.attribute or rule.input:
        if attributes is None or given is None:
            return None
        if rule.holds(sig, attributes, given):
            return declared
    return 1
