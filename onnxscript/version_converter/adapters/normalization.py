"""BatchNormalization (spatial removed at 9, training_mode and three outputs at 14, scale
and bias types of their own at 15) and GroupNormalization (per-group scale and bias until
18, per-channel from 21)."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir

from onnxscript.version_converter._context import Adapter, Rewrite, nothing
from onnxscript.version_converter.adapters._tables import Table, step


def _spatial_dropped(rewrite: Rewrite) -> None:
    """BatchNormalization-7 with spatial=0 normalizes per element (statistics shaped
    C x D1 x ...): written out with arithmetic, which broadcasts the same way."""
    spatial = rewrite.attr("spatial", 1)
    rewrite.drop_attr("spatial")
    if spatial:
        return
    if len(rewrite.node.outputs) > 1:
        rewrite.fail("spatial=0 in training mode (several outputs) has no later equivalent")
    x, scale, bias, mean, var = rewrite.node.inputs[:5]
    epsilon = rewrite.const(rewrite.attr("epsilon", 1e-5), rewrite.required_dtype(x))
    centered = rewrite.op1("Sub", [x, mean])
    deviation = rewrite.op1("Sqrt", [rewrite.op1("Add", [var, epsilon])])
    normalized = rewrite.op1("Div", [centered, deviation])
    y = rewrite.op1("Add", [rewrite.op1("Mul", [normalized, scale]), bias])
    rewrite.replace_outputs([y])


def _outputs_used(rewrite: Rewrite, first: int) -> bool:
    return any(v.uses() or v.is_graph_output() for v in rewrite.node.outputs[first:])


def _training_mode_added(rewrite: Rewrite) -> None:
    """BatchNormalization-9 is in training mode when it has more than one output."""
    if len(rewrite.node.outputs) == 1:
        return
    if _outputs_used(rewrite, 3):
        rewrite.fail("saved_mean and saved_var do not exist from version 14")
    rewrite.node.resize_outputs(3)
    rewrite.set_attr("training_mode", 1)


def _training_mode_dropped(rewrite: Rewrite) -> None:
    training = rewrite.attr("training_mode", 0)
    rewrite.drop_attr("training_mode")
    if training:
        rewrite.node.resize_outputs(5)
        for name, output in zip(("saved_mean", "saved_var"), rewrite.node.outputs[3:]):
            output.name = rewrite.names.claim(f"{rewrite.node.name or 'batch_norm'}_{name}")
        return
    if _outputs_used(rewrite, 1):
        rewrite.fail("running_mean/running_var outputs without training_mode")
    rewrite.node.resize_outputs(1)


def _scale_bias_as_input_type(rewrite: Rewrite) -> None:
    """BatchNormalization-14 needs scale and B of X's element type."""
    dtype = rewrite.dtype(rewrite.input(0))
    for index in (1, 2):
        value = rewrite.input(index)
        if dtype is None or rewrite.dtype(value) in (None, dtype):
            continue
        cast = rewrite.op1("Cast", [value], {"to": dtype})
        cast.dtype = dtype
        rewrite.node.replace_input_with(index, cast)


def _groups(rewrite: Rewrite) -> int:
    return int(rewrite.attr("num_groups"))


def _per_channel(rewrite: Rewrite) -> None:
    """GroupNormalization-18's per-group scale and bias repeated for each channel."""
    groups = _groups(rewrite)
    dims = rewrite.dims(rewrite.input(0))
    channels = dims[1] if dims is not None and len(dims) > 1 else None
    for index in (1, 2):
        array = rewrite.constant(index)
        if array is not None and channels is not None:
            repeated = np.repeat(array, channels // groups)
            rewrite.node.replace_input_with(index, rewrite.const(repeated))
            continue
        rewrite.node.replace_input_with(index, _repeated(rewrite, index, groups))


def _repeated(rewrite: Rewrite, index: int, groups: int) -> ir.Value:
    """Input ``index`` (G values) with each value repeated C / G times, at run time."""
    column = rewrite.op1("Reshape", [rewrite.input(index), rewrite.const([-1, 1], np.int64)])
    channels = rewrite.op1("Shape", [rewrite.input(0)], {"start": 1, "end": 2})
    per_group = rewrite.op1("Div", [channels, rewrite.const([groups], np.int64)])
    shape = rewrite.op1("Concat", [rewrite.const([groups], np.int64), per_group], {"axis": 0})
    grid = rewrite.op1("Expand", [column, shape])
    return rewrite.op1("Reshape", [grid, rewrite.const([-1], np.int64)])


ADAPTERS: Table = step(
    "BatchNormalization",
    9,
    _spatial_dropped,
    nothing,
    "spatial dropped; spatial=0 written out as Sub/Div/Sqrt/Mul/Add",
    "unchanged (spatial defaults to 1)",
)
ADAPTERS |= step(
    "BatchNormalization",
    14,
    _training_mode_added,
    _training_mode_dropped,
    "training (several outputs) becomes training_mode=1 with three outputs",
    "training_mode=1 becomes five outputs; inference keeps one",
)
ADAPTERS |= step(
    "BatchNormalization",
    15,
    nothing,
    _scale_bias_as_input_type,
    "unchanged (scale and B may have their own type)",
    "scale and B cast to X's type",
)
ADAPTERS[("GroupNormalization", 18, 21)] = Adapter(
    _per_channel, "per-group scale and bias repeated per channel"
)

__all__ = ["ADAPTERS"]
