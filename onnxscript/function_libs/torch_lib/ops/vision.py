"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.vision``: its
names bound to this library's functions (``torch_lib/aten/``, ``torch_lib/helpers/``).

A function 0.7 registered is the one registered here for its first ATen overload (the
comment lists 0.7's overloads, "complex" marking complex variants); a name 0.7 only
declared (raising ``NotImplementedError``) is the function for that operator when the
library has one, else an ``unsupported`` placeholder naming it. Written by
``python tools/torchlib_faces.py``; do not edit.
"""

from __future__ import annotations

from onnxscript import opset18 as op
from onnxscript import opset19
from onnxscript.function_libs.torch_lib.aten import vision

torchvision_deform_conv2d = vision.deform_conv2d  # torchvision::deform_conv2d
torchvision_nms = vision.nms  # torchvision::nms
torchvision_roi_align = vision.roi_align  # torchvision::roi_align
torchvision_roi_pool = vision.roi_pool  # torchvision::roi_pool

__all__ = [
    "op",
    "opset19",
    "torchvision_deform_conv2d",
    "torchvision_nms",
    "torchvision_roi_align",
    "torchvision_roi_pool",
]
