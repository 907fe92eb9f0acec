"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.fft``: its
names bound to this library's functions (``torch_lib/aten/``, ``torch_lib/helpers/``).

A function 0.7 registered is the one registered here for its first ATen overload (the
comment lists 0.7's overloads, "complex" marking complex variants); a name 0.7 only
declared (raising ``NotImplementedError``) is the function for that operator when the
library has one, else an ``unsupported`` placeholder naming it. Written by
``python tools/torchlib_faces.py``; do not edit.
"""

from __future__ import annotations

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten import fft
from onnxscript.function_libs.torch_lib.unsupported import unsupported

aten__fft_c2c = fft.fft_c2c  # aten::_fft_c2c (complex)
aten__fft_c2r = fft.fft_c2r  # aten::_fft_c2r (complex)
aten__fft_r2c = fft.fft_r2c  # aten::_fft_r2c
aten_fft_fft = unsupported("aten::fft_fft")
aten_fft_fft2 = unsupported("aten::fft_fft2")
aten_fft_fftfreq = unsupported("aten::fft_fftfreq")
aten_fft_fftn = unsupported("aten::fft_fftn")
aten_fft_fftshift = unsupported("aten::fft_fftshift")
aten_fft_hfft = unsupported("aten::fft_hfft")
aten_fft_hfft2 = unsupported("aten::fft_hfft2")
aten_fft_hfftn = unsupported("aten::fft_hfftn")
aten_fft_ifft = unsupported("aten::fft_ifft")
aten_fft_ifft2 = unsupported("aten::fft_ifft2")
aten_fft_ifftn = unsupported("aten::fft_ifftn")
aten_fft_ifftshift = unsupported("aten::fft_ifftshift")
aten_fft_ihfft = unsupported("aten::fft_ihfft")
aten_fft_ihfft2 = unsupported("aten::fft_ihfft2")
aten_fft_ihfftn = unsupported("aten::fft_ihfftn")
aten_fft_irfft = unsupported("aten::fft_irfft")
aten_fft_irfft2 = unsupported("aten::fft_irfft2")
aten_fft_irfftn = unsupported("aten::fft_irfftn")
aten_fft_rfft = unsupported("aten::fft_rfft")
aten_fft_rfft2 = unsupported("aten::fft_rfft2")
aten_fft_rfftfreq = unsupported("aten::fft_rfftfreq")
aten_fft_rfftn = unsupported("aten::fft_rfftn")

__all__ = [
    "aten__fft_c2c",
    "aten__fft_c2r",
    "aten__fft_r2c",
    "aten_fft_fft",
    "aten_fft_fft2",
    "aten_fft_fftfreq",
    "aten_fft_fftn",
    "aten_fft_fftshift",
    "aten_fft_hfft",
    "aten_fft_hfft2",
    "aten_fft_hfftn",
    "aten_fft_ifft",
    "aten_fft_ifft2",
    "aten_fft_ifftn",
    "aten_fft_ifftshift",
    "aten_fft_ihfft",
    "aten_fft_ihfft2",
    "aten_fft_ihfftn",
    "aten_fft_irfft",
    "aten_fft_irfft2",
    "aten_fft_irfftn",
    "aten_fft_rfft",
    "aten_fft_rfft2",
    "aten_fft_rfftfreq",
    "aten_fft_rfftn",
    "op",
]
