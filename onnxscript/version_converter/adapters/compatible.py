"""Steps whose upgrade keeps every node's meaning: new element types, new attributes whose
defaults keep the old behaviour, new attribute values, negative axes, broadcasting. Going
down, the node must not use what the older version lacks."""

from __future__ import annotations

from onnxscript.version_converter._context import Adapt, Rewrite, nothing
from onnxscript.version_converter.adapters._tables import (
    Table,
    absent_input,
    all_ones,
    chain,
    default_only,
    equals,
    new_attributes,
    new_values,
    step,
    types_only,
)

_REDUCE: tuple[str, ...] = ("ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax")
_REDUCE += ("ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare")
_IMPORT_TYPES = (21, 23, 24, 25)
"""Opsets that added int4/float4/float8e8m0/int2 to the data-movement ops."""

TYPES_ONLY: dict[str, tuple[int, ...]] = {
    "Abs": (13,),
    "Acos": (22,),
    "Acosh": (22,),
    "Add": (13, 14),
    "ArgMax": (13,),
    "ArgMin": (13,),
    "Asin": (22,),
    "Asinh": (22,),
    "Atan": (22,),
    "Atanh": (22,),
    "AveragePool": (11,),
    "Bernoulli": (22,),
    "BitShift": (28,),
    "Cast": (9, 13, 21, 23, 25, 28),
    "CastLike": (21, 23, 25),
    "Ceil": (13,),
    "Celu": (28,),
    "Clip": (12, 13),
    "Compress": (28,),
    "Concat": (13,),
    "Constant": (13, 19, *_IMPORT_TYPES),
    "ConstantOfShape": (20, *_IMPORT_TYPES),
    "Conv": (11, 22),
    "ConvTranspose": (22,),
    "Cos": (22,),
    "Cosh": (22,),
    "CumSum": (14,),
    "DeformConv": (22,),
    "DepthToSpace": (13, 28),
    "DequantizeLinear": (24, 25, 28),
    "Det": (22,),
    "Div": (13, 14),
    "Dropout": (13, 22),
    "Einsum": (28,),
    "Elu": (22,),
    "Equal": (11, 13, 19),
    "Erf": (13,),
    "Exp": (13,),
    "Expand": (13,),
    "EyeLike": (22,),
    "Flatten": (9, 13, *_IMPORT_TYPES),
    "Floor": (13,),
    "GRU": (22,),
    "Gather": (13,),
    "GatherElements": (13,),
    "GatherND": (13,),
    "Gemm": (9, 13),
    "GlobalAveragePool": (22,),
    "GlobalLpPool": (22,),
    "GlobalMaxPool": (22,),
    "Greater": (9, 13),
    "GreaterOrEqual": (16,),
    "GridSample": (22,),
    "HardSigmoid": (22,),
    "HardSwish": (22,),
    "Identity": (13, 14, 16, 19, *_IMPORT_TYPES),
    "If": (11, 13, 16, 19, *_IMPORT_TYPES),
    "InstanceNormalization": (22,),
    "IsInf": (20,),
    "IsNaN": (13, 20),
    "LRN": (13,),
    "LSTM": (22,),
    "LeakyRelu": (16,),
    "Less": (9, 13),
    "LessOrEqual": (16,),
    "Log": (13,),
    "Loop": (13, 16, 19, *_IMPORT_TYPES),
    "LpNormalization": (22,),
    "LpPool": (11, 22),
    "MatMul": (9, 13),
    "Max": (12, 13),
    "MaxPool": (11, 12),
    "MaxRoiPool": (22,),
    "MaxUnpool": (11, 22),
    "Mean": (13,),
    "MeanVarianceNormalization": (13,),
    "Min": (12, 13),
    "Mish": (22,),
    "Mod": (13,),
    "Mul": (13, 14),
    "Multinomial": (22,),
    "Neg": (13,),
    "NegativeLogLikelihoodLoss": (13, 22),
    "NonMaxSuppression": (11,),
    "NonZero": (13,),
    "OneHot": (28,),
    "Optional": (28,),
    "OptionalGetElement": (18, 28),
    "OptionalHasElement": (28,),
    "PRelu": (9, 16),
    "Pad": (13, *_IMPORT_TYPES),
    "Pow": (13, 15),
    "QLinearMatMul": (21,),
    "QuantizeLinear": (24, 25, 28),
    "RNN": (22,),
    "RandomNormal": (22,),
    "RandomNormalLike": (22,),
    "RandomUniform": (22,),
    "RandomUniformLike": (22,),
    "Reciprocal": (13,),
    **{op: (13,) for op in _REDUCE if op != "ReduceSum"},
    "ReduceMax": (12, 13, 20),
    "ReduceMin": (12, 13, 20),
    "ReduceLogSum": (13, 28),
    "ReduceLogSumExp": (13, 28),
    "Relu": (13, 14),
    "Reshape": (13, 19, *_IMPORT_TYPES),
    "ReverseSequence": (28,),
    "RoiAlign": (22,),
    "Round": (22,),
    "Scan": (16, 19, *_IMPORT_TYPES),
    "ScatterElements": (13,),
    "ScatterND": (13,),
    "Selu": (22,),
    "Shape": (13, 19, *_IMPORT_TYPES),
    "Sigmoid": (13,),
    "Sign": (13,),
    "Sin": (22,),
    "Sinh": (22,),
    "Size": (13, 19, *_IMPORT_TYPES),
    "Slice": (13,),
    "SoftmaxCrossEntropyLoss": (13,),
    "Softplus": (22,),
    "Softsign": (22,),
    "SpaceToDepth": (13,),
    "SplitToSequence": (24,),
    "Sqrt": (13,),
    "Squeeze": _IMPORT_TYPES,
    "Sub": (13, 14),
    "Sum": (13,),
    "Tan": (22,),
    "Tanh": (13,),
    "ThresholdedRelu": (22,),
    "Tile": (13,),
    "TopK": (24,),
    "Transpose": (13, *_IMPORT_TYPES),
    "Unique": (28,),
    "Unsqueeze": _IMPORT_TYPES,
    "Where": (16,),
}
"""op: the versions whose step from the previous one only changed element types or the
documentation (clarified, not changed, meaning)."""


def _drop(*names: str) -> Adapt:
    """Attributes that only matter for element types the older version lacks."""

    def apply(rewrite: Rewrite) -> None:
        rewrite.drop_attr(*names)

    return apply


def _dropping(op_type: str, version: int, *names: str) -> Table:
    listed = ", ".join(names)
    return step(
        op_type,
        version,
        nothing,
        _drop(*names),
        f"unchanged (new {listed}: only for new element types)",
        f"{listed} dropped (only for element types the older version lacks)",
    )


_ZERO = equals(0)

NEW_ATTRIBUTES: Table = (
    new_attributes("ArgMax", 12, {"select_last_index": _ZERO})
    | new_attributes("ArgMin", 12, {"select_last_index": _ZERO})
    | new_attributes("AveragePool", 10, {"ceil_mode": _ZERO})
    | new_attributes("AveragePool", 19, {"dilations": all_ones})
    | new_attributes("LpPool", 18, {"ceil_mode": _ZERO, "dilations": all_ones})
    | new_attributes("MaxPool", 10, {"ceil_mode": _ZERO, "dilations": all_ones})
    | new_attributes("DepthToSpace", 11, {"mode": equals("DCR")})
    | new_attributes("SpaceToDepth", 28, {"mode": equals("DCR")})
    | new_attributes("GatherND", 12, {"batch_dims": _ZERO})
    | new_attributes("ScatterElements", 16, {"reduction": equals("none")})
    | new_attributes("ScatterND", 16, {"reduction": equals("none")})
    | new_attributes(
        "Attention", 25, {"left_window_size": equals(-1), "right_window_size": equals(-1)}
    )
    | _dropping("Cast", 19, "saturate")
    | _dropping("CastLike", 19, "saturate")
    | _dropping("Cast", 24, "round_mode")
    | _dropping("CastLike", 24, "round_mode")
    | _dropping("Range", 27, "stash_type")
)
"""Attributes added with a default that keeps the old meaning."""

NEW_VALUES: Table = (
    new_values("Pad", 19, "mode", ["wrap"])
    | new_values("Resize", 19, "coordinate_transformation_mode", ["half_pixel_symmetric"])
    | new_values("ScatterElements", 18, "reduction", ["max", "min"])
    | new_values("ScatterND", 18, "reduction", ["max", "min"])
)
"""Attributes that gained values."""


def _same_shapes(rewrite: Rewrite) -> None:
    """Before opset 8, Sum/Max/Min/Mean needed inputs of one shape (no broadcasting)."""
    inputs = [v for v in rewrite.node.inputs if v is not None]
    if len(inputs) < 2:
        return
    shapes = [v.shape for v in inputs]
    known = all(s is not None and all(isinstance(d, int) or d.value for d in s) for s in shapes)
    if not known or any(s != shapes[0] for s in shapes):
        rewrite.fail(_BROADCAST)


def _at_least_one_state(rewrite: Rewrite) -> None:
    if len(rewrite.node.inputs) < 3:
        rewrite.fail("Loop-1 needs at least one loop-carried value")


def _no_negative_scan_axes(rewrite: Rewrite) -> None:
    for name in ("scan_input_axes", "scan_output_axes"):
        if any(a < 0 for a in rewrite.attr(name, [])):
            rewrite.fail(f"{name} has a negative axis, which Scan-9 does not accept")


def _mod_floor_on_floats(rewrite: Rewrite) -> None:
    dtype = rewrite.dtype(rewrite.input(0))
    if rewrite.attr("fmod", 0) == 0 and dtype is not None and dtype.is_floating_point():
        rewrite.fail("fmod=0 (floored modulo) on floating-point inputs needs Mod-28")


def _required_input(index: int, what: str) -> Adapt:
    def apply(rewrite: Rewrite) -> None:
        if rewrite.input(index) is None:
            rewrite.fail(f"{what} (input {index}) is required before this version")

    return apply


def _no_indices(rewrite: Rewrite) -> None:
    outputs = rewrite.node.outputs
    if len(outputs) > 1 and (outputs[1].uses() or outputs[1].is_graph_output()):
        rewrite.fail("the Indices output does not exist before MaxPool-8")
    rewrite.node.resize_outputs(1)


def _plain_conv_transpose_padding(rewrite: Rewrite) -> None:
    if rewrite.attr("auto_pad", "NOTSET") in ("SAME_UPPER", "SAME_LOWER"):
        rewrite.fail("ConvTranspose-11 corrected how auto_pad SAME_UPPER/SAME_LOWER split pads")


_BROADCAST = "the older version does not broadcast: the inputs' shapes must be known and equal"

OTHER: Table = {}
for _op in ("Sum", "Max", "Min", "Mean"):
    OTHER |= step(_op, 8, nothing, _same_shapes, "unchanged (broadcasting added)", _BROADCAST)
OTHER |= step(
    "Loop",
    11,
    nothing,
    _at_least_one_state,
    "unchanged (loop-carried values may be absent)",
    "needs at least one loop-carried value",
)
OTHER |= step(
    "Scan",
    11,
    nothing,
    _no_negative_scan_axes,
    "unchanged (negative scan axes allowed)",
    "scan axes must not be negative",
)
OTHER |= step(
    "Mod",
    28,
    nothing,
    _mod_floor_on_floats,
    "unchanged (floored modulo allowed on floating-point inputs)",
    "fmod=0 must not be used on floating-point inputs",
)
OTHER |= step(
    "OptionalHasElement",
    18,
    nothing,
    _required_input(0, "input"),
    "unchanged (input may be omitted)",
    "the input must be given",
)
OTHER |= step(
    "ConvTranspose",
    11,
    _plain_conv_transpose_padding,
    _plain_conv_transpose_padding,
    "auto_pad SAME_UPPER/SAME_LOWER refused (their padding split was corrected)",
    "auto_pad SAME_UPPER/SAME_LOWER refused (their padding split was corrected)",
)
OTHER |= step(
    "Attention",
    24,
    nothing,
    absent_input(6, "nonpad_kv_seqlen"),
    "unchanged (new optional input nonpad_kv_seqlen)",
    "nonpad_kv_seqlen must be omitted",
)
OTHER |= step(
    "MaxPool",
    8,
    nothing,
    chain(_no_indices, default_only("storage_order", _ZERO)),
    "unchanged (new Indices output and storage_order attribute)",
    "the Indices output must be unused and storage_order 0; both dropped",
)

ADAPTERS: Table = types_only(TYPES_ONLY) | NEW_ATTRIBUTES | NEW_VALUES | OTHER
