"""Attributes that became inputs: Reduce* axes (ReduceSum-13, the others 18), Squeeze and
Unsqueeze axes (13), Split's split (13) and num_outputs (18), TopK's k (10), Slice's
starts/ends/axes (10), Clip's min/max (11), DFT's axis (20).

Going up, the attribute becomes a Constant input; going down, the input must be a
constant (an initializer or a Constant node) and becomes the attribute again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.version_converter._context import Adapt, Rewrite
from onnxscript.version_converter.adapters._tables import Table, step


def attribute_to_input(
    rewrite: Rewrite, name: str, index: int, dtype: Any = np.int64, default: Any = None
) -> None:
    """Attribute ``name`` (or ``default`` when absent) as Constant input ``index``."""
    value = rewrite.attr(name, default)
    rewrite.drop_attr(name)
    if value is not None:
        rewrite.set_input(index, rewrite.const(value, dtype))


Convert = Callable[[np.ndarray], Any]


def ints(array: np.ndarray) -> list[int]:
    return [int(v) for v in array.reshape(-1)]


def floats(array: np.ndarray) -> list[float]:
    return [float(v) for v in array.reshape(-1)]


def one_int(array: np.ndarray) -> int:
    return int(array.reshape(-1)[0])


def one_float(array: np.ndarray) -> float:
    return float(array.reshape(-1)[0])


def input_to_attribute(rewrite: Rewrite, index: int, name: str, convert: Convert = ints) -> None:
    """Constant input ``index`` as attribute ``name`` (``convert`` makes the value)."""
    if rewrite.input(index) is None:
        rewrite.trim_inputs()
        return
    array = rewrite.required_constant(index, name)
    rewrite.set_attr(name, convert(array))
    rewrite.drop_input(index)


def _axes_to_input(rewrite: Rewrite) -> None:
    if rewrite.attr("axes") == []:
        rewrite.drop_attr("axes")
    attribute_to_input(rewrite, "axes", 1)


def _reduce_axes_to_attribute(rewrite: Rewrite) -> None:
    """ReduceX(data, axes) with noop_with_empty_axes as the attribute form: no axes reduce
    everything, unless noop_with_empty_axes makes the node an Identity."""
    noop = rewrite.attr("noop_with_empty_axes", 0)
    rewrite.drop_attr("noop_with_empty_axes")
    array = rewrite.constant(1)
    empty = rewrite.input(1) is None or (array is not None and array.size == 0)
    if empty and noop:
        rewrite.node.op_type = "Identity"
        rewrite.drop_attr(*list(rewrite.node.attributes))
        rewrite.drop_input(1)
        return
    if empty:
        rewrite.drop_input(1)
        return
    input_to_attribute(rewrite, 1, "axes")


def _to_input(name: str, index: int) -> Adapt:
    def apply(rewrite: Rewrite) -> None:
        attribute_to_input(rewrite, name, index)

    return apply


def _to_attribute(index: int, name: str, convert: Convert = ints) -> Adapt:
    def apply(rewrite: Rewrite) -> None:
        input_to_attribute(rewrite, index, name, convert)

    return apply


def _split_count(rewrite: Rewrite) -> None:
    """Split-18 needs num_outputs when no sizes are given."""
    if rewrite.input(1) is None:
        rewrite.set_attr("num_outputs", len(rewrite.node.outputs))


def _split_sizes(rewrite: Rewrite) -> None:
    """Split-13 splits evenly when no sizes are given; Split-18's num_outputs may leave a
    smaller last part, so the sizes are given explicitly unless the split is even."""
    count = rewrite.attr("num_outputs")
    rewrite.drop_attr("num_outputs")
    if count is None or rewrite.input(1) is not None:
        return
    axis = rewrite.attr("axis", 0)
    dims = rewrite.dims(rewrite.input(0))
    size = dims[axis] if dims is not None and -len(dims) <= axis < len(dims) else None
    if size is not None and size % count == 0:
        return
    if size is not None:
        part = -(-size // count)
        sizes = [part] * (count - 1) + [size - part * (count - 1)]
        rewrite.set_input(1, rewrite.const(sizes, np.int64))
        return
    rewrite.set_input(1, _sizes_at_run_time(rewrite, axis, count))


def _sizes_at_run_time(rewrite: Rewrite, axis: int, count: int) -> ir.Value:
    """[q] * (count - 1) + [d - q * (count - 1)] with q = ceil(d / count), d the size of
    the input along ``axis``."""
    shape = rewrite.op1("Shape", [rewrite.input(0)])
    size = rewrite.op1("Gather", [shape, rewrite.const([axis], np.int64)])
    padded = rewrite.op1("Add", [size, rewrite.const([count - 1], np.int64)])
    part = rewrite.op1("Div", [padded, rewrite.const([count], np.int64)])
    parts = rewrite.op1("Expand", [part, rewrite.const([count - 1], np.int64)])
    taken = rewrite.op1("Mul", [part, rewrite.const([count - 1], np.int64)])
    last = rewrite.op1("Sub", [size, taken])
    return rewrite.op1("Concat", [parts, last], {"axis": 0})


def _k_to_input(rewrite: Rewrite) -> None:
    k = rewrite.attr("k")
    rewrite.drop_attr("k")
    rewrite.set_input(1, rewrite.const([k], np.int64))


def _slice_to_inputs(rewrite: Rewrite) -> None:
    for index, name in ((1, "starts"), (2, "ends"), (3, "axes")):
        attribute_to_input(rewrite, name, index)


def _slice_to_attributes(rewrite: Rewrite) -> None:
    if rewrite.input(4) is not None:
        steps = rewrite.required_constant(4, "steps")
        if not bool((steps == 1).all()):
            rewrite.fail("steps other than 1 need Slice-10")
        rewrite.drop_input(4)
    for index, name in ((3, "axes"), (2, "ends"), (1, "starts")):
        input_to_attribute(rewrite, index, name)


_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _in_type(value: float, dtype: ir.DataType) -> np.ndarray:
    """``value`` as a scalar of ``dtype`` (a float32 bound past float16's range is inf)."""
    with np.errstate(over="ignore"):
        return np.asarray(value, dtype=dtype.numpy())


def _clip_to_inputs(rewrite: Rewrite) -> None:
    """Clip-6's float32 attributes as Constant inputs of x's type. An absent one is the
    float32 range, which Clip-6 clamps to (Clip-11 without a bound does not clamp)."""
    dtype = rewrite.required_dtype(rewrite.input(0))
    low = rewrite.attr("min", -_FLOAT32_MAX)
    high = rewrite.attr("max", _FLOAT32_MAX)
    rewrite.drop_attr("min", "max")
    rewrite.set_input(1, rewrite.const(_in_type(low, dtype)))
    rewrite.set_input(2, rewrite.const(_in_type(high, dtype)))


_CLIP_6_RANGE = {
    ir.DataType.FLOAT: _FLOAT32_MAX,
    ir.DataType.FLOAT16: float(np.finfo(np.float16).max),
}
"""For each type Clip-6 takes whose largest number a float32 attribute holds: that number.
Clip-11 without a bound clamps to the type's largest (lowest) number, which is not
infinite: an infinite input becomes it. Clip-6 with an infinite bound keeps infinities, so
the absent bound is written as that number. double's (1.8e308) has no float32 attribute:
an absent bound of a double Clip is refused."""


def _clip_bound(rewrite: Rewrite, index: int, name: str, sign: int) -> float:
    """Clip-11's bound ``index`` as Clip-6's float32 attribute value, or the step fails.
    ``sign`` is -1 for the lower bound, 1 for the upper."""
    if rewrite.input(index) is None:
        dtype = rewrite.required_dtype(rewrite.input(0))
        largest = _CLIP_6_RANGE.get(dtype)
        if largest is None:
            rewrite.fail(
                f"{name} (input {index}) is absent: Clip-11 then clamps {dtype.name.lower()} "
                "to its own largest numbers, which no float32 attribute of Clip-6 is"
            )
        return sign * largest
    array = rewrite.required_constant(index, name)
    if array.size != 1:
        rewrite.fail(f"{name} (input {index}) is not one number")
    value = array.reshape(-1)[0]
    if array.dtype.kind not in "fiu":
        rewrite.fail(f"{name} (input {index}) is of type {array.dtype}, not a number")
    if np.isnan(value):
        rewrite.fail(
            f"{name} (input {index}) is NaN: Clip-6 has no such bound (onnxruntime refuses a "
            "NaN attribute)"
        )
    with np.errstate(over="ignore"):
        as_float32 = float(np.float32(value))
    if as_float32 != float(value):
        rewrite.fail(
            f"{name}={float(value)!r} (input {index}) is not a float32 number, and Clip-6's bounds "
            "are float32 attributes"
        )
    return as_float32


def _clip_to_attributes(rewrite: Rewrite) -> None:
    """Clip-11's constant bounds as Clip-6's float32 attributes, the result unchanged: a
    NaN bound, or one no float32 equals (a double one), is refused; an absent bound is the
    type's largest (lowest) number, which Clip-11 clamps to (``_CLIP_6_RANGE``); ``min >
    max`` (every element becomes ``max``; onnxruntime's Clip-6 refuses it) is written
    ``min = max``, which computes the same."""
    low = _clip_bound(rewrite, 1, "min", -1)
    high = _clip_bound(rewrite, 2, "max", 1)
    rewrite.drop_input(2)
    rewrite.drop_input(1)
    rewrite.set_attr("min", min(low, high))
    rewrite.set_attr("max", high)


def _dft_axis_to_input(rewrite: Rewrite) -> None:
    axis = rewrite.attr("axis", 1)
    rewrite.drop_attr("axis")
    rewrite.set_input(2, rewrite.const(axis, np.int64))


def _dft_axis_to_attribute(rewrite: Rewrite) -> None:
    if rewrite.input(2) is None:
        rewrite.set_attr("axis", -2)
        return
    input_to_attribute(rewrite, 2, "axis", one_int)


_UP = "attribute {} becomes a Constant input"
_DOWN = "constant input {} becomes the attribute"

ADAPTERS: Table = {}
for _op in ("ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax"):
    ADAPTERS |= step(
        _op, 18, _axes_to_input, _reduce_axes_to_attribute, _UP.format("axes"), _DOWN.format("axes")
    )
for _op in ("ReduceMean", "ReduceMin", "ReduceProd", "ReduceSumSquare"):
    ADAPTERS |= step(
        _op, 18, _axes_to_input, _reduce_axes_to_attribute, _UP.format("axes"), _DOWN.format("axes")
    )
ADAPTERS |= step(
    "ReduceSum",
    13,
    _axes_to_input,
    _reduce_axes_to_attribute,
    _UP.format("axes"),
    _DOWN.format("axes"),
)
for _op in ("Squeeze", "Unsqueeze"):
    ADAPTERS |= step(
        _op, 13, _axes_to_input, _to_attribute(1, "axes"), _UP.format("axes"), _DOWN.format("axes")
    )
ADAPTERS |= step(
    "Split",
    13,
    _to_input("split", 1),
    _to_attribute(1, "split"),
    _UP.format("split"),
    _DOWN.format("split"),
)
ADAPTERS |= step(
    "Split",
    18,
    _split_count,
    _split_sizes,
    "num_outputs set when no split sizes are given",
    "num_outputs dropped; uneven parts given as split sizes",
)
ADAPTERS |= step(
    "TopK", 10, _k_to_input, _to_attribute(1, "k", one_int), _UP.format("k"), _DOWN.format("k")
)
ADAPTERS |= step(
    "Slice",
    10,
    _slice_to_inputs,
    _slice_to_attributes,
    _UP.format("starts/ends/axes"),
    _DOWN.format("starts/ends/axes") + " (steps must be 1)",
)
ADAPTERS |= step(
    "Clip",
    11,
    _clip_to_inputs,
    _clip_to_attributes,
    _UP.format("min/max") + " (an absent one: the float32 range, Clip-6's default)",
    _DOWN.format("min/max")
    + " (a float32 number, not NaN; absent: the type's range; min > max: max)",
)
ADAPTERS |= step(
    "DFT", 20, _dft_axis_to_input, _dft_axis_to_attribute, _UP.format("axis"), _DOWN.format("axis")
)

__all__ = [
    "ADAPTERS",
    "attribute_to_input",
    "floats",
    "input_to_attribute",
    "ints",
    "one_float",
    "one_int",
]
