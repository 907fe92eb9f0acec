"""Smaller changes: Constant's value_* attributes (12), Gemm's optional C (11), Pow's
exponent type (12), GridSample's mode names (20), RoiAlign's coordinate mode (16), Shape's
start/end (15), TopK's largest/sorted (11), Reshape's allowzero (14)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.version_converter._context import Adapt, Rewrite, nothing
from onnxscript.version_converter.adapters._tables import Table, chain, step
from onnxscript.version_converter.adapters.negative_axes import input_rank, non_negative

_CONSTANT_FORMS: dict[str, Any] = {
    "value_float": np.float32,
    "value_floats": np.float32,
    "value_int": np.int64,
    "value_ints": np.int64,
    "value_string": np.object_,
    "value_strings": np.object_,
}


def _constant_as_tensor(rewrite: Rewrite) -> None:
    for name, dtype in _CONSTANT_FORMS.items():
        value = rewrite.attr(name)
        if value is None:
            continue
        rewrite.drop_attr(name)
        if dtype is np.object_:
            tensor: ir.TensorProtocol = ir.StringTensor(np.array(value, dtype=np.bytes_))
        else:
            tensor = ir.tensor(np.array(value, dtype=dtype))
        rewrite.set_attr("value", tensor)


_CONSTANT_1_TYPES = (ir.DataType.FLOAT, ir.DataType.FLOAT16, ir.DataType.DOUBLE)


def _initializer_unless_float(rewrite: Rewrite) -> None:
    """Constant-1 holds floating-point tensors only: another constant becomes an
    initializer of its graph (a function body, which has none, cannot take it)."""
    node = rewrite.node
    attr = node.attributes.get("value")
    if attr is None or attr.is_ref():
        return
    tensor = attr.as_tensor()
    if tensor.dtype in _CONSTANT_1_TYPES:
        return
    graph = node.graph
    if graph is None or rewrite.in_function:
        rewrite.fail(f"a {tensor.dtype.name} constant needs Constant-9 inside a function")
    output = node.outputs[0]
    value = ir.Value(
        name=output.name, type=ir.TensorType(tensor.dtype), shape=ir.Shape(tensor.shape.numpy())
    )
    value.const_value = tensor
    rewrite.replace_output(0, value)
    graph.remove(node, safe=True)
    graph.register_initializer(value)


def _no_sparse(rewrite: Rewrite) -> None:
    if rewrite.attr("sparse_value") is not None:
        rewrite.fail("sparse_value needs Constant-11")


def _c_given(rewrite: Rewrite) -> None:
    if rewrite.input(2) is None:
        dtype = rewrite.required_dtype(rewrite.input(0))
        rewrite.set_input(2, rewrite.const(0, dtype))


def _exponent_as_base_type(rewrite: Rewrite) -> None:
    base, exponent = rewrite.dtype(rewrite.input(0)), rewrite.dtype(rewrite.input(1))
    if base is None or exponent is None or base == exponent:
        return
    cast = rewrite.op1("Cast", [rewrite.input(1)], {"to": base})
    cast.dtype = base
    rewrite.node.replace_input_with(1, cast)


def _renamed_modes(names: dict[str, str]) -> Adapt:
    def apply(rewrite: Rewrite) -> None:
        mode = rewrite.attr("mode")
        if mode in names:
            rewrite.set_attr("mode", names[mode])

    return apply


def _four_dimensional(rewrite: Rewrite) -> None:
    rank = rewrite.rank(rewrite.input(0))
    if rank is not None and rank != 4:
        rewrite.fail(f"a {rank}-D input needs GridSample-20 (16 handles 4-D inputs)")


def _output_half_pixel(rewrite: Rewrite) -> None:
    if rewrite.attr("coordinate_transformation_mode") is None:
        rewrite.set_attr("coordinate_transformation_mode", "output_half_pixel")


def _only_output_half_pixel(rewrite: Rewrite) -> None:
    mode = rewrite.attr("coordinate_transformation_mode", "half_pixel")
    if mode != "output_half_pixel":
        rewrite.fail(f"coordinate_transformation_mode {mode!r} needs RoiAlign-16")
    rewrite.drop_attr("coordinate_transformation_mode")


def _shape_slice(rewrite: Rewrite) -> None:
    start, end = rewrite.attr("start", 0), rewrite.attr("end")
    rewrite.drop_attr("start", "end")
    if start == 0 and end is None:
        return
    stop = np.iinfo(np.int64).max if end is None else end

    def sliced(shape: ir.Value) -> ir.Value:
        starts = rewrite.const([start], np.int64)
        ends = rewrite.const([stop], np.int64)
        axes = rewrite.const([0], np.int64)
        return rewrite.op1("Slice", [shape, starts, ends, axes], after=True)

    rewrite.through(0, sliced)


def _largest_only(rewrite: Rewrite) -> None:
    if rewrite.attr("largest", 1) != 1:
        rewrite.fail("largest=0 (the smallest k) needs TopK-11")
    rewrite.drop_attr("largest", "sorted")  # sorted results are a valid unsorted answer


def _no_zero_copy(rewrite: Rewrite) -> None:
    allowzero = rewrite.attr("allowzero", 0)
    rewrite.drop_attr("allowzero")
    shape = rewrite.constant(1)
    if allowzero and (shape is None or bool((shape == 0).any())):
        rewrite.fail("allowzero=1 with a shape that may hold 0 needs Reshape-14")


ADAPTERS: Table = step(
    "Constant",
    9,
    nothing,
    _initializer_unless_float,
    "unchanged (new element types)",
    "a constant of a type Constant-1 lacks becomes an initializer",
)
ADAPTERS |= step(
    "Constant",
    11,
    nothing,
    _no_sparse,
    "unchanged (sparse_value allowed)",
    "sparse_value refused",
)
ADAPTERS |= step(
    "Constant",
    12,
    nothing,
    _constant_as_tensor,
    "unchanged (value_* attributes allowed)",
    "value_float(s)/value_int(s)/value_string(s) become a value tensor",
)
ADAPTERS |= step(
    "Gemm", 11, nothing, _c_given, "unchanged (C optional)", "an omitted C becomes a zero"
)
ADAPTERS |= step(
    "Pow",
    12,
    nothing,
    _exponent_as_base_type,
    "unchanged (exponent type of its own, integer bases)",
    "an exponent of another type cast to the base's type",
)
ADAPTERS |= step(
    "GridSample",
    20,
    _renamed_modes({"bilinear": "linear", "bicubic": "cubic"}),
    chain(_four_dimensional, _renamed_modes({"linear": "bilinear", "cubic": "bicubic"})),
    "modes bilinear/bicubic renamed linear/cubic",
    "modes linear/cubic renamed bilinear/bicubic; 4-D inputs only",
)
ADAPTERS |= step(
    "RoiAlign",
    16,
    _output_half_pixel,
    _only_output_half_pixel,
    "coordinate_transformation_mode output_half_pixel made explicit (the old behaviour)",
    "coordinate_transformation_mode must be output_half_pixel; dropped",
)
ADAPTERS |= step(
    "Shape",
    15,
    nothing,
    _shape_slice,
    "unchanged (new start/end attributes)",
    "start/end become a Slice of the shape",
)
ADAPTERS |= step(
    "TopK",
    11,
    nothing,
    chain(non_negative("axis", input_rank()), _largest_only),
    "unchanged (largest, sorted, negative axis)",
    "largest must be 1; sorted dropped; negative axis counted",
)
ADAPTERS |= step(
    "Reshape",
    14,
    nothing,
    _no_zero_copy,
    "unchanged (new allowzero attribute)",
    "allowzero=1 only with a constant shape without zeros; dropped",
)

__all__ = ["ADAPTERS"]
