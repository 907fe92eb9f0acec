"""onnxscript 0.7's ``onnxscript._internal.evaluator``: eager evaluation, which is
:mod:`onnxscript.evaluator` here (the names 0.7 had: ``Evaluator``, ``ORTEvaluator``,
``ORTMixedEvaluator``, ``OnnxReferenceRuntimeEvaluator``, ``default``, ``default_as``,
``set_default``; ``BaseEvaluator`` is ``CachingEvaluator``, ``EagerModeError`` is
``EagerEvaluationError``)."""

from onnxscript.errors import EagerEvaluationError
from onnxscript.evaluator.backends import MixedEvaluator, OnnxRuntimeEvaluator, ReferenceEvaluator
from onnxscript.evaluator.base import CachingEvaluator
from onnxscript.evaluator.context import default, default_as, set_default
from onnxscript.evaluator.protocol import Evaluator

BaseEvaluator = CachingEvaluator
EagerModeError = EagerEvaluationError
ORTEvaluator = OnnxRuntimeEvaluator
ORTMixedEvaluator = MixedEvaluator
OnnxReferenceRuntimeEvaluator = ReferenceEvaluator

__all__ = [
    "BaseEvaluator",
    "EagerModeError",
    "Evaluator",
    "ORTEvaluator",
    "ORTMixedEvaluator",
    "OnnxReferenceRuntimeEvaluator",
    "default",
    "default_as",
    "set_default",
]
