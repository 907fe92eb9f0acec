"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.core``: its
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
    backward,
    creation,
    elementwise,
    embedding,
    fake_quantize,
    fft,
    linalg,
    masks,
    nn,
    random,
    rearrange,
    reduction,
    rnn,
    shape,
    symbolic,
    unique,
    windows,
)
from onnxscript.function_libs.torch_lib.aten import complex as complex_variants
from onnxscript.function_libs.torch_lib.unsupported import unsupported

aten__local_scalar_dense = creation.local_scalar_dense  # aten::_local_scalar_dense
aten__log_softmax = nn.log_softmax  # aten::_log_softmax
# aten::_native_batch_norm_legit_functional
aten__native_batch_norm_legit_functional = nn.batch_norm_functional
# aten::_native_batch_norm_legit.no_stats
aten__native_batch_norm_no_stats = nn.batch_norm_training_no_stats
# aten::_native_batch_norm_legit_no_training
aten__native_batch_norm_no_training = nn.batch_norm_no_training
aten__softmax = nn.softmax  # aten::_softmax
aten__to_copy = elementwise.to_copy  # aten::_to_copy
aten__unique = unique.unique  # aten::_unique
aten__unique2 = unique.unique2  # aten::_unique2
# also _operator::abs: symbolic.sym_abs
aten_abs = elementwise.abs_  # aten::abs
aten_abs_complex = complex_variants.abs_  # aten::abs (complex)
aten_acos = elementwise.acos  # aten::acos
aten_acosh = elementwise.acosh  # aten::acosh
aten_add = elementwise.add  # aten::add.Tensor
aten_add_complex = complex_variants.add  # aten::add.Tensor, add.Scalar (complex)
aten_add_scalar = elementwise.add  # aten::add.Scalar
aten_addbmm = linalg.addbmm  # aten::addbmm
aten_addcdiv = elementwise.addcdiv  # aten::addcdiv
aten_addcmul = elementwise.addcmul  # aten::addcmul
aten_addmm = linalg.addmm  # aten::addmm
aten_addmv = linalg.addmv  # aten::addmv
aten_addr = linalg.addr  # aten::addr
aten_adjoint = unsupported("aten::adjoint")
aten_affine_grid_generator = unsupported("aten::affine_grid_generator")
aten_affine_grid_generator_backward = unsupported("aten::affine_grid_generator_backward")
aten_alias = elementwise.clone  # aten::alias
aten_alias_copy = unsupported("aten::alias_copy")
aten_align_as = unsupported("aten::align_as")
aten_align_tensors = unsupported("aten::align_tensors")
aten_align_to = unsupported("aten::align_to")
aten_all = reduction.all_all  # aten::all
aten_all_dim = reduction.all_dim  # aten::all.dim
aten_all_dims = reduction.all_dims  # aten::all.dims
aten_allclose = elementwise.allclose  # aten::allclose
aten_alpha_dropout = unsupported("aten::alpha_dropout")
aten_amax = reduction.amax  # aten::amax
aten_amin = reduction.amin  # aten::amin
aten_aminmax = unsupported("aten::aminmax")
aten_and = elementwise.bitwise_and  # aten::__and__.Tensor (a placeholder in 0.7)
aten_angle = elementwise.angle  # aten::angle
aten_angle_complex = complex_variants.angle  # aten::angle (complex)
aten_any = reduction.any_all  # aten::any
aten_any_dim = reduction.any_dim  # aten::any.dim
aten_any_dims = reduction.any_dims  # aten::any.dims
aten_arange = creation.arange_end  # aten::arange
aten_arange_start = creation.arange_start  # aten::arange.start
aten_arange_start_step = creation.arange  # aten::arange.start_step
aten_arccos = unsupported("aten::arccos")
aten_arccosh = unsupported("aten::arccosh")
aten_arcsin = unsupported("aten::arcsin")
aten_arcsinh = unsupported("aten::arcsinh")
aten_arctan = unsupported("aten::arctan")
aten_arctan2 = unsupported("aten::arctan2")
aten_arctanh = unsupported("aten::arctanh")
aten_argmax = reduction.argmax  # aten::argmax
aten_argmin = reduction.argmin  # aten::argmin
aten_argsort = unsupported("aten::argsort")
aten_argwhere = unsupported("aten::argwhere")
aten_as_strided = shape.as_strided  # aten::as_strided
aten_as_strided_copy = shape.as_strided  # aten::as_strided_copy (a placeholder in 0.7)
aten_as_strided_scatter = unsupported("aten::as_strided_scatter")
aten_asin = elementwise.asin  # aten::asin
aten_asinh = elementwise.asinh  # aten::asinh
aten_atan = elementwise.atan  # aten::atan
aten_atan2 = elementwise.atan2  # aten::atan2
aten_atanh = elementwise.atanh  # aten::atanh
aten_atleast_1d = shape.atleast_1d  # aten::atleast_1d
aten_atleast_1d_sequence = shape.atleast_1d_sequence  # aten::atleast_1d.Sequence
aten_atleast_2d = shape.atleast_2d  # aten::atleast_2d
aten_atleast_2d_sequence = shape.atleast_2d_sequence  # aten::atleast_2d.Sequence
aten_atleast_3d = shape.atleast_3d  # aten::atleast_3d
aten_atleast_3d_sequence = shape.atleast_3d_sequence  # aten::atleast_3d.Sequence
aten_baddbmm = linalg.baddbmm  # aten::baddbmm
aten_bartlett_window = unsupported("aten::bartlett_window")
aten_batch_norm = nn.batch_norm  # aten::batch_norm (a placeholder in 0.7)
aten_batch_norm_backward_elemt = unsupported("aten::batch_norm_backward_elemt")
aten_batch_norm_backward_reduce = unsupported("aten::batch_norm_backward_reduce")
aten_batch_norm_elemt = unsupported("aten::batch_norm_elemt")
aten_batch_norm_gather_stats = unsupported("aten::batch_norm_gather_stats")
aten_batch_norm_gather_stats_with_counts = unsupported("aten::batch_norm_gather_stats_with_counts")
aten_batch_norm_stats = unsupported("aten::batch_norm_stats")
aten_batch_norm_update_stats = unsupported("aten::batch_norm_update_stats")
aten_bernoulli = random.bernoulli  # aten::bernoulli
aten_bernoulli_p = random.bernoulli_p  # aten::bernoulli.p
aten_bilinear = linalg.bilinear  # aten::bilinear
aten_binary_cross_entropy_with_logits = unsupported("aten::binary_cross_entropy_with_logits")
aten_bincount = unique.bincount  # aten::bincount
aten_binomial = unsupported("aten::binomial")
# also _operator::and_: symbolic.sym_and
aten_bitwise_and = elementwise.bitwise_and  # aten::bitwise_and.Tensor
aten_bitwise_and_scalar = elementwise.bitwise_and  # aten::bitwise_and.Scalar
# aten::bitwise_and.Scalar_Tensor
aten_bitwise_and_scalar_tensor = elementwise.bitwise_and_scalar_tensor
# also _operator::__lshift__: symbolic.sym_lshift
aten_bitwise_left_shift = elementwise.bitwise_left_shift  # aten::bitwise_left_shift.Tensor
# aten::bitwise_left_shift.Scalar_Tensor
aten_bitwise_left_shift_scalar_tensor = elementwise.bitwise_left_shift_scalar_tensor
# aten::bitwise_left_shift.Tensor_Scalar, __lshift__.Scalar
aten_bitwise_left_shift_tensor_scalar = elementwise.bitwise_left_shift
aten_bitwise_not = elementwise.bitwise_not  # aten::bitwise_not
# also _operator::or_: symbolic.sym_or
aten_bitwise_or = elementwise.bitwise_or  # aten::bitwise_or.Tensor
aten_bitwise_or_scalar = elementwise.bitwise_or  # aten::bitwise_or.Scalar
# aten::bitwise_or.Scalar_Tensor
aten_bitwise_or_scalar_tensor = elementwise.bitwise_or_scalar_tensor
# also _operator::__rshift__: symbolic.sym_rshift
aten_bitwise_right_shift = elementwise.bitwise_right_shift  # aten::bitwise_right_shift.Tensor
# aten::bitwise_right_shift.Scalar_Tensor
aten_bitwise_right_shift_scalar_tensor = elementwise.bitwise_right_shift_scalar_tensor
# aten::bitwise_right_shift.Tensor_Scalar, __rshift__.Scalar
aten_bitwise_right_shift_tensor_scalar = elementwise.bitwise_right_shift
aten_bitwise_xor = elementwise.bitwise_xor  # aten::bitwise_xor.Tensor
aten_bitwise_xor_scalar = elementwise.bitwise_xor  # aten::bitwise_xor.Scalar
# aten::bitwise_xor.Scalar_Tensor
aten_bitwise_xor_scalar_tensor = elementwise.bitwise_xor_scalar_tensor
aten_blackman_window = windows.blackman_window  # aten::blackman_window
aten_block_diag = unsupported("aten::block_diag")
aten_bmm = linalg.matmul  # aten::bmm
aten_broadcast_tensors = unsupported("aten::broadcast_tensors")
aten_broadcast_to = shape.broadcast_to  # aten::broadcast_to
aten_bucketize = unsupported("aten::bucketize.Tensor")
aten_can_cast = unsupported("aten::can_cast")
aten_cartesian_prod = unsupported("aten::cartesian_prod")
aten_cat = shape.cat  # aten::cat, concat, concatenate
aten_cat_complex = complex_variants.cat  # aten::cat, concat, concatenate (complex)
aten_ccol_indices = unsupported("aten::ccol_indices")
aten_ccol_indices_copy = unsupported("aten::ccol_indices_copy")
aten_cdist = unsupported("aten::cdist")
aten_ceil = elementwise.ceil  # aten::ceil
aten_chain_matmul = unsupported("aten::chain_matmul")
aten_chalf = unsupported("aten::chalf")
aten_channel_shuffle = unsupported("aten::channel_shuffle")
aten_cholesky = unsupported("aten::cholesky")
aten_cholesky_inverse = unsupported("aten::cholesky_inverse")
aten_cholesky_solve = unsupported("aten::cholesky_solve")
aten_choose_qparams_optimized = unsupported("aten::choose_qparams_optimized")
aten_chunk = shape.chunk  # aten::chunk
aten_clamp = elementwise.clamp  # aten::clamp
aten_clamp_max = elementwise.clamp_max  # aten::clamp_max
aten_clamp_max_tensor = elementwise.clamp_max  # aten::clamp_max.Tensor
aten_clamp_min = elementwise.clamp_min  # aten::clamp_min
aten_clamp_min_tensor = elementwise.clamp_min  # aten::clamp_min.Tensor
aten_clamp_tensor = elementwise.clamp  # aten::clamp.Tensor
aten_clone = elementwise.clone  # aten::clone
aten_clone_complex = complex_variants.clone  # aten::clone (complex)
aten_coalesce = unsupported("aten::coalesce")
aten_col_indices = unsupported("aten::col_indices")
aten_col_indices_copy = unsupported("aten::col_indices_copy")
aten_column_stack = unsupported("aten::column_stack")
aten_combinations = unsupported("aten::combinations")
aten_complex = complex_variants.complex_  # aten::complex
aten_conj = elementwise.conj  # aten::conj, _conj
aten_conj_complex = complex_variants.conj  # aten::conj, _conj (complex)
aten_conj_physical = complex_variants.conj  # aten::conj_physical (a placeholder in 0.7)
aten_constant_pad_nd = shape.constant_pad_nd  # aten::constant_pad_nd
aten_contiguous = shape.contiguous  # aten::contiguous
aten_conv1d = nn.conv  # aten::conv1d
aten_conv1d_complex = complex_variants.conv  # aten::conv1d (complex)
aten_conv2d = nn.conv  # aten::conv2d
aten_conv2d_complex = complex_variants.conv  # aten::conv2d (complex)
aten_conv3d = nn.conv  # aten::conv3d
aten_conv3d_complex = complex_variants.conv  # aten::conv3d (complex)
aten_conv_tbc = unsupported("aten::conv_tbc")
aten_conv_tbc_backward = unsupported("aten::conv_tbc_backward")
aten_conv_transpose1d = unsupported("aten::conv_transpose1d")
aten_convolution = nn.convolution  # aten::convolution
# aten::convolution_backward (a placeholder in 0.7)
aten_convolution_backward = backward.convolution_backward
aten_convolution_backward_overrideable = unsupported("aten::convolution_backward_overrideable")
aten_convolution_overrideable = unsupported("aten::convolution_overrideable")
aten_copy = elementwise.copy  # aten::copy
aten_copysign = unsupported("aten::copysign.Tensor")
aten_corrcoef = unsupported("aten::corrcoef")
aten_cos = elementwise.cos  # aten::cos
aten_cosh = elementwise.cosh  # aten::cosh
aten_cosine_embedding_loss = unsupported("aten::cosine_embedding_loss")
aten_cosine_similarity = unsupported("aten::cosine_similarity")
aten_count_nonzero = unsupported("aten::count_nonzero")
aten_cov = unsupported("aten::cov")
# also aten::linalg_cross: linalg.linalg_cross
aten_cross = linalg.cross  # aten::cross
aten_crow_indices = unsupported("aten::crow_indices")
aten_crow_indices_copy = unsupported("aten::crow_indices_copy")
aten_ctc_loss = unsupported("aten::ctc_loss.Tensor")
aten_cudnn_affine_grid_generator = unsupported("aten::cudnn_affine_grid_generator")
aten_cudnn_affine_grid_generator_backward = unsupported(
    "aten::cudnn_affine_grid_generator_backward"
)
aten_cudnn_batch_norm = unsupported("aten::cudnn_batch_norm")
aten_cudnn_batch_norm_backward = unsupported("aten::cudnn_batch_norm_backward")
aten_cudnn_convolution = unsupported("aten::cudnn_convolution")
aten_cudnn_convolution_add_relu = unsupported("aten::cudnn_convolution_add_relu")
aten_cudnn_convolution_relu = unsupported("aten::cudnn_convolution_relu")
aten_cudnn_convolution_transpose = unsupported("aten::cudnn_convolution_transpose")
aten_cudnn_grid_sampler = unsupported("aten::cudnn_grid_sampler")
aten_cudnn_grid_sampler_backward = unsupported("aten::cudnn_grid_sampler_backward")
aten_cudnn_is_acceptable = unsupported("aten::cudnn_is_acceptable")
aten_cummax = unsupported("aten::cummax")
aten_cummaxmin_backward = unsupported("aten::cummaxmin_backward")
aten_cummin = unsupported("aten::cummin")
aten_cumprod = unsupported("aten::cumprod")
aten_cumprod_backward = unsupported("aten::cumprod_backward")
aten_cumsum = reduction.cumsum  # aten::cumsum
aten_data = unsupported("aten::data")
aten_deg2rad = elementwise.deg2rad  # aten::deg2rad
aten_dense_dim = unsupported("aten::dense_dim")
aten_detach = elementwise.clone  # aten::detach
aten_detach_copy = unsupported("aten::detach_copy")
aten_diag = unsupported("aten::diag")
aten_diag_embed = unsupported("aten::diag_embed")
aten_diagflat = unsupported("aten::diagflat")
aten_diagonal = shape.diagonal  # aten::diagonal, diagonal_copy
aten_diagonal_backward = unsupported("aten::diagonal_backward")
aten_diagonal_copy = shape.diagonal  # aten::diagonal_copy (a placeholder in 0.7)
aten_diagonal_scatter = unsupported("aten::diagonal_scatter")
aten_diff = unsupported("aten::diff")
aten_digamma = unsupported("aten::digamma")
aten_dist = unsupported("aten::dist")
# also aten::divide.Tensor, divide.Scalar, true_divide.Tensor: elementwise.divide
# also aten::true_divide.Scalar: elementwise.true_divide_scalar
aten_div = elementwise.div  # aten::div.Tensor, div.Scalar
# aten::div.Tensor, div.Scalar, divide.Tensor, divide.Scalar, true_divide.Tensor, true_divide.Scalar
#   (complex)
aten_div_complex = complex_variants.div
aten_div_mode = elementwise.div_mode  # aten::div.Tensor_mode, div.Scalar_mode
aten_dot = linalg.dot  # aten::dot
aten_dropout = nn.dropout  # aten::dropout
aten_dstack = unsupported("aten::dstack")
aten_einsum = linalg.einsum  # aten::einsum
aten_embedding = embedding.embedding  # aten::embedding
aten_embedding_backward = unsupported("aten::embedding_backward")
aten_embedding_bag = embedding.embedding_bag_default  # aten::embedding_bag
# also aten::_embedding_bag, _embedding_bag_forward_only: embedding.embedding_bag
# aten::embedding_bag.padding_idx
aten_embedding_bag_padding_idx = embedding.embedding_bag_padding_idx
# aten::embedding_dense_backward (a placeholder in 0.7)
aten_embedding_dense_backward = backward.embedding_dense_backward
aten_embedding_renorm = embedding.embedding_renorm  # aten::embedding_renorm
aten_embedding_sparse_backward = unsupported("aten::embedding_sparse_backward")
aten_empty = creation.empty  # aten::empty.memory_format
aten_empty_like = creation.empty_like  # aten::empty_like
aten_empty_quantized = unsupported("aten::empty_quantized")
aten_empty_strided = creation.empty_strided  # aten::empty_strided
# also aten::eq: elementwise.eq_scalars
# also _operator::eq: symbolic.sym_eq
aten_eq = elementwise.eq  # aten::eq.Tensor, eq.Scalar
aten_equal = elementwise.equal  # aten::equal
aten_erfinv = unsupported("aten::erfinv")
aten_exp = elementwise.exp  # aten::exp
aten_exp2 = elementwise.exp2  # aten::exp2
aten_expand = shape.expand  # aten::expand
aten_expand_as = shape.expand_as  # aten::expand_as
aten_expand_copy = shape.expand  # aten::expand_copy (a placeholder in 0.7)
aten_eye = unsupported("aten::eye")
# aten::fake_quantize_per_channel_affine
aten_fake_quantize_per_channel_affine = fake_quantize.fake_quantize_per_channel_affine
aten_fake_quantize_per_channel_affine_cachemask = unsupported(
    "aten::fake_quantize_per_channel_affine_cachemask"
)
aten_fake_quantize_per_channel_affine_cachemask_backward = unsupported(
    "aten::fake_quantize_per_channel_affine_cachemask_backward"
)
# aten::fake_quantize_per_tensor_affine
aten_fake_quantize_per_tensor_affine = fake_quantize.fake_quantize_per_tensor_affine
aten_fake_quantize_per_tensor_affine_cachemask = unsupported(
    "aten::fake_quantize_per_tensor_affine_cachemask"
)
aten_fake_quantize_per_tensor_affine_cachemask_backward = unsupported(
    "aten::fake_quantize_per_tensor_affine_cachemask_backward"
)
# aten::fake_quantize_per_tensor_affine.tensor_qparams
aten_fake_quantize_per_tensor_affine_tensor_qparams = (
    fake_quantize.fake_quantize_per_tensor_affine_tensor_qparams
)
aten_fbgemm_linear_fp16_weight = unsupported("aten::fbgemm_linear_fp16_weight")
aten_fbgemm_linear_fp16_weight_fp32_activation = unsupported(
    "aten::fbgemm_linear_fp16_weight_fp32_activation"
)
aten_fbgemm_linear_int8_weight = unsupported("aten::fbgemm_linear_int8_weight")
aten_fbgemm_linear_int8_weight_fp32_activation = unsupported(
    "aten::fbgemm_linear_int8_weight_fp32_activation"
)
aten_fbgemm_linear_quantize_weight = unsupported("aten::fbgemm_linear_quantize_weight")
aten_fbgemm_pack_gemm_matrix_fp16 = unsupported("aten::fbgemm_pack_gemm_matrix_fp16")
aten_fbgemm_pack_quantized_matrix = unsupported("aten::fbgemm_pack_quantized_matrix")
aten_feature_alpha_dropout = unsupported("aten::feature_alpha_dropout")
aten_feature_dropout = unsupported("aten::feature_dropout")
# also aten::fill.Scalar: elementwise.fill
aten_fill = creation.fill_tensor  # aten::fill.Tensor
aten_fix = unsupported("aten::fix")
aten_flatten = shape.flatten  # aten::flatten.using_ints
aten_flip = shape.flip  # aten::flip
aten_flip_complex = complex_variants.flip  # aten::flip (complex)
aten_fliplr = unsupported("aten::fliplr")
aten_flipud = unsupported("aten::flipud")
aten_floor = elementwise.floor  # aten::floor
aten_floor_divide = elementwise.floor_divide  # aten::floor_divide
aten_fmax = unsupported("aten::fmax")
aten_fmin = unsupported("aten::fmin")
aten_fmod = elementwise.fmod  # aten::fmod.Tensor, fmod.Scalar
aten_frac = elementwise.frac  # aten::frac
aten_frexp = unsupported("aten::frexp.Tensor")
aten_frobenius_norm = unsupported("aten::frobenius_norm")
aten_from_file = unsupported("aten::from_file")
aten_full = creation.full  # aten::full
aten_full_like = creation.full_like  # aten::full_like
aten_fused_moving_avg_obs_fake_quant = unsupported("aten::fused_moving_avg_obs_fake_quant")
aten_gather = shape.gather  # aten::gather
aten_gather_backward = unsupported("aten::gather_backward")
aten_gcd = unsupported("aten::gcd")
# also aten::greater_equal.Tensor: elementwise.greater_equal
aten_ge = elementwise.ge  # aten::ge.Tensor, ge.Scalar
aten_geqrf = unsupported("aten::geqrf")
aten_ger = unsupported("aten::ger")
# also aten::getitem: shape.getitem
aten_getitem = symbolic.sym_getitem  # _operator::getitem
aten_grid_sampler = nn.grid_sampler  # aten::grid_sampler
aten_grid_sampler_2d = nn.grid_sampler_2d  # aten::grid_sampler_2d
aten_grid_sampler_2d_backward = unsupported("aten::grid_sampler_2d_backward")
aten_grid_sampler_3d = unsupported("aten::grid_sampler_3d")
aten_grid_sampler_3d_backward = unsupported("aten::grid_sampler_3d_backward")
aten_grouped_mm = linalg.grouped_mm  # aten::_grouped_mm
aten_gru = rnn.gru  # aten::gru.input
aten_gru_cell = unsupported("aten::gru_cell")
# also aten::greater.Tensor: elementwise.greater
aten_gt = elementwise.gt  # aten::gt.Tensor, gt.Scalar
aten_hamming_window = windows.hamming_window  # aten::hamming_window
aten_hann_window = windows.hann_window  # aten::hann_window
aten_hardshrink = unsupported("aten::hardshrink")
aten_hardshrink_backward = unsupported("aten::hardshrink_backward")
aten_heaviside = elementwise.heaviside  # aten::heaviside
aten_hinge_embedding_loss = unsupported("aten::hinge_embedding_loss")
aten_histc = unique.histc  # aten::histc
aten_histogramdd = unsupported("aten::histogramdd")
aten_hspmm = unsupported("aten::hspmm")
aten_hstack = shape.hstack
aten_hypot = unsupported("aten::hypot")
aten_i0 = unsupported("aten::i0")
aten_igamma = unsupported("aten::igamma")
aten_igammac = unsupported("aten::igammac")
aten_imag = complex_variants.imag  # aten::imag (a placeholder in 0.7)
# also aten::_unsafe_index.Tensor: unique.unsafe_index
aten_index = shape.index  # aten::index.Tensor
aten_index_add = unsupported("aten::index_add")
aten_index_copy = unsupported("aten::index_copy")
# also aten::_unsafe_index_put: unique.unsafe_index_put
aten_index_put = shape.index_put  # aten::index_put
aten_index_reduce = unsupported("aten::index_reduce")
aten_index_select = shape.index_select  # aten::index_select
aten_index_select_backward = unsupported("aten::index_select_backward")
aten_indices = unsupported("aten::indices")
aten_indices_copy = unsupported("aten::indices_copy")
aten_inner = unsupported("aten::inner")
aten_instance_norm = nn.instance_norm  # aten::instance_norm
aten_int_repr = unsupported("aten::int_repr")
aten_inverse = unsupported("aten::inverse")
aten_is_coalesced = unsupported("aten::is_coalesced")
aten_is_complex = unsupported("aten::is_complex")
aten_is_conj = unsupported("aten::is_conj")
aten_is_distributed = unsupported("aten::is_distributed")
aten_is_floating_point = unsupported("aten::is_floating_point")
aten_is_inference = unsupported("aten::is_inference")
aten_is_leaf = unsupported("aten::is_leaf")
aten_is_neg = unsupported("aten::is_neg")
aten_is_nonzero = elementwise.is_nonzero  # aten::is_nonzero
aten_is_pinned = unsupported("aten::is_pinned")
aten_is_same_size = unsupported("aten::is_same_size")
aten_is_set_to = unsupported("aten::is_set_to")
aten_is_signed = unsupported("aten::is_signed")
aten_is_vulkan_available = unsupported("aten::is_vulkan_available")
aten_isclose = elementwise.isclose  # aten::isclose
aten_isfinite = elementwise.isfinite  # aten::isfinite
aten_isinf = elementwise.isinf  # aten::isinf
aten_isnan = elementwise.isnan  # aten::isnan
aten_isneginf = elementwise.isneginf  # aten::isneginf
aten_isposinf = elementwise.isposinf  # aten::isposinf
aten_isreal = unsupported("aten::isreal")
aten_istft = unsupported("aten::istft")
aten_item = unsupported("aten::item")
aten_kaiser_window = unsupported("aten::kaiser_window")
aten_kl_div = unsupported("aten::kl_div")
aten_kron = unsupported("aten::kron")
aten_kthvalue = unsupported("aten::kthvalue")
aten_layer_norm = nn.layer_norm  # aten::layer_norm
aten_lcm = unsupported("aten::lcm")
aten_ldexp = unsupported("aten::ldexp.Tensor")
# also aten::less_equal.Tensor: elementwise.less_equal
aten_le = elementwise.le  # aten::le.Tensor, le.Scalar
aten_lerp = elementwise.lerp  # aten::lerp.Tensor, lerp.Scalar
aten_lgamma = unsupported("aten::lgamma")
aten_lift = unsupported("aten::lift")
aten_lift_fresh = unsupported("aten::lift_fresh")
aten_lift_fresh_copy = elementwise.clone  # aten::lift_fresh_copy
aten_linear_backward = unsupported("aten::linear_backward")
aten_linspace = creation.linspace  # aten::linspace
aten_log = elementwise.log  # aten::log
aten_log10 = elementwise.log10  # aten::log10
aten_log1p = elementwise.log1p  # aten::log1p
aten_log2 = elementwise.log2  # aten::log2
aten_logaddexp = elementwise.logaddexp  # aten::logaddexp
aten_logaddexp2 = elementwise.logaddexp2  # aten::logaddexp2
aten_logcumsumexp = reduction.logcumsumexp  # aten::logcumsumexp
aten_logdet = linalg.logdet  # aten::logdet
aten_logical_and = elementwise.logical_and  # aten::logical_and
aten_logical_not = elementwise.logical_not  # aten::logical_not
aten_logical_or = elementwise.logical_or  # aten::logical_or
aten_logical_xor = elementwise.logical_xor  # aten::logical_xor
aten_logit = elementwise.logit  # aten::logit
aten_logspace = unsupported("aten::logspace")
aten_logsumexp = reduction.logsumexp  # aten::logsumexp
aten_lstm = rnn.lstm  # aten::lstm.input
aten_lstm_cell = unsupported("aten::lstm_cell")
aten_lstm_mps_backward = unsupported("aten::lstm_mps_backward")
# also aten::less.Tensor: elementwise.less
aten_lt = elementwise.lt  # aten::lt.Tensor, lt.Scalar
aten_lu_solve = unsupported("aten::lu_solve")
aten_lu_unpack = unsupported("aten::lu_unpack")
aten_mH = shape.matrix_adjoint  # aten::mH
aten_mH_complex = complex_variants.matrix_adjoint  # aten::mH (complex)
aten_mT = shape.matrix_transpose  # aten::mT
aten_mT_complex = complex_variants.matrix_transpose  # aten::mT (complex)
aten_margin_ranking_loss = unsupported("aten::margin_ranking_loss")
aten_masked_fill = elementwise.masked_fill  # aten::masked_fill.Tensor, masked_fill.Scalar
aten_masked_scatter = shape.masked_scatter  # aten::masked_scatter
aten_masked_select = unsupported("aten::masked_select")
aten_masked_select_backward = unsupported("aten::masked_select_backward")
aten_matmul = linalg.matmul  # aten::matmul
aten_matmul_backward = unsupported("aten::matmul_backward")
aten_matmul_complex = complex_variants.matmul  # aten::matmul (complex)
aten_matrix_H = unsupported("aten::matrix_H")
aten_matrix_exp = unsupported("aten::matrix_exp")
aten_matrix_exp_backward = unsupported("aten::matrix_exp_backward")
aten_matrix_power = unsupported("aten::matrix_power")
aten_max = reduction.max_all  # aten::max
aten_max_dim = reduction.max_dim  # aten::max.dim
aten_maximum = elementwise.maximum  # aten::maximum
aten_mean = reduction.mean_all  # aten::mean
aten_mean_complex = complex_variants.mean_all  # aten::mean (complex)
aten_mean_dim = reduction.mean_dim  # aten::mean.dim
aten_mean_dim_complex = complex_variants.mean_dim  # aten::mean.dim (complex)
aten_median = unsupported("aten::median")
aten_meshgrid = unsupported("aten::meshgrid")
aten_min = reduction.min_all  # aten::min
aten_min_dim = reduction.min_dim  # aten::min.dim
aten_minimum = elementwise.minimum  # aten::minimum
aten_miopen_batch_norm = unsupported("aten::miopen_batch_norm")
aten_miopen_batch_norm_backward = unsupported("aten::miopen_batch_norm_backward")
aten_miopen_convolution = unsupported("aten::miopen_convolution")
aten_miopen_convolution_add_relu = unsupported("aten::miopen_convolution_add_relu")
aten_miopen_convolution_relu = unsupported("aten::miopen_convolution_relu")
aten_miopen_convolution_transpose = unsupported("aten::miopen_convolution_transpose")
aten_miopen_depthwise_convolution = unsupported("aten::miopen_depthwise_convolution")
aten_miopen_rnn = unsupported("aten::miopen_rnn")
aten_miopen_rnn_backward = unsupported("aten::miopen_rnn_backward")
aten_mkldnn_adaptive_avg_pool2d = unsupported("aten::mkldnn_adaptive_avg_pool2d")
aten_mkldnn_adaptive_avg_pool2d_backward = unsupported("aten::mkldnn_adaptive_avg_pool2d_backward")
aten_mkldnn_convolution = unsupported("aten::mkldnn_convolution")
aten_mkldnn_linear_backward = unsupported("aten::mkldnn_linear_backward")
aten_mkldnn_linear_backward_input = unsupported("aten::mkldnn_linear_backward_input")
aten_mkldnn_linear_backward_weights = unsupported("aten::mkldnn_linear_backward_weights")
aten_mkldnn_max_pool2d = unsupported("aten::mkldnn_max_pool2d")
aten_mkldnn_max_pool2d_backward = unsupported("aten::mkldnn_max_pool2d_backward")
aten_mkldnn_max_pool3d = unsupported("aten::mkldnn_max_pool3d")
aten_mkldnn_max_pool3d_backward = unsupported("aten::mkldnn_max_pool3d_backward")
aten_mm = linalg.matmul  # aten::mm
aten_mode = unsupported("aten::mode")
aten_mps_convolution_backward = unsupported("aten::mps_convolution_backward")
aten_mps_convolution_transpose_backward = unsupported("aten::mps_convolution_transpose_backward")
aten_mps_max_pool2d_backward = unsupported("aten::mps_max_pool2d_backward")
aten_msort = unsupported("aten::msort")
# also aten::mul: elementwise.mul_scalars
# also aten::multiply.Tensor: elementwise.multiply
aten_mul = elementwise.mul  # aten::mul.Tensor
# also aten::mul (complex): never called by torch.onnx (its arguments are numbers)
aten_mul_complex = complex_variants.mul  # aten::mul.Tensor, multiply.Tensor (complex)
# also aten::multiply.Scalar: elementwise.multiply
aten_mul_scalar = elementwise.mul  # aten::mul.Scalar
aten_multinomial = random.multinomial  # aten::multinomial
aten_multiply = elementwise.multiply  # aten::multiply.Tensor (a placeholder in 0.7)
aten_mv = linalg.dot  # aten::mv
aten_mvlgamma = unsupported("aten::mvlgamma")
aten_nan_to_num = unsupported("aten::nan_to_num")
aten_nanmean = unsupported("aten::nanmean")
aten_nanmedian = unsupported("aten::nanmedian")
aten_nanquantile = unsupported("aten::nanquantile")
aten_nansum = unsupported("aten::nansum")
aten_narrow = shape.narrow  # aten::narrow
aten_narrow_copy = unsupported("aten::narrow_copy")
# also aten::_native_batch_norm_legit: nn.batch_norm_training
aten_native_batch_norm = nn.native_batch_norm  # aten::native_batch_norm
aten_native_batch_norm_backward = unsupported("aten::native_batch_norm_backward")
aten_native_channel_shuffle = unsupported("aten::native_channel_shuffle")
aten_native_dropout = elementwise.native_dropout  # aten::native_dropout
aten_native_dropout_backward = unsupported("aten::native_dropout_backward")
aten_native_group_norm = nn.native_group_norm  # aten::native_group_norm
# aten::native_group_norm_backward (a placeholder in 0.7)
aten_native_group_norm_backward = backward.native_group_norm_backward
aten_native_layer_norm = nn.native_layer_norm  # aten::native_layer_norm
# aten::native_layer_norm_backward (a placeholder in 0.7)
aten_native_layer_norm_backward = backward.native_layer_norm_backward
aten_native_norm = unsupported("aten::native_norm")
# also aten::ne: elementwise.ne_scalars
# also _operator::ne: symbolic.sym_ne
aten_ne = elementwise.ne  # aten::ne.Tensor, ne.Scalar
# also _operator::neg: symbolic.sym_neg
aten_neg = elementwise.neg  # aten::neg
# also _operator::neg (complex): never called by torch.onnx (its arguments are numbers)
aten_neg_complex = complex_variants.neg  # aten::neg (complex)
aten_negative = unsupported("aten::negative")
aten_new_empty = creation.new_empty  # aten::new_empty
aten_new_empty_strided = creation.new_empty_strided  # aten::new_empty_strided
aten_new_full = creation.new_full  # aten::new_full
aten_new_ones = creation.new_ones  # aten::new_ones
aten_new_zeros = creation.new_zeros  # aten::new_zeros
aten_nextafter = unsupported("aten::nextafter")
aten_nonzero = shape.nonzero  # aten::nonzero
aten_nonzero_numpy = unsupported("aten::nonzero_numpy")
aten_norm_except_dim = unsupported("aten::norm_except_dim")
aten_normal = random.normal_functional  # aten::normal_functional
aten_normal_float_float = random.normal_float_float  # aten::normal.float_float
aten_normal_float_tensor = random.normal_float_tensor  # aten::normal.float_Tensor
aten_normal_tensor_float = random.normal_tensor_float  # aten::normal.Tensor_float
aten_normal_tensor_tensor = random.normal_tensor_tensor  # aten::normal.Tensor_Tensor
aten_not_equal = unsupported("aten::not_equal.Tensor")
aten_nuclear_norm = unsupported("aten::nuclear_norm")
aten_ones = creation.ones  # aten::ones
aten_ones_like = creation.ones_like  # aten::ones_like
aten_or = elementwise.bitwise_or  # aten::__or__.Tensor (a placeholder in 0.7)
aten_orgqr = unsupported("aten::orgqr")
aten_ormqr = unsupported("aten::ormqr")
aten_outer = unsupported("aten::outer")
aten_output_nr = unsupported("aten::output_nr")
aten_pairwise_distance = unsupported("aten::pairwise_distance")
aten_pdist = unsupported("aten::pdist")
aten_permute = shape.permute  # aten::permute
aten_permute_complex = complex_variants.permute  # aten::permute (complex)
aten_permute_copy = shape.permute  # aten::permute_copy (a placeholder in 0.7)
aten_pin_memory = unsupported("aten::pin_memory")
aten_pinverse = unsupported("aten::pinverse")
aten_pixel_shuffle = rearrange.pixel_shuffle  # aten::pixel_shuffle
aten_pixel_unshuffle = rearrange.pixel_unshuffle  # aten::pixel_unshuffle
aten_poisson = unsupported("aten::poisson")
aten_poisson_nll_loss = unsupported("aten::poisson_nll_loss")
aten_polar = complex_variants.polar  # aten::polar
aten_polygamma = unsupported("aten::polygamma")
aten_positive = unsupported("aten::positive")
# also _operator::pow: symbolic.sym_pow
aten_pow = elementwise.pow_  # aten::pow.Tensor_Tensor
aten_pow_scalar = elementwise.pow_scalar  # aten::pow.Scalar
aten_pow_tensor_scalar = elementwise.pow_  # aten::pow.Tensor_Scalar
# also aten::_prelu_kernel: elementwise.prelu_kernel
aten_prelu = elementwise.prelu  # aten::prelu
aten_prelu_backward = unsupported("aten::prelu_backward")
aten_prod = reduction.prod_all  # aten::prod
aten_prod_dim_int = reduction.prod_dim  # aten::prod.dim_int
aten_promote_types = unsupported("aten::promote_types")
aten_put = unsupported("aten::put")
aten_q_per_channel_axis = unsupported("aten::q_per_channel_axis")
aten_q_per_channel_scales = unsupported("aten::q_per_channel_scales")
aten_q_per_channel_zero_points = unsupported("aten::q_per_channel_zero_points")
aten_q_scale = unsupported("aten::q_scale")
aten_q_zero_point = unsupported("aten::q_zero_point")
aten_qr = unsupported("aten::qr")
aten_qscheme = unsupported("aten::qscheme")
aten_quantile = unsupported("aten::quantile")
aten_quantize_per_channel = unsupported("aten::quantize_per_channel")
aten_quantize_per_tensor = unsupported("aten::quantize_per_tensor")
aten_quantize_per_tensor_dynamic = unsupported("aten::quantize_per_tensor_dynamic")
aten_quantized_batch_norm = unsupported("aten::quantized_batch_norm")
aten_quantized_gru_cell = unsupported("aten::quantized_gru_cell")
aten_quantized_lstm_cell = unsupported("aten::quantized_lstm_cell")
aten_quantized_max_pool1d = unsupported("aten::quantized_max_pool1d")
aten_quantized_max_pool2d = unsupported("aten::quantized_max_pool2d")
aten_quantized_rnn_relu_cell = unsupported("aten::quantized_rnn_relu_cell")
aten_quantized_rnn_tanh_cell = unsupported("aten::quantized_rnn_tanh_cell")
aten_rad2deg = elementwise.rad2deg  # aten::rad2deg
aten_rand = creation.rand  # aten::rand
aten_rand_like = random.rand_like  # aten::rand_like
aten_randint = random.randint  # aten::randint
aten_randint_like = random.randint_like  # aten::randint_like
aten_randint_like_low_dtype = random.randint_like_low  # aten::randint_like.low_dtype
aten_randint_low = random.randint_low  # aten::randint.low
aten_randn = creation.randn  # aten::randn
aten_randn_like = random.randn_like  # aten::randn_like
aten_randperm = creation.randperm  # aten::randperm (a placeholder in 0.7)
aten_range = unsupported("aten::range")
aten_ravel = unsupported("aten::ravel")
aten_real = complex_variants.real  # aten::real (a placeholder in 0.7)
aten_reciprocal = elementwise.reciprocal  # aten::reciprocal
aten_reciprocal_complex = complex_variants.reciprocal  # aten::reciprocal (complex)
aten_record_stream = unsupported("aten::record_stream")
aten_refine_names = unsupported("aten::refine_names")
# also prims::remainder: prims.prims_remainder
aten_remainder = elementwise.remainder  # aten::remainder.Tensor
aten_remainder_scalar = elementwise.remainder  # aten::remainder.Scalar
aten_remainder_scalar_tensor = elementwise.remainder_scalar_tensor  # aten::remainder.Scalar_Tensor
aten_rename = unsupported("aten::rename")
aten_renorm = unsupported("aten::renorm")
aten_repeat = shape.repeat  # aten::repeat
aten_repeat_interleave_Tensor = shape.repeat_interleave_tensor  # aten::repeat_interleave.Tensor
# aten::repeat_interleave.self_int
aten_repeat_interleave_self_int = shape.repeat_interleave_self_int
aten_reshape = shape.reshape  # aten::reshape
aten_reshape_as = unsupported("aten::reshape_as")
aten_resolve_conj = elementwise.clone  # aten::resolve_conj
aten_resolve_neg = elementwise.clone  # aten::resolve_neg
aten_result_type = unsupported("aten::result_type.Tensor")
aten_retain_grad = unsupported("aten::retain_grad")
aten_retains_grad = unsupported("aten::retains_grad")
aten_rnn_relu_cell = unsupported("aten::rnn_relu_cell")
aten_rnn_tanh_cell = unsupported("aten::rnn_tanh_cell")
aten_roll = shape.roll  # aten::roll
aten_roll_complex = complex_variants.roll  # aten::roll (complex)
aten_rot90 = unsupported("aten::rot90")
aten_round = elementwise.round_  # aten::round
aten_round_decimals = elementwise.round_decimals  # aten::round.decimals
aten_row_indices = unsupported("aten::row_indices")
aten_row_indices_copy = unsupported("aten::row_indices_copy")
aten_row_stack = unsupported("aten::row_stack")
aten_rrelu = unsupported("aten::rrelu")
aten_rsqrt = elementwise.rsqrt  # aten::rsqrt
aten_rsub = elementwise.rsub  # aten::rsub.Tensor (a placeholder in 0.7)
aten_scalar_tensor = creation.scalar_tensor  # aten::scalar_tensor
# also aten::scalar_tensor (complex): never called by torch.onnx (its arguments are numbers)
aten_scalar_tensor_complex = creation.scalar_tensor
aten_scatter_add = shape.scatter_add  # aten::scatter_add
aten_scatter_reduce = shape.scatter_reduce  # aten::scatter_reduce.two
aten_scatter_src = shape.scatter  # aten::scatter.src
aten_scatter_value = shape.scatter_value  # aten::scatter.value
aten_searchsorted = unsupported("aten::searchsorted.Tensor")
aten_segment_reduce = unsupported("aten::segment_reduce")
aten_select = shape.select  # aten::select.int
aten_select_backward = unsupported("aten::select_backward")
aten_select_scatter = shape.select_scatter  # aten::select_scatter
aten_selu = elementwise.selu  # aten::selu
aten_set_data = unsupported("aten::set_data")
aten_sgn = elementwise.sign  # aten::sgn (a placeholder in 0.7)
aten_sigmoid = elementwise.sigmoid  # aten::sigmoid
aten_sign = elementwise.sign  # aten::sign
aten_signbit = elementwise.signbit  # aten::signbit
aten_sin = elementwise.sin  # aten::sin
aten_sinh = elementwise.sinh  # aten::sinh
aten_slice = shape.slice_  # aten::slice.Tensor
aten_slice_backward = unsupported("aten::slice_backward")
aten_slice_complex = complex_variants.slice_  # aten::slice.Tensor (complex)
aten_slice_copy = shape.slice_  # aten::slice_copy.Tensor (a placeholder in 0.7)
aten_slice_scatter = shape.slice_scatter  # aten::slice_scatter
aten_slogdet = unsupported("aten::slogdet")
aten_smm = unsupported("aten::smm")
# also aten::special_softmax: elementwise.special_softmax
aten_softmax = nn.softmax_int  # aten::softmax.int
aten_sort = reduction.sort  # aten::sort
aten_sparse_dim = unsupported("aten::sparse_dim")
aten_sparse_mask = unsupported("aten::sparse_mask")
# also aten::split: shape.split_sizes
aten_split = shape.split  # aten::split.Tensor
aten_split_copy = shape.split  # aten::split_copy.Tensor (a placeholder in 0.7)
aten_split_with_sizes = shape.split_with_sizes  # aten::split_with_sizes
# aten::split_with_sizes_copy (a placeholder in 0.7)
aten_split_with_sizes_copy = shape.split_with_sizes
aten_sqrt = elementwise.sqrt  # aten::sqrt
aten_square = unsupported("aten::square")
aten_squeeze = shape.squeeze  # aten::squeeze
aten_squeeze_copy = shape.squeeze  # aten::squeeze_copy (a placeholder in 0.7)
aten_squeeze_dim = shape.squeeze_dim  # aten::squeeze.dim
aten_squeeze_dim_complex = complex_variants.squeeze_dim  # aten::squeeze.dim (complex)
aten_sspaddmm = unsupported("aten::sspaddmm")
aten_stack = shape.stack  # aten::stack
aten_stack_complex = shape.stack_complex  # aten::stack (complex)
aten_std = reduction.std
aten_std_correction = reduction.std_correction
aten_std_dim = reduction.std_dim
aten_std_mean = reduction.std_mean
aten_std_mean_correction = reduction.std_mean_correction
aten_std_mean_dim = reduction.std_mean_dim
aten_stft = fft.stft  # aten::stft
# also aten::subtract.Tensor: elementwise.subtract
# also _operator::sub: symbolic.sym_sub
aten_sub = elementwise.sub  # aten::sub.Tensor
# aten::sub.Tensor, subtract.Tensor, sub.Scalar, subtract.Scalar (complex)
aten_sub_complex = complex_variants.sub
# also aten::subtract.Scalar: elementwise.subtract
aten_sub_scalar = elementwise.sub  # aten::sub.Scalar
aten_sum = reduction.sum_all  # aten::sum
aten_sum_complex = complex_variants.sum_all  # aten::sum (complex)
aten_sum_dim_IntList = reduction.sum_dim  # aten::sum.dim_IntList
aten_sum_dim_IntList_complex = complex_variants.sum_dim  # aten::sum.dim_IntList (complex)
aten_sum_to_size = unsupported("aten::sum_to_size")
aten_svd = unsupported("aten::svd")
aten_swapaxes = unsupported("aten::swapaxes")
aten_swapdims = unsupported("aten::swapdims")
aten_sym_size = symbolic.sym_size  # aten::sym_size.int
aten_sym_storage_offset = symbolic.sym_storage_offset  # aten::sym_storage_offset
aten_symeig = unsupported("aten::symeig")
aten_t = linalg.t  # aten::t
aten_t_complex = complex_variants.t  # aten::t (complex)
aten_t_copy = unsupported("aten::t_copy")
aten_take = shape.take  # aten::take (a placeholder in 0.7)
aten_take_along_dim = unsupported("aten::take_along_dim")
aten_tan = elementwise.tan  # aten::tan
aten_tanh = elementwise.tanh  # aten::tanh
aten_tensor_bool = elementwise.tensor_bool  # aten::tensor.bool
aten_tensor_float = elementwise.tensor_float  # aten::tensor.float
aten_tensor_int = elementwise.tensor_int  # aten::tensor.int
aten_tensordot = unsupported("aten::tensordot")
aten_threshold = unsupported("aten::threshold")
aten_threshold_backward = unsupported("aten::threshold_backward")
aten_tile = shape.tile  # aten::tile
aten_to_dense = unsupported("aten::to_dense")
aten_to_dense_backward = unsupported("aten::to_dense_backward")
aten_to_mkldnn = unsupported("aten::to_mkldnn")
aten_to_mkldnn_backward = unsupported("aten::to_mkldnn_backward")
aten_to_padded_tensor = unsupported("aten::to_padded_tensor")
aten_to_sparse = unsupported("aten::to_sparse")
aten_to_sparse_bsc = unsupported("aten::to_sparse_bsc")
aten_to_sparse_bsr = unsupported("aten::to_sparse_bsr")
aten_to_sparse_csc = unsupported("aten::to_sparse_csc")
aten_to_sparse_csr = unsupported("aten::to_sparse_csr")
aten_topk = reduction.topk  # aten::topk
aten_trace = unsupported("aten::trace")
aten_trace_backward = unsupported("aten::trace_backward")
aten_transpose = shape.transpose  # aten::transpose.int
aten_transpose_complex = complex_variants.transpose  # aten::transpose.int (complex)
aten_triangular_solve = unsupported("aten::triangular_solve")
aten_tril = masks.tril  # aten::tril
aten_tril_indices = unsupported("aten::tril_indices")
aten_triplet_margin_loss = unsupported("aten::triplet_margin_loss")
aten_triu = masks.triu  # aten::triu
aten_triu_indices = unsupported("aten::triu_indices")
aten_trunc = elementwise.trunc  # aten::trunc
aten_type_as = elementwise.type_as  # aten::type_as
aten_unbind = shape.unbind  # aten::unbind.int
aten_unflatten = shape.unflatten  # aten::unflatten.int
aten_unfold = shape.unfold  # aten::unfold
aten_unfold_backward = unsupported("aten::unfold_backward")
aten_unfold_copy = unsupported("aten::unfold_copy")
aten_unique_consecutive = unique.unique_consecutive  # aten::unique_consecutive
aten_unique_dim = unique.unique_dim  # aten::unique_dim
aten_unique_dim_consecutive = unsupported("aten::unique_dim_consecutive")
aten_unsafe_chunk = unsupported("aten::unsafe_chunk")
aten_unsafe_split = shape.split  # aten::unsafe_split.Tensor
aten_unsafe_split_with_sizes = unsupported("aten::unsafe_split_with_sizes")
aten_unsqueeze = shape.unsqueeze  # aten::unsqueeze
aten_unsqueeze_copy = shape.unsqueeze  # aten::unsqueeze_copy (a placeholder in 0.7)
aten_value_selecting_reduction_backward = unsupported("aten::value_selecting_reduction_backward")
aten_values = unsupported("aten::values")
aten_values_copy = unsupported("aten::values_copy")
aten_vander = unsupported("aten::vander")
aten_var = reduction.var
aten_var_correction = reduction.var_correction
aten_var_dim = reduction.var_dim
aten_var_mean = reduction.var_mean
aten_var_mean_correction = reduction.var_mean_correction
aten_var_mean_dim = reduction.var_mean_dim
aten_vdot = unsupported("aten::vdot")
aten_view = shape.view  # aten::view, _unsafe_view
aten_view_as = shape.view_as  # aten::view_as
aten_view_as_complex = complex_variants.view_as_complex  # aten::view_as_complex
aten_view_as_complex_copy = complex_variants.view_as_complex  # aten::view_as_complex_copy
aten_view_as_real = complex_variants.view_as_real  # aten::view_as_real (complex)
aten_view_as_real_copy = complex_variants.view_as_real  # aten::view_as_real_copy (complex)
aten_view_complex = complex_variants.view  # aten::view, _unsafe_view (complex)
aten_view_copy = shape.view  # aten::view_copy
aten_vstack = shape.vstack
# also aten::where.Scalar: elementwise.where_scalars
# also aten::where.ScalarSelf: elementwise.where_scalar_self
# also aten::where.ScalarOther: elementwise.where_scalar_other
aten_where = elementwise.where  # aten::where.self
aten_xor = unsupported("aten::__xor__.Tensor")
aten_zeros = creation.zeros  # aten::zeros
aten_zeros_like = creation.zeros_like  # aten::zeros_like
operator_add = symbolic.sym_add  # _operator::add
operator_floordiv = symbolic.sym_floordiv  # _operator::floordiv
operator_ge = symbolic.sym_ge  # _operator::ge
operator_gt = symbolic.sym_gt  # _operator::gt
operator_le = symbolic.sym_le  # _operator::le
operator_lt = symbolic.sym_lt  # _operator::lt
operator_mod = symbolic.sym_mod  # _operator::mod
operator_mul = symbolic.sym_mul  # _operator::mul
operator_truediv = symbolic.sym_truediv  # _operator::truediv
python_math_ceil = symbolic.sym_ceil  # math::ceil
python_math_floor = symbolic.sym_floor  # math::floor
python_math_trunc = symbolic.sym_trunc  # math::trunc

__all__ = [
    "aten__local_scalar_dense",
    "aten__log_softmax",
    "aten__native_batch_norm_legit_functional",
    "aten__native_batch_norm_no_stats",
    "aten__native_batch_norm_no_training",
    "aten__softmax",
    "aten__to_copy",
    "aten__unique",
    "aten__unique2",
    "aten_abs",
    "aten_abs_complex",
    "aten_acos",
    "aten_acosh",
    "aten_add",
    "aten_add_complex",
    "aten_add_scalar",
    "aten_addbmm",
    "aten_addcdiv",
    "aten_addcmul",
    "aten_addmm",
    "aten_addmv",
    "aten_addr",
    "aten_adjoint",
    "aten_affine_grid_generator",
    "aten_affine_grid_generator_backward",
    "aten_alias",
    "aten_alias_copy",
    "aten_align_as",
    "aten_align_tensors",
    "aten_align_to",
    "aten_all",
    "aten_all_dim",
    "aten_all_dims",
    "aten_allclose",
    "aten_alpha_dropout",
    "aten_amax",
    "aten_amin",
    "aten_aminmax",
    "aten_and",
    "aten_angle",
    "aten_angle_complex",
    "aten_any",
    "aten_any_dim",
    "aten_any_dims",
    "aten_arange",
    "aten_arange_start",
    "aten_arange_start_step",
    "aten_arccos",
    "aten_arccosh",
    "aten_arcsin",
    "aten_arcsinh",
    "aten_arctan",
    "aten_arctan2",
    "aten_arctanh",
    "aten_argmax",
    "aten_argmin",
    "aten_argsort",
    "aten_argwhere",
    "aten_as_strided",
    "aten_as_strided_copy",
    "aten_as_strided_scatter",
    "aten_asin",
    "aten_asinh",
    "aten_atan",
    "aten_atan2",
    "aten_atanh",
    "aten_atleast_1d",
    "aten_atleast_1d_sequence",
    "aten_atleast_2d",
    "aten_atleast_2d_sequence",
    "aten_atleast_3d",
    "aten_atleast_3d_sequence",
    "aten_baddbmm",
    "aten_bartlett_window",
    "aten_batch_norm",
    "aten_batch_norm_backward_elemt",
    "aten_batch_norm_backward_reduce",
    "aten_batch_norm_elemt",
    "aten_batch_norm_gather_stats",
    "aten_batch_norm_gather_stats_with_counts",
    "aten_batch_norm_stats",
    "aten_batch_norm_update_stats",
    "aten_bernoulli",
    "aten_bernoulli_p",
    "aten_bilinear",
    "aten_binary_cross_entropy_with_logits",
    "aten_bincount",
    "aten_binomial",
    "aten_bitwise_and",
    "aten_bitwise_and_scalar",
    "aten_bitwise_and_scalar_tensor",
    "aten_bitwise_left_shift",
    "aten_bitwise_left_shift_scalar_tensor",
    "aten_bitwise_left_shift_tensor_scalar",
    "aten_bitwise_not",
    "aten_bitwise_or",
    "aten_bitwise_or_scalar",
    "aten_bitwise_or_scalar_tensor",
    "aten_bitwise_right_shift",
    "aten_bitwise_right_shift_scalar_tensor",
    "aten_bitwise_right_shift_tensor_scalar",
    "aten_bitwise_xor",
    "aten_bitwise_xor_scalar",
    "aten_bitwise_xor_scalar_tensor",
    "aten_blackman_window",
    "aten_block_diag",
    "aten_bmm",
    "aten_broadcast_tensors",
    "aten_broadcast_to",
    "aten_bucketize",
    "aten_can_cast",
    "aten_cartesian_prod",
    "aten_cat",
    "aten_cat_complex",
    "aten_ccol_indices",
    "aten_ccol_indices_copy",
    "aten_cdist",
    "aten_ceil",
    "aten_chain_matmul",
    "aten_chalf",
    "aten_channel_shuffle",
    "aten_cholesky",
    "aten_cholesky_inverse",
    "aten_cholesky_solve",
    "aten_choose_qparams_optimized",
    "aten_chunk",
    "aten_clamp",
    "aten_clamp_max",
    "aten_clamp_max_tensor",
    "aten_clamp_min",
    "aten_clamp_min_tensor",
    "aten_clamp_tensor",
    "aten_clone",
    "aten_clone_complex",
    "aten_coalesce",
    "aten_col_indices",
    "aten_col_indices_copy",
    "aten_column_stack",
    "aten_combinations",
    "aten_complex",
    "aten_conj",
    "aten_conj_complex",
    "aten_conj_physical",
    "aten_constant_pad_nd",
    "aten_contiguous",
    "aten_conv1d",
    "aten_conv1d_complex",
    "aten_conv2d",
    "aten_conv2d_complex",
    "aten_conv3d",
    "aten_conv3d_complex",
    "aten_conv_tbc",
    "aten_conv_tbc_backward",
    "aten_conv_transpose1d",
    "aten_convolution",
    "aten_convolution_backward",
    "aten_convolution_backward_overrideable",
    "aten_convolution_overrideable",
    "aten_copy",
    "aten_copysign",
    "aten_corrcoef",
    "aten_cos",
    "aten_cosh",
    "aten_cosine_embedding_loss",
    "aten_cosine_similarity",
    "aten_count_nonzero",
    "aten_cov",
    "aten_cross",
    "aten_crow_indices",
    "aten_crow_indices_copy",
    "aten_ctc_loss",
    "aten_cudnn_affine_grid_generator",
    "aten_cudnn_affine_grid_generator_backward",
    "aten_cudnn_batch_norm",
    "aten_cudnn_batch_norm_backward",
    "aten_cudnn_convolution",
    "aten_cudnn_convolution_add_relu",
    "aten_cudnn_convolution_relu",
    "aten_cudnn_convolution_transpose",
    "aten_cudnn_grid_sampler",
    "aten_cudnn_grid_sampler_backward",
    "aten_cudnn_is_acceptable",
    "aten_cummax",
    "aten_cummaxmin_backward",
    "aten_cummin",
    "aten_cumprod",
    "aten_cumprod_backward",
    "aten_cumsum",
    "aten_data",
    "aten_deg2rad",
    "aten_dense_dim",
    "aten_detach",
    "aten_detach_copy",
    "aten_diag",
    "aten_diag_embed",
    "aten_diagflat",
    "aten_diagonal",
    "aten_diagonal_backward",
    "aten_diagonal_copy",
    "aten_diagonal_scatter",
    "aten_diff",
    "aten_digamma",
    "aten_dist",
    "aten_div",
    "aten_div_complex",
    "aten_div_mode",
    "aten_dot",
    "aten_dropout",
    "aten_dstack",
    "aten_einsum",
    "aten_embedding",
    "aten_embedding_backward",
    "aten_embedding_bag",
    "aten_embedding_bag_padding_idx",
    "aten_embedding_dense_backward",
    "aten_embedding_renorm",
    "aten_embedding_sparse_backward",
    "aten_empty",
    "aten_empty_like",
    "aten_empty_quantized",
    "aten_empty_strided",
    "aten_eq",
    "aten_equal",
    "aten_erfinv",
    "aten_exp",
    "aten_exp2",
    "aten_expand",
    "aten_expand_as",
    "aten_expand_copy",
    "aten_eye",
    "aten_fake_quantize_per_channel_affine",
    "aten_fake_quantize_per_channel_affine_cachemask",
    "aten_fake_quantize_per_channel_affine_cachemask_backward",
    "aten_fake_quantize_per_tensor_affine",
    "aten_fake_quantize_per_tensor_affine_cachemask",
    "aten_fake_quantize_per_tensor_affine_cachemask_backward",
    "aten_fake_quantize_per_tensor_affine_tensor_qparams",
    "aten_fbgemm_linear_fp16_weight",
    "aten_fbgemm_linear_fp16_weight_fp32_activation",
    "aten_fbgemm_linear_int8_weight",
    "aten_fbgemm_linear_int8_weight_fp32_activation",
    "aten_fbgemm_linear_quantize_weight",
    "aten_fbgemm_pack_gemm_matrix_fp16",
    "aten_fbgemm_pack_quantized_matrix",
    "aten_feature_alpha_dropout",
    "aten_feature_dropout",
    "aten_fill",
    "aten_fix",
    "aten_flatten",
    "aten_flip",
    "aten_flip_complex",
    "aten_fliplr",
    "aten_flipud",
    "aten_floor",
    "aten_floor_divide",
    "aten_fmax",
    "aten_fmin",
    "aten_fmod",
    "aten_frac",
    "aten_frexp",
    "aten_frobenius_norm",
    "aten_from_file",
    "aten_full",
    "aten_full_like",
    "aten_fused_moving_avg_obs_fake_quant",
    "aten_gather",
    "aten_gather_backward",
    "aten_gcd",
    "aten_ge",
    "aten_geqrf",
    "aten_ger",
    "aten_getitem",
    "aten_grid_sampler",
    "aten_grid_sampler_2d",
    "aten_grid_sampler_2d_backward",
    "aten_grid_sampler_3d",
    "aten_grid_sampler_3d_backward",
    "aten_grouped_mm",
    "aten_gru",
    "aten_gru_cell",
    "aten_gt",
    "aten_hamming_window",
    "aten_hann_window",
    "aten_hardshrink",
    "aten_hardshrink_backward",
    "aten_heaviside",
    "aten_hinge_embedding_loss",
    "aten_histc",
    "aten_histogramdd",
    "aten_hspmm",
    "aten_hstack",
    "aten_hypot",
    "aten_i0",
    "aten_igamma",
    "aten_igammac",
    "aten_imag",
    "aten_index",
    "aten_index_add",
    "aten_index_copy",
    "aten_index_put",
    "aten_index_reduce",
    "aten_index_select",
    "aten_index_select_backward",
    "aten_indices",
    "aten_indices_copy",
    "aten_inner",
    "aten_instance_norm",
    "aten_int_repr",
    "aten_inverse",
    "aten_is_coalesced",
    "aten_is_complex",
    "aten_is_conj",
    "aten_is_distributed",
    "aten_is_floating_point",
    "aten_is_inference",
    "aten_is_leaf",
    "aten_is_neg",
    "aten_is_nonzero",
    "aten_is_pinned",
    "aten_is_same_size",
    "aten_is_set_to",
    "aten_is_signed",
    "aten_is_vulkan_available",
    "aten_isclose",
    "aten_isfinite",
    "aten_isinf",
    "aten_isnan",
    "aten_isneginf",
    "aten_isposinf",
    "aten_isreal",
    "aten_istft",
    "aten_item",
    "aten_kaiser_window",
    "aten_kl_div",
    "aten_kron",
    "aten_kthvalue",
    "aten_layer_norm",
    "aten_lcm",
    "aten_ldexp",
    "aten_le",
    "aten_lerp",
    "aten_lgamma",
    "aten_lift",
    "aten_lift_fresh",
    "aten_lift_fresh_copy",
    "aten_linear_backward",
    "aten_linspace",
    "aten_log",
    "aten_log1p",
    "aten_log2",
    "aten_log10",
    "aten_logaddexp",
    "aten_logaddexp2",
    "aten_logcumsumexp",
    "aten_logdet",
    "aten_logical_and",
    "aten_logical_not",
    "aten_logical_or",
    "aten_logical_xor",
    "aten_logit",
    "aten_logspace",
    "aten_logsumexp",
    "aten_lstm",
    "aten_lstm_cell",
    "aten_lstm_mps_backward",
    "aten_lt",
    "aten_lu_solve",
    "aten_lu_unpack",
    "aten_mH",
    "aten_mH_complex",
    "aten_mT",
    "aten_mT_complex",
    "aten_margin_ranking_loss",
    "aten_masked_fill",
    "aten_masked_scatter",
    "aten_masked_select",
    "aten_masked_select_backward",
    "aten_matmul",
    "aten_matmul_backward",
    "aten_matmul_complex",
    "aten_matrix_H",
    "aten_matrix_exp",
    "aten_matrix_exp_backward",
    "aten_matrix_power",
    "aten_max",
    "aten_max_dim",
    "aten_maximum",
    "aten_mean",
    "aten_mean_complex",
    "aten_mean_dim",
    "aten_mean_dim_complex",
    "aten_median",
    "aten_meshgrid",
    "aten_min",
    "aten_min_dim",
    "aten_minimum",
    "aten_miopen_batch_norm",
    "aten_miopen_batch_norm_backward",
    "aten_miopen_convolution",
    "aten_miopen_convolution_add_relu",
    "aten_miopen_convolution_relu",
    "aten_miopen_convolution_transpose",
    "aten_miopen_depthwise_convolution",
    "aten_miopen_rnn",
    "aten_miopen_rnn_backward",
    "aten_mkldnn_adaptive_avg_pool2d",
    "aten_mkldnn_adaptive_avg_pool2d_backward",
    "aten_mkldnn_convolution",
    "aten_mkldnn_linear_backward",
    "aten_mkldnn_linear_backward_input",
    "aten_mkldnn_linear_backward_weights",
    "aten_mkldnn_max_pool2d",
    "aten_mkldnn_max_pool2d_backward",
    "aten_mkldnn_max_pool3d",
    "aten_mkldnn_max_pool3d_backward",
    "aten_mm",
    "aten_mode",
    "aten_mps_convolution_backward",
    "aten_mps_convolution_transpose_backward",
    "aten_mps_max_pool2d_backward",
    "aten_msort",
    "aten_mul",
    "aten_mul_complex",
    "aten_mul_scalar",
    "aten_multinomial",
    "aten_multiply",
    "aten_mv",
    "aten_mvlgamma",
    "aten_nan_to_num",
    "aten_nanmean",
    "aten_nanmedian",
    "aten_nanquantile",
    "aten_nansum",
    "aten_narrow",
    "aten_narrow_copy",
    "aten_native_batch_norm",
    "aten_native_batch_norm_backward",
    "aten_native_channel_shuffle",
    "aten_native_dropout",
    "aten_native_dropout_backward",
    "aten_native_group_norm",
    "aten_native_group_norm_backward",
    "aten_native_layer_norm",
    "aten_native_layer_norm_backward",
    "aten_native_norm",
    "aten_ne",
    "aten_neg",
    "aten_neg_complex",
    "aten_negative",
    "aten_new_empty",
    "aten_new_empty_strided",
    "aten_new_full",
    "aten_new_ones",
    "aten_new_zeros",
    "aten_nextafter",
    "aten_nonzero",
    "aten_nonzero_numpy",
    "aten_norm_except_dim",
    "aten_normal",
    "aten_normal_float_float",
    "aten_normal_float_tensor",
    "aten_normal_tensor_float",
    "aten_normal_tensor_tensor",
    "aten_not_equal",
    "aten_nuclear_norm",
    "aten_ones",
    "aten_ones_like",
    "aten_or",
    "aten_orgqr",
    "aten_ormqr",
    "aten_outer",
    "aten_output_nr",
    "aten_pairwise_distance",
    "aten_pdist",
    "aten_permute",
    "aten_permute_complex",
    "aten_permute_copy",
    "aten_pin_memory",
    "aten_pinverse",
    "aten_pixel_shuffle",
    "aten_pixel_unshuffle",
    "aten_poisson",
    "aten_poisson_nll_loss",
    "aten_polar",
    "aten_polygamma",
    "aten_positive",
    "aten_pow",
    "aten_pow_scalar",
    "aten_pow_tensor_scalar",
    "aten_prelu",
    "aten_prelu_backward",
    "aten_prod",
    "aten_prod_dim_int",
    "aten_promote_types",
    "aten_put",
    "aten_q_per_channel_axis",
    "aten_q_per_channel_scales",
    "aten_q_per_channel_zero_points",
    "aten_q_scale",
    "aten_q_zero_point",
    "aten_qr",
    "aten_qscheme",
    "aten_quantile",
    "aten_quantize_per_channel",
    "aten_quantize_per_tensor",
    "aten_quantize_per_tensor_dynamic",
    "aten_quantized_batch_norm",
    "aten_quantized_gru_cell",
    "aten_quantized_lstm_cell",
    "aten_quantized_max_pool1d",
    "aten_quantized_max_pool2d",
    "aten_quantized_rnn_relu_cell",
    "aten_quantized_rnn_tanh_cell",
    "aten_rad2deg",
    "aten_rand",
    "aten_rand_like",
    "aten_randint",
    "aten_randint_like",
    "aten_randint_like_low_dtype",
    "aten_randint_low",
    "aten_randn",
    "aten_randn_like",
    "aten_randperm",
    "aten_range",
    "aten_ravel",
    "aten_real",
    "aten_reciprocal",
    "aten_reciprocal_complex",
    "aten_record_stream",
    "aten_refine_names",
    "aten_remainder",
    "aten_remainder_scalar",
    "aten_remainder_scalar_tensor",
    "aten_rename",
    "aten_renorm",
    "aten_repeat",
    "aten_repeat_interleave_Tensor",
    "aten_repeat_interleave_self_int",
    "aten_reshape",
    "aten_reshape_as",
    "aten_resolve_conj",
    "aten_resolve_neg",
    "aten_result_type",
    "aten_retain_grad",
    "aten_retains_grad",
    "aten_rnn_relu_cell",
    "aten_rnn_tanh_cell",
    "aten_roll",
    "aten_roll_complex",
    "aten_rot90",
    "aten_round",
    "aten_round_decimals",
    "aten_row_indices",
    "aten_row_indices_copy",
    "aten_row_stack",
    "aten_rrelu",
    "aten_rsqrt",
    "aten_rsub",
    "aten_scalar_tensor",
    "aten_scalar_tensor_complex",
    "aten_scatter_add",
    "aten_scatter_reduce",
    "aten_scatter_src",
    "aten_scatter_value",
    "aten_searchsorted",
    "aten_segment_reduce",
    "aten_select",
    "aten_select_backward",
    "aten_select_scatter",
    "aten_selu",
    "aten_set_data",
    "aten_sgn",
    "aten_sigmoid",
    "aten_sign",
    "aten_signbit",
    "aten_sin",
    "aten_sinh",
    "aten_slice",
    "aten_slice_backward",
    "aten_slice_complex",
    "aten_slice_copy",
    "aten_slice_scatter",
    "aten_slogdet",
    "aten_smm",
    "aten_softmax",
    "aten_sort",
    "aten_sparse_dim",
    "aten_sparse_mask",
    "aten_split",
    "aten_split_copy",
    "aten_split_with_sizes",
    "aten_split_with_sizes_copy",
    "aten_sqrt",
    "aten_square",
    "aten_squeeze",
    "aten_squeeze_copy",
    "aten_squeeze_dim",
    "aten_squeeze_dim_complex",
    "aten_sspaddmm",
    "aten_stack",
    "aten_stack_complex",
    "aten_std",
    "aten_std_correction",
    "aten_std_dim",
    "aten_std_mean",
    "aten_std_mean_correction",
    "aten_std_mean_dim",
    "aten_stft",
    "aten_sub",
    "aten_sub_complex",
    "aten_sub_scalar",
    "aten_sum",
    "aten_sum_complex",
    "aten_sum_dim_IntList",
    "aten_sum_dim_IntList_complex",
    "aten_sum_to_size",
    "aten_svd",
    "aten_swapaxes",
    "aten_swapdims",
    "aten_sym_size",
    "aten_sym_storage_offset",
    "aten_symeig",
    "aten_t",
    "aten_t_complex",
    "aten_t_copy",
    "aten_take",
    "aten_take_along_dim",
    "aten_tan",
    "aten_tanh",
    "aten_tensor_bool",
    "aten_tensor_float",
    "aten_tensor_int",
    "aten_tensordot",
    "aten_threshold",
    "aten_threshold_backward",
    "aten_tile",
    "aten_to_dense",
    "aten_to_dense_backward",
    "aten_to_mkldnn",
    "aten_to_mkldnn_backward",
    "aten_to_padded_tensor",
    "aten_to_sparse",
    "aten_to_sparse_bsc",
    "aten_to_sparse_bsr",
    "aten_to_sparse_csc",
    "aten_to_sparse_csr",
    "aten_topk",
    "aten_trace",
    "aten_trace_backward",
    "aten_transpose",
    "aten_transpose_complex",
    "aten_triangular_solve",
    "aten_tril",
    "aten_tril_indices",
    "aten_triplet_margin_loss",
    "aten_triu",
    "aten_triu_indices",
    "aten_trunc",
    "aten_type_as",
    "aten_unbind",
    "aten_unflatten",
    "aten_unfold",
    "aten_unfold_backward",
    "aten_unfold_copy",
    "aten_unique_consecutive",
    "aten_unique_dim",
    "aten_unique_dim_consecutive",
    "aten_unsafe_chunk",
    "aten_unsafe_split",
    "aten_unsafe_split_with_sizes",
    "aten_unsqueeze",
    "aten_unsqueeze_copy",
    "aten_value_selecting_reduction_backward",
    "aten_values",
    "aten_values_copy",
    "aten_vander",
    "aten_var",
    "aten_var_correction",
    "aten_var_dim",
    "aten_var_mean",
    "aten_var_mean_correction",
    "aten_var_mean_dim",
    "aten_vdot",
    "aten_view",
    "aten_view_as",
    "aten_view_as_complex",
    "aten_view_as_complex_copy",
    "aten_view_as_real",
    "aten_view_as_real_copy",
    "aten_view_complex",
    "aten_view_copy",
    "aten_vstack",
    "aten_where",
    "aten_xor",
    "aten_zeros",
    "aten_zeros_like",
    "op",
    "operator_add",
    "operator_floordiv",
    "operator_ge",
    "operator_gt",
    "operator_le",
    "operator_lt",
    "operator_mod",
    "operator_mul",
    "operator_truediv",
    "python_math_ceil",
    "python_math_floor",
    "python_math_trunc",
]
