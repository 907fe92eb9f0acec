"""Element types checked against op schemas when a node is emitted.

ONNX never converts element types, and onnx.checker rejects a model whose node gets a type
its schema does not allow (``Not`` on FLOAT, ``MatMul`` of FLOAT and INT64, ``Cast`` to an
element type that does not exist). The converter knows most element types statically
(annotations, literals, the schemas' output rules), so such a call is refused where it is
written instead of producing a model that fails later.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from onnxscript import dtypes, schemas
from onnxscript.converter.type_inference import ATTR_DTYPE_OPS, known_dtype
from onnxscript.language import operators
from onnxscript.language.binding import Signature, signature_for
from onnxscript.program.graph import Value


class TypeProblem(NamedTuple):
    """Why a node cannot be emitted: the message and what to write instead."""

    message: str
    hint: str


def _names(codes: frozenset[int]) -> str:
    if not codes:
        return "no tensors"
    return ", ".join(sorted(dtypes.dtype_name(c) for c in codes))


def _dtype(value: Value) -> int | None:
    dtype = value.dtype
    if dtype is None and value.type is None and value.same_type_as is not None:
        return known_dtype(value)
    return dtype


def input_problem(
    op_type: str,
    domain: str,
    origin: ast.AST | None,
    sig: Signature,
    inputs: Sequence[Value | None],
) -> TypeProblem | None:
    """The first input whose known element type the op's schema does not accept, or two
    inputs of one type variable with different element types. ``origin`` is the AST node
    being compiled (messages name the Python operator written there)."""
    rules = sig.input_dtype_rules
    last = len(rules) - 1
    if last < 0:
        return None
    seen: dict[str, tuple[int, str]] = {}
    for i, value in enumerate(inputs):
        if value is None:
            continue
        dtype = _dtype(value)
        if dtype is None:
            continue
        rule = rules[i if i < last else last]
        if rule.allowed is not None and dtype not in rule.allowed:
            newer = _first_accepting(domain, op_type, sig, i, dtype)
            hint = (
                f"{op_type} accepts {dtypes.dtype_name(dtype)} from opset {newer}: use "
                f"opset{newer} or later"
                if newer is not None
                else "ONNX does not convert element types: convert the input first, "
                f"e.g. op.Cast(..., to={_example(rule.allowed)})"
            )
            return TypeProblem(
                f"{_label(op_type, origin)} does not accept {dtypes.dtype_name_with_article(dtype)} tensor for "
                "its input "
                f"{rule.name!r} (it takes {_names(rule.allowed)})",
                hint,
            )
        if not rule.shared:
            continue
        earlier = seen.get(rule.type_var)
        if earlier is None:
            seen[rule.type_var] = (dtype, rule.name)
        elif earlier[0] != dtype:
            first, second = dtypes.dtype_name(earlier[0]), dtypes.dtype_name(dtype)
            return TypeProblem(
                f"{_label(op_type, origin)} needs the same element type for its inputs {earlier[1]!r} and "
                f"{rule.name!r} (type {rule.type_var}), but they are {first} and {second}",
                "ONNX does not convert element types: convert one of them, e.g. "
                f"op.Cast(..., to={first}) or op.CastLike(..., other)",
            )
    return None


def _label(op_type: str, origin: ast.AST | None) -> str:
    """How an error names the op: with the Python operator the user wrote, if any."""
    symbol = None
    if isinstance(origin, ast.BinOp):
        symbol = operators.AST_BINARY.get(type(origin.op))
    elif isinstance(origin, ast.UnaryOp):
        symbol = operators.AST_UNARY.get(type(origin.op))
    elif isinstance(origin, ast.Compare) and len(origin.ops) == 1:
        symbol = operators.AST_COMPARE.get(type(origin.ops[0]))
    return f"`{symbol}` (ONNX {op_type})" if symbol is not None else op_type


def _first_accepting(
    domain: str, op_type: str, sig: Signature, slot: int, dtype: int
) -> int | None:
    """The first opset version after ``sig``'s whose ``op_type`` takes ``dtype`` in input
    ``slot`` (only when ``sig`` is a standard op's signature), else None."""
    current = None
    for facts in schemas.op_versions(domain, op_type):
        later = signature_for(domain, op_type, facts.since_version)
        if later == sig:
            current = facts.since_version
        elif current is not None and later is not None and later.input_dtype_rules:
            rules = later.input_dtype_rules
            allowed = rules[min(slot, len(rules) - 1)].allowed
            if allowed is not None and dtype in allowed:
                return facts.since_version
    return None


def _example(allowed: frozenset[int]) -> str:
    for preferred in (dtypes.FLOAT, dtypes.INT64, dtypes.BOOL, dtypes.STRING):
        if preferred in allowed:
            return dtypes.dtype_name(preferred)
    return dtypes.dtype_name(min(allowed)) if allowed else "FLOAT"


ATTRIBUTE_CHECKED_OPS = frozenset({*ATTR_DTYPE_OPS, "Split"})


def attribute_problem(
    op_type: str, sig: Signature, attr_values: Mapping[str, Any], n_outputs: int
) -> TypeProblem | None:
    """An element-type attribute (``Cast``'s ``to``, ``dtype`` of the random ops, ...)
    naming no element type, or one the op's output cannot have at this opset; or a
    ``Split`` whose ``num_outputs`` is not the number of outputs the call makes (onnx's
    shape inference aborts the process on that one)."""
    if op_type == "Split":
        count = attr_values.get("num_outputs")
        if isinstance(count, int) and count != n_outputs:
            return TypeProblem(
                f"Split(num_outputs={count}) makes {count} output(s), but the call takes "
                f"{n_outputs}",
                f"assign {count} variable(s), or set num_outputs={n_outputs}",
            )
        return None
    name = ATTR_DTYPE_OPS.get(op_type)
    if name is None:
        return None
    value = attr_values.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    if value not in dtypes.NAMES:
        return TypeProblem(
            f"{op_type}: {name}={value} is not an element type",
            f"name one, e.g. {name}=FLOAT (onnxscript.FLOAT, INT64, ... or onnx.TensorProto.FLOAT)",
        )
    if not sig.outputs:
        return None
    out = sig.outputs[0]
    strings = sig.type_constraints.get(out.type_var)
    if strings is None or dtypes.type_string(value) in strings:
        return None
    allowed = dtypes.tensor_dtypes(strings)
    return TypeProblem(
        f"{op_type} cannot produce {dtypes.dtype_name(value)} at this opset "
        f"(its output takes {_names(allowed)})",
        "use one of these element types, or a newer opset if a later version of the op accepts it",
    )
