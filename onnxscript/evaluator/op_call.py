"""One op application as a backend runs it: the op, its attribute values and output
count (:class:`OpCall`), and the function a backend prepares to run it (:data:`Runner`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

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
