"""A one-node ``ModelProto`` for an op call, which backends load and run.

Inputs are typed with their element type and rank (dimensions left unknown, so one model
serves every shape); outputs are left untyped for the runtime to infer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
import onnx.helper

from onnxscript.dtypes import onnx_dtype
from onnxscript.evaluator.op_call import OpCall


def type_proto(value: Any, what: str, with_rank: bool = True) -> onnx.TypeProto:
    """The ``TypeProto`` of an eager value: a tensor of unknown dims (of unknown rank too
    unless ``with_rank``), or a sequence."""
    if isinstance(value, np.ndarray):
        shape = [None] * value.ndim if with_rank else None
        return onnx.helper.make_tensor_type_proto(onnx_dtype(value.dtype), shape)
    if isinstance(value, list):
        elem_type = getattr(value, "elem_type", None)
        if not value and elem_type:
            elem = onnx.helper.make_tensor_type_proto(elem_type, None)
            return onnx.helper.make_sequence_type_proto(elem)
        if not value:
            raise TypeError(
                f"{what}: cannot tell the element type of an empty sequence; create it with "
                "op.SequenceEmpty(dtype=...) instead of passing []"
            )
        first = np.asarray(value[0])
        ranks = {np.ndim(v) for v in value}
        shape = [None] * first.ndim if len(ranks) == 1 and with_rank else None
        elem = onnx.helper.make_tensor_type_proto(onnx_dtype(first.dtype), shape)
        return onnx.helper.make_sequence_type_proto(elem)
    raise TypeError(f"{what}: cannot pass a {type(value).__name__} to an op")


def node_of(
    call: OpCall, input_names: Sequence[str], output_names: Sequence[str]
) -> onnx.NodeProto:
    """The ``NodeProto`` of ``call`` with the given value names."""
    node = onnx.helper.make_node(
        call.op_type, list(input_names), list(output_names), domain=call.domain
    )
    for name, kind, value in call.attributes:
        node.attribute.append(onnx.helper.make_attribute(name, value, attr_type=kind))
    return node


def _body_input_types(call: OpCall) -> dict[int, onnx.TypeProto]:
    """Loop-carried inputs that the body declares optional: an eager value holds no
    "optional" wrapper, so the body's type is used for the model input."""
    if call.domain != "" or call.op_type != "Loop":
        return {}
    body = next((v for name, _, v in call.attributes if name == "body"), None)
    if not isinstance(body, onnx.GraphProto):
        return {}
    return {
        slot: body.input[slot].type
        for slot in range(2, len(body.input))
        if body.input[slot].type.HasField("optional_type")
    }


def single_node_model(
    call: OpCall,
    inputs: Sequence[Any],
    ir_version: int,
    opset_version: int,
    default_opset: int,
    with_rank: bool = True,
) -> tuple[onnx.ModelProto, list[str | None], list[str]]:
    """The model, the graph input name of each input slot (``None`` when omitted) and the
    output names. ``opset_version`` is imported for the op's domain; ``default_opset`` for
    ``ai.onnx`` when the op belongs to another domain. Inputs are typed with their rank
    unless ``with_rank`` is false."""
    in_names: list[str | None] = []
    node_inputs: list[str] = []
    graph_inputs = []
    declared = _body_input_types(call)
    for slot, value in enumerate(inputs):
        if value is None:
            in_names.append(None)
            node_inputs.append("")
            continue
        name = f"input_{slot}"
        in_names.append(name)
        node_inputs.append(name)
        given = declared.get(slot)
        if given is None:
            given = type_proto(value, f"{call.op_type} input {slot}", with_rank)
        graph_inputs.append(onnx.helper.make_value_info(name, given))
    out_names = [f"output_{i}" for i in range(call.n_outputs)]
    graph = onnx.helper.make_graph(
        [node_of(call, node_inputs, out_names)],
        f"eager_{call.op_type}",
        graph_inputs,
        [onnx.ValueInfoProto(name=n) for n in out_names],
    )
    imports = [onnx.helper.make_opsetid(call.domain, opset_version)]
    if call.domain != "":
        imports.append(onnx.helper.make_opsetid("", default_opset))
    model = onnx.helper.make_model(graph, opset_imports=imports, ir_version=ir_version)
    return model, in_names, out_names
