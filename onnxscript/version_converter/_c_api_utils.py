"""onnxscript 0.7's ``onnxscript.version_converter._c_api_utils``: calling an onnx C API
function on an ``onnx_ir`` model (:func:`onnxscript.ir_utils.model_kinds.call_onnx_api`)."""

from typing import TYPE_CHECKING

from onnxscript.ir_utils.model_kinds import call_onnx_api

__all__ = ["TYPE_CHECKING", "call_onnx_api"]
