"""onnxscript 0.7's ``torch_lib._constants`` path: the library's domain."""

from __future__ import annotations

from onnxscript.function_libs.torch_lib.registration import TORCHLIB_DOMAIN

DOMAIN = TORCHLIB_DOMAIN.domain
"""``pkg.onnxscript.torch_lib``: the domain of the library's functions."""

__all__ = ["DOMAIN"]
