"""Interpolation (``aten::upsample_*``): each overload is one ONNX ``Resize`` over the
spatial axes (opset 18's ``axes`` attribute), with torch's coordinate rules.

torch's rules, as ``Resize`` attributes:

- nearest: source index ``floor(dst / scale)`` -> ``asymmetric`` with ``floor``;
- nearest-exact: ``floor((dst + 0.5) / scale)`` -> ``half_pixel`` with
  ``round_prefer_ceil`` (rounding ``y - 0.5`` up at halves is ``floor(y)``);
- linear, bicubic: ``(dst + 0.5) / scale - 0.5`` (``half_pixel``; onnxruntime clamps
  linear's negative coordinates to 0 as torch does) or ``align_corners``; bicubic with
  torch's coefficient -0.75;
- antialiased (``_aa``): the filter widened by the downscale factor and its weights
  normalized over the taps inside the input (``antialias`` with ``exclude_outside``);
  torch's antialiased bicubic uses PIL's coefficient -0.5.

When torch passes scale factors, its coordinates use them (not output size / input size),
so ``Resize`` takes the scales, in float32: where the input size is static, the float32
neighbour that gives torch's output size (``int(in * scale)`` in double) if the nearest
does not, and a Slice where torch's given size is smaller than the scales make (its rows
are the first ones). Otherwise ``Resize`` takes the output size, which may mix ints and
symbolic sizes (one Concat).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.constants import array_constant
from onnxscript.function_libs.torch_lib.helpers.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.helpers.facts import rank
from onnxscript.function_libs.torch_lib.helpers.sizes import is_static, shape_input
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import TFloat, TRealOrUInt8
from onnxscript.onnx_types import FLOAT

Settings = dict[str, Any]
"""``Resize`` attributes."""

NEAREST: Settings = {
    "mode": "nearest",
    "coordinate_transformation_mode": "asymmetric",
    "nearest_mode": "floor",
}
NEAREST_EXACT: Settings = {
    "mode": "nearest",
    "coordinate_transformation_mode": "half_pixel",
    "nearest_mode": "round_prefer_ceil",
}
NO_SCALE = 0.0
"""A scale that is not given: torch passes None, which torch.onnx drops (an attribute), and
torch's kernels also ignore scales <= 0."""
TORCH_CUBIC_A = -0.75
PIL_CUBIC_A = -0.5
"""torch's bicubic coefficient, and the one of its antialiased bicubic (as PIL)."""


def _transform(align_corners: bool) -> str:
    return "align_corners" if align_corners else "half_pixel"


def linear(align_corners: bool) -> Settings:
    return {"mode": "linear", "coordinate_transformation_mode": _transform(align_corners)}


def cubic(align_corners: bool) -> Settings:
    return {
        "mode": "cubic",
        "coordinate_transformation_mode": _transform(align_corners),
        "cubic_coeff_a": TORCH_CUBIC_A,
    }


def antialiased(mode: str, align_corners: bool) -> Settings:
    """torch's ``_upsample_*_aa``. With align_corners torch keeps the half-pixel centers and
    only changes the scale to (in - 1) / (out - 1), which no ``Resize`` mode expresses."""
    if align_corners:
        raise NotImplementedError(
            "antialiased interpolation with align_corners=True: torch samples at "
            "(dst + 0.5) * (in - 1) / (out - 1), which ONNX Resize cannot express"
        )
    settings: Settings = {
        "mode": mode,
        "coordinate_transformation_mode": "half_pixel",
        "antialias": 1,
        "exclude_outside": 1,
    }
    if mode == "cubic":
        settings["cubic_coeff_a"] = PIL_CUBIC_A
    return settings


def resize(
    input: Any,
    output_size: Sequence[Any] | None,
    scales: Sequence[Any] | None,
    settings: Settings,
) -> Any:
    """``input`` resized over its spatial axes (all after the first two): by ``scales``
    when torch gives them all (its coordinates use them), else to ``output_size``."""
    axes = list(range(2, rank(input)))
    output_size = list(output_size or [])
    scales = list(scales or [])
    if len(scales) == len(axes) and all(_given(s) for s in scales):
        plan = _scale_plan(input, scales, output_size)
        if plan is not None:
            resized = op.Resize(input, None, plan.factors, axes=axes, **settings)
            return _cut(resized, plan.cut)
    if len(output_size) != len(axes):
        raise ValueError(f"upsample: {len(axes)} output sizes or scale factors needed")
    return op.Resize(input, None, None, shape_input(output_size), axes=axes, **settings)


def _given(scale: Any) -> bool:
    """A scale torch uses: not None and, when static, positive (torch ignores others)."""
    return scale is not None and (not is_static(scale) or float(scale) > 0)


@dataclass
class _ScalePlan:
    """``Resize``'s FLOAT scales, and the axes (with torch's size) where they make more
    than torch's given output size: torch's rows are the first ones there."""

    factors: Any
    cut: dict[int, int]


def _scale_plan(input: Any, scales: Sequence[Any], output_size: Sequence[Any]) -> _ScalePlan | None:
    """The scales as ``Resize`` takes them, or None when with some axis's scale Resize
    would make fewer elements than torch's output size (known while tracing)."""
    if not all(is_static(s) for s in scales):
        return _ScalePlan(op.Concat(*[_scale_vector(s) for s in scales], axis=0), {})
    chosen: list[float] = []
    cut: dict[int, int] = {}
    for index, scale in enumerate(scales):
        wanted = _wanted_size(input, index, float(scale), output_size)
        single, made = _float32_scale(float(scale), wanted, static_dim(input, index + 2))
        if wanted is not None and made is not None and made != wanted:
            if made < wanted:
                return None
            cut[index + 2] = wanted
        chosen.append(single)
    return _ScalePlan(array_constant(np.array(chosen, dtype=np.float32)), cut)


def _cut(value: Any, cut: dict[int, int]) -> Any:
    """The first ``cut[axis]`` elements along each listed axis."""
    if not cut:
        return value
    axes = sorted(cut)
    return op.Slice(value, [0] * len(axes), [cut[a] for a in axes], axes)


def _scale_vector(scale: Any) -> Any:
    if is_static(scale):
        return array_constant(np.array([scale], dtype=np.float32))
    return op.Reshape(op.Cast(scale, to=FLOAT.dtype), [-1])


def _wanted_size(input: Any, axis: int, scale: float, output_size: Sequence[Any]) -> int | None:
    """torch's output size along spatial ``axis`` when known while tracing: the given one,
    or ``int(in * scale)`` in double precision (torch's ``.vec`` rule)."""
    if len(output_size) > axis and is_static(output_size[axis]):
        return int(output_size[axis])
    length = static_dim(input, axis + 2)
    return None if length is None else int(length * scale)


def _float32_scale(
    scale: float, wanted: int | None, length: int | None
) -> tuple[float, int | None]:
    """The float32 scale for ``Resize`` and the size onnxruntime makes with it (its
    float32 ``floor(length * scale)``; None when the length is dynamic): the nearest to
    ``scale``, or a float32 neighbour when only that one gives torch's size."""
    nearest = np.float32(scale)
    if length is None:
        return float(nearest), None
    for candidate in (
        nearest,
        np.nextafter(nearest, np.float32(np.inf)),
        np.nextafter(nearest, np.float32(-np.inf)),
    ):
        made = int(np.floor(np.float32(candidate) * np.float32(length)))
        if made == wanted:
            return float(candidate), made
    return float(nearest), int(np.floor(nearest * np.float32(length)))


# -- nearest -------------------------------------------------------------------------------


@aten("aten::upsample_nearest1d")
def upsample_nearest1d(
    self: TRealOrUInt8, output_size: Sequence[int], scales: float = NO_SCALE
) -> TRealOrUInt8:
    """upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor"""
    return resize(self, output_size, [scales], NEAREST)


@aten("aten::upsample_nearest2d")
def upsample_nearest2d(
    self: TRealOrUInt8,
    output_size: Sequence[int],
    scales_h: float = NO_SCALE,
    scales_w: float = NO_SCALE,
) -> TRealOrUInt8:
    """upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor"""
    return resize(self, output_size, [scales_h, scales_w], NEAREST)


@aten("aten::upsample_nearest3d")
def upsample_nearest3d(
    self: TRealOrUInt8,
    output_size: Sequence[int],
    scales_d: float = NO_SCALE,
    scales_h: float = NO_SCALE,
    scales_w: float = NO_SCALE,
) -> TRealOrUInt8:
    """upsample_nearest3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor"""
    return resize(self, output_size, [scales_d, scales_h, scales_w], NEAREST)


@aten(
    "aten::upsample_nearest1d.vec", "aten::upsample_nearest2d.vec", "aten::upsample_nearest3d.vec"
)
def upsample_nearest_vec(
    input: TRealOrUInt8, output_size: Sequence[int] = (), scale_factors: Sequence[float] = ()
) -> TRealOrUInt8:
    """upsample_nearest1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor"""
    return resize(input, output_size, scale_factors, NEAREST)


@aten("aten::_upsample_nearest_exact1d")
def upsample_nearest_exact1d(
    self: TRealOrUInt8, output_size: Sequence[int], scales: float = NO_SCALE
) -> TRealOrUInt8:
    """_upsample_nearest_exact1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor"""
    return resize(self, output_size, [scales], NEAREST_EXACT)


@aten("aten::_upsample_nearest_exact2d")
def upsample_nearest_exact2d(
    self: TRealOrUInt8,
    output_size: Sequence[int],
    scales_h: float = NO_SCALE,
    scales_w: float = NO_SCALE,
) -> TRealOrUInt8:
    """_upsample_nearest_exact2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor"""
    return resize(self, output_size, [scales_h, scales_w], NEAREST_EXACT)


@aten("aten::_upsample_nearest_exact3d")
def upsample_nearest_exact3d(
    self: TRealOrUInt8,
    output_size: Sequence[int],
    scales_d: float = NO_SCALE,
    scales_h: float = NO_SCALE,
    scales_w: float = NO_SCALE,
) -> TRealOrUInt8:
    """_upsample_nearest_exact3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor"""
    return resize(self, output_size, [scales_d, scales_h, scales_w], NEAREST_EXACT)


@aten(
    "aten::_upsample_nearest_exact1d.vec",
    "aten::_upsample_nearest_exact2d.vec",
    "aten::_upsample_nearest_exact3d.vec",
)
def upsample_nearest_exact_vec(
    input: TRealOrUInt8, output_size: Sequence[int] = (), scale_factors: Sequence[float] = ()
) -> TRealOrUInt8:
    """_upsample_nearest_exact1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor"""
    return resize(input, output_size, scale_factors, NEAREST_EXACT)


# -- linear --------------------------------------------------------------------------------


@aten("aten::upsample_linear1d")
def upsample_linear1d(
    self: TFloat, output_size: Sequence[int], align_corners: bool, scales: float = NO_SCALE
) -> TFloat:
    """upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None) -> Tensor"""
    return resize(self, output_size, [scales], linear(align_corners))


@aten("aten::upsample_bilinear2d")
def upsample_bilinear2d(
    self: TFloat,
    output_size: Sequence[int],
    align_corners: bool,
    scales_h: float = NO_SCALE,
    scales_w: float = NO_SCALE,
) -> TFloat:
    """upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor"""
    return resize(self, output_size, [scales_h, scales_w], linear(align_corners))


@aten("aten::upsample_trilinear3d")
def upsample_trilinear3d(
    self: TFloat,
    output_size: Sequence[int],
    align_corners: bool,
    scales_d: float = NO_SCALE,
    scales_h: float = NO_SCALE,
    scales_w: float = NO_SCALE,
) -> TFloat:
    """upsample_trilinear3d(Tensor self, SymInt[3] output_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor"""
    return resize(self, output_size, [scales_d, scales_h, scales_w], linear(align_corners))


@aten(
    "aten::upsample_linear1d.vec",
    "aten::upsample_bilinear2d.vec",
    "aten::upsample_trilinear3d.vec",
)
def upsample_linear_vec(
    input: TFloat,
    output_size: Sequence[int] = (),
    align_corners: bool = False,
    scale_factors: Sequence[float] = (),
) -> TFloat:
    """upsample_linear1d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor"""
    return resize(input, output_size, scale_factors, linear(align_corners))


# -- bicubic and antialiased -----------------------------------------------------------------


@aten("aten::upsample_bicubic2d")
def upsample_bicubic2d(
    self: TFloat,
    output_size: Sequence[int],
    align_corners: bool,
    scales_h: float = NO_SCALE,
    scales_w: float = NO_SCALE,
) -> TFloat:
    """upsample_bicubic2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor"""
    return resize(self, output_size, [scales_h, scales_w], cubic(align_corners))


@aten("aten::upsample_bicubic2d.vec")
def upsample_bicubic2d_vec(
    input: TFloat,
    output_size: Sequence[int] = (),
    align_corners: bool = False,
    scale_factors: Sequence[float] = (),
) -> TFloat:
    """upsample_bicubic2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor"""
    return resize(input, output_size, scale_factors, cubic(align_corners))


@aten("aten::_upsample_bilinear2d_aa")
def upsample_bilinear2d_aa(
    self: TFloat,
    output_size: Sequence[int],
    align_corners: bool,
    scales_h: float = NO_SCALE,
    scales_w: float = NO_SCALE,
) -> TFloat:
    """_upsample_bilinear2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor"""
    return resize(self, output_size, [scales_h, scales_w], antialiased("linear", align_corners))


@aten("aten::_upsample_bilinear2d_aa.vec")
def upsample_bilinear2d_aa_vec(
    input: TFloat,
    output_size: Sequence[int] = (),
    align_corners: bool = False,
    scale_factors: Sequence[float] = (),
) -> TFloat:
    """_upsample_bilinear2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor"""
    return resize(input, output_size, scale_factors, antialiased("linear", align_corners))


@aten("aten::_upsample_bicubic2d_aa")
def upsample_bicubic2d_aa(
    self: TFloat,
    output_size: Sequence[int],
    align_corners: bool,
    scales_h: float = NO_SCALE,
    scales_w: float = NO_SCALE,
) -> TFloat:
    """_upsample_bicubic2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor"""
    return resize(self, output_size, [scales_h, scales_w], antialiased("cubic", align_corners))


@aten("aten::_upsample_bicubic2d_aa.vec")
def upsample_bicubic2d_aa_vec(
    input: TFloat,
    output_size: Sequence[int] = (),
    align_corners: bool = False,
    scale_factors: Sequence[float] = (),
) -> TFloat:
    """_upsample_bicubic2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor"""
    return resize(input, output_size, scale_factors, antialiased("cubic", align_corners))


__all__ = [
    "NEAREST",
    "NEAREST_EXACT",
    "antialiased",
    "cubic",
    "linear",
    "resize",
]
