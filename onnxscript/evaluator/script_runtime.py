"""Helpers that rewritten script functions call while running eagerly.

``onnxscript.evaluator.script_rewrite`` turns constructs whose Python meaning differs from
their compiled meaning into calls of these functions (the module is reached through a
closure cell, never through the user's globals).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from onnxscript.errors import EagerEvaluationError
from onnxscript.evaluator import context
from onnxscript.evaluator import tensor as tensor_ops
from onnxscript.evaluator.errors import user_location
from onnxscript.evaluator.inputs import literal_to_array
from onnxscript.evaluator.protocol import FunctionRef, OpRef
from onnxscript.evaluator.tensor import IndexTensor, Tensor, wrap
from onnxscript.language.literals import is_literal


def callee(fn: Any, n_outputs: int | None, /) -> Any:
    """What a call ``fn(...)`` in a script calls eagerly: for an op or a script function, a
    function that hands the call to the current evaluator and returns Tensors (for an op,
    ``n_outputs`` outputs when a tuple assignment unpacks that many); any other callable
    itself."""
    if isinstance(fn, OpRef):
        callers = fn.__dict__.setdefault("_eager_callers", {})
        caller = callers.get(n_outputs)
        if caller is None:
            call = _op_caller(fn, n_outputs)
            if fn.domain in ("", "ai.onnx") and fn.name in _OPTIONAL_OPS:
                call = _optional_op(fn.name, call)
            caller = callers[n_outputs] = _one_tuple(call, n_outputs)
        return caller
    if isinstance(fn, FunctionRef):
        key = "_eager_caller_1" if n_outputs == 1 else "_eager_caller"
        caller = fn.__dict__.get(key)
        if caller is None:
            caller = fn.__dict__[key] = _one_tuple(_function_caller(fn), n_outputs)
        return caller
    return fn


def _one_tuple(call: Callable[..., Any], n_outputs: int | None) -> Callable[..., Any]:
    """``(y,) = f(...)`` unpacks a one-element tuple, as compiled code does."""
    if n_outputs != 1:
        return call

    def single(*args: Any, **kwargs: Any) -> Any:
        result = call(*args, **kwargs)
        return result if isinstance(result, tuple) else (result,)

    single.__name__ = call.__name__
    return single


def _tensors(result: Any) -> Any:
    """An evaluator's result with arrays as Tensors (values inside a script are Tensors)."""
    kind = type(result)
    if kind is Tensor:
        return result
    if kind is np.ndarray:
        return Tensor.of(result)
    if kind is tuple:
        return tuple(_tensors(r) for r in result)
    return wrap(result)


def _op_caller(op: OpRef, n_outputs: int | None) -> Callable[..., Any]:
    if n_outputs is None:

        def call(*args: Any, **kwargs: Any) -> Any:
            return _tensors(context.eval_op(op, args, kwargs))

    else:

        def call(*args: Any, **kwargs: Any) -> Any:
            return _tensors(context.eval_op(op, args, {**kwargs, "_outputs": n_outputs}))

    call.__name__ = op.name
    return call


_OPTIONAL_OPS = frozenset({"Optional", "OptionalHasElement", "OptionalGetElement"})


def _optional_op(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
    """``Optional``/``OptionalHasElement``/``OptionalGetElement`` on eager values, where an
    optional is its value or ``None`` (what onnxruntime gives for an optional output), at
    every opset (from 15 to 17 the evaluator's schema check would refuse a plain tensor).
    Other values (a tracer's) go to the evaluator."""

    def optional_op(*args: Any, **kwargs: Any) -> Any:
        value = args[0] if args else kwargs.get("input")
        if len(args) > 1 or not (value is None or isinstance(value, (Tensor, np.ndarray))):
            return call(*args, **kwargs)
        if name == "OptionalHasElement":
            return Tensor(np.array(value is not None))
        if name == "OptionalGetElement" and value is None:
            raise EagerEvaluationError(
                name, name, user_location(), "  the optional value is empty (None)"
            )
        return value if value is None or isinstance(value, Tensor) else Tensor(value)

    optional_op.__name__ = name
    return optional_op


def _function_caller(fn: FunctionRef) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return _tensors(context.eval_function(fn, args, kwargs))

    return call


def bool_and(*values: Any) -> Any:
    """``a and b and ...`` as compiled (element-wise on BOOL tensors)."""
    return tensor_ops.boolean(True, values)


def bool_or(*values: Any) -> Any:
    """``a or b or ...`` as compiled (element-wise on BOOL tensors)."""
    return tensor_ops.boolean(False, values)


def not_(value: Any) -> Any:
    """``not a``: ``Not`` on a BOOL tensor, Python's ``not`` otherwise."""
    if isinstance(value, Tensor):
        return tensor_ops.unary("not", value)
    return not value


def compare_chain(symbols: tuple[str, ...], *values: Any) -> Any:
    """``a < b < c ...`` as compiled: pairwise comparisons combined with ``and``."""
    return tensor_ops.compare_chain(symbols, values)


class _Indexer:
    """``tensor[...]`` with the index's items given the roles ``kinds`` says."""

    __slots__ = ("kinds", "tensor")

    def __init__(self, tensor: Tensor, kinds: str) -> None:
        self.tensor = tensor
        self.kinds = kinds

    def __getitem__(self, key: Any) -> Tensor:
        if self.kinds.startswith("("):
            return tensor_ops.getitem(self.tensor, key, self.kinds[1:])
        return tensor_ops.getitem(self.tensor, (key,), self.kinds)


def indexable(base: Any, kinds: str) -> Any:
    """What ``base[...]`` indexes in a script: the converter's Slice/Gather lowering when
    ``base`` is a tensor or a numpy constant (``kinds`` tells each index item's role, a
    leading ``(`` a tuple index), Python indexing otherwise."""
    if isinstance(base, Tensor):
        return _Indexer(base, kinds)
    if isinstance(base, np.ndarray):
        return _Indexer(Tensor(base), kinds)
    if isinstance(base, (list, tuple)) and base and is_literal(base):
        return _LiteralIndexer(base, kinds)
    return base


class _LiteralIndexer:
    """A Python list of numbers indexed by a tensor becomes a tensor (as compiled); by
    Python values it stays a Python list."""

    __slots__ = ("base", "kinds")

    def __init__(self, base: Any, kinds: str) -> None:
        self.base = base
        self.kinds = kinds

    def __getitem__(self, key: Any) -> Any:
        items = key if self.kinds.startswith("(") else (key,)
        if any(isinstance(i, Tensor) for i in items):
            array = literal_to_array(self.base, None, "indexing")
            return _Indexer(Tensor(array), self.kinds)[key]
        return self.base[key]


def _as_int(value: Any) -> int:
    if isinstance(value, Tensor):
        return int(value.value.reshape(-1)[0]) if value.value.size == 1 else int(value)
    return int(value)


def loop_callee(fn: Any, /) -> Any:
    """What ``for ... in fn(...)`` calls: for ``range``, a range of INT64 scalar tensors
    that act like Python ints in operators, like the compiled loop index; otherwise ``fn``."""
    if fn is builtins.range:
        return _loop_range
    return fn


def _loop_range(*args: Any) -> Iterator[IndexTensor]:
    return _tensor_range(*(_as_int(a) for a in args))


def _tensor_range(*bounds: int) -> Iterator[IndexTensor]:
    for i in range(*bounds):
        yield IndexTensor(np.array(i, dtype=np.int64))
