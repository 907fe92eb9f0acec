"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.nn``: its
names bound to this library's functions (``torch_lib/aten/``, ``torch_lib/helpers/``).

A function 0.7 registered is the one registered here for its first ATen overload (the
comment lists 0.7's overloads, "complex" marking complex variants); a name 0.7 only
declared (raising ``NotImplementedError``) is the function for that operator when the
library has one, else an ``unsupported`` placeholder naming it. Written by
``python tools/torchlib_faces.py``; do not edit.
"""

from __future__ import annotations

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten import (
    attention,
    backward,
    elementwise,
    linalg,
    losses,
    nn,
    rearrange,
    shape,
    upsample,
)
from onnxscript.function_libs.torch_lib.unsupported import unsupported

# aten::_scaled_dot_product_efficient_attention
aten__scaled_dot_product_efficient_attention = attention.scaled_dot_product_efficient_attention
# aten::_scaled_dot_product_flash_attention
aten__scaled_dot_product_flash_attention = attention.scaled_dot_product_flash_attention
# aten::_scaled_dot_product_flash_attention_for_cpu
aten__scaled_dot_product_flash_attention_for_cpu = (
    attention.scaled_dot_product_flash_attention_for_cpu
)
aten__upsample_bicubic2d_aa = upsample.upsample_bicubic2d_aa  # aten::_upsample_bicubic2d_aa
aten__upsample_bilinear2d_aa = upsample.upsample_bilinear2d_aa  # aten::_upsample_bilinear2d_aa
aten_adaptive_max_pool1d = unsupported("aten::adaptive_max_pool1d")
aten_adaptive_max_pool2d = unsupported("aten::adaptive_max_pool2d")
aten_adaptive_max_pool2d_backward = unsupported("aten::adaptive_max_pool2d_backward")
aten_adaptive_max_pool3d = unsupported("aten::adaptive_max_pool3d")
aten_adaptive_max_pool3d_backward = unsupported("aten::adaptive_max_pool3d_backward")
aten_avg_pool1d = nn.avg_pool1d  # aten::avg_pool1d
aten_avg_pool2d = nn.avg_pool2d  # aten::avg_pool2d
# aten::avg_pool2d_backward (a placeholder in 0.7)
aten_avg_pool2d_backward = backward.avg_pool2d_backward
aten_avg_pool3d = nn.avg_pool3d  # aten::avg_pool3d
aten_avg_pool3d_backward = unsupported("aten::avg_pool3d_backward")
aten_binary_cross_entropy = unsupported("aten::binary_cross_entropy")
aten_binary_cross_entropy_backward = unsupported("aten::binary_cross_entropy_backward")
aten_celu = elementwise.celu  # aten::celu
aten_col2im = nn.col2im  # aten::col2im
aten_conv_depthwise3d = unsupported("aten::conv_depthwise3d")
aten_cross_entropy_loss = losses.cross_entropy_loss  # aten::cross_entropy_loss
aten_elu = elementwise.elu  # aten::elu
aten_elu_backward = unsupported("aten::elu_backward")
aten_flatten_dense_tensors = unsupported("aten::flatten_dense_tensors")
aten_fractional_max_pool2d = unsupported("aten::fractional_max_pool2d")
aten_fractional_max_pool2d_backward = unsupported("aten::fractional_max_pool2d_backward")
aten_fractional_max_pool3d = unsupported("aten::fractional_max_pool3d")
aten_fractional_max_pool3d_backward = unsupported("aten::fractional_max_pool3d_backward")
aten_gelu = elementwise.gelu  # aten::gelu
aten_gelu_backward = unsupported("aten::gelu_backward")
aten_glu = elementwise.glu  # aten::glu
aten_glu_backward = unsupported("aten::glu_backward")
aten_glu_backward_jvp = unsupported("aten::glu_backward_jvp")
aten_glu_jvp = unsupported("aten::glu_jvp")
aten_group_norm = nn.group_norm  # aten::group_norm
aten_hardsigmoid = elementwise.hardsigmoid  # aten::hardsigmoid
aten_hardsigmoid_backward = unsupported("aten::hardsigmoid_backward")
aten_hardswish = elementwise.hardswish  # aten::hardswish
aten_hardswish_backward = unsupported("aten::hardswish_backward")
aten_hardtanh = elementwise.hardtanh  # aten::hardtanh
aten_hardtanh_backward = elementwise.hardtanh_backward  # aten::hardtanh_backward
aten_huber_loss = unsupported("aten::huber_loss")
aten_huber_loss_backward = unsupported("aten::huber_loss_backward")
aten_im2col = rearrange.im2col  # aten::im2col
aten_infinitely_differentiable_gelu_backward = unsupported(
    "aten::infinitely_differentiable_gelu_backward"
)
aten_l1_loss = unsupported("aten::l1_loss")
aten_leaky_relu = elementwise.leaky_relu  # aten::leaky_relu
aten_leaky_relu_backward = unsupported("aten::leaky_relu_backward")
aten_linear = linalg.linear  # aten::linear
aten_log_sigmoid = elementwise.log_sigmoid  # aten::log_sigmoid
aten_log_sigmoid_backward = unsupported("aten::log_sigmoid_backward")
aten_log_sigmoid_forward = unsupported("aten::log_sigmoid_forward")
aten_logit_backward = unsupported("aten::logit_backward")
aten_max_pool1d = nn.max_pool1d  # aten::max_pool1d
aten_max_pool1d_with_indices = nn.max_pool1d_with_indices  # aten::max_pool1d_with_indices
aten_max_pool2d = nn.max_pool2d  # aten::max_pool2d
aten_max_pool2d_with_indices = nn.max_pool2d_with_indices  # aten::max_pool2d_with_indices
# aten::max_pool2d_with_indices_backward (a placeholder in 0.7)
aten_max_pool2d_with_indices_backward = backward.max_pool2d_with_indices_backward
aten_max_pool3d = nn.max_pool3d  # aten::max_pool3d
aten_max_pool3d_with_indices = nn.max_pool3d_with_indices  # aten::max_pool3d_with_indices
aten_max_pool3d_with_indices_backward = unsupported("aten::max_pool3d_with_indices_backward")
aten_max_unpool2d = unsupported("aten::max_unpool2d")
aten_max_unpool3d = unsupported("aten::max_unpool3d")
aten_mish = elementwise.mish  # aten::mish
aten_mish_backward = unsupported("aten::mish_backward")
aten_mkldnn_linear = unsupported("aten::mkldnn_linear")
aten_mkldnn_reorder_conv2d_weight = unsupported("aten::mkldnn_reorder_conv2d_weight")
aten_mkldnn_reorder_conv3d_weight = unsupported("aten::mkldnn_reorder_conv3d_weight")
aten_mse_loss = losses.mse_loss  # aten::mse_loss
aten_mse_loss_backward = unsupported("aten::mse_loss_backward")
aten_multi_margin_loss = unsupported("aten::multi_margin_loss")
aten_multi_margin_loss_backward = unsupported("aten::multi_margin_loss_backward")
aten_multilabel_margin_loss = unsupported("aten::multilabel_margin_loss")
aten_multilabel_margin_loss_backward = unsupported("aten::multilabel_margin_loss_backward")
aten_multilabel_margin_loss_forward = unsupported("aten::multilabel_margin_loss_forward")
aten_nll_loss = losses.nll_loss  # aten::nll_loss
aten_nll_loss2d = unsupported("aten::nll_loss2d")
aten_nll_loss2d_backward = unsupported("aten::nll_loss2d_backward")
aten_nll_loss2d_forward = unsupported("aten::nll_loss2d_forward")
aten_nll_loss_backward = unsupported("aten::nll_loss_backward")
aten_nll_loss_forward = losses.nll_loss_forward  # aten::nll_loss_forward
aten_nll_loss_nd = unsupported("aten::nll_loss_nd")
aten_one_hot = unsupported("aten::one_hot")
aten_pad = shape.pad  # aten::pad
aten_pad_sequence = unsupported("aten::pad_sequence")
aten_reflection_pad1d = shape.reflection_pad  # aten::reflection_pad1d
aten_reflection_pad1d_backward = unsupported("aten::reflection_pad1d_backward")
aten_reflection_pad2d = shape.reflection_pad  # aten::reflection_pad2d
aten_reflection_pad2d_backward = unsupported("aten::reflection_pad2d_backward")
aten_reflection_pad3d = shape.reflection_pad  # aten::reflection_pad3d
aten_reflection_pad3d_backward = unsupported("aten::reflection_pad3d_backward")
aten_relu = elementwise.relu  # aten::relu
aten_relu6 = elementwise.relu6  # aten::relu6
aten_replication_pad1d = shape.replication_pad  # aten::replication_pad1d
aten_replication_pad1d_backward = unsupported("aten::replication_pad1d_backward")
aten_replication_pad2d = shape.replication_pad  # aten::replication_pad2d
aten_replication_pad2d_backward = unsupported("aten::replication_pad2d_backward")
aten_replication_pad3d = shape.replication_pad  # aten::replication_pad3d
aten_replication_pad3d_backward = unsupported("aten::replication_pad3d_backward")
aten_rrelu_with_noise = unsupported("aten::rrelu_with_noise")
aten_rrelu_with_noise_backward = unsupported("aten::rrelu_with_noise_backward")
# aten::scaled_dot_product_attention
aten_scaled_dot_product_attention = attention.scaled_dot_product_attention
aten_sigmoid_backward = unsupported("aten::sigmoid_backward")
aten_silu = elementwise.silu  # aten::silu
aten_silu_backward = unsupported("aten::silu_backward")
aten_slow_conv3d = unsupported("aten::slow_conv3d")
aten_slow_conv3d_forward = unsupported("aten::slow_conv3d_forward")
aten_slow_conv_dilated2d = unsupported("aten::slow_conv_dilated2d")
aten_slow_conv_dilated3d = unsupported("aten::slow_conv_dilated3d")
aten_slow_conv_transpose2d = unsupported("aten::slow_conv_transpose2d")
aten_slow_conv_transpose3d = unsupported("aten::slow_conv_transpose3d")
aten_smooth_l1_loss = unsupported("aten::smooth_l1_loss")
aten_smooth_l1_loss_backward = unsupported("aten::smooth_l1_loss_backward")
aten_soft_margin_loss = unsupported("aten::soft_margin_loss")
aten_soft_margin_loss_backward = unsupported("aten::soft_margin_loss_backward")
aten_softplus = elementwise.softplus  # aten::softplus
aten_softplus_backward = unsupported("aten::softplus_backward")
aten_softshrink = unsupported("aten::softshrink")
aten_softshrink_backward = unsupported("aten::softshrink_backward")
aten_tanh_backward = unsupported("aten::tanh_backward")
aten_thnn_conv2d = unsupported("aten::thnn_conv2d")
aten_unflatten_dense_tensors = unsupported("aten::unflatten_dense_tensors")
aten_upsample_bicubic2d = upsample.upsample_bicubic2d  # aten::upsample_bicubic2d
aten_upsample_bicubic2d_backward = unsupported("aten::upsample_bicubic2d_backward")
aten_upsample_bicubic2d_vec = upsample.upsample_bicubic2d_vec  # aten::upsample_bicubic2d.vec
aten_upsample_bilinear2d = upsample.upsample_bilinear2d  # aten::upsample_bilinear2d
aten_upsample_bilinear2d_backward = unsupported("aten::upsample_bilinear2d_backward")
aten_upsample_bilinear2d_vec = upsample.upsample_linear_vec  # aten::upsample_bilinear2d.vec
aten_upsample_linear1d = upsample.upsample_linear1d  # aten::upsample_linear1d
aten_upsample_linear1d_backward = unsupported("aten::upsample_linear1d_backward")
aten_upsample_nearest1d = upsample.upsample_nearest1d  # aten::upsample_nearest1d
aten_upsample_nearest1d_backward = unsupported("aten::upsample_nearest1d_backward")
aten_upsample_nearest2d = upsample.upsample_nearest2d  # aten::upsample_nearest2d
aten_upsample_nearest2d_backward = unsupported("aten::upsample_nearest2d_backward")
aten_upsample_nearest3d = upsample.upsample_nearest3d  # aten::upsample_nearest3d
aten_upsample_nearest3d_backward = unsupported("aten::upsample_nearest3d_backward")
# aten::upsample_nearest3d.vec, upsample_nearest1d.vec, upsample_nearest2d.vec
aten_upsample_nearestnd_vec = upsample.upsample_nearest_vec
aten_upsample_trilinear3d = upsample.upsample_trilinear3d  # aten::upsample_trilinear3d
aten_upsample_trilinear3d_backward = unsupported("aten::upsample_trilinear3d_backward")
aten_upsample_trilinear3d_vec = upsample.upsample_linear_vec  # aten::upsample_trilinear3d.vec

__all__ = [
    "aten__scaled_dot_product_efficient_attention",
    "aten__scaled_dot_product_flash_attention",
    "aten__scaled_dot_product_flash_attention_for_cpu",
    "aten__upsample_bicubic2d_aa",
    "aten__upsample_bilinear2d_aa",
    "aten_adaptive_max_pool1d",
    "aten_adaptive_max_pool2d",
    "aten_adaptive_max_pool2d_backward",
    "aten_adaptive_max_pool3d",
    "aten_adaptive_max_pool3d_backward",
    "aten_avg_pool1d",
    "aten_avg_pool2d",
    "aten_avg_pool2d_backward",
    "aten_avg_pool3d",
    "aten_avg_pool3d_backward",
    "aten_binary_cross_entropy",
    "aten_binary_cross_entropy_backward",
    "aten_celu",
    "aten_col2im",
    "aten_conv_depthwise3d",
    "aten_cross_entropy_loss",
    "aten_elu",
    "aten_elu_backward",
    "aten_flatten_dense_tensors",
    "aten_fractional_max_pool2d",
    "aten_fractional_max_pool2d_backward",
    "aten_fractional_max_pool3d",
    "aten_fractional_max_pool3d_backward",
    "aten_gelu",
    "aten_gelu_backward",
    "aten_glu",
    "aten_glu_backward",
    "aten_glu_backward_jvp",
    "aten_glu_jvp",
    "aten_group_norm",
    "aten_hardsigmoid",
    "aten_hardsigmoid_backward",
    "aten_hardswish",
    "aten_hardswish_backward",
    "aten_hardtanh",
    "aten_hardtanh_backward",
    "aten_huber_loss",
    "aten_huber_loss_backward",
    "aten_im2col",
    "aten_infinitely_differentiable_gelu_backward",
    "aten_l1_loss",
    "aten_leaky_relu",
    "aten_leaky_relu_backward",
    "aten_linear",
    "aten_log_sigmoid",
    "aten_log_sigmoid_backward",
    "aten_log_sigmoid_forward",
    "aten_logit_backward",
    "aten_max_pool1d",
    "aten_max_pool1d_with_indices",
    "aten_max_pool2d",
    "aten_max_pool2d_with_indices",
    "aten_max_pool2d_with_indices_backward",
    "aten_max_pool3d",
    "aten_max_pool3d_with_indices",
    "aten_max_pool3d_with_indices_backward",
    "aten_max_unpool2d",
    "aten_max_unpool3d",
    "aten_mish",
    "aten_mish_backward",
    "aten_mkldnn_linear",
    "aten_mkldnn_reorder_conv2d_weight",
    "aten_mkldnn_reorder_conv3d_weight",
    "aten_mse_loss",
    "aten_mse_loss_backward",
    "aten_multi_margin_loss",
    "aten_multi_margin_loss_backward",
    "aten_multilabel_margin_loss",
    "aten_multilabel_margin_loss_backward",
    "aten_multilabel_margin_loss_forward",
    "aten_nll_loss",
    "aten_nll_loss2d",
    "aten_nll_loss2d_backward",
    "aten_nll_loss2d_forward",
    "aten_nll_loss_backward",
    "aten_nll_loss_forward",
    "aten_nll_loss_nd",
    "aten_one_hot",
    "aten_pad",
    "aten_pad_sequence",
    "aten_reflection_pad1d",
    "aten_reflection_pad1d_backward",
    "aten_reflection_pad2d",
    "aten_reflection_pad2d_backward",
    "aten_reflection_pad3d",
    "aten_reflection_pad3d_backward",
    "aten_relu",
    "aten_relu6",
    "aten_replication_pad1d",
    "aten_replication_pad1d_backward",
    "aten_replication_pad2d",
    "aten_replication_pad2d_backward",
    "aten_replication_pad3d",
    "aten_replication_pad3d_backward",
    "aten_rrelu_with_noise",
    "aten_rrelu_with_noise_backward",
    "aten_scaled_dot_product_attention",
    "aten_sigmoid_backward",
    "aten_silu",
    "aten_silu_backward",
    "aten_slow_conv3d",
    "aten_slow_conv3d_forward",
    "aten_slow_conv_dilated2d",
    "aten_slow_conv_dilated3d",
    "aten_slow_conv_transpose2d",
    "aten_slow_conv_transpose3d",
    "aten_smooth_l1_loss",
    "aten_smooth_l1_loss_backward",
    "aten_soft_margin_loss",
    "aten_soft_margin_loss_backward",
    "aten_softplus",
    "aten_softplus_backward",
    "aten_softshrink",
    "aten_softshrink_backward",
    "aten_tanh_backward",
    "aten_thnn_conv2d",
    "aten_unflatten_dense_tensors",
    "aten_upsample_bicubic2d",
    "aten_upsample_bicubic2d_backward",
    "aten_upsample_bicubic2d_vec",
    "aten_upsample_bilinear2d",
    "aten_upsample_bilinear2d_backward",
    "aten_upsample_bilinear2d_vec",
    "aten_upsample_linear1d",
    "aten_upsample_linear1d_backward",
    "aten_upsample_nearest1d",
    "aten_upsample_nearest1d_backward",
    "aten_upsample_nearest2d",
    "aten_upsample_nearest2d_backward",
    "aten_upsample_nearest3d",
    "aten_upsample_nearest3d_backward",
    "aten_upsample_nearestnd_vec",
    "aten_upsample_trilinear3d",
    "aten_upsample_trilinear3d_backward",
    "aten_upsample_trilinear3d_vec",
    "op",
]
