"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.quantized_decomposed``: its
names bound to this library's functions (``torch_lib/aten/``, ``torch_lib/helpers/``).

A function 0.7 registered is the one registered here for its first ATen overload (the
comment lists 0.7's overloads, "complex" marking complex variants); a name 0.7 only
declared (raising ``NotImplementedError``) is the function for that operator when the
library has one, else an ``unsupported`` placeholder naming it. Written by
``python tools/torchlib_faces.py``; do not edit.
"""

from __future__ import annotations

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten import quantized

# also quantized_decomposed::dequantize_per_channel.tensor, dequantize_per_channel.tensor2: not
#   registered here
# quantized_decomposed::dequantize_per_channel
quantized_decomposed_dequantize_per_channel = quantized.dequantize_per_channel
# also quantized_decomposed::dequantize_per_tensor.tensor: quantized.dequantize_per_tensor_tensor
# also quantized_decomposed::dequantize_per_tensor.tensor2: quantized.dequantize_per_tensor_tensor2
# quantized_decomposed::dequantize_per_tensor
quantized_decomposed_dequantize_per_tensor = quantized.dequantize_per_tensor
# also quantized_decomposed::quantize_per_channel.tensor, quantize_per_channel.tensor2: not
#   registered here
# quantized_decomposed::quantize_per_channel
quantized_decomposed_quantize_per_channel = quantized.quantize_per_channel
# also quantized_decomposed::quantize_per_tensor.tensor: quantized.quantize_per_tensor_tensor
# also quantized_decomposed::quantize_per_tensor.tensor2: quantized.quantize_per_tensor_tensor2
# quantized_decomposed::quantize_per_tensor
quantized_decomposed_quantize_per_tensor = quantized.quantize_per_tensor

__all__ = [
    "op",
    "quantized_decomposed_dequantize_per_channel",
    "quantized_decomposed_dequantize_per_tensor",
    "quantized_decomposed_quantize_per_channel",
    "quantized_decomposed_quantize_per_tensor",
]
