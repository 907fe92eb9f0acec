"""Upsample and Resize: Upsample's scales became an input (9), Upsample became Resize-10
(same meaning), Resize-11 added roi, sizes and coordinate modes (Resize-10 behaves as
``asymmetric`` coordinates with ``floor`` rounding for nearest), Resize-13 made roi and
scales optional, Resize-18 added axes, antialias and keep_aspect_ratio_policy."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir

from onnxscript.version_converter._context import Adapt, Adapter, Rewrite, nothing
from onnxscript.version_converter.adapters._tables import (
    Table,
    chain,
    default_only,
    equals,
    step,
)
from onnxscript.version_converter.adapters.axes_inputs import (
    attribute_to_input,
    floats,
    input_to_attribute,
)


def _scales_to_input(rewrite: Rewrite) -> None:
    attribute_to_input(rewrite, "scales", 1, np.float32)


def _scales_to_attribute(rewrite: Rewrite) -> None:
    input_to_attribute(rewrite, 1, "scales", floats)


def _rename(op_type: str) -> Adapt:
    def apply(rewrite: Rewrite) -> None:
        rewrite.node.op_type = op_type

    return apply


def _resize_10_to_11(rewrite: Rewrite) -> None:
    scales = rewrite.input(1)
    rewrite.set_input(2, scales)
    rewrite.set_input(1, rewrite.const(np.zeros(0, np.float32)))
    rewrite.set_attr("coordinate_transformation_mode", "asymmetric")
    if rewrite.attr("mode", "nearest") == "nearest":
        rewrite.set_attr("nearest_mode", "floor")


def _resize_11_to_10(rewrite: Rewrite) -> None:
    mode = rewrite.attr("mode", "nearest")
    if mode not in ("nearest", "linear"):
        rewrite.fail(f"mode {mode!r} needs Resize-11")
    transform = rewrite.attr("coordinate_transformation_mode", "half_pixel")
    if transform != "asymmetric":
        rewrite.fail(f"coordinate_transformation_mode {transform!r} needs Resize-11")
    if mode == "nearest" and rewrite.attr("nearest_mode", "round_prefer_floor") != "floor":
        rewrite.fail("nearest_mode other than 'floor' needs Resize-11")
    scales = _scales(rewrite)
    for name in ("coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a"):
        rewrite.drop_attr(name)
    rewrite.drop_attr("exclude_outside", "extrapolation_value")
    rewrite.drop_input(3)
    rewrite.drop_input(2)
    rewrite.set_input(1, scales)


def _scales(rewrite: Rewrite) -> ir.Value:
    """The scales input, or scales computed from constant sizes and a static shape."""
    array = rewrite.constant(2)
    given = rewrite.input(2)
    if given is not None and (array is None or array.size):
        return given
    sizes = rewrite.constant(3)
    dims = rewrite.dims(rewrite.input(0))
    if sizes is None or dims is None or any(d is None for d in dims):
        rewrite.fail("sizes (input 3) need Resize-11 unless constant with a static input shape")
    scales = (sizes / np.array(dims, np.float64)).astype(np.float32)
    if not np.array_equal(np.floor(np.array(dims) * scales.astype(np.float64)), sizes):
        rewrite.fail("sizes (input 3) cannot be expressed exactly as float scales")
    return rewrite.const(scales)


def _empty_roi_and_scales(rewrite: Rewrite) -> None:
    """Resize-11 needs roi and scales given (empty tensors when unused)."""
    if rewrite.attr("coordinate_transformation_mode") == "tf_half_pixel_for_nn":
        rewrite.fail("tf_half_pixel_for_nn does not exist in Resize-13")
    for index in (1, 2):
        if rewrite.input(index) is None:
            rewrite.set_input(index, rewrite.const(np.zeros(0, np.float32)))


def _no_tf_half_pixel(rewrite: Rewrite) -> None:
    if rewrite.attr("coordinate_transformation_mode") == "tf_half_pixel_for_nn":
        rewrite.fail("coordinate_transformation_mode 'tf_half_pixel_for_nn' was removed in 13")


def _full_rank_axes(rewrite: Rewrite) -> None:
    """Resize-18's axes: scales (or sizes) given for every axis instead."""
    axes = rewrite.attr("axes")
    rewrite.drop_attr("axes")
    if axes is None:
        return
    rank = rewrite.required_rank(rewrite.input(0), "to expand scales over every axis")
    axes = [a + rank if a < 0 else a for a in axes]
    if axes == list(range(rank)):
        return
    if rewrite.attr("coordinate_transformation_mode") == "tf_crop_and_resize":
        rewrite.fail("axes with tf_crop_and_resize need Resize-18")
    scales, sizes = rewrite.constant(2), rewrite.constant(3)
    if scales is not None and scales.size:
        full = np.ones(rank, np.float32)
        full[axes] = scales
        rewrite.set_input(2, rewrite.const(full))
        return
    dims = rewrite.dims(rewrite.input(0))
    if sizes is None or dims is None or any(dims[i] is None for i in range(rank) if i not in axes):
        rewrite.fail("axes need constant scales, or constant sizes and a static shape")
    full_sizes = np.array([d if d is not None else 0 for d in dims], np.int64)
    full_sizes[axes] = sizes
    rewrite.set_input(3, rewrite.const(full_sizes))


_RESIZE_18_DOWN = chain(
    default_only("antialias", equals(0)),
    default_only("keep_aspect_ratio_policy", equals("stretch")),
    _full_rank_axes,
)

ADAPTERS: Table = step(
    "Upsample",
    9,
    _scales_to_input,
    _scales_to_attribute,
    "attribute scales becomes a Constant input",
    "constant input scales becomes the attribute",
)
ADAPTERS[("Upsample", 9, 10)] = Adapter(_rename("Resize"), "becomes Resize-10 (same meaning)")
ADAPTERS[("Resize", 10, 9)] = Adapter(_rename("Upsample"), "becomes Upsample-9 (same meaning)")
ADAPTERS |= step(
    "Resize",
    11,
    _resize_10_to_11,
    _resize_11_to_10,
    "empty roi added; coordinate_transformation_mode asymmetric (nearest_mode floor)",
    "needs asymmetric coordinates (and floor rounding for nearest); sizes become scales",
)
ADAPTERS |= step(
    "Resize",
    13,
    _no_tf_half_pixel,
    _empty_roi_and_scales,
    "unchanged (roi and scales optional); tf_half_pixel_for_nn refused",
    "omitted roi/scales given as empty constants",
)
ADAPTERS |= step(
    "Resize",
    18,
    nothing,
    _RESIZE_18_DOWN,
    "unchanged (new axes, antialias, keep_aspect_ratio_policy)",
    "antialias and keep_aspect_ratio_policy must be default; axes expanded to every axis",
)

__all__ = ["ADAPTERS"]
