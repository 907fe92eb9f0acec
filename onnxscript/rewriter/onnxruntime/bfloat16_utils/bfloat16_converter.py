"""A bfloat16 model's inputs and outputs made float16, for onnxruntime sessions that
cannot be fed or read bfloat16 arrays (numpy has no bfloat16): each bfloat16 graph input
becomes float16 and is cast to bfloat16 where the graph reads it, each bfloat16 graph
output is cast to float16 under its own name."""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.ir_utils.names import names_in
from onnxscript.unique_names import UniqueNames


def dtype_adapter_for_bfloat16_model(model: ir.Model) -> None:
    """Make ``model``'s bfloat16 inputs and outputs float16, in place::

        inputs (float16) -> Cast(bfloat16) -> nodes (bfloat16) -> Cast(float16) -> outputs

    A bfloat16 input that is also an output stays one value, float16 on both sides.
    Inputs and outputs of other types are left alone."""
    graph = model.graph
    names = UniqueNames(names_in(model))
    passed_through = {id(v) for v in graph.inputs} & {id(v) for v in graph.outputs}
    casts_in: list[ir.Node] = []
    for value in graph.inputs:
        if value.dtype != ir.DataType.BFLOAT16:
            continue
        value.dtype = ir.DataType.FLOAT16
        if id(value) in passed_through:
            continue
        uses = list(value.uses())
        cast = ir.node("Cast", [value], {"to": ir.DataType.BFLOAT16}, name=names.claim("Cast"))
        inner = cast.outputs[0]
        inner.name = names.claim(f"{value.name}_bfloat16")
        inner.dtype, inner.shape = ir.DataType.BFLOAT16, value.shape
        for user, index in uses:
            user.replace_input_with(index, inner)
        casts_in.append(cast)
    if casts_in and len(graph):
        graph.insert_before(graph[0], casts_in)
    else:
        graph.extend(casts_in)
    for position, value in enumerate(list(graph.outputs)):
        if value.dtype != ir.DataType.BFLOAT16 or id(value) in passed_through:
            continue
        name = value.name
        value.name = names.claim(f"{name}_bfloat16")
        cast = ir.node("Cast", [value], {"to": ir.DataType.FLOAT16}, name=names.claim("Cast"))
        out = cast.outputs[0]
        out.name, out.dtype, out.shape = name, ir.DataType.FLOAT16, value.shape
        graph.append(cast)
        graph.outputs[position] = out


__all__ = ["dtype_adapter_for_bfloat16_model"]
