"""Helpers 0.7's fusion tests import: run an ``ir.Model`` in onnxruntime on the CPU, and
compare outputs within tolerance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript import runtime


def ort_run(model_name: str, model: ir.Model, inputs: Mapping[str, Any]) -> list[np.ndarray]:
    """The outputs of ``model`` (an ``ir.Model``, not changed) on ``inputs`` in an
    onnxruntime CPU session; ``model_name`` names it in errors."""
    proto = ir.to_proto(model)
    try:
        session = runtime.session(proto)
    except Exception as error:
        raise RuntimeError(f"onnxruntime could not load the model {model_name!r}") from error
    return list(session.run(None, dict(inputs)))


def assert_allclose(
    outputs: Sequence[Any], expected_outputs: Sequence[Any], rtol: float = 1e-3, atol: float = 1e-3
) -> None:
    """Each output equal to the expected one within ``rtol`` and ``atol`` (pairs taken in
    order, as many as the shorter sequence has); on a difference, the mismatching
    positions (``X``) and the output's index are printed, and numpy's AssertionError
    raised."""
    for index, (output, expected) in enumerate(zip(outputs, expected_outputs)):
        try:
            np.testing.assert_allclose(output, expected, rtol=rtol, atol=atol)
        except AssertionError:
            actual, wanted = np.asarray(output), np.asarray(expected)
            if actual.shape == wanted.shape:
                close = np.isclose(actual, wanted, rtol=rtol, atol=atol)
                print(np.where(close, "", "X"))
            print(f"Failed for output {index} with rtol={rtol} and atol={atol}")
            raise


def _version() -> Any:
    import onnxruntime
    import packaging.version

    return packaging.version.Version(onnxruntime.__version__)


ORT_VERSION = _version()
"""The installed onnxruntime's version (a ``packaging`` ``Version``)."""

__all__ = ["ORT_VERSION", "assert_allclose", "ort_run"]
