"""Losses kept whole: ``mse_loss``, ``nll_loss`` (and ``nll_loss_forward``, which also
gives the total weight) and ``cross_entropy_loss`` (class indices or probabilities as
targets, class weights, an ignored index, label smoothing).

The reduction is torch's enum: 0 none, 1 mean, 2 sum. Class indices with a static ignored
index map to ONNX's NegativeLogLikelihoodLoss / SoftmaxCrossEntropyLoss (onnxruntime runs
both); the rest is written with GatherElements and reductions."""

from __future__ import annotations

from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.facts import is_floating, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import (
    as_int64,
    dim_size,
    is_static,
    scalar_like,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import TAnyTensor, TFloat

_NONE, _MEAN, _SUM = 0, 1, 2
_REDUCTION_NAMES = ("none", "mean", "sum")


def _reduced(loss: Any, reduction: int) -> Any:
    """A per-element loss reduced to a scalar by torch's ``reduction`` (or kept)."""
    if reduction == _NONE:
        return loss
    if reduction == _MEAN:
        return op.ReduceMean(loss, keepdims=0)
    return op.ReduceSum(loss, keepdims=0)


@aten("aten::mse_loss")
def mse_loss(self: TFloat, target: TFloat, reduction: int = _MEAN) -> TFloat:
    """mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor"""
    difference = op.Sub(self, target)
    return _reduced(op.Mul(difference, difference), reduction)


def _first(result: Any) -> Any:
    """The first output of an op whose optional outputs a recorder may also return."""
    return result[0] if isinstance(result, (tuple, list)) else result


def _batched(self: Any, target: Any) -> tuple[Any, Any, bool]:
    """An unbatched input ([C], target []) given a batch dim of 1."""
    if rank(self) == 1:
        return op.Unsqueeze(self, [0]), op.Unsqueeze(target, [0]), True
    return self, target, False


def _unbatched(loss: Any, reduction: int, was_unbatched: bool) -> Any:
    return op.Squeeze(loss, [0]) if was_unbatched and reduction == _NONE else loss


def _index(ignore_index: Any) -> Any:
    """The ignored index (static or symbolic) as a rank-0 INT64 value."""
    if is_static(ignore_index):
        return op.Constant(value_int=int(ignore_index))
    return as_int64(ignore_index)


def _target_weights(target: Any, weight: Any, ignore_index: Any, like: Any) -> Any:
    """Each target's class weight (1 without weights), 0 where it is the ignored index."""
    ignored = op.Equal(target, _index(ignore_index))
    zero = scalar_like(0.0, like)
    if weight is None:
        return op.Where(ignored, zero, scalar_like(1.0, like))
    safe = op.Where(ignored, op.Constant(value_int=0), target)
    return op.Where(ignored, zero, op.Gather(weight, safe, axis=0))


def _nll(log_probs: Any, target: Any, weight: Any, reduction: int, ignore_index: Any) -> Any:
    """torch's nll_loss of batched ``log_probs`` [N, C, *] and ``target`` [N, *]: one
    NegativeLogLikelihoodLoss when the ignored index is static; else each target's
    log-probability times its weight, the mean divided by the sum of those weights."""
    if is_static(ignore_index):
        inputs = [log_probs, target] if weight is None else [log_probs, target, weight]
        return op.NegativeLogLikelihoodLoss(
            *inputs, ignore_index=int(ignore_index), reduction=_REDUCTION_NAMES[reduction]
        )
    weights = _target_weights(target, weight, ignore_index, log_probs)
    ignored = op.Equal(target, _index(ignore_index))
    safe = op.Where(ignored, op.Constant(value_int=0), target)
    picked = op.Squeeze(op.GatherElements(log_probs, op.Unsqueeze(safe, [1]), axis=1), [1])
    loss = op.Neg(op.Mul(picked, weights))
    if reduction == _MEAN:
        return op.Div(op.ReduceSum(loss, keepdims=0), op.ReduceSum(weights, keepdims=0))
    return _reduced(loss, reduction)


@aten("aten::nll_loss")
def nll_loss(
    self: TFloat,
    target: TAnyTensor,
    weight: TFloat | None = None,
    reduction: int = _MEAN,
    ignore_index: int = -100,
) -> TFloat:
    """nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt ignore_index=-100) -> Tensor

    Input [N, C] (or [C]) of log-probabilities, target [N] (or []) of class indices.
    """
    batched, target, unbatched = _batched(self, target)
    loss = _nll(batched, target, weight, reduction, ignore_index)
    return _unbatched(loss, reduction, unbatched)


@aten("aten::nll_loss_forward")
def nll_loss_forward(
    self: TFloat, target: TAnyTensor, weight: TFloat | None, reduction: int, ignore_index: int
) -> tuple[TFloat, TFloat]:
    """nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index) -> (Tensor output, Tensor total_weight)

    :func:`nll_loss` and the total weight: the sum of the targets' weights (ignored
    ones left out), 0 for a batch without reduction (as torch's kernel)."""
    output = nll_loss(self, target, weight, reduction, ignore_index)
    if rank(self) == 2 and reduction == _NONE:
        return output, scalar_like(0.0, self)
    weights = _target_weights(target, weight, ignore_index, self)
    return output, op.ReduceSum(weights, keepdims=0)


@aten("aten::cross_entropy_loss")
def cross_entropy_loss(
    self: TFloat,
    target: TAnyTensor,
    weight: TFloat | None = None,
    reduction: int = _MEAN,
    ignore_index: int = -100,
    label_smoothing: float = 0.0,
) -> TFloat:
    """cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt ignore_index=-100, float label_smoothing=0.) -> Tensor

    Logits [N, C, *] (or [C]); the target class indices [N, *] or probabilities of the
    input's shape."""
    if is_floating(target):
        return _cross_entropy_probabilities(self, target, weight, reduction, label_smoothing)
    batched, target, unbatched = _batched(self, target)
    if label_smoothing == 0 and is_static(ignore_index):
        inputs = [batched, target] if weight is None else [batched, target, weight]
        loss = _first(
            op.SoftmaxCrossEntropyLoss(
                *inputs, ignore_index=int(ignore_index), reduction=_REDUCTION_NAMES[reduction]
            )
        )
        return _unbatched(loss, reduction, unbatched)
    log_probs = op.LogSoftmax(batched, axis=1)
    nll = _nll(log_probs, target, weight, reduction, ignore_index)
    if label_smoothing == 0:
        return _unbatched(nll, reduction, unbatched)
    smooth = _smoothing_loss(log_probs, rank(batched), target, weight, reduction, ignore_index)
    classes = scalar_like(dim_size(batched, 1), batched)
    share = op.Div(scalar_like(label_smoothing, batched), classes)
    loss = op.Add(op.Mul(nll, scalar_like(1.0 - label_smoothing, batched)), op.Mul(smooth, share))
    return _unbatched(loss, reduction, unbatched)


def _class_weights(weight: Any, input_rank: int, class_dim: int) -> Any:
    """The class weights [C] shaped to broadcast along ``class_dim`` of the input."""
    return op.Reshape(weight, [-1] + [1] * (input_rank - class_dim - 1))


def _smoothing_loss(
    log_probs: Any, input_rank: int, target: Any, weight: Any, reduction: int, ignore_index: Any
) -> Any:
    """Label smoothing's term before its factor smoothing/C: minus the (weighted) sum of
    the log-probabilities over the classes, 0 at ignored targets; its mean divides by
    the targets' total weight (their count without weights), as nll_loss's."""
    weighted = log_probs
    if weight is not None:
        weighted = op.Mul(log_probs, _class_weights(weight, input_rank, 1))
    ignored = op.Equal(target, _index(ignore_index))
    summed = op.Neg(op.ReduceSum(weighted, [1], keepdims=0))
    loss = op.Where(ignored, scalar_like(0.0, log_probs), summed)
    if reduction != _MEAN:
        return _reduced(loss, reduction)
    total = op.ReduceSum(_target_weights(target, weight, ignore_index, log_probs), keepdims=0)
    return op.Div(op.ReduceSum(loss, keepdims=0), total)


def _cross_entropy_probabilities(
    self: Any, target: Any, weight: Any, reduction: int, label_smoothing: float
) -> Any:
    """Class probabilities as the target: minus the sum over the classes of target times
    log-probability (times the class weight); the mean is over the other positions."""
    class_dim = 0 if rank(self) == 1 else 1
    if label_smoothing > 0:
        classes = scalar_like(dim_size(self, class_dim), self)
        target = op.Add(
            op.Mul(target, scalar_like(1.0 - label_smoothing, self)),
            op.Div(scalar_like(label_smoothing, self), classes),
        )
    product = op.Mul(op.LogSoftmax(self, axis=class_dim), target)
    if weight is not None:
        product = op.Mul(product, _class_weights(weight, rank(self), class_dim))
    per_position = op.Neg(op.ReduceSum(product, [class_dim], keepdims=0))
    return _reduced(per_position, reduction)
