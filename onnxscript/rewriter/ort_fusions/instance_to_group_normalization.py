"""Group normalization that an opset-18 exporter wrote with InstanceNormalization (the
ONNX GroupNormalization of opsets 18-20 scales per group, not per channel, so torch's
ATen library simulates it): ``Reshape(x, [0, G, -1])``, InstanceNormalization with
weights 1 and biases 0 (one per group), ``Reshape`` back to ``x``'s shape, then the
per-channel ``* weight + bias`` (``[C, 1, 1]``), to onnxruntime's
``com.microsoft.GroupNorm`` on the channels-last input between Transposes.

onnxruntime has GroupNorm kernels for CUDA and ROCm only (1.32 has none for the CPU):
``optimize_for_ort`` applies this rule only when its ``config_name`` names one of those
providers (see :data:`GROUP_NORM_PROVIDERS`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.pattern import RewriteRule, RewriteRuleSet

GROUP_NORM_PROVIDERS = frozenset({"cuda", "cudaexecutionprovider", "rocm", "rocmexecutionprovider"})
"""``config_name`` values (lower case) of execution providers with a GroupNorm kernel."""


def runs_group_norm(config_name: str | None) -> bool:
    """Whether the provider ``config_name`` names has a ``com.microsoft.GroupNorm``
    kernel (None, the default configuration, is the CPU)."""
    return config_name is not None and config_name.lower() in GROUP_NORM_PROVIDERS


def instance_simulates_group_normalization_pattern(
    op: Any,
    input_x: Any,
    adjusted_input_shape: Any,
    original_input_shape: Any,
    weight_for_norm: Any,
    bias_for_norm: Any,
    weight_full: Any,
    bias_full: Any,
    epsilon: Any,
) -> Any:
    """The pattern (see the module)."""
    grouped = op.Reshape(input_x, adjusted_input_shape)
    normalized = op.InstanceNormalization(grouped, weight_for_norm, bias_for_norm, epsilon=epsilon)
    back = op.Reshape(normalized, original_input_shape)
    return op.Add(op.Mul(back, weight_full), bias_full)


def _array(value: ir.Value | None) -> np.ndarray | None:
    return value_facts.constant_array(value, max_size=None)  # weights, read to be regrouped


def check_if_simulated_instance_norm_is_used(
    context: Any,
    input_x: ir.Value,
    adjusted_input_shape: ir.Value,
    original_input_shape: ir.Value,
    weight_for_norm: ir.Value,
    bias_for_norm: ir.Value,
    weight_full: ir.Value,
    bias_full: ir.Value,
    **_: Any,
) -> bool:
    """Whether the matched ops are the simulation (so that GroupNorm computes the same):
    the group weights are all 1 and the biases all 0, ``input_x`` is 4-D with known
    channels ``C`` divisible by the groups ``G``, the first Reshape is to ``[0, G, -1]``
    (copying the batch size) and the second to ``input_x``'s own shape (a constant equal
    to its static shape, or ``Shape(input_x)``), and the per-channel weight and bias are
    ``[C, 1, 1]`` constants."""
    groups_weight, groups_bias = _array(weight_for_norm), _array(bias_for_norm)
    if groups_weight is None or groups_bias is None or groups_weight.ndim != 1:
        return False
    if not (np.all(groups_weight == 1) and np.all(groups_bias == 0)):
        return False
    groups = groups_weight.size
    channels = value_facts.static_dim(input_x, 1)
    if value_facts.rank(input_x) != 4 or channels is None or groups == 0 or channels % groups:
        return False
    if value_facts.constant_ints(adjusted_input_shape) != [0, groups, -1]:
        return False
    for value in (weight_full, bias_full):
        array = _array(value)
        if array is None or array.shape != (channels, 1, 1) or array.dtype.kind != "f":
            return False
    return _is_shape_of(original_input_shape, input_x) and _copies_zeros(adjusted_input_shape)


def _copies_zeros(shape: ir.Value) -> bool:
    """Whether the Reshape reading ``shape`` copies the dims given as 0 (no allowzero)."""
    return all(
        node.op_type != "Reshape" or not node.attributes.get_int("allowzero", 0)
        for node, _ in shape.uses()
    )


def _is_shape_of(shape: ir.Value, x: ir.Value) -> bool:
    """Whether ``shape`` is ``x``'s shape: ``Shape(x)``, or a constant equal to ``x``'s
    static shape."""
    node = shape.producer()
    if node is not None and node.op_type == "Shape" and node.domain in ("", "ai.onnx"):
        whole = "start" not in node.attributes and "end" not in node.attributes
        return whole and node.inputs[0] is x
    dims = value_facts.constant_ints(shape)
    static = [value_facts.static_dim(x, axis) for axis in range(value_facts.rank(x) or 0)]
    return dims is not None and None not in static and dims == static


def group_normalization(
    op: Any,
    input_x: ir.Value,
    weight_for_norm: ir.Value,
    weight_full: ir.Value,
    bias_full: ir.Value,
    epsilon: ir.Attr | None = None,
    **_: Any,
) -> Any:
    """The replacement: ``Transpose(GroupNorm(Transpose(x, NHWC), weight, bias,
    channels_last=1), NCHW)`` with the per-channel weight and bias cast to float32 and
    made vectors (the op's gamma and beta; constant folding computes them)."""
    groups = _array(weight_for_norm)
    assert groups is not None
    flat = op.Constant(value_ints=[-1])
    gamma = op.Reshape(op.Cast(weight_full, to=ir.DataType.FLOAT), flat)
    beta = op.Reshape(op.Cast(bias_full, to=ir.DataType.FLOAT), flat)
    channels_last = op.Transpose(input_x, perm=[0, 2, 3, 1])
    normalized = op.GroupNorm(
        channels_last,
        gamma,
        beta,
        activation=0,
        channels_last=1,
        epsilon=epsilon.as_float() if epsilon is not None else 1e-5,
        groups=int(groups.size),
        _domain="com.microsoft",
    )
    return op.Transpose(normalized, perm=[0, 3, 1, 2])


instance_norm_to_group_norm_rule = RewriteRule(
    instance_simulates_group_normalization_pattern,
    group_normalization,
    check_if_simulated_instance_norm_is_used,
    name="InstanceNormToGroupNorm",
)
rules = RewriteRuleSet([instance_norm_to_group_norm_rule])

__all__ = [
    "GROUP_NORM_PROVIDERS",
    "check_if_simulated_instance_norm_is_used",
    "group_normalization",
    "instance_norm_to_group_norm_rule",
    "instance_simulates_group_normalization_pattern",
    "rules",
    "runs_group_norm",
]
