"""What is known about a node's outputs, given what is known about its inputs.

Two questions, one module each, both about a single ``onnx_ir`` node so that the builder
(while building) and the optimizer (over a whole model) ask them the same way:

- ``infer.infer_node``: the element type and shape of each output (fast rules for the
  common ops, onnx's own shape inference for the rest); symbolic dims are kept.
- ``evaluate.evaluate_node``: the output values, when every input is a constant and the
  computation is small (constant folding).
"""

from __future__ import annotations

from onnxscript.errors import OnnxScriptError


class InferenceError(OnnxScriptError, ValueError):
    """A node's inputs contradict its op (incompatible shapes, a wrong element type).

    The message says what is wrong in the op's own terms; callers add where the node
    came from and what is known about each input.
    """


__all__ = ["InferenceError"]
