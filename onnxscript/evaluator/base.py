"""The evaluator protocol: what eager mode asks a backend to do, and a caching base class.

Eager mode sorts a call's arguments into inputs and attributes (with the rules shared with
the converter), then hands the evaluator one :class:`OpCall` and the input values. An
evaluator runs the op and returns the outputs. Backends that must prepare something per
op (an onnxruntime session, a reference-evaluator object) derive from
:class:`CachingEvaluator`, which keeps the prepared runners keyed by the op, its attributes
and the element types and ranks of the inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
import onnx

from onnxscript.signature import Signature

Runner = Callable[[Sequence[Any]], list[Any]]


@dataclass(frozen=True, eq=False)
class OpCall:
    """One op application, without its input values.

    ``attributes`` holds ``(name, kind, value)`` with Python values already converted to
    the attribute's kind (``kind`` is an ``onnx.AttributeProto.AttributeType``).
    ``key`` identifies the op, version, attributes and output count; two calls with the
    same key and inputs of the same types can share a prepared runner.
    """

    domain: str
    op_type: str
    version: int
    attributes: tuple[tuple[str, int, Any], ...]
    n_outputs: int
    key: Hashable
    signature: Signature | None = None
    schema: onnx.defs.OpSchema | None = None

    @property
    def label(self) -> str:
        """``Add (ai.onnx opset 18)`` for messages."""
        return f"{self.op_type} ({self.domain or 'ai.onnx'} opset {self.version})"


@runtime_checkable
class Evaluator(Protocol):
    """Runs single ops eagerly.

    ``inputs`` has one entry per input slot: a numpy array, a list of arrays (a sequence)
    or ``None`` for an omitted optional input. The result has ``call.n_outputs`` entries.
    ``ignore_unknown_function_kwargs`` makes script-function calls drop keyword arguments
    they do not declare instead of raising ``TypeError``.
    """

    ignore_unknown_function_kwargs: bool

    def run(self, call: OpCall, inputs: Sequence[Any]) -> list[Any]: ...


def input_key(value: Any) -> Hashable:
    """What of an input value decides how a runner is prepared: element type and rank."""
    if type(value) is np.ndarray:
        return (value.dtype, value.ndim)
    if value is None:
        return None
    if isinstance(value, np.ndarray):
        return (value.dtype, value.ndim)
    if isinstance(value, list):
        if not value:
            return ("seq", getattr(value, "elem_type", None))
        first = np.asarray(value[0])
        ranks = {np.ndim(v) for v in value}
        return ("seq", first.dtype, first.ndim if len(ranks) == 1 else None)
    return ("other", type(value))


class CachingEvaluator:
    """An evaluator that prepares a runner once per op signature and reuses it.

    Subclasses implement :meth:`prepare`. At most ``max_cached`` runners are kept; the
    oldest is dropped first. Input types are checked against the op schema when a runner
    is prepared (so a mistyped input gets a ``TypeError`` naming the parameter).
    """

    def __init__(
        self, max_cached: int = 2048, ignore_unknown_function_kwargs: bool = False
    ) -> None:
        self.max_cached = max_cached
        self.ignore_unknown_function_kwargs = ignore_unknown_function_kwargs
        self._runners: dict[Hashable, Runner] = {}

    def prepare(self, call: OpCall, inputs: Sequence[Any]) -> Runner:
        """A function that runs ``call`` on inputs typed like ``inputs``."""
        raise NotImplementedError

    def run(self, call: OpCall, inputs: Sequence[Any]) -> list[Any]:
        types: tuple[Hashable, ...]
        try:
            types = tuple([(x.dtype, x.ndim) for x in inputs])
        except AttributeError:
            types = tuple([input_key(x) for x in inputs])
        key = (call.key, types)
        runner = self._runners.get(key)
        if runner is None:
            runner = self._prepare_checked(call, inputs, key)
        return runner(inputs)

    def _prepare_checked(self, call: OpCall, inputs: Sequence[Any], key: Hashable) -> Runner:
        from onnxscript.evaluator.typecheck import check_op_inputs

        check_op_inputs(call, inputs)
        runner = self.prepare(call, inputs)
        if len(self._runners) >= self.max_cached:
            del self._runners[next(iter(self._runners))]
        self._runners[key] = runner
        return runner

    def cache_size(self) -> int:
        """How many prepared runners are cached."""
        return len(self._runners)

    def clear_cache(self) -> None:
        """Forget every prepared runner."""
        self._runners.clear()
