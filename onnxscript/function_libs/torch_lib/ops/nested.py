"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.nested``: its
names bound to this library's functions (``torch_lib/aten/``, ``torch_lib/helpers/``).

A function 0.7 registered is the one registered here for its first ATen overload (the
comment lists 0.7's overloads, "complex" marking complex variants); a name 0.7 only
declared (raising ``NotImplementedError``) is the function for that operator when the
library has one, else an ``unsupported`` placeholder naming it. Written by
``python tools/torchlib_faces.py``; do not edit.
"""

from __future__ import annotations

from onnxscript.function_libs.torch_lib.unsupported import unsupported

aten_nested_to_padded_tensor = unsupported("aten::nested_to_padded_tensor")

__all__ = [
    "aten_nested_to_padded_tensor",
]
