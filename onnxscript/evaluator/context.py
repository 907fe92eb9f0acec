"""The current evaluator: the only global state of eager mode, held in a context variable.

``with default_as(ReferenceEvaluator()): ...`` switches the evaluator for a block;
``set_default(evaluator)`` switches it for the rest of the current context (thread or
asyncio task). :func:`eval_op` and :func:`eval_function` are how ops and script functions
called outside a script reach it.

This module sits below every evaluator: it knows the protocol, not the implementations.
The initial evaluator (onnxruntime's) is made on first use by the factory that the package
(``evaluator/__init__.py``, which runs before any of its modules) gives
:func:`set_initial_factory`.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from onnxscript.evaluator.protocol import Evaluator, FunctionRef, OpRef, is_evaluator

_CURRENT: contextvars.ContextVar[Any] = contextvars.ContextVar("onnxscript_evaluator", default=None)
_initial_factory: Callable[[], Evaluator] | None = None


def set_initial_factory(factory: Callable[[], Evaluator]) -> None:
    """Make the evaluator used until another is chosen with ``factory`` (called on first
    use). The package sets it once, when it is imported."""
    global _initial_factory
    _initial_factory = factory


def default() -> Evaluator:
    """The evaluator eager calls use now (created on first use: onnxruntime)."""
    evaluator: Evaluator | None = _CURRENT.get()
    if evaluator is None:
        if _initial_factory is None:
            raise RuntimeError("no initial evaluator: import onnxscript.evaluator first")
        evaluator = _initial_factory()
        _CURRENT.set(evaluator)
    return evaluator


def _checked(evaluator: Any) -> Evaluator:
    if not is_evaluator(evaluator):
        raise TypeError(
            f"expected an Evaluator (an object with eval_op or eval), got "
            f"{type(evaluator).__name__}"
        )
    return evaluator  # type: ignore[no-any-return]


def set_default(evaluator: Evaluator) -> None:
    """Use ``evaluator`` for eager calls from now on (in the current context)."""
    _CURRENT.set(_checked(evaluator))


@contextmanager
def default_as(evaluator: Evaluator) -> Iterator[Evaluator]:
    """Use ``evaluator`` for eager calls inside the ``with`` block."""
    token = _CURRENT.set(_checked(evaluator))
    try:
        yield evaluator
    finally:
        _CURRENT.reset(token)


def eval_op(op: OpRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
    """Hand an op call to the current evaluator (``eval_op``, else ``eval`` by schema)."""
    evaluator = _CURRENT.get() or default()
    method = getattr(evaluator, "eval_op", None)
    if method is not None:
        return method(op, args, kwargs)
    return evaluator.eval(op.op_schema, args, kwargs)  # type: ignore[arg-type]


def eval_function(function: FunctionRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
    """Hand a script-function call to the current evaluator. A traced function called
    under an evaluator from outside this package (torch.onnx's graph recorder) runs its
    Python body directly, as in onnxscript 0.7: such evaluators treat a function call as
    a call of an ONNX function and turn its Python attribute values (``scale: float |
    None``) into tensors."""
    evaluator = _CURRENT.get() or default()
    if function.traceable and not _from_this_package(evaluator):
        return function.function(*args, **kwargs)
    method = getattr(evaluator, "eval_function", None)
    if method is None:
        raise TypeError(
            f"the current evaluator ({type(evaluator).__name__}) cannot evaluate script "
            f"functions such as {function.name}: it has no eval_function"
        )
    return method(function, args, kwargs)


def _from_this_package(evaluator: object) -> bool:
    return type(evaluator).__module__.partition(".")[0] == __name__.partition(".")[0]


def call_op(
    op: OpRef, args: Sequence[Any], kwargs: Mapping[str, Any], n_outputs: int | None = None
) -> Any:
    """``op(*args, **kwargs)`` with the current evaluator, asking for ``n_outputs`` outputs
    (what ``a, b = op.X(...)`` does in a script) when given."""
    if n_outputs is not None:
        kwargs = {**kwargs, "_outputs": n_outputs}
    return eval_op(op, args, kwargs)


def call_function(function: FunctionRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
    """``function(*args, **kwargs)`` with the current evaluator."""
    return eval_function(function, args, kwargs)
