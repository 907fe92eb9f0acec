"""onnxscript 0.7's ``onnxscript.utils.replace``: calls of custom ops in a model replaced by
the bodies of functions that define them (the inlining pass of ``onnxscript.passes``)."""

from __future__ import annotations

from collections.abc import Sequence

import onnx
import onnx_ir as ir

from onnxscript.passes.inlining import InlineFunctionsPass


def replace_functions_inplace(irmodel: ir.Model, irfunctions: Sequence[ir.Function]) -> None:
    """Replace every call (main graph, subgraphs, and calls inside the given functions) of
    an op one of ``irfunctions`` defines by that function's body, in place. The model must
    have no functions of its own (ValueError): the given ones are added, inlined, and gone
    afterwards."""
    if irmodel.functions:
        raise ValueError("Input model cannot have model-local functions.")
    for function in irfunctions:
        irmodel.functions[function.identifier()] = function
    InlineFunctionsPass()(irmodel)
    irmodel.functions.clear()


def replace_functions(
    model: onnx.ModelProto, functions: Sequence[onnx.FunctionProto]
) -> onnx.ModelProto:
    """:func:`replace_functions_inplace` on a copy of ``model`` (protos in, proto out)."""
    irmodel = ir.serde.deserialize_model(model)
    irfunctions = [ir.serde.deserialize_function(function) for function in functions]
    replace_functions_inplace(irmodel, irfunctions)
    return ir.serde.serialize_model(irmodel)


__all__ = ["replace_functions", "replace_functions_inplace"]
