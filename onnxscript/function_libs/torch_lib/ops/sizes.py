"""Sizes and scalars that may be symbolic.

With dynamic shapes torch.onnx hands an ``int``/``float`` parameter over either as a Python
number or as a rank-0 value (``INT64`` for a ``SymInt``, ``FLOAT`` for a ``SymFloat``,
``BOOL`` for a ``SymBool``), and a size list may mix both (``[2, s0, 64]``). These helpers
turn either form into what the ONNX ops take, keeping Python numbers as numbers so that
static shapes stay constants.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.ops.constants import int64_constant, typed_constant
from onnxscript.function_libs.torch_lib.ops.facts import element_type
from onnxscript.onnx_types import INT64


def is_static(value: Any) -> bool:
    """A number known while tracing (a Python or numpy scalar, not a symbolic value)."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, np.ndarray
    )


def all_static(values: Sequence[Any]) -> bool:
    return all(is_static(v) for v in values)


def as_int64(value: Any) -> Any:
    """A static int as a Python int; a symbolic one as an INT64 value."""
    if is_static(value):
        return int(value)
    if element_type(value) == INT64.dtype:
        return value
    return op.Cast(value, to=INT64.dtype)


def shape_input(size: Any) -> Any:
    """A size list as Reshape, Expand, ConstantOfShape and Tile take it: the list of ints
    when all are static; otherwise one Concat of INT64 pieces, each run of static ints a
    single constant and each symbolic size one element. A 1-D tensor of sizes (not a
    list) is cast to INT64."""
    if not isinstance(size, (list, tuple)):
        return as_int64(size)
    if all_static(size):
        return [int(d) for d in size]
    pieces: list[Any] = []
    run: list[int] = []
    for item in size:
        if is_static(item):
            run.append(int(item))
            continue
        if run:
            pieces.append(int64_constant(run))
            run = []
        pieces.append(op.Reshape(as_int64(item), int64_constant([-1])))
    if run:
        pieces.append(int64_constant(run))
    return pieces[0] if len(pieces) == 1 else op.Concat(*pieces, axis=0)


def vector_input(value: Any) -> Any:
    """One size (static or symbolic) as a 1-element INT64 vector: ``[n]`` for Slice's
    starts and ends, Range's bounds made 1-D."""
    return shape_input([value])


def scalar_like(value: Any, like: Any) -> Any:
    """A scalar argument (static or symbolic) in the element type of the tensor ``like``:
    a typed constant when both are known while tracing, else a CastLike."""
    dtype = element_type(like)
    if is_static(value) and dtype is not None:
        return typed_constant(value, dtype)
    if dtype is not None and element_type(value) == dtype:
        return value
    return op.CastLike(value, like)


__all__ = [
    "all_static",
    "as_int64",
    "is_static",
    "scalar_like",
    "shape_input",
    "vector_input",
]
