"""Small models, one rule each, run through onnxscript 0.7.2 by ``record_072.py`` (its
op types are in ``ops_072.json``) and through ours by ``test_compare_072.py``.

Each case: name -> (rule name in ``rules.common``, ai.onnx opset, graph in ONNX text).
This module imports nothing from onnxscript, so 0.7.2's interpreter can load it."""

from __future__ import annotations

import onnx
import onnx.parser
import onnx.shape_inference


def model(opset: int, text: str) -> onnx.ModelProto:
    """The model of a case: graph outputs written without a type get the one onnx's
    shape inference gives (intermediate values stay without, as exporters may leave
    them)."""
    header = f'<ir_version: 8, opset_import: ["" : {opset}, "local" : 1]>\n'
    parsed = onnx.parser.parse_model(header + text)
    inferred = onnx.shape_inference.infer_shapes(parsed)
    for output, found in zip(parsed.graph.output, inferred.graph.output):
        if not output.type.HasField("tensor_type"):
            output.type.CopyFrom(found.type)
    return parsed


F0 = "zero = Constant<value=float {0.0}>()\n"
F1 = "one = Constant<value=float {1.0}>()\n"


def _i64(*values: int) -> str:
    return f"Constant<value=int64[{len(values)}] {{{','.join(map(str, values))}}}>()"


CASES: dict[str, tuple[str, int, str]] = {
    # no-op arithmetic
    "add0_static": (
        "add_0_rule",
        18,
        "g (float[2,4] x) => (float[2,4] y) {" + F0 + " y = Add(x, zero)}",
    ),
    "add0_symbolic": (
        "add_0_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {" + F0 + " y = Add(x, zero)}",
    ),
    "add0_zero_first": (
        "add_0_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {" + F0 + " y = Add(zero, x)}",
    ),
    "add0_unknown_shape": (
        "add_0_rule",
        18,
        "g (float[N,4] x) => (y) {" + F0 + " y = Add(x, zero)}",
    ),
    "add0_initializer": (
        "add_0_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) <float zero = {0.0}> { y = Add(x, zero)}",
    ),
    "add0_int": (
        "add_0_rule",
        18,
        "g (int64[N,4] x) => (int64[N,4] y) {zero = Constant<value=int64 {0}>()\n y = Add(x, zero)}",
    ),
    "add0_one_element_vector": (
        "add_0_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {zero = Constant<value=float[1] {0}>()\n y = Add(x, zero)}",
    ),
    "add0_broadcast_rank": (
        "add_0_rule",
        18,
        "g (float[4] x) => (float[1,4] y) {zero = Constant<value=float[1,1] {0}>()\n y = Add(x, zero)}",
    ),
    "add0_broadcast_shape": (
        "add_0_rule",
        18,
        "g (float[4] x) => (float[3,4] y) {zero = Constant<value=float[3,4] {0,0,0,0,0,0,0,0,0,0,0,0}>()\n y = Add(x, zero)}",
    ),
    "add0_nonzero": (
        "add_0_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {c = Constant<value=float {0.5}>()\n y = Add(x, c)}",
    ),
    "add0_tiny": (
        "add_0_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {c = Constant<value=float {1e-9}>()\n y = Add(x, c)}",
    ),
    "add0_dynamic": (
        "add_0_rule",
        18,
        "g (float[N,4] x, float z) => (float[N,4] y) { y = Add(x, z)}",
    ),
    "add0_result_used": (
        "add_0_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y, float[N,4] z) {"
        + F0
        + " y = Add(x, zero)\n z = Relu(y)}",
    ),
    "sub0": ("sub_0_rule", 18, "g (float[N,4] x) => (float[N,4] y) {" + F0 + " y = Sub(x, zero)}"),
    "sub0_zero_first": (
        "sub_0_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {" + F0 + " y = Sub(zero, x)}",
    ),
    "mul1": (
        "mul_by_1_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {" + F1 + " y = Mul(x, one)}",
    ),
    "mul1_one_first": (
        "mul_by_1_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {" + F1 + " y = Mul(one, x)}",
    ),
    "mul1_two": (
        "mul_by_1_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {c = Constant<value=float {2.0}>()\n y = Mul(x, c)}",
    ),
    "div1": (
        "div_by_1_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {" + F1 + " y = Div(x, one)}",
    ),
    "div1_one_first": (
        "div_by_1_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) {" + F1 + " y = Div(one, x)}",
    ),
    "div1_int": (
        "div_by_1_rule",
        18,
        "g (int32[N,4] x) => (int32[N,4] y) {one = Constant<value=int32 {1}>()\n y = Div(x, one)}",
    ),
    # Dropout
    "dropout_ratio_attr_0": (
        "dropout_zero_rule",
        10,
        "g (float[N,4] x) => (float[N,4] y) { y = Dropout<ratio=0.0>(x)}",
    ),
    "dropout_ratio_attr_0_mask": (
        "dropout_zero_rule",
        10,
        "g (float[N,4] x) => (float[N,4] y, bool[N,4] m) { y, m = Dropout<ratio=0.0>(x)}",
    ),
    "dropout_ratio_attr_half": (
        "dropout_zero_rule",
        10,
        "g (float[N,4] x) => (float[N,4] y) { y = Dropout<ratio=0.5>(x)}",
    ),
    "dropout_ratio_input_0": (
        "dropout_zero_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) { r = Constant<value=float {0.0}>()\n y = Dropout(x, r)}",
    ),
    "dropout_ratio_input_0_training": (
        "dropout_zero_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) { r = Constant<value=float {0.0}>()\n t = Constant<value=bool {1}>()\n y = Dropout(x, r, t)}",
    ),
    "dropout_ratio_dynamic": (
        "dropout_zero_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) { r0 = Constant<value=float {0.0}>()\n r = Identity(r0)\n y = Dropout(x, r)}",
    ),
    "dropout_plain_inference": (
        "dropout_inference_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) { y = Dropout(x)}",
    ),
    "dropout_ratio_half_inference": (
        "dropout_inference_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) { r = Constant<value=float {0.5}>()\n y = Dropout(x, r)}",
    ),
    "dropout_training_false": (
        "dropout_inference_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y) { r = Constant<value=float {0.5}>()\n t = Constant<value=bool {0}>()\n y = Dropout(x, r, t)}",
    ),
    "dropout_training_dynamic": (
        "dropout_inference_rule",
        18,
        "g (float[N,4] x, bool t) => (float[N,4] y) { r = Constant<value=float {0.5}>()\n y = Dropout(x, r, t)}",
    ),
    "dropout_mask_used": (
        "dropout_inference_rule",
        18,
        "g (float[N,4] x) => (float[N,4] y, bool[N,4] m) { y, m = Dropout(x)}",
    ),
    "dropout_opset10_inference": (
        "dropout_inference_rule",
        10,
        "g (float[N,4] x) => (float[N,4] y) { y = Dropout<ratio=0.3>(x)}",
    ),
    # Cast
    "castcast_double_float_half": (
        "cast_cast_rule",
        18,
        "g (double[N] x) => (float16[N] y) { t = Cast<to=1>(x)\n y = Cast<to=10>(t)}",
    ),
    "castcast_int_float_half": (
        "cast_cast_rule",
        18,
        "g (int64[N] x) => (float16[N] y) { t = Cast<to=1>(x)\n y = Cast<to=10>(t)}",
    ),
    "castcast_half_float_int": (
        "cast_cast_rule",
        18,
        "g (float16[N] x) => (int32[N] y) { t = Cast<to=1>(x)\n y = Cast<to=6>(t)}",
    ),
    "castcast_int32_int64_double": (
        "cast_cast_rule",
        18,
        "g (int32[N] x) => (double[N] y) { t = Cast<to=7>(x)\n y = Cast<to=11>(t)}",
    ),
    "castcast_same_type_twice": (
        "cast_cast_rule",
        18,
        "g (double[N] x) => (float[N] y) { t = Cast<to=1>(x)\n y = Cast<to=1>(t)}",
    ),
    "castcast_float_int_float": (
        "cast_cast_rule",
        18,
        "g (float[N] x) => (float[N] y) { t = Cast<to=6>(x)\n y = Cast<to=1>(t)}",
    ),
    "castcast_double_float_double": (
        "cast_cast_rule",
        18,
        "g (double[N] x) => (double[N] y) { t = Cast<to=1>(x)\n y = Cast<to=11>(t)}",
    ),
    "castcast_float_bool_float": (
        "cast_cast_rule",
        18,
        "g (float[N] x) => (float[N] y) { t = Cast<to=9>(x)\n y = Cast<to=1>(t)}",
    ),
    "castcast_middle_used": (
        "cast_cast_rule",
        18,
        "g (double[N] x) => (float16[N] y, float[N] t) { t = Cast<to=1>(x)\n y = Cast<to=10>(t)}",
    ),
    "noopcast": ("no_op_cast_rule", 18, "g (float[N,4] x) => (float[N,4] y) { y = Cast<to=1>(x)}"),
    "noopcast_other_type": (
        "no_op_cast_rule",
        18,
        "g (double[N] x) => (float[N] y) { y = Cast<to=1>(x)}",
    ),
    # ConstantOfShape
    "cos_float_to_half": (
        "cast_constant_of_shape_rule",
        18,
        "g (int64[2] s) => (y) { t = ConstantOfShape<value=float[1] {2.5}>(s)\n y = Cast<to=10>(t)}",
    ),
    "cos_float_to_int": (
        "cast_constant_of_shape_rule",
        18,
        "g (int64[2] s) => (y) { t = ConstantOfShape<value=float[1] {2.5}>(s)\n y = Cast<to=7>(t)}",
    ),
    "cos_no_value_rule1": (
        "cast_constant_of_shape_rule",
        18,
        "g (int64[2] s) => (y) { t = ConstantOfShape(s)\n y = Cast<to=10>(t)}",
    ),
    "cos_used_twice": (
        "cast_constant_of_shape_rule",
        18,
        "g (int64[2] s) => (y, t) { t = ConstantOfShape<value=float[1] {2.5}>(s)\n y = Cast<to=10>(t)}",
    ),
    "cos_no_value": (
        "cast_constant_of_shape_without_value_rule",
        18,
        "g (int64[2] s) => (y) { t = ConstantOfShape(s)\n y = Cast<to=10>(t)}",
    ),
    "cos_no_value_with_value": (
        "cast_constant_of_shape_without_value_rule",
        18,
        "g (int64[2] s) => (y) { t = ConstantOfShape<value=float[1] {2.5}>(s)\n y = Cast<to=10>(t)}",
    ),
    # Expand
    "expand_same_static": (
        "no_op_expand_rule",
        18,
        "g (float[2,3] x) => (float[2,3] y) { s = " + _i64(2, 3) + "\n y = Expand(x, s)}",
    ),
    "expand_ones": (
        "no_op_expand_rule",
        18,
        "g (float[2,3] x) => (float[2,3] y) { s = " + _i64(1, 1) + "\n y = Expand(x, s)}",
    ),
    "expand_ones_symbolic": (
        "no_op_expand_rule",
        18,
        "g (float[N,3] x) => (float[N,3] y) { s = " + _i64(1, 3) + "\n y = Expand(x, s)}",
    ),
    "expand_grows": (
        "no_op_expand_rule",
        18,
        "g (float[2,3] x) => (float[4,2,3] y) { s = " + _i64(4, 2, 3) + "\n y = Expand(x, s)}",
    ),
    "expand_broadcasts_dim": (
        "no_op_expand_rule",
        18,
        "g (float[1,3] x) => (float[2,3] y) { s = " + _i64(2, 3) + "\n y = Expand(x, s)}",
    ),
    "expand_dynamic_same_names": (
        "no_op_expand_rule",
        18,
        "g (float[N,3] x, float[N,3] z) => (float[N,3] y) { s = Shape(z)\n y = Expand(x, s)}",
    ),
    "expand_dynamic_unknown": (
        "no_op_expand_rule",
        18,
        "g (float[N,3] x, float[N,3] z) => (y) { s = Shape(z)\n y = Expand(x, s)}",
    ),
    # Transpose
    "transpose_identity": (
        "no_op_transpose_rule",
        18,
        "g (float[2,3] x) => (float[2,3] y) { y = Transpose<perm=[0,1]>(x)}",
    ),
    "transpose_no_perm_1d": (
        "no_op_transpose_rule",
        18,
        "g (float[3] x) => (float[3] y) { y = Transpose(x)}",
    ),
    "transpose_no_perm_2d": (
        "no_op_transpose_rule",
        18,
        "g (float[3,3] x) => (float[3,3] y) { y = Transpose(x)}",
    ),
    "transpose_swap": (
        "no_op_transpose_rule",
        18,
        "g (float[2,3] x) => (float[3,2] y) { y = Transpose<perm=[1,0]>(x)}",
    ),
    "transpose2": (
        "transpose_transpose_rule",
        18,
        "g (float[2,3,4] x) => (y) { t = Transpose<perm=[1,2,0]>(x)\n y = Transpose<perm=[0,2,1]>(t)}",
    ),
    "transpose2_cancel": (
        "transpose_transpose_rule",
        18,
        "g (float[2,3,4] x) => (y) { t = Transpose<perm=[1,2,0]>(x)\n y = Transpose<perm=[2,0,1]>(t)}",
    ),
    "transpose2_no_perm": (
        "transpose_transpose_rule",
        18,
        "g (float[2,3,4] x) => (y) { t = Transpose(x)\n y = Transpose<perm=[2,0,1]>(t)}",
    ),
    "transpose2_no_perm_scalar": (
        "transpose_transpose_rule",
        18,
        "g (float x) => (y) { t = Transpose(x)\n y = Transpose(t)}",
    ),
    "transpose2_no_perm_unknown_rank": (
        "transpose_transpose_rule",
        18,
        "g (float[2,3] x) => (y) { u = Abs(x)\n t = Transpose(u)\n y = Transpose(t)}",
    ),
    "transpose2_middle_used": (
        "transpose_transpose_rule",
        18,
        "g (float[2,3,4] x) => (y, t) { t = Transpose<perm=[1,2,0]>(x)\n y = Transpose<perm=[0,2,1]>(t)}",
    ),
    # Unsqueeze
    "unsqueeze2": (
        "unsqueeze_unsqueeze_rule",
        18,
        "g (float[2,3] x) => (y) { a = "
        + _i64(0)
        + "\n b = "
        + _i64(2)
        + "\n t = Unsqueeze(x, a)\n y = Unsqueeze(t, b)}",
    ),
    "unsqueeze2_symbolic": (
        "unsqueeze_unsqueeze_rule",
        18,
        "g (float[N,3] x) => (y) { a = "
        + _i64(1)
        + "\n b = "
        + _i64(0)
        + "\n t = Unsqueeze(x, a)\n y = Unsqueeze(t, b)}",
    ),
    "unsqueeze2_negative": (
        "unsqueeze_unsqueeze_rule",
        18,
        "g (float[2,3] x) => (y) { a = "
        + _i64(-1)
        + "\n b = "
        + _i64(0)
        + "\n t = Unsqueeze(x, a)\n y = Unsqueeze(t, b)}",
    ),
    "unsqueeze2_several": (
        "unsqueeze_unsqueeze_rule",
        18,
        "g (float[2,3] x) => (y) { a = "
        + _i64(0, 3)
        + "\n b = "
        + _i64(1)
        + "\n t = Unsqueeze(x, a)\n y = Unsqueeze(t, b)}",
    ),
    "unsqueeze2_dynamic_axes": (
        "unsqueeze_unsqueeze_rule",
        18,
        "g (float[2,3] x) => (float[1,1,2,3] y) { a0 = "
        + _i64(0)
        + "\n a = Identity(a0)\n b = "
        + _i64(1)
        + "\n t = Unsqueeze(x, a)\n y = Unsqueeze(t, b)}",
    ),
    # Flatten
    "flatten_static": (
        "flatten_to_reshape_rule",
        18,
        "g (float[2,3,4] x) => (y) { y = Flatten<axis=1>(x)}",
    ),
    "flatten_default_axis": (
        "flatten_to_reshape_rule",
        18,
        "g (float[2,3,4] x) => (y) { y = Flatten(x)}",
    ),
    "flatten_symbolic_batch": (
        "flatten_to_reshape_rule",
        18,
        "g (float[N,3,4] x) => (y) { y = Flatten<axis=1>(x)}",
    ),
    "flatten_symbolic_tail": (
        "flatten_to_reshape_rule",
        18,
        "g (float[2,N,4] x) => (y) { y = Flatten<axis=1>(x)}",
    ),
    "flatten_axis2_symbolic_head": (
        "flatten_to_reshape_rule",
        18,
        "g (float[N,3,4] x) => (y) { y = Flatten<axis=2>(x)}",
    ),
    "flatten_axis0": (
        "flatten_to_reshape_rule",
        18,
        "g (float[2,3,4] x) => (y) { y = Flatten<axis=0>(x)}",
    ),
    "flatten_axis_last": (
        "flatten_to_reshape_rule",
        18,
        "g (float[2,3,4] x) => (y) { y = Flatten<axis=3>(x)}",
    ),
    "flatten_axis_negative": (
        "flatten_to_reshape_rule",
        18,
        "g (float[2,3,4] x) => (y) { y = Flatten<axis=-1>(x)}",
    ),
    "flatten_two_symbolic": (
        "flatten_to_reshape_rule",
        18,
        "g (float[N,M,4] x) => (y) { y = Flatten<axis=1>(x)}",
    ),
    "flatten_unknown_rank": (
        "flatten_to_reshape_rule",
        18,
        "g (float[N,M,4] x) => (y) { s = Abs(x)\n y = Flatten<axis=1>(s)}",
    ),
    "flatten_unknown_rank_axis0": (
        "flatten_to_reshape_rule",
        18,
        "g (float[N,M,4] x) => (y) { s = Abs(x)\n y = Flatten<axis=0>(s)}",
    ),
    # Reshape
    "reshape2": (
        "reshape_reshape_rule",
        18,
        "g (float[2,3,4] x) => (y) { a = "
        + _i64(6, 4)
        + "\n b = "
        + _i64(4, 6)
        + "\n t = Reshape(x, a)\n y = Reshape(t, b)}",
    ),
    "reshape2_minus1": (
        "reshape_reshape_rule",
        18,
        "g (float[2,3,4] x) => (y) { a = "
        + _i64(6, 4)
        + "\n b = "
        + _i64(-1, 6)
        + "\n t = Reshape(x, a)\n y = Reshape(t, b)}",
    ),
    "reshape2_zero_and_minus1": (
        "reshape_reshape_rule",
        18,
        "g (float[2,3,4] x) => (y) { a = "
        + _i64(6, 4)
        + "\n b = "
        + _i64(0, -1)
        + "\n t = Reshape(x, a)\n y = Reshape(t, b)}",
    ),
    "reshape2_dynamic_outer": (
        "reshape_reshape_rule",
        18,
        "g (float[2,3,4] x, float[4,6] z) => (y) { a = "
        + _i64(6, 4)
        + "\n b = Shape(z)\n t = Reshape(x, a)\n y = Reshape(t, b)}",
    ),
    "reshape2_dynamic_inner": (
        "reshape_reshape_rule",
        18,
        "g (float[2,3,4] x, float[6,4] z) => (y) { b = "
        + _i64(4, 6)
        + "\n a = Shape(z)\n t = Reshape(x, a)\n y = Reshape(t, b)}",
    ),
    "reshape2_zero_copies_zero": (
        "reshape_reshape_rule",
        18,
        "g (float[N,3,4] x) => (y) { a = "
        + _i64(0, 12)
        + "\n b = "
        + _i64(0, 3, 4)
        + "\n t = Reshape(x, a)\n y = Reshape(t, b)}",
    ),
    "reshape2_zero_copies_minus1": (
        "reshape_reshape_rule",
        18,
        "g (float[N,3,4] x) => (y) { a = "
        + _i64(-1, 4)
        + "\n b = "
        + _i64(0, 2, 2)
        + "\n t = Reshape(x, a)\n y = Reshape(t, b)}",
    ),
    "reshape2_zero_and_minus1_symbolic": (
        "reshape_reshape_rule",
        18,
        "g (float[N,3,4] x) => (y) { a = "
        + _i64(12, -1)
        + "\n b = "
        + _i64(0, 3, -1)
        + "\n t = Reshape(x, a)\n y = Reshape(t, b)}",
    ),
    "squeeze_reshape_1d": (
        "squeeze_reshape_1d_rule",
        18,
        "g (float[N] x) => (y) { s = " + _i64(-1) + "\n t = Squeeze(x)\n y = Reshape(t, s)}",
    ),
    "squeeze_reshape_1d_static": (
        "squeeze_reshape_1d_rule",
        18,
        "g (float[1] x) => (y) { s = " + _i64(-1) + "\n t = Squeeze(x)\n y = Reshape(t, s)}",
    ),
    "squeeze_reshape_2d": (
        "squeeze_reshape_1d_rule",
        18,
        "g (float[1,4] x) => (y) { s = " + _i64(-1) + "\n t = Squeeze(x)\n y = Reshape(t, s)}",
    ),
    "squeeze_reshape_other_shape": (
        "squeeze_reshape_1d_rule",
        18,
        "g (float[1,4] x) => (y) { s = " + _i64(2, 2) + "\n t = Squeeze(x)\n y = Reshape(t, s)}",
    ),
    "materialize_static": (
        "materialize_reshape_shape_rule",
        18,
        "g (float[2,3,4] x, float[6,4] z) => (float[6,4] y) { s = Shape(z)\n y = Reshape(x, s)}",
    ),
    "materialize_one_symbolic": (
        "materialize_reshape_shape_rule",
        18,
        "g (float[N,3,4] x, float[N,12] z) => (float[N,12] y) { s = Shape(z)\n y = Reshape(x, s)}",
    ),
    "materialize_moved_symbolic": (
        "materialize_reshape_shape_rule",
        18,
        "g (float[N,3,4] x, float[3,N,4] z) => (float[3,N,4] y) { s = Shape(z)\n y = Reshape(x, s)}",
    ),
    "materialize_two_symbolic": (
        "materialize_reshape_shape_rule",
        18,
        "g (float[N,M,4] x, float[N,M,2,2] z) => (float[N,M,2,2] y) { s = Shape(z)\n y = Reshape(x, s)}",
    ),
    "materialize_new_symbolic": (
        "materialize_reshape_shape_rule",
        18,
        "g (float[N,3,4] x, float[N,3,4] z) => (float[N,3,M] y) { s = Shape(z)\n y = Reshape(x, s)}",
    ),
    "materialize_same_shape": (
        "materialize_reshape_shape_rule",
        18,
        "g (float[N,M,4] x, float[N,M,4] z) => (float[N,M,4] y) { s = Shape(z)\n y = Reshape(x, s)}",
    ),
    "materialize_constant_shape": (
        "materialize_reshape_shape_rule",
        18,
        "g (float[2,3,4] x) => (float[6,4] y) { s = " + _i64(-1, 4) + "\n y = Reshape(x, s)}",
    ),
    "materialize_unknown_result": (
        "materialize_reshape_shape_rule",
        18,
        "g (float[2,3,4] x, float[6,4] z) => (y) { s0 = Shape(z)\n s = Identity(s0)\n y = Reshape(x, s)}",
    ),
    # Min / Max
    "minmin": (
        "min_min_rule",
        18,
        "g (float[N,4] x) => (y) { a = Constant<value=float {1.0}>()\n b = Constant<value=float {2.0}>()\n t = Min(x, a)\n y = Min(t, b)}",
    ),
    "minmin_vectors": (
        "min_min_rule",
        18,
        "g (float[N,4] x) => (y) { a = Constant<value=float[4] {1,2,3,4}>()\n b = Constant<value=float[4] {2,1,0,5}>()\n t = Min(x, a)\n y = Min(t, b)}",
    ),
    "minmin_dynamic": (
        "min_min_rule",
        18,
        "g (float[N,4] x, float a) => (y) { b = Constant<value=float {2.0}>()\n t = Min(x, a)\n y = Min(t, b)}",
    ),
    "maxmax": (
        "max_max_rule",
        18,
        "g (float[N,4] x) => (y) <float a = {1.0}, float b = {2.0}> { t = Max(x, a)\n y = Max(t, b)}",
    ),
    "minmax": (
        "min_max_rule",
        18,
        "g (float[N,4] x) => (y) { a = Constant<value=float {3.0}>()\n b = Constant<value=float {-2.0}>()\n t = Min(x, a)\n y = Max(t, b)}",
    ),
    "minmax_empty_range": (
        "min_max_rule",
        18,
        "g (float[N,4] x) => (y) { a = Constant<value=float {-3.0}>()\n b = Constant<value=float {2.0}>()\n t = Min(x, a)\n y = Max(t, b)}",
    ),
    "minmax_vector": (
        "min_max_rule",
        18,
        "g (float[N,4] x) => (y) { a = Constant<value=float[4] {1,2,3,4}>()\n b = Constant<value=float {-2.0}>()\n t = Min(x, a)\n y = Max(t, b)}",
    ),
    "maxmin": (
        "max_min_rule",
        18,
        "g (float[N,4] x) => (y) { a = Constant<value=float {-2.0}>()\n b = Constant<value=float {3.0}>()\n t = Max(x, a)\n y = Min(t, b)}",
    ),
    "maxmin_empty_range": (
        "max_min_rule",
        18,
        "g (float[N,4] x) => (y) { a = Constant<value=float {3.0}>()\n b = Constant<value=float {-2.0}>()\n t = Max(x, a)\n y = Min(t, b)}",
    ),
    "maxmin_int": (
        "max_min_rule",
        18,
        "g (int64[N,4] x) => (y) { a = Constant<value=int64 {-2}>()\n b = Constant<value=int64 {3}>()\n t = Max(x, a)\n y = Min(t, b)}",
    ),
    "maxmin_one_element_vectors": (
        "max_min_rule",
        18,
        "g (float[N,4] x) => (y) { a = Constant<value=float[1] {-2}>()\n b = Constant<value=float[1] {3}>()\n t = Max(x, a)\n y = Min(t, b)}",
    ),
    "maxmin_broadcast_rank": (
        "max_min_rule",
        18,
        "g (float[4] x) => (y) { a = Constant<value=float[1,1] {-2}>()\n b = Constant<value=float {3.0}>()\n t = Max(x, a)\n y = Min(t, b)}",
    ),
    # Relu / Clip
    "relu_relu": (
        "successive_relu_rule",
        18,
        "g (float[N,4] x) => (y) { t = Relu(x)\n y = Relu(t)}",
    ),
    "clip_clip": (
        "successive_clip_rule",
        18,
        "g (float[N,4] x) => (y) <float a = {-1.0}, float b = {5.0}, float c = {0.0}, float d = {3.0}> { t = Clip(x, a, b)\n y = Clip(t, c, d)}",
    ),
    "clip_clip_half_open": (
        "successive_clip_rule",
        18,
        "g (float[N,4] x) => (y) <float a = {-1.0}, float d = {3.0}> { t = Clip(x, a)\n y = Clip(t, , d)}",
    ),
    "clip_clip_disjoint": (
        "successive_clip_rule",
        18,
        "g (float[N,4] x) => (y) <float a = {-1.0}, float b = {0.0}, float c = {1.0}, float d = {3.0}> { t = Clip(x, a, b)\n y = Clip(t, c, d)}",
    ),
    "clip_clip_dynamic": (
        "successive_clip_rule",
        18,
        "g (float[N,4] x, float a) => (y) <float c = {0.0}, float d = {3.0}> { t = Clip(x, a)\n y = Clip(t, c, d)}",
    ),
    "relu_of_clip": (
        "successive_relu_clip_rule",
        18,
        "g (float[N,4] x) => (y) <float a = {-1.0}, float b = {5.0}> { t = Clip(x, a, b)\n y = Relu(t)}",
    ),
    "relu_of_clip_no_min": (
        "successive_relu_clip_rule",
        18,
        "g (float[N,4] x) => (y) <float b = {5.0}> { t = Clip(x, , b)\n y = Relu(t)}",
    ),
    "relu_of_clip_bare": (
        "successive_relu_clip_rule",
        18,
        "g (float[N,4] x) => (y) { t = Clip(x)\n y = Relu(t)}",
    ),
    "relu_of_clip_negative_max": (
        "successive_relu_clip_rule",
        18,
        "g (float[N,4] x) => (y) <float a = {-3.0}, float b = {-1.0}> { t = Clip(x, a, b)\n y = Relu(t)}",
    ),
    "clip_of_relu": (
        "successive_clip_relu_rule",
        18,
        "g (float[N,4] x) => (y) <float a = {-1.0}, float b = {5.0}> { t = Relu(x)\n y = Clip(t, a, b)}",
    ),
    "clip_of_relu_dynamic": (
        "successive_clip_relu_rule",
        18,
        "g (float[N,4] x, float a) => (y) { t = Relu(x)\n y = Clip(t, a)}",
    ),
}
