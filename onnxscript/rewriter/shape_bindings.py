"""Shapes a fusion requires, written with names: ``check_shape(bindings, q, ["B", "S",
"H"])`` binds each name to the value's dim the first time and requires the same dim after
(one policy with the rules: :func:`onnxscript.ir_utils.value_facts.same_dim`), so that a
fusion's check says "q is [B, S, H] and k is [B, S, Hkv]" in one line per value."""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.ir_utils.value_facts import same_dim
from onnxscript.rewriter.match_result import MatchFailureError

Dim = int | ir.SymbolicDim | str | None


def check_shape(bindings: MutableMapping[str, Dim], val: ir.Value, shape: Sequence[Dim]) -> None:
    """Require ``val`` to have ``shape``: an int entry is that size, a name the dim bound
    to it in ``bindings`` (bound here when new). Raises :class:`MatchFailureError` (no
    match, with the reason) otherwise."""
    dims = value_facts.dims(val)
    if dims is None:
        raise MatchFailureError(f"the shape of {val.name!r} is unknown", val)
    if len(dims) != len(shape):
        raise MatchFailureError(f"{val.name!r} has rank {len(dims)}, {len(shape)} expected", val)
    for axis, (actual, expected) in enumerate(zip(dims, shape)):
        if isinstance(expected, str) and expected not in bindings:
            bindings[expected] = actual
            continue
        wanted = bindings[expected] if isinstance(expected, str) else expected
        if not same_dim(actual, wanted):
            raise MatchFailureError(
                f"dim {axis} of {val.name!r} is {actual}, {wanted} expected", val
            )


def check_shape_bool(
    bindings: MutableMapping[str, Dim], val: ir.Value, shape: Sequence[Dim]
) -> bool:
    """:func:`check_shape` as a truth value."""
    try:
        check_shape(bindings, val, shape)
    except MatchFailureError:
        return False
    return True


__all__ = ["check_shape", "check_shape_bool"]
