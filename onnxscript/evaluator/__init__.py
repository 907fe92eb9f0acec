"""Eager evaluation: calling ops and script functions on arrays.

``op.Add(x, y)`` and ``my_script_function(x)`` outside a script run right away, op by op,
with the current evaluator: onnxruntime by default (one cached session per op signature),
``ReferenceEvaluator`` (``onnx.reference``) or ``MixedEvaluator``. Choose one for a block
with ``with default_as(ReferenceEvaluator()): ...`` or from now on with ``set_default``.
See ``docs/eager.md``.
"""

from __future__ import annotations

from onnxscript.evaluator.backends import MixedEvaluator, OnnxRuntimeEvaluator, ReferenceEvaluator
from onnxscript.evaluator.base import CachingEvaluator, Evaluator, OpCall
from onnxscript.evaluator.context import default, default_as, set_default
from onnxscript.evaluator.eager import call_function, call_op
from onnxscript.evaluator.errors import EagerEvaluationError, UserLocation
from onnxscript.evaluator.tensor import AttrTensor, IndexTensor, Tensor, TensorSequence
from onnxscript.evaluator.typecheck import InputTypeError

# Names used by code written for onnxscript 0.7.
ORTEvaluator = OnnxRuntimeEvaluator
OnnxReferenceRuntimeEvaluator = ReferenceEvaluator
ORTMixedEvaluator = MixedEvaluator

__all__ = [
    "AttrTensor",
    "CachingEvaluator",
    "EagerEvaluationError",
    "Evaluator",
    "IndexTensor",
    "InputTypeError",
    "MixedEvaluator",
    "ORTEvaluator",
    "ORTMixedEvaluator",
    "OnnxReferenceRuntimeEvaluator",
    "OnnxRuntimeEvaluator",
    "OpCall",
    "ReferenceEvaluator",
    "Tensor",
    "TensorSequence",
    "UserLocation",
    "call_function",
    "call_op",
    "default",
    "default_as",
    "set_default",
]
