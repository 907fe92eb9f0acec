"""Run torch's OpInfo samples through our ATen library with dynamic shapes.

For each sample (the same modules as :mod:`opinfo_harness`), ``torch.export`` captures the
module with every dim of size 2 or more dynamic (``Dim.DYNAMIC``; torch always specializes
sizes 0 and 1); where torch refuses, the dims its error names (else those ``Dim.AUTO``
specializes, else one at a time) are made static and the rest kept
(:func:`dynamic_export.capture_dynamic`). The capture is translated by
``torch.onnx.export`` and run in onnxruntime at the sample's sizes and at other sizes:
torch's symbols for the dynamic dims (dims torch relates share one, or are expressions of
one) grown by the first rule (+1, x2, +2) whose inputs both the module and the captured
program's guards accept, else as many symbols as can grow (:func:`dynamic_export.
other_inputs`). Non-tensor arguments stay as in the sample. Both runs are compared with
torch as the static regime compares.

Each sample ends as "pass", "fail: <why>", "static only: <why>" (torch keeps no dim
dynamic) or "skip: <why>" (torch.export cannot capture it at all). Per entry, samples
with a dim of size 2 or more (among the first :data:`SCANNED`) run until
``DYNAMIC_SAMPLES`` of them ran with dynamic dims: 1 by default, for CI time (about 4 min
of CPU for all entries); docs/torch_lib_ops.md is made with 2 (tools/torchlib_report.py);
``TORCHLIB_DYNAMIC_SAMPLES=4`` is the full mode (about 12 min).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from tests.function_libs import dynamic_export
from tests.function_libs.opinfo_harness import (
    ALL_ENTRIES,
    entry_samples,
    flat_outputs,
    graph_overloads,
    judge,
    opinfos,
    short_error,
    uncompared,
)

DYNAMIC_SAMPLES = int(os.environ.get("TORCHLIB_DYNAMIC_SAMPLES", "1"))
"""Samples run per entry (env ``TORCHLIB_DYNAMIC_SAMPLES``)."""

SCANNED = 8
"""Samples of an entry looked at to find those with a dim torch can keep dynamic."""


@dataclass
class DynamicOutcome:
    """One sample's result: ``shapes`` its tensors' shapes with the dims kept dynamic
    starred (``[5*, 3]``), ``grown`` the rule of the second run's sizes ("" when no rule
    gives inputs torch accepts), ``overloads`` what the exported graph called."""

    op: str
    sample: int
    result: str  # "pass", "fail: ...", "static only: ...", "skip: ..."
    shapes: str = ""
    grown: str = ""
    overloads: tuple[str, ...] = ()


def shapes_text(tensors: tuple[torch.Tensor, ...], dims: dynamic_export.Dims) -> str:
    """The tensors' shapes, the dims in ``dims`` starred."""
    return ", ".join(
        "[" + ", ".join(f"{n}*" if (i, a) in dims else str(n) for a, n in enumerate(t.shape)) + "]"
        for i, t in enumerate(tensors)
    )


def run_dynamic(
    name: str, index: int, module: torch.nn.Module, tensors: tuple[Any, ...]
) -> DynamicOutcome:
    """Capture with dynamic dims, export, run at the sample's and at grown sizes."""
    outcome = DynamicOutcome(name, index, "pass", shapes_text(tensors, frozenset()))
    try:
        capture = dynamic_export.capture_dynamic(module, tensors)
    except Exception as error:
        outcome.result = f"skip: torch.export: {short_error(error)}"
        return outcome
    if not capture.dynamic:
        outcome.result = f"static only: {_static_reason(capture)}"
        return outcome
    outcome.shapes = shapes_text(tensors, capture.dynamic)
    other = dynamic_export.other_inputs(capture.program, module, tensors, capture.dynamic)
    runs = [("export sizes", tensors)]
    if other is not None:
        outcome.grown = other[0]
        runs.append((f"sizes {other[0]}", other[1]))
    try:
        program = dynamic_export.export_program(capture.program, tensors, optimize=False)
    except Exception as error:
        outcome.result = f"fail: export: {short_error(error)}"
        return outcome
    graph = program.exported_program.graph
    outcome.overloads = graph_overloads(graph)
    random = uncompared(outcome.overloads, graph)
    outcome.result = _compare_runs(program.model_proto, module, runs, random)
    return outcome


def _compare_runs(
    model: Any, module: torch.nn.Module, runs: list[tuple[str, tuple[Any, ...]]], random: bool
) -> str:
    """Each run of the model against torch: "pass" or the first failure, with its sizes."""
    try:
        session = dynamic_export.onnx_session(model)
    except Exception as error:
        return f"fail: onnxruntime: {short_error(error)}"
    for label, args in runs:
        try:
            got = dynamic_export.run_session(session, args)
        except Exception as error:
            return f"fail: onnxruntime (at {label}): {short_error(error)}"
        verdict = judge(got, _expected(module, args), module, args, random)
        if verdict != "pass":
            return f"{verdict} (at {label})"
    return "pass"


def _expected(module: torch.nn.Module, args: tuple[Any, ...]) -> list[np.ndarray]:
    copies = tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)
    with torch.no_grad():
        return flat_outputs(module(*copies))


def _static_reason(capture: dynamic_export.Capture) -> str:
    return "; ".join(sorted(set(capture.fixed.values())))


def run_entry(
    name: str, infos: dict[str, Any], samples: int = DYNAMIC_SAMPLES
) -> list[DynamicOutcome]:
    """The entry's samples with a dim of size 2 or more (among its first
    :data:`SCANNED`) until ``samples`` of them ran with dynamic dims; those torch keeps
    static are recorded on the way."""
    outcomes = []
    ran = 0
    for index, module, tensors in entry_samples(name, infos, SCANNED):
        if not dynamic_export.candidate_dims(tensors):
            continue
        torch.manual_seed(0)
        outcome = run_dynamic(name, index, module, tensors)
        outcomes.append(outcome)
        ran += not outcome.result.startswith(("static only", "skip"))
        if ran >= samples:
            break
    if not outcomes:
        reason = f"static only: no dim of size 2 or more in the first {SCANNED} samples"
        outcomes.append(DynamicOutcome(name, 0, reason))
    return outcomes


def run_all_dynamic(
    ops: list[str] | None = None, samples: int = DYNAMIC_SAMPLES
) -> list[DynamicOutcome]:
    infos = opinfos()
    return [o for name in ops or ALL_ENTRIES for o in run_entry(name, infos, samples)]
