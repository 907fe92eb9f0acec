"""An inference BatchNormalization folded into the Conv, ConvTranspose or Gemm before it.

``BatchNormalization(y, scale, bias, mean, var)`` computes ``f * (y - mean) + bias`` per
channel with ``f = scale / sqrt(var + epsilon)`` (epsilon 1e-5 by default). When ``y`` is
computed by a Conv, ConvTranspose or Gemm with constant weights (and bias, if any), the
op with weights scaled by ``f`` per output channel and bias ``f * (b - mean) + bias``
computes the same. All BatchNormalization inputs but ``y`` must be constants; a
BatchNormalization in training mode (batch statistics) is left alone. The new weights
record the values they were folded from (``pkg.onnxscript.optimizer.folded_from``).

Only finite numbers are folded: when ``var + epsilon`` is 0 or negative for a channel
(``f`` infinite or NaN), or the scaled weight or bias overflows its type, the
BatchNormalization stays (onnxruntime computes ``f * y + shift`` per element, whose
infinities and NaNs a weight scaled by ``f`` inside the Conv's sums would not
reproduce)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.metadata import record_folded_from
from onnxscript.ir_utils.value_facts import (
    attr_float,
    attr_int,
    constant_array,
)
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.rules.common.node_copies import has_ref_attributes, rebuilt


def _bn_factor_and_shift(bn: ir.Node) -> tuple[np.ndarray, np.ndarray] | None:
    """(f, shift) with ``BN(y) = f * y + shift`` per channel, or None."""
    arrays = [constant_array(v, max_size=None) for v in bn.inputs[1:5]]
    if len(arrays) != 4 or any(a is None or a.ndim != 1 for a in arrays):
        return None
    scale, bias, mean, var = (np.asarray(a, dtype=np.float64) for a in arrays)
    with np.errstate(all="ignore"):
        factor = scale / np.sqrt(var + attr_float(bn, "epsilon", 1e-5))
        shift = bias - mean * factor
    if not (np.all(np.isfinite(factor)) and np.all(np.isfinite(shift))):
        return None  # a channel with var + epsilon <= 0 (or infinite statistics)
    return factor, shift


def _bn_usable(bn: ir.Node) -> bool:
    return (
        not has_ref_attributes(bn)
        and attr_int(bn, "training_mode", 0) == 0
        and _bn_factor_and_shift(bn) is not None
    )


def _input(node: ir.Node, index: int) -> ir.Value | None:
    return node.inputs[index] if len(node.inputs) > index else None


def _scaled_weight(node: ir.Node, weight: np.ndarray, factor: np.ndarray) -> np.ndarray | None:
    """``weight`` with each output channel's part multiplied by its factor."""
    if node.op_type == "Conv":
        if weight.shape[0] != factor.size:
            return None
        scaled: np.ndarray = weight * factor.reshape(-1, *([1] * (weight.ndim - 1)))
        return scaled
    if node.op_type == "ConvTranspose":
        groups = attr_int(node, "group", 1)
        c_in, per_group = weight.shape[0], weight.shape[1]
        if c_in % groups or per_group * groups != factor.size:
            return None
        grouped = weight.reshape(groups, c_in // groups, *weight.shape[1:])
        f = factor.reshape(groups, 1, per_group, *([1] * (weight.ndim - 2)))
        regrouped: np.ndarray = (grouped * f).reshape(weight.shape)
        return regrouped
    trans_b = attr_int(node, "transB", 0)
    if weight.ndim != 2 or weight.shape[0 if trans_b else 1] != factor.size:
        return None
    columns: np.ndarray = weight * (factor[:, None] if trans_b else factor[None, :])
    return columns


def _folded(node: ir.Node, bn: ir.Node) -> tuple[np.ndarray, np.ndarray] | None:
    """The new weight and bias (in the weight's element type), or None."""
    found = _bn_factor_and_shift(bn)
    bias_value = _input(node, 2)
    bias = constant_array(bias_value, max_size=None) if bias_value is not None else None
    if found is None or (bias_value is not None and bias is None):
        return None
    weight = constant_array(_input(node, 1), max_size=None)  # read last: the one big tensor
    if weight is None:
        return None
    factor, shift = found
    # the weight is scaled in its own precision (float16 in float32): a float64 copy of a
    # big weight costs more than the fusion saves
    precision = np.result_type(weight.dtype, np.float32)
    try:
        # an overflow (in the product or in the cast back) is numpy's floating-point
        # overflow flag: checked as the weight is scaled, without another pass over it
        with np.errstate(over="raise", invalid="ignore", under="ignore", divide="ignore"):
            new_weight = _scaled_weight(
                node, weight.astype(precision, copy=False), factor.astype(precision)
            )
            if new_weight is None:
                return None
            new_weight = new_weight.astype(weight.dtype, copy=False)
    except FloatingPointError:
        return None
    old = np.zeros(factor.shape) if bias is None else np.asarray(bias, dtype=np.float64)
    if node.op_type == "Gemm":
        old = old * attr_float(node, "beta", 1.0)
    try:
        new_bias = old * factor + shift
    except ValueError:
        return None
    if node.op_type != "Gemm" and new_bias.shape != factor.shape:
        return None
    with np.errstate(all="ignore"):
        folded_bias = new_bias.astype(weight.dtype)
    if not _finite_where(folded_bias, old):
        return None  # overflow in the weight's type
    return new_weight, folded_bias


def _finite_where(new: np.ndarray, old: np.ndarray) -> bool:
    """Whether ``new`` is finite wherever ``old`` (the value it was scaled from, maybe
    broadcast) is."""
    return bool(np.all(np.isfinite(new) | ~np.isfinite(np.broadcast_to(old, new.shape))))


class _FuseBatchNormBase(RewriteRuleClassBase):
    """``BatchNormalization(Op(x, w[, b]), ...)`` -> ``Op(x, w', b')`` for Op one of
    Conv, ConvTranspose, Gemm."""

    _op_type = "Conv"
    _found: tuple[np.ndarray, np.ndarray] | None = None

    def pattern(self, op: Any, x: Any, scale: Any, bias: Any, mean: Any, var: Any) -> Any:
        y = getattr(op, self._op_type)(x, _allow_other_inputs=True, _outputs=["y"])
        return op.BatchNormalization(y, scale, bias, mean, var, _outputs=["out"])

    def check(self, context: Any, y: Any, out: Any, **_: Any) -> MatchResult:
        result = MatchResult()
        node, bn = y.producer(), out.producer()
        if has_ref_attributes(node) or not _bn_usable(bn):
            return result.fail("the BatchNormalization is not an inference one of constants", bn)
        self._found = _folded(node, bn)  # kept for rewrite: the weight is read once
        if self._found is None:
            return result.fail(f"the {node.op_type}'s weight and bias must be constants", node)
        return result

    def rewrite(self, op: Any, x: Any, y: Any, out: Any, **_: Any) -> Any:
        node, bn = y.producer(), out.producer()
        found, self._found = self._found, None
        assert found is not None
        sources = [*node.inputs[1:3], *bn.inputs[1:5]]
        weight_name = _input(node, 1).name or "weight"  # type: ignore[union-attr]
        values = []
        for array, suffix in zip(found, ("bn_weight", "bn_bias")):
            value = op.initializer(ir.tensor(array), f"{weight_name}_{suffix}")
            record_folded_from(value, sources)
            values.append(value)
        changes = {"beta": None} if node.op_type == "Gemm" else {}
        return rebuilt(op, node, [x, *values], drop=list(changes), **changes)


class FuseBatchNormIntoConv(_FuseBatchNormBase):
    _op_type = "Conv"


class FuseBatchNormIntoConvTranspose(_FuseBatchNormBase):
    _op_type = "ConvTranspose"


class FuseBatchNormIntoGemm(_FuseBatchNormBase):
    _op_type = "Gemm"


fuse_batchnorm_into_conv_rule = FuseBatchNormIntoConv.rule()
fuse_batchnorm_into_conv_transpose_rule = FuseBatchNormIntoConvTranspose.rule()
fuse_batchnorm_into_gemm_rule = FuseBatchNormIntoGemm.rule()

__all__ = [
    "FuseBatchNormIntoConv",
    "FuseBatchNormIntoConvTranspose",
    "FuseBatchNormIntoGemm",
    "fuse_batchnorm_into_conv_rule",
    "fuse_batchnorm_into_conv_transpose_rule",
    "fuse_batchnorm_into_gemm_rule",
]
