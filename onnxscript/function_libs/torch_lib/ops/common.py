"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.common``: its
names bound to this library's functions (``torch_lib/aten/``, ``torch_lib/helpers/``).

A function 0.7 registered is the one registered here for its first ATen overload (the
comment lists 0.7's overloads, "complex" marking complex variants); a name 0.7 only
declared (raising ``NotImplementedError``) is the function for that operator when the
library has one, else an ``unsupported`` placeholder naming it. Written by
``python tools/torchlib_faces.py``; do not edit.
"""

from __future__ import annotations

import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers import (
    complex_layout,
    constants,
    script_functions,
    sizes,
)

COMPLEX128_TYPE = ir.DataType.COMPLEX128
COMPLEX64_TYPE = ir.DataType.COMPLEX64
DOMAIN = script_functions.COMMON_DOMAIN
IsScalar = script_functions.IsScalar
Rank = script_functions.Rank
cast_to = complex_layout.cast_to
common_opset = script_functions.common_opset
constant = constants.typed_constant
merge_dims = sizes.merge_dims

__all__ = [
    "COMPLEX64_TYPE",
    "COMPLEX128_TYPE",
    "DOMAIN",
    "IsScalar",
    "Rank",
    "cast_to",
    "common_opset",
    "constant",
    "merge_dims",
    "op",
]
