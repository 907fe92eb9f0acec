"""The current evaluator: the only global state of eager mode, held in a context variable.

``with default_as(ReferenceEvaluator()): ...`` switches the evaluator for a block;
``set_default(evaluator)`` switches it for the rest of the current context (thread or
asyncio task). The initial evaluator runs ops with onnxruntime.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager

from onnxscript.evaluator.base import Evaluator

_CURRENT: contextvars.ContextVar[Evaluator | None] = contextvars.ContextVar(
    "onnxscript_evaluator", default=None
)


def default() -> Evaluator:
    """The evaluator eager calls use now (created on first use: onnxruntime)."""
    evaluator = _CURRENT.get()
    if evaluator is None:
        from onnxscript.evaluator.backends import OnnxRuntimeEvaluator

        evaluator = OnnxRuntimeEvaluator()
        _CURRENT.set(evaluator)
    return evaluator


def set_default(evaluator: Evaluator) -> None:
    """Use ``evaluator`` for eager calls from now on (in the current context)."""
    if not isinstance(evaluator, Evaluator):
        raise TypeError(f"expected an Evaluator, got {type(evaluator).__name__}")
    _CURRENT.set(evaluator)


@contextmanager
def default_as(evaluator: Evaluator) -> Iterator[Evaluator]:
    """Use ``evaluator`` for eager calls inside the ``with`` block."""
    if not isinstance(evaluator, Evaluator):
        raise TypeError(f"expected an Evaluator, got {type(evaluator).__name__}")
    token = _CURRENT.set(evaluator)
    try:
        yield evaluator
    finally:
        _CURRENT.reset(token)
