"""Static element-type inference for the converter, from op schemas' type constraints.

Knowing element types lets the converter give Python literals the right type directly
(instead of ``CastLike``), pick the right op for ``//``, ``~`` or ``&``, and create initial
values for variables first assigned inside a loop. When the type is not known, an output
may still be known to have *the same* type as one of the inputs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import onnx

from onnxscript.dtypes import FLOAT, INT64, STRING
from onnxscript.language.binding import GRAPH_OUTPUT_RULES, Signature
from onnxscript.program.graph import Value

ATTR_DTYPE_OPS = {
    "Cast": "to",
    "EyeLike": "dtype",
    "RandomNormal": "dtype",
    "RandomUniform": "dtype",
    "RandomNormalLike": "dtype",
    "RandomUniformLike": "dtype",
    "Bernoulli": "dtype",
    "Multinomial": "dtype",
}


def _constant_dtype(attrs: Mapping[str, Any]) -> int | None:
    for key, value in attrs.items():
        if key in ("value", "sparse_value") and isinstance(value, onnx.TensorProto):
            return value.data_type
        if key in ("value_float", "value_floats"):
            return FLOAT
        if key in ("value_int", "value_ints"):
            return INT64
        if key in ("value_string", "value_strings"):
            return STRING
    return None


def infer_output_types(
    op_type: str,
    domain: str,
    sig: Signature | None,
    inputs: Sequence[Value | None],
    attrs: Mapping[str, Any],
    n_outputs: int,
) -> list[tuple[int | None, Value | None]]:
    """For each output: (known element type, or an input value of the same type)."""
    unknown: list[tuple[int | None, Value | None]] = [(None, None)] * n_outputs
    standard = domain == "" or domain == "ai.onnx"
    if standard and op_type in _SPECIAL_OPS:
        if op_type == "Constant":
            return [(_constant_dtype(attrs), None)] * n_outputs
        if op_type == "ConstantOfShape":
            value = attrs.get("value")
            dt = value.data_type if isinstance(value, onnx.TensorProto) else FLOAT
            return [(dt, None)] * n_outputs
        attr_name = ATTR_DTYPE_OPS.get(op_type)
        if attr_name is not None:
            value = attrs.get(attr_name)
            if isinstance(value, int):
                return [(value, None)] * n_outputs
            if op_type in ("RandomNormal", "RandomUniform") and value is None:
                return [(FLOAT, None)] * n_outputs
            if op_type == "Cast":
                return unknown
        if op_type in _GRAPH_TYPED:
            return _from_graph(op_type, attrs, n_outputs)
    if sig is None or sig.free_form or not sig.outputs:
        return unknown
    plan = sig.output_plan
    last_formal = len(sig.inputs) - 1
    results: list[tuple[int | None, Value | None]] = []
    for j in range(n_outputs):
        fixed, slots = plan[j] if j < len(plan) else plan[-1]
        if fixed is not None:
            results.append((fixed, None))
            continue
        partner: Value | None = None
        found: int | None = None
        for i, value in enumerate(inputs):
            if value is None or (i if i < last_formal else last_formal) not in slots:
                continue
            dtype = value.dtype
            if dtype is not None:
                found = dtype
                break
            if partner is None:
                partner = value
        results.append((found, None) if found is not None else (None, partner))
    return results


# Ops whose outputs have the element types of a graph attribute's outputs (the shared
# output-count rule; SequenceMap is left out: its outputs are sequences of those).
_GRAPH_TYPED = {op: rule for op, rule in GRAPH_OUTPUT_RULES.items() if op != "SequenceMap"}
_SPECIAL_OPS = frozenset({"Constant", "ConstantOfShape", *ATTR_DTYPE_OPS, *_GRAPH_TYPED})


def _from_graph(
    op_type: str, attrs: Mapping[str, Any], n_outputs: int
) -> list[tuple[int | None, Value | None]]:
    name, skip = _GRAPH_TYPED[op_type]
    graph = attrs.get(name)
    outputs = getattr(graph, "outputs", None)
    results: list[tuple[int | None, Value | None]] = []
    for i in range(n_outputs):
        dtype = None
        if outputs is not None and i + skip < len(outputs):
            dtype = known_dtype(outputs[i + skip])
        results.append((dtype, None))
    return results


def known_dtype(value: Value) -> int | None:
    """The element type of ``value``, following same-type links."""
    seen = 0
    current: Value | None = value
    while current is not None and seen < 64:
        if current.dtype is not None:
            return current.dtype
        current = current.same_type_as
        seen += 1
    return None
