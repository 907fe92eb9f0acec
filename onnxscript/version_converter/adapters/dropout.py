"""Dropout: its mask became boolean at 10; ratio became an input and training_mode an
input at 12 (before 12, Dropout in a model is inference: the output is the input)."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir

from onnxscript.version_converter._context import Rewrite
from onnxscript.version_converter.adapters._tables import Table, step
from onnxscript.version_converter.adapters.axes_inputs import attribute_to_input


def _mask_as(rewrite: Rewrite, dtype: ir.DataType, old: ir.DataType) -> None:
    """The mask output, now of type ``old``, read as ``dtype`` by its readers."""
    outputs = rewrite.node.outputs
    if len(outputs) < 2 or not (outputs[1].uses() or outputs[1].is_graph_output()):
        return
    outputs[1].dtype = old

    def cast(mask: ir.Value) -> ir.Value:
        result = rewrite.op1("Cast", [mask], {"to": dtype}, after=True)
        result.dtype = dtype
        return result

    rewrite.through(1, cast)


def _mask_to_bool(rewrite: Rewrite) -> None:
    data_type = rewrite.required_dtype(rewrite.input(0))
    _mask_as(rewrite, data_type, ir.DataType.BOOL)


def _mask_to_data_type(rewrite: Rewrite) -> None:
    data_type = rewrite.required_dtype(rewrite.input(0))
    _mask_as(rewrite, ir.DataType.BOOL, data_type)


def _ratio_to_input(rewrite: Rewrite) -> None:
    attribute_to_input(rewrite, "ratio", 1, np.float32)


def _inference_only(rewrite: Rewrite) -> None:
    training = rewrite.input(2)
    if training is not None:
        flag = rewrite.constant(2)
        if flag is None or bool(flag.any()):
            rewrite.fail("training_mode (input 2) must be omitted or a constant false")
    ratio = rewrite.constant(1)
    if rewrite.input(1) is not None and ratio is not None:
        rewrite.set_attr("ratio", float(ratio.reshape(-1)[0]))
    rewrite.drop_attr("seed")
    rewrite.node.resize_inputs(1)
    _mask_of_ones(rewrite)


def _mask_of_ones(rewrite: Rewrite) -> None:
    """Dropout-12's inference mask is all true; before 12 the mask of a Dropout that is not
    training was left unspecified, so it is computed apart."""
    outputs = rewrite.node.outputs
    if len(outputs) < 2:
        return
    if outputs[1].uses() or outputs[1].is_graph_output():
        shape = rewrite.op1("Shape", [rewrite.input(0)])
        true = ir.tensor(np.array([True]))
        ones = rewrite.op1("ConstantOfShape", [shape], {"value": true})
        ones.dtype = ir.DataType.BOOL
        rewrite.replace_output(1, ones)
    rewrite.node.resize_outputs(1)


ADAPTERS: Table = step(
    "Dropout",
    10,
    _mask_to_bool,
    _mask_to_data_type,
    "the mask, now boolean, cast to the data's type for its readers",
    "the mask, now of the data's type, cast to bool for its readers",
)
ADAPTERS |= step(
    "Dropout",
    12,
    _ratio_to_input,
    _inference_only,
    "attribute ratio becomes a Constant input (inference: no training_mode)",
    "training_mode must be omitted or constant false; ratio back to the attribute; seed"
    " dropped; the mask (all true) computed by ConstantOfShape",
)

__all__ = ["ADAPTERS"]
