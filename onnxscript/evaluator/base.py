"""Array evaluators: the evaluator protocol carried out by running ops on arrays.

:class:`CachingEvaluator` implements ``eval_op``/``eval``/``eval_function`` with eager
mode (``evaluator.eager``): a call's arguments are sorted into inputs and attributes by the
language rules, then the backend runs one :class:`OpCall` on the input arrays. Backends
prepare something per op (an onnxruntime session, a reference-evaluator object) in
:meth:`CachingEvaluator.prepare`; the prepared runners are kept, keyed by the op, its
attributes and the element types and ranks of the inputs.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import onnx

from onnxscript import schemas
from onnxscript.evaluator.eager import run_function, run_op
from onnxscript.evaluator.op_call import OpCall, Runner, input_key
from onnxscript.evaluator.protocol import Evaluator, FunctionRef, OpRef


@functools.lru_cache(maxsize=1024)
def _op_of_schema(domain: str, name: str, version: int) -> OpRef:
    """The op a schema describes (an op is called at its schema's ``since_version``)."""
    return OpRef(domain, name, version, schemas.get_schema(domain, name, version))


class CachingEvaluator(Evaluator):
    """An evaluator that runs ops on arrays, preparing a runner once per op signature.

    Subclasses implement :meth:`prepare`. At most ``max_cached`` runners are kept; the
    oldest is dropped first. Input types are checked against the op schema when a runner
    is prepared (so a mistyped input gets a ``TypeError`` naming the parameter).
    ``ignore_unknown_function_kwargs`` makes script-function calls drop keyword arguments
    they do not declare instead of raising ``TypeError``.
    """

    def __init__(
        self, max_cached: int = 2048, ignore_unknown_function_kwargs: bool = False
    ) -> None:
        self.max_cached = max_cached
        self.ignore_unknown_function_kwargs = ignore_unknown_function_kwargs
        self._runners: dict[Hashable, Runner] = {}

    def eval_op(self, op: OpRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        return run_op(self, op, args, kwargs)

    def eval(
        self, schema: onnx.defs.OpSchema, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> Any:
        op = _op_of_schema(schema.domain, schema.name, schema.since_version)
        return self.eval_op(op, args, kwargs)

    def eval_function(
        self, function: FunctionRef, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> Any:
        if function.traceable:
            # The body runs as Python; its op calls come back here one by one.
            kwargs = {k: v for k, v in kwargs.items() if k != "_outputs"}
            return function.function(*args, **kwargs)
        return run_function(self, function, args, kwargs)

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
