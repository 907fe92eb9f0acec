"""``com.microsoft.GroupNorm`` for ``onnx.reference`` (onnxruntime 1.32 has no CPU
kernel for it): channels-last input, statistics per sample and group, ``activation=1``
a SiLU after the affine; the evaluator the GroupNorm tests run the fused model with."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator
from onnx.reference.op_run import OpRun


class GroupNorm(OpRun):
    op_domain = "com.microsoft"

    def _run(  # type: ignore[override]
        self,
        x: np.ndarray,
        gamma: np.ndarray,
        beta: np.ndarray,
        activation: int = 0,
        channels_last: int = 1,
        epsilon: float = 1e-5,
        groups: int = 1,
    ) -> tuple[np.ndarray]:
        assert channels_last == 1
        n, c = x.shape[0], x.shape[-1]
        grouped = x.astype(np.float64).reshape(n, -1, groups, c // groups)
        mean = grouped.mean(axis=(1, 3), keepdims=True)
        var = grouped.var(axis=(1, 3), keepdims=True)
        y = ((grouped - mean) / np.sqrt(var + epsilon)).reshape(x.shape) * gamma + beta
        if activation:
            y = y / (1 + np.exp(-y))
        return (y.astype(x.dtype),)


def evaluate(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[Any]:
    """``model``'s outputs by ``onnx.reference`` with :class:`GroupNorm`."""
    return list(ReferenceEvaluator(model, new_ops=[GroupNorm]).run(None, feeds))


__all__ = ["GroupNorm", "evaluate"]
