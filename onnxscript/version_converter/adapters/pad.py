"""Pad: pads and value became inputs at 11; axes (pads for some axes only) came at 18."""

from __future__ import annotations

import numpy as np

from onnxscript.version_converter._context import Rewrite, nothing
from onnxscript.version_converter.adapters._tables import Table, step
from onnxscript.version_converter.adapters.axes_inputs import (
    attribute_to_input,
    input_to_attribute,
    one_float,
)


def _to_inputs(rewrite: Rewrite) -> None:
    attribute_to_input(rewrite, "pads", 1)
    value = rewrite.attr("value", 0.0)
    rewrite.drop_attr("value")
    if value != 0.0 and rewrite.attr("mode", "constant") == "constant":
        dtype = rewrite.required_dtype(rewrite.input(0))
        rewrite.set_input(2, rewrite.const(value, dtype))


def _to_attributes(rewrite: Rewrite) -> None:
    input_to_attribute(rewrite, 2, "value", one_float)
    input_to_attribute(rewrite, 1, "pads")


def _all_axes(rewrite: Rewrite) -> None:
    """Pad-18's axes input: pads spelled out for every axis instead."""
    if rewrite.input(3) is None:
        return
    axes = rewrite.required_constant(3, "axes")
    pads = rewrite.required_constant(1, "pads")
    rank = rewrite.required_rank(rewrite.input(0), "to spell out pads for every axis")
    full = np.zeros(2 * rank, np.int64)
    for position, axis in enumerate(axes.reshape(-1)):
        axis = int(axis) + rank if axis < 0 else int(axis)
        full[axis] = pads[position]
        full[rank + axis] = pads[len(axes) + position]
    rewrite.drop_input(3)
    rewrite.node.replace_input_with(1, rewrite.const(full))


ADAPTERS: Table = step(
    "Pad",
    11,
    _to_inputs,
    _to_attributes,
    "attributes pads and value become Constant inputs",
    "constant inputs pads and constant_value become the attributes",
)
ADAPTERS |= step(
    "Pad",
    18,
    nothing,
    _all_axes,
    "unchanged (new optional axes input)",
    "constant axes and pads spelled out for every axis",
)

__all__ = ["ADAPTERS"]
