"""Export with dynamic shapes and compare with torch at several sizes: the one place the
dynamic-shape suites (symbolic arithmetic, OpInfo samples, real models, control flow)
export, check and run models."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
import torch

TOLERANCE = 1e-4
"""Largest difference from torch allowed, relative to the output's scale."""


def export(
    module: torch.nn.Module,
    args: tuple[Any, ...],
    dynamic_shapes: Any = None,
    *,
    optimize: bool = True,
    kwargs: dict[str, Any] | None = None,
) -> Any:
    """``torch.onnx.export(dynamo=True)`` with torch's log quiet; the ONNXProgram."""
    logging.disable(logging.WARNING)
    try:
        return torch.onnx.export(
            module,
            args,
            kwargs=kwargs,
            dynamic_shapes=dynamic_shapes,
            dynamo=True,
            optimize=optimize,
            verbose=False,
        )
    finally:
        logging.disable(logging.NOTSET)


def flat_tensors(value: Any) -> list[torch.Tensor]:
    """The tensors of a (nested) output, in order; numbers as 0-d tensors."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in flat_tensors(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in flat_tensors(item)]
    if hasattr(value, "to_tuple"):  # transformers' ModelOutput
        return flat_tensors(value.to_tuple())
    return [torch.as_tensor(value)]


def numpy_of(tensor: torch.Tensor) -> np.ndarray:
    """A tensor as torch.onnx represents it (complex as real pairs on a last axis)."""
    tensor = tensor.detach().resolve_conj().resolve_neg()
    return (torch.view_as_real(tensor) if tensor.is_complex() else tensor).numpy()


@dataclass
class Difference:
    """How far the ONNX outputs are from torch's: the worst relative difference over all
    outputs, or what did not match (shape, count, element type)."""

    relative: float
    mismatch: str = ""

    @property
    def ok(self) -> bool:
        return not self.mismatch and self.relative <= TOLERANCE


def compare(got: Sequence[np.ndarray], expected: Sequence[np.ndarray]) -> Difference:
    if len(got) != len(expected):
        return Difference(float("inf"), f"{len(got)} outputs, torch gives {len(expected)}")
    worst = 0.0
    for index, (g, e) in enumerate(zip(got, expected)):
        g = np.asarray(g)
        if g.shape != e.shape:
            return Difference(float("inf"), f"output {index}: shape {g.shape}, torch {e.shape}")
        if e.dtype == np.bool_ or np.issubdtype(e.dtype, np.integer):
            if not np.array_equal(g.astype(e.dtype), e):
                return Difference(float("inf"), f"output {index}: values differ")
            continue
        if e.size == 0:
            continue
        scale = max(float(np.nanmax(np.abs(e))), 1e-6)
        finite = np.isfinite(e)
        if not np.array_equal(finite, np.isfinite(g)):
            return Difference(float("inf"), f"output {index}: non-finite values differ")
        diff = float(np.max(np.abs(g[finite].astype(np.float64) - e[finite]), initial=0.0))
        worst = max(worst, diff / scale)
    return Difference(worst)


def run_onnx(model: onnx.ModelProto, args: Sequence[torch.Tensor]) -> list[np.ndarray]:
    """The model run by onnxruntime on ``args`` (the model's inputs in order)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(model.SerializeToString(), options)
    names = [i.name for i in session.get_inputs()]
    if len(names) != len(args):
        raise ValueError(f"the model takes {len(names)} inputs, {len(args)} given")
    return session.run(None, {n: numpy_of(a) for n, a in zip(names, args)})


def check_at(
    program: Any, module: torch.nn.Module, inputs: Sequence[tuple[Any, ...]]
) -> list[Difference]:
    """The exported model against ``module`` on each tuple of ``inputs`` (tensors, in the
    order of the model's inputs; other sizes than the export's)."""
    model = program.model_proto
    results = []
    for args in inputs:
        with torch.no_grad():
            expected = [numpy_of(t) for t in flat_tensors(module(*args))]
        got = run_onnx(model, flat_tensors(args))
        results.append(compare(got, expected))
    return results


def all_dynamic(args: Sequence[Any]) -> tuple[Any, ...]:
    """A ``dynamic_shapes`` spec with every dim of every tensor argument dynamic
    (``Dim.DYNAMIC``: torch keeps relations between dims and refuses to export when
    the model fixes one)."""
    dynamic = torch.export.Dim.DYNAMIC
    return tuple(
        {axis: dynamic for axis in range(a.dim())} if isinstance(a, torch.Tensor) else None
        for a in args
    )


__all__ = [
    "TOLERANCE",
    "Difference",
    "all_dynamic",
    "check_at",
    "compare",
    "export",
    "flat_tensors",
    "numpy_of",
    "run_onnx",
]
