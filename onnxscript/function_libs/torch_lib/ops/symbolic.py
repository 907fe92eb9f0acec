"""Python operators on symbolic sizes (``_operator::ge`` ...): torch.export writes them
for guards on data-dependent sizes (``nonzero``'s length, for one)."""

from __future__ import annotations

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import BOOL, INT64


@aten("_operator::ge")
def sym_ge(self: INT64, other: INT64) -> BOOL:
    return op.GreaterOrEqual(self, other)


@aten("_operator::gt")
def sym_gt(self: INT64, other: INT64) -> BOOL:
    return op.Greater(self, other)


@aten("_operator::le")
def sym_le(self: INT64, other: INT64) -> BOOL:
    return op.LessOrEqual(self, other)


@aten("_operator::lt")
def sym_lt(self: INT64, other: INT64) -> BOOL:
    return op.Less(self, other)


@aten("_operator::eq")
def sym_eq(self: INT64, other: INT64) -> BOOL:
    return op.Equal(self, other)
