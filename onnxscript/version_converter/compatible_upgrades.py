"""Version bumps of ai.onnx ops that leave every existing node's meaning unchanged.

Most new versions of an op only admit more element types (bfloat16 in opset 22, float8
in 19, int4 in 21, float4 in 23, ...) or add an attribute whose default keeps the old
behaviour (AveragePool's ``dilations``, Resize's ``half_pixel_symmetric`` mode, Pad's
``wrap`` mode). A node of such an op written at an older
version means the same at the newer one, so upgrading a model needs only its opset
import changed. The table is written from the ONNX changelog; a test checks every entry
against onnx's schemas (same inputs, outputs and attributes; types and attributes only
added). Bumps not listed (GridSample-20's mode names, DFT-20's axis input,
GroupNormalization-21's per-channel scale, TopK-24, the quantizers, whose type
parameters were renamed, ...) still go through a converter.
"""

from __future__ import annotations

import functools

import onnx.defs

_TYPES_19 = ["Cast", "CastLike", "Constant", "Equal", "Identity", "If", "Loop", "Pad"]
_TYPES_19 += ["Reshape", "Scan", "Shape", "Size", "AveragePool", "Resize"]
_TYPES_20 = ("ConstantOfShape", "IsInf", "IsNaN", "ReduceMax", "ReduceMin")
_NEW_TYPES = (
    "Cast",
    "CastLike",
    "Constant",
    "ConstantOfShape",
    "Flatten",
    "Identity",
    "If",
    "Loop",
    "Pad",
    "Reshape",
    "Scan",
    "Shape",
    "Size",
    "Squeeze",
    "Transpose",
    "Unsqueeze",
)
_TYPES_22 = [
    "Acos",
    "Acosh",
    "Asin",
    "Asinh",
    "Atan",
    "Atanh",
    "AveragePool",
    "Bernoulli",
    "Conv",
    "ConvTranspose",
    "Cos",
    "Cosh",
    "DeformConv",
    "Det",
    "Dropout",
    "Elu",
    "EyeLike",
    "GRU",
    "GlobalAveragePool",
    "GlobalLpPool",
    "GlobalMaxPool",
    "HardSigmoid",
    "HardSwish",
    "InstanceNormalization",
    "LSTM",
    "LpNormalization",
    "LpPool",
    "MaxPool",
    "MaxRoiPool",
    "MaxUnpool",
    "Mish",
    "Multinomial",
    "NegativeLogLikelihoodLoss",
    "RNN",
    "RandomNormal",
    "RandomNormalLike",
    "RandomUniform",
    "RandomUniformLike",
    "RoiAlign",
    "Round",
    "Selu",
    "Sin",
    "Sinh",
    "Softplus",
    "Softsign",
    "Tan",
    "ThresholdedRelu",
]

COMPATIBLE_UPGRADES: frozenset[tuple[str, int]] = frozenset(
    [(op, 19) for op in _TYPES_19]
    + [(op, 20) for op in _TYPES_20]
    + [(op, 21) for op in _NEW_TYPES]
    + [(op, 22) for op in _TYPES_22]
    + [(op, version) for version in (23, 24, 25) for op in _NEW_TYPES]
)
"""(op type, version): the op's schema at that version keeps the meaning of every node
of its previous version."""


@functools.lru_cache(maxsize=4096)
def _versions(op_type: str) -> tuple[int, ...]:
    """The versions at which ai.onnx ``op_type`` changed, oldest first."""
    found = {
        s.since_version
        for s in onnx.defs.get_all_schemas_with_history()
        if s.domain == "" and s.name == op_type
    }
    return tuple(sorted(found))


@functools.lru_cache(maxsize=4096)
def upgrades_unchanged(op_type: str, version: int, target: int) -> bool:
    """Whether an ai.onnx ``op_type`` node written at ``version`` means the same at
    opset ``target`` (``target >= version``): every change in between is a compatible
    one."""
    if target < version:
        return False
    changes = [v for v in _versions(op_type) if version < v <= target]
    if not _versions(op_type) or version < _versions(op_type)[0]:
        return False
    return all((op_type, v) in COMPATIBLE_UPGRADES for v in changes)


__all__ = ["COMPATIBLE_UPGRADES", "upgrades_unchanged"]
