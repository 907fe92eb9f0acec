"""Compiled functions of the ``pkg.onnxscript.torch_lib.common`` domain, which torch.onnx
before 2.10 called while building graphs (onnxscript 0.7's ``ops.common.Rank`` and
``IsScalar``, deprecated there). The ATen functions read ranks while tracing instead
(``facts.rank``)."""

from __future__ import annotations

from onnxscript import opset18 as op
from onnxscript.main import script
from onnxscript.onnx_types import BOOL, INT64, TensorType
from onnxscript.values import Opset

COMMON_DOMAIN = "pkg.onnxscript.torch_lib.common"
"""The domain of these functions."""

common_opset = Opset(COMMON_DOMAIN, 1)


@script(common_opset)
def Rank(input: TensorType) -> INT64:
    """The rank of ``input``: a rank-0 INT64."""
    return op.Size(op.Shape(input))


@script(common_opset)
def IsScalar(input: TensorType) -> BOOL:
    """Whether ``input`` has rank 0: a rank-0 BOOL."""
    return op.Equal(op.Size(op.Shape(input)), op.Constant(value_int=0))


__all__ = ["COMMON_DOMAIN", "IsScalar", "Rank", "common_opset"]
