"""Softmax, LogSoftmax and Hardmax: before 13 they coerce the input to 2-D at ``axis``
(default 1) and normalize each row; from 13 they normalize along the one ``axis``
(default -1). The two agree when the axis is the last one.

Up: Flatten at the axis, normalize the last axis, Reshape back to the input's shape.
Down: a Transpose brings the axis last (and back) unless it already is.
"""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.version_converter._context import Rewrite
from onnxscript.version_converter.adapters._tables import Table, step


def _is_last(rewrite: Rewrite, axis: int) -> bool:
    rank = rewrite.rank(rewrite.input(0))
    return axis == -1 or (rank is not None and axis == rank - 1)


def _coerced_to_single_axis(rewrite: Rewrite) -> None:
    axis = rewrite.attr("axis", 1)
    if _is_last(rewrite, axis):
        rewrite.set_attr("axis", -1)
        return
    data = rewrite.input(0)
    flat = rewrite.op1("Flatten", [data], {"axis": axis})
    flat.shape = ir.Shape([None, None])
    rewrite.node.replace_input_with(0, flat)
    rewrite.set_attr("axis", 1)
    shape = rewrite.op1("Shape", [data])

    def back(result: ir.Value) -> ir.Value:
        return rewrite.op1("Reshape", [result, shape], after=True)

    rewrite.through(0, back)


def _single_axis_to_coerced(rewrite: Rewrite) -> None:
    axis = rewrite.attr("axis", -1)
    if _is_last(rewrite, axis):
        rewrite.set_attr("axis", axis)
        return
    if rewrite.rank(rewrite.input(0)) is None and rewrite.node.op_type != "Hardmax":
        _written_out(rewrite, axis)
        return
    rank = rewrite.required_rank(rewrite.input(0), "to move the axis last")
    axis = axis + rank if axis < 0 else axis
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    moved = rewrite.op1("Transpose", [rewrite.input(0)], {"perm": perm})
    rewrite.node.replace_input_with(0, moved)
    rewrite.set_attr("axis", rank - 1)

    def back(result: ir.Value) -> ir.Value:
        return rewrite.op1("Transpose", [result], {"perm": perm}, after=True)

    rewrite.through(0, back)


def _written_out(rewrite: Rewrite, axis: int) -> None:
    """(Log)Softmax along ``axis`` of an input of unknown rank, with Reduce ops (which
    take a negative axis from opset 11): x - max, exp, sum, divide (or subtract the log)."""
    x = rewrite.input(0)
    peak = rewrite.op1("ReduceMax", [x], {"axes": [axis], "keepdims": 1})
    shifted = rewrite.op1("Sub", [x, peak])
    exp = rewrite.op1("Exp", [shifted])
    total = rewrite.op1("ReduceSum", [exp], {"axes": [axis], "keepdims": 1})
    if rewrite.node.op_type == "LogSoftmax":
        result = rewrite.op1("Sub", [shifted, rewrite.op1("Log", [total])])
    else:
        result = rewrite.op1("Div", [exp, total])
    rewrite.replace_outputs([result])


ADAPTERS: Table = {}
for _op in ("Softmax", "LogSoftmax", "Hardmax"):
    ADAPTERS |= step(
        _op,
        13,
        _coerced_to_single_axis,
        _single_axis_to_coerced,
        "axis made explicit; a non-last axis: Flatten, normalize, Reshape back",
        "the last axis kept; another axis moved last by Transpose and back (unknown rank:"
        " written out with ReduceMax/Exp/ReduceSum; Hardmax needs the rank)",
    )

__all__ = ["ADAPTERS"]
