"""One op application as a backend runs it: the op, its attribute values and output
count (:class:`OpCall`), the function a backend prepares to run it (:data:`Runner`), and
what eager mode needs of the evaluator that runs it (:class:`ArrayRunner`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import onnx

from onnxscript.language.binding import Signature

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


class ArrayRunner(Protocol):
    """What eager mode (``evaluator.eager``) needs of the array evaluator it works for
    (``base.CachingEvaluator`` is one): running a call on input arrays, and whether
    script-function calls drop keyword arguments they do not declare."""

    ignore_unknown_function_kwargs: bool

    def run(self, call: OpCall, inputs: Sequence[Any]) -> list[Any]:
        """The outputs of ``call`` applied to ``inputs``."""
        ...
