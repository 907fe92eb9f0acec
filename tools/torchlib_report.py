"""Write docs/torch_lib_ops.md: per OpInfo entry, how many samples pass exported and
eager and why the others do not; then, per Core ATen overload, how many of those samples
reached it and passed (run: ``python tools/torchlib_report.py``; ~14 min of CPU, spread
over every core).

``python tools/torchlib_report.py --scan`` instead lists the op_db entries the harness does
not run yet whose decomposed graph (first float32 sample) calls only registered overloads:
the candidates for ``tests/function_libs/opinfo_entries.py``.
"""

from __future__ import annotations

import collections
import logging
import multiprocessing
import os
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.function_libs.opinfo_entries import NOT_RUN, OPS  # noqa: E402
from tests.function_libs.opinfo_harness import (  # noqa: E402
    ALL_ENTRIES,
    ASSERTIONS,
    Outcome,
    core_decompositions,
    entry_samples,
    graph_overloads,
    opinfos,
    run_all,
    torchlib_table,
)
from tests.function_libs.test_ops_opinfo import _known  # noqa: E402

UNREACHED = {
    "aten::atan2.out": (
        "an out= overload: torch.export functionalizes them away, so no exported graph "
        "calls it (aten::atan2 is registered)"
    ),
    "aten::_native_batch_norm_legit": (
        "updates the running statistics in place: torch.export's functionalization "
        "replaces it with _native_batch_norm_legit_functional (registered; the "
        "_native_batch_norm_legit entry's samples reach that one)"
    ),
    "aten::randperm": "no OpInfo entry (and random values, comparable by shape only)",
    "aten::sym_numel": "graphs call it only with dynamic shapes; the samples are static",
    "aten::sym_stride.int": "graphs call it only with dynamic shapes; the samples are static",
}
"""Core ATen overloads no sample reaches, and why."""


def core_overloads() -> list[str]:
    """The overloads torch tags ``core`` (the Core ATen IR), by qualified name."""
    import torch

    found = set()
    for packet_name in dir(torch.ops.aten):
        packet = getattr(torch.ops.aten, packet_name)
        if not isinstance(packet, torch._ops.OpOverloadPacket):
            continue
        for overload in packet.overloads():
            value = getattr(packet, overload)
            if torch.Tag.core in value.tags:
                found.add(value.name())
    return sorted(found)


def _entry_lines(outcomes: list[Outcome]) -> list[str]:
    rows: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    reasons: dict[str, set[str]] = collections.defaultdict(set)
    for o in outcomes:
        kind = o.result.split(":")[0]
        rows[o.op][f"{o.mode} {kind}"] += 1
        if kind != "pass":
            reasons[o.op].add(_known(o.op, o.result) or o.result.split(":", 1)[1].strip())
    lines = [
        "| OpInfo entry | exported pass | exported fail | eager pass | eager fail/skip | reasons |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for op in ALL_ENTRIES:
        c = rows[op]
        why = "; ".join(sorted(reasons[op])).replace("|", "\\|")
        lines.append(
            f"| {op} | {c['exported pass']} | {c['exported fail']} | {c['eager pass']} "
            f"| {c['eager fail'] + c['eager skip']} | {why} |"
        )
    return lines


def _core_lines(outcomes: list[Outcome], registered: set[str]) -> list[str]:
    """Per core overload: samples whose graph called it, passed / reached, per mode."""
    reached: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(
        collections.Counter
    )
    for o in outcomes:
        for name in o.overloads:
            reached[(name, o.mode)]["all"] += 1
            reached[(name, o.mode)]["pass"] += o.result == "pass"
    core = core_overloads()
    covered = [
        n for n in core if reached[(n, "exported")]["pass"] and reached[(n, "eager")]["pass"]
    ]
    lines = [
        f"{len(core)} overloads are tagged core in this torch; {sum(n in registered for n in core)}"
        f" are registered; {len(covered)} are called by passing samples both exported and eager.",
        "A sample reaches an overload when its graph calls it (exported: the graph torch.onnx",
        "translates; eager: the graph decomposed to the Core ATen IR), so an overload's fails",
        "are those of the entries listed above.",
        "",
        "| overload | registered | exported pass / reached | eager pass / reached | note |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name in core:
        exported, eager = reached[(name, "exported")], reached[(name, "eager")]
        lines.append(
            f"| `{name}` | {'yes' if name in registered else 'no'} "
            f"| {exported['pass']} / {exported['all']} | {eager['pass']} / {eager['all']} "
            f"| {UNREACHED.get(name, '')} |"
        )
    return lines


def _run_one(name: str) -> list[Outcome]:
    logging.disable(logging.WARNING)
    return run_all([name])


def _run_everything() -> list[Outcome]:
    """Every entry's outcomes, in the order of ALL_ENTRIES, over one process per core."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(os.cpu_count() or 1) as pool:
        return [o for found in pool.map(_run_one, ALL_ENTRIES, chunksize=1) for o in found]


def write_report() -> None:
    outcomes = _run_everything()
    table = torchlib_table()
    registered = {name.split(" ")[0] for name in table}
    lines = [
        "# ATen operators: OpInfo results",
        "",
        "Generated by `python tools/torchlib_report.py` from torch's OpInfo samples (the first",
        "3 samples of each entry, float32 unless the entry says `@<dtype>`); the library",
        f"registers {len(table)} ATen overloads and complex variants",
        "(`onnxscript._framework_apis.torch_2_11.get_torchlib_ops()`). *exported*: the sample",
        "run through `torch.onnx.export(dynamo=True)` and onnxruntime; *eager*: the ATen graph",
        "decomposed to the Core ATen IR and evaluated with our functions on numpy arrays. Both",
        "compared with torch (rtol 1e-4, atol 1e-5, or no farther from torch's float64 result",
        "than torch's float32 one). Entries of random ops compare shapes and element types.",
        "",
        *_entry_lines(outcomes),
        "",
        "## Core ATen IR",
        "",
        *_core_lines(outcomes, registered),
        "",
        "## Overloads registered",
        "",
        ", ".join(f"`{n}`" for n in sorted(table)),
        "",
    ]
    (ROOT / "docs" / "torch_lib_ops.md").write_text("\n".join(lines))
    print(f"wrote docs/torch_lib_ops.md ({len(outcomes)} outcomes)")


def _first_graph_overloads(name: str, infos: dict[str, object]) -> Iterable[str] | None:
    import torch

    for _, module, tensors in entry_samples(name, infos):
        try:
            exported = torch.export.export(module, tensors).run_decompositions(
                core_decompositions()
            )
        except Exception:
            return None
        return graph_overloads(exported.graph_module.graph)
    return None


def scan() -> None:
    """Print op_db entries not yet run whose first sample's graph the library covers."""
    infos = opinfos()
    # getitem picks one output of a multi-output node: the harness evaluates it itself.
    handled = ASSERTIONS | {"_operator::getitem"}
    registered = {name.split(" ")[0] for name in torchlib_table()} | handled
    for name in sorted(set(infos) - set(OPS) - set(NOT_RUN)):
        try:
            used = _first_graph_overloads(name, infos)
        except Exception:
            continue
        if used and set(used) <= registered:
            print(name)


if __name__ == "__main__":
    logging.disable(logging.WARNING)
    scan() if "--scan" in sys.argv[1:] else write_report()
