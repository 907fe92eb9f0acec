"""Running models with onnxruntime, and comparing output values.

One comparison serves every check of the project (eager against compiled, a translated
model against the original, conformance runs against expected outputs): the number of
outputs, then for each output its kind (tensor, sequence, map, absent optional), element
type, shape and values (floating point within a tolerance, NaN equal to NaN; everything
else exactly).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnx

from onnxscript import runtime


def model_runner(model: onnx.ModelProto) -> Callable[[Sequence[Any]], list[Any]]:
    """A function that runs ``model`` as :func:`run_model` does, all its calls sharing one
    onnxruntime session."""
    graph_inputs = [i.name for i in model.graph.input]
    session = runtime.session(model)
    accepted = {i.name for i in session.get_inputs()}
    accepted |= {i.name for i in session.get_overridable_initializers()}

    def run(inputs: Sequence[Any]) -> list[Any]:
        if len(inputs) > len(graph_inputs):
            raise ValueError(
                f"{len(inputs)} input values for a model with {len(graph_inputs)} inputs"
            )
        feeds = {
            name: np.asarray(value) if isinstance(value, np.generic) else value
            for name, value in zip(graph_inputs, inputs)
            if name in accepted
        }
        return list(session.run(None, feeds))

    return run


def run_model(model: onnx.ModelProto, inputs: Sequence[Any]) -> list[Any]:
    """Run ``model`` with onnxruntime on the CPU (its warnings silenced).

    ``inputs`` feed the graph inputs in order (numpy arrays or scalars; sequences as lists
    of arrays); more values than graph inputs is an error. A graph input that also has an
    initializer (a default value) may be left out, and is dropped where onnxruntime does
    not let it be fed (models before IR version 4).
    """
    return model_runner(model)(inputs)


def first_mismatch(
    actual: Sequence[Any],
    expected: Sequence[Any],
    rtol: float = 1e-5,
    atol: float = 1e-6,
    names: tuple[str, str] = ("actual", "expected"),
) -> str | None:
    """Where the outputs ``actual`` first differ from ``expected`` (``None`` when they
    agree); ``names`` label the two sides in the message."""
    if len(actual) != len(expected):
        return f"{names[0]} gives {len(actual)} output(s), {names[1]} {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
        found = _mismatch(a, e, rtol, atol, names)
        if found is not None:
            return f"output {i}: {found}"
    return None


def _mismatch(a: Any, e: Any, rtol: float, atol: float, names: tuple[str, str]) -> str | None:
    left, right = names
    if isinstance(a, (list, tuple)) or isinstance(e, (list, tuple)):
        if not (isinstance(a, (list, tuple)) and isinstance(e, (list, tuple))):
            return f"{left} {type(a).__name__}, {right} {type(e).__name__}"
        if len(a) != len(e):
            return f"{left} sequence of {len(a)}, {right} of {len(e)}"
        for k, (x, y) in enumerate(zip(a, e, strict=True)):
            found = _mismatch(x, y, rtol, atol, names)
            if found is not None:
                return f"item {k}: {found}"
        return None
    if isinstance(a, dict) or isinstance(e, dict):
        if not (isinstance(a, dict) and isinstance(e, dict)) or a.keys() != e.keys():
            return f"{left} and {right} are not maps with the same keys"
        for key in e:
            found = _mismatch(a[key], e[key], rtol, atol, names)
            if found is not None:
                return f"key {key!r}: {found}"
        return None
    if a is None or e is None:
        return None if a is e else f"{left if a is None else right} has no value (an optional)"
    x = np.asarray(a.numpy() if hasattr(a, "numpy") else a)
    y = np.asarray(e)
    if x.dtype != y.dtype:
        return f"{left} dtype {x.dtype}, {right} {y.dtype}"
    if x.shape != y.shape:
        return f"{left} shape {x.shape}, {right} {y.shape}"
    if _floating(y.dtype):
        if y.dtype.kind != "c":
            x, y = x.astype(np.float64), y.astype(np.float64)
        bad = ~np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=True)
        if bad.any():
            largest = np.abs(x - y)[bad].max()
            return (
                f"values differ in {int(bad.sum())} of {bad.size} elements (largest "
                f"difference {largest}; rtol={rtol}, atol={atol})"
            )
        return None
    bad = np.asarray(x != y)
    if bad.any():
        return f"values differ in {int(bad.sum())} of {bad.size} elements"
    return None


def _floating(dtype: np.dtype[Any]) -> bool:
    """Float and complex types, including those numpy lacks (bfloat16, float8, ...)."""
    return dtype.kind in "fc" or str(dtype).startswith(("float", "bfloat"))
