"""A SiLU module after onnxruntime's channels-last GroupNorm (``GroupNorm(x, w, b,
activation=0, channels_last=1)``, its Transpose back to channels first, then a call of
the model-local function of a ``torch.nn.SiLU`` module, as torch's TorchScript-based
exporter kept modules: op type ``torch_nn_modules_activation_SiLU...`` in a
``pkg.torch...`` domain) merged into the GroupNorm's ``activation=1`` (the op's SiLU).

Like :mod:`.instance_to_group_normalization`, it needs a provider with GroupNorm kernels
(CUDA, ROCm); ``optimize_for_ort`` does not apply it (neither did 0.7)."""

from __future__ import annotations

from typing import Any

from onnxscript.rewriter.pattern import (
    RewriteRule,
    RewriteRuleSet,
    torch_module_op,
)

SILU_MODULE = "torch_nn_modules_activation_SiLU"
"""The prefix of the op type of a ``torch.nn.SiLU`` module's function."""


def group_normalization_and_silu_submodule(
    op: Any, input: Any, weight: Any, bias: Any, epsilon: Any, groups: Any
) -> Any:
    """The pattern (see the module)."""
    normalized = op.GroupNorm(
        input,
        weight,
        bias,
        activation=0,
        channels_last=1,
        epsilon=epsilon,
        groups=groups,
        _domain="com.microsoft",
    )
    channels_first = op.Transpose(normalized, perm=[0, 3, 1, 2])
    return torch_module_op.submodule(SILU_MODULE)(channels_first)


def group_normalization_with_silu(
    op: Any, input: Any, weight: Any, bias: Any, epsilon: Any, groups: Any
) -> Any:
    """The replacement: the GroupNorm with ``activation=1``, then the Transpose."""
    normalized = op.GroupNorm(
        input,
        weight,
        bias,
        activation=1,
        channels_last=1,
        epsilon=epsilon,
        groups=groups,
        _domain="com.microsoft",
    )
    return op.Transpose(normalized, perm=[0, 3, 1, 2])


group_normalization_merge_silu_submodule_rule = RewriteRule(
    group_normalization_and_silu_submodule,
    group_normalization_with_silu,
    name="GroupNormMergeSiLU",
)
rules = RewriteRuleSet([group_normalization_merge_silu_submodule_rule])

__all__ = [
    "SILU_MODULE",
    "group_normalization_and_silu_submodule",
    "group_normalization_merge_silu_submodule_rule",
    "group_normalization_with_silu",
    "rules",
    "torch_module_op",
]
