"""The evaluators: onnxruntime (the default), ``onnx.reference``, and a mixed one.

Each prepares a one-node model per op signature (op, version, attributes, input element
types and ranks) once and reuses it, so a repeated eager call costs one cache lookup and
one run of an already-created session.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from onnxscript import defaults, runtime, schemas
from onnxscript.dtypes import onnx_dtype, sequence_elem_type
from onnxscript.evaluator.base import CachingEvaluator
from onnxscript.evaluator.node_model import single_node_model
from onnxscript.evaluator.op_call import OpCall, Runner
from onnxscript.evaluator.tensor import TensorSequence

_MAX_THREADS = 4


class OnnxRuntimeEvaluator(CachingEvaluator):
    """Runs each op with an onnxruntime ``InferenceSession`` created once per op signature.

    ``providers`` defaults to the CPU provider; ``session_options`` to onnxruntime's
    defaults with warnings silenced, thread spinning off and at most four threads per
    session (many sessions stay alive, each with its own thread pool). Ops of an
    ``ai.onnx`` opset newer than onnxruntime supports run at the newest supported version
    when their schema is unchanged since.
    """

    def __init__(
        self,
        providers: Sequence[str] = ("CPUExecutionProvider",),
        session_options: Any = None,
        max_cached: int = 2048,
        ignore_unknown_function_kwargs: bool = False,
    ) -> None:
        super().__init__(max_cached, ignore_unknown_function_kwargs)
        self.providers = list(providers)
        if session_options is None:
            session_options = runtime.session_options(log_level=3)
            # Each cached session has its own thread pool, whose threads spin after a run by
            # default; with dozens of sessions alive they compete for the cores (a 15-op
            # function on 256x256 tensors ran 6x slower on 2 cores). Idle threads sleep.
            session_options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            # Each session owns a thread pool: cap it so that hundreds of cached sessions do
            # not hold thousands of threads on a many-core machine.
            session_options.intra_op_num_threads = min(_MAX_THREADS, os.cpu_count() or 1)
        self.session_options = session_options

    def __repr__(self) -> str:
        return f"OnnxRuntimeEvaluator(providers={self.providers!r})"

    def opset_version(self, call: OpCall) -> int:
        """The opset version to import for ``call``: its own, or the newest onnxruntime
        supports if the op's schema has not changed between the two."""
        if call.domain != "":
            return call.version
        newest = defaults.default_opset_version()
        if call.version <= newest:
            return call.version
        schema = call.schema or schemas.get_schema("", call.op_type, call.version)
        if schema is not None and schema.since_version <= newest:
            return newest
        return call.version

    def _session(self, call: OpCall, inputs: Sequence[Any], with_rank: bool) -> Any:
        model, in_names, out_names = single_node_model(
            call,
            inputs,
            defaults.default_ir_version(),
            self.opset_version(call),
            defaults.default_opset_version(),
            with_rank,
        )
        session = runtime.session(model, self.session_options, self.providers)
        return session, in_names, out_names

    def prepare(self, call: OpCall, inputs: Sequence[Any]) -> Runner:
        try:
            session, in_names, out_names = self._session(call, inputs, True)
        except Exception:
            # onnxruntime's shape inference rejects some valid nodes when input ranks are
            # known but dims are not (Resize with `sizes`); without ranks it accepts them.
            session, in_names, out_names = self._session(call, inputs, False)
        present = [(i, n) for i, n in enumerate(in_names) if n is not None]
        runner = self._plain_runner(session, present, out_names, len(present) != len(in_names))
        seq_types = [sequence_elem_type(o.type) for o in session.get_outputs()]
        if any(t is not None for t in seq_types):
            return _typed_sequences(runner, seq_types)
        return runner

    def _plain_runner(
        self, session: Any, present: list[tuple[int, str]], out_names: list[str], gaps: bool
    ) -> Runner:
        names = [n for _, n in present]
        # The binding's own run() skips the Python wrapper's per-call feed validation (the
        # feeds are always complete here); the public run() is used if it is absent.
        binding = getattr(session, "_sess", None)
        if binding is not None and hasattr(binding, "run") and not gaps:
            raw_run = binding.run

            def raw_runner(values: Sequence[Any]) -> list[Any]:
                result: list[Any] = raw_run(out_names, dict(zip(names, values, strict=False)), None)
                return result

            return raw_runner
        run = session.run

        def runner(values: Sequence[Any]) -> list[Any]:
            result: list[Any] = run(out_names, {n: values[i] for i, n in present})
            return result

        return runner


class ReferenceEvaluator(CachingEvaluator):
    """Runs each op with ``onnx.reference.ReferenceEvaluator`` (pure Python, slower, and
    useful to cross-check onnxruntime or for ops onnxruntime lacks)."""

    def __repr__(self) -> str:
        return "ReferenceEvaluator()"

    def prepare(self, call: OpCall, inputs: Sequence[Any]) -> Runner:
        import onnx.reference

        newest = onnx.defs.onnx_opset_version()
        model, in_names, out_names = single_node_model(
            call, inputs, onnx.IR_VERSION, call.version, newest
        )
        reference = onnx.reference.ReferenceEvaluator(model)
        present = [(i, n) for i, n in enumerate(in_names) if n is not None]

        def runner(values: Sequence[Any]) -> list[Any]:
            outputs = reference.run(out_names, {n: values[i] for i, n in present})
            return [_as_array(o) for o in outputs]

        return runner


def _typed_sequences(runner: Runner, seq_types: list[int | None]) -> Runner:
    """Wrap sequence outputs in :class:`TensorSequence` with their element type."""

    def typed(values: Sequence[Any]) -> list[Any]:
        outputs = runner(values)
        return [
            TensorSequence(o, t) if t is not None and isinstance(o, list) else o
            for o, t in zip(outputs, seq_types, strict=False)
        ]

    return typed


def _as_array(value: Any) -> Any:
    if isinstance(value, np.generic):
        return np.asarray(value)
    if isinstance(value, list):
        elem_type = getattr(value, "elem_type", None)
        items = [_as_array(v) for v in value]
        if elem_type is None and items:
            elem_type = onnx_dtype(np.asarray(items[0]).dtype)
        return TensorSequence(items, elem_type)
    return value


class MixedEvaluator(CachingEvaluator):
    """Uses ``primary`` (onnxruntime by default) and, for ops it cannot load (an op or an
    element type it does not implement), ``fallback`` (the reference evaluator)."""

    def __init__(
        self,
        primary: CachingEvaluator | None = None,
        fallback: CachingEvaluator | None = None,
        max_cached: int = 2048,
        ignore_unknown_function_kwargs: bool = False,
    ) -> None:
        super().__init__(max_cached, ignore_unknown_function_kwargs)
        self.primary = primary if primary is not None else OnnxRuntimeEvaluator()
        self.fallback = fallback if fallback is not None else ReferenceEvaluator()

    def __repr__(self) -> str:
        return f"MixedEvaluator({self.primary!r}, {self.fallback!r})"

    def prepare(self, call: OpCall, inputs: Sequence[Any]) -> Runner:
        try:
            return self.primary.prepare(call, inputs)
        except Exception:
            return self.fallback.prepare(call, inputs)
