"""The evaluator protocol: what a call of an op or a script function hands the evaluator.

Outside a script, ``opset18.Add(a, b)`` and ``my_function(x)`` do not compute anything
themselves: they pass their arguments, exactly as given (arrays, Python numbers, symbolic
values of a tracer, ...), to the *current evaluator* (``evaluator.context``):

* ``evaluator.eval_op(op, args, kwargs)`` for an op, where ``op`` is an :class:`OpRef`
  (``values.Op`` is one); the base implementation calls
  ``evaluator.eval(op.op_schema, args, kwargs)``, the entry point that torch.onnx's
  evaluator implements;
* ``evaluator.eval_function(function, args, kwargs)`` for a script function.

``kwargs`` may hold ``_outputs``: how many outputs the caller unpacks (a script running
eagerly passes it for ``a, b = op.Split(x)``). The array evaluators
(``OnnxRuntimeEvaluator``, ``ReferenceEvaluator``, ``MixedEvaluator``) implement the
protocol by running the op; a tracing evaluator records it instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from onnxscript.language.callables import FunctionRef, GraphBody, OpRef

if TYPE_CHECKING:
    import onnx.defs


class Evaluator:
    """Base class of evaluators; subclasses override what they implement.

    ``eval(schema, args, kwargs)`` evaluates an op given its schema (torch.onnx's evaluator
    implements this one); ``eval_op(op, args, kwargs)`` receives the op itself (by default
    it calls ``eval``); ``eval_function(function, args, kwargs)`` evaluates a script
    function. Arguments arrive exactly as the caller gave them.
    """

    def eval(
        self, schema: onnx.defs.OpSchema, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> Any:
        raise NotImplementedError(f"{type(self).__name__} does not evaluate ops by schema")

    def eval_op(self, op: OpRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        schema = op.op_schema
        if schema is None:
            raise TypeError(
                f"{type(self).__name__} evaluates ops by their schema, and "
                f"{op.domain}::{op.name} (a custom-domain op) has none"
            )
        return self.eval(schema, args, kwargs)

    def eval_function(
        self, function: FunctionRef, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> Any:
        raise NotImplementedError(f"{type(self).__name__} does not evaluate script functions")


def is_evaluator(obj: object) -> bool:
    """Whether ``obj`` can serve as the current evaluator: it has ``eval_op`` or ``eval``."""
    return callable(getattr(obj, "eval_op", None)) or callable(getattr(obj, "eval", None))


__all__ = ["Evaluator", "FunctionRef", "GraphBody", "OpRef", "is_evaluator"]
