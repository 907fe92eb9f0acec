"""Eager evaluation: calling ops and script functions outside a script.

``op.Add(x, y)`` and ``my_script_function(x)`` called on values hand their arguments to the
current evaluator (see :mod:`onnxscript.evaluator.protocol`). The default runs ops with
onnxruntime (one cached session per op signature); ``ReferenceEvaluator``
(``onnx.reference``) and ``MixedEvaluator`` are the other array evaluators, and a tracing
evaluator records the calls instead. Choose one for a block with
``with default_as(ReferenceEvaluator()): ...`` or from now on with ``set_default``. See
``docs/eager.md``.

Names are loaded on first use, so that importing this package costs next to nothing: it
loads only ``context`` (the current evaluator), and tells it how to make the initial
evaluator, onnxruntime's (imported when first needed). Modules below import the protocol
and the context, never the evaluators that implement them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from onnxscript.evaluator import context as _context

if TYPE_CHECKING:
    from onnxscript.errors import EagerEvaluationError, InputTypeError
    from onnxscript.evaluator.backends import (
        MixedEvaluator,
        OnnxRuntimeEvaluator,
        ReferenceEvaluator,
    )
    from onnxscript.evaluator.base import CachingEvaluator
    from onnxscript.evaluator.context import (
        call_function,
        call_op,
        default,
        default_as,
        eval_function,
        eval_op,
        set_default,
    )
    from onnxscript.evaluator.errors import UserLocation
    from onnxscript.evaluator.op_call import OpCall
    from onnxscript.evaluator.protocol import Evaluator, FunctionRef, GraphBody, OpRef
    from onnxscript.evaluator.tensor import AttrTensor, IndexTensor, Tensor, TensorSequence

    ORTEvaluator = OnnxRuntimeEvaluator
    OnnxReferenceRuntimeEvaluator = ReferenceEvaluator
    ORTMixedEvaluator = MixedEvaluator


def _onnxruntime_evaluator() -> Evaluator:
    """The initial evaluator: runs ops with onnxruntime."""
    from onnxscript.evaluator.backends import OnnxRuntimeEvaluator

    return OnnxRuntimeEvaluator()


_context.set_initial_factory(_onnxruntime_evaluator)

_WHERE = {
    "AttrTensor": "tensor",
    "CachingEvaluator": "base",
    "EagerEvaluationError": "errors",
    "Evaluator": "protocol",
    "FunctionRef": "protocol",
    "GraphBody": "protocol",
    "IndexTensor": "tensor",
    "InputTypeError": "errors",
    "MixedEvaluator": "backends",
    "ORTEvaluator": "backends",
    "ORTMixedEvaluator": "backends",
    "OnnxReferenceRuntimeEvaluator": "backends",
    "OnnxRuntimeEvaluator": "backends",
    "OpCall": "op_call",
    "OpRef": "protocol",
    "ReferenceEvaluator": "backends",
    "Tensor": "tensor",
    "TensorSequence": "tensor",
    "UserLocation": "errors",
    "call_function": "context",
    "call_op": "context",
    "default": "context",
    "default_as": "context",
    "eval_function": "context",
    "eval_op": "context",
    "set_default": "context",
}
# Names used by code written for onnxscript 0.7.
_ALIASES = {
    "ORTEvaluator": "OnnxRuntimeEvaluator",
    "OnnxReferenceRuntimeEvaluator": "ReferenceEvaluator",
    "ORTMixedEvaluator": "MixedEvaluator",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    package = "onnxscript" if name in ("EagerEvaluationError", "InputTypeError") else __name__
    module = importlib.import_module(f"{package}.{where}")
    value = getattr(module, _ALIASES.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "AttrTensor",
    "CachingEvaluator",
    "EagerEvaluationError",
    "Evaluator",
    "FunctionRef",
    "GraphBody",
    "IndexTensor",
    "InputTypeError",
    "MixedEvaluator",
    "ORTEvaluator",
    "ORTMixedEvaluator",
    "OnnxReferenceRuntimeEvaluator",
    "OnnxRuntimeEvaluator",
    "OpCall",
    "OpRef",
    "ReferenceEvaluator",
    "Tensor",
    "TensorSequence",
    "UserLocation",
    "call_function",
    "call_op",
    "default",
    "default_as",
    "eval_function",
    "eval_op",
    "set_default",
]
