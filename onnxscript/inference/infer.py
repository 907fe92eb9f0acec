"""Element type and shape of a node's outputs, from what is known of its inputs."""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.inference.fallback import infer_with_onnx
from onnxscript.inference.rules import RULES


def infer_node(node: ir.Node, opset_version: int) -> None:
    """Give ``node.outputs`` the element type and shape that follow from its inputs
    (``dtype``, ``shape`` with symbolic dims, ``const_value`` of constant inputs), its
    attributes and the opset version. Known facts are never replaced; what cannot be
    told stays unknown. Raises InferenceError when the inputs contradict the op.

    The common ops have fast rules here (``rules``); the rest, and outputs a rule leaves
    unknown, go to onnx's own inference (``fallback``). Ops of other domains are left
    alone: their schemas are not onnx's to tell.
    """
    if node.domain not in ("", "ai.onnx"):
        return
    rule = RULES.get(node.op_type)
    if rule is not None:
        rule(node, opset_version)
        if all(o.type is not None and o.shape is not None for o in node.outputs):
            return
    infer_with_onnx(node, opset_version)


__all__ = ["infer_node"]
