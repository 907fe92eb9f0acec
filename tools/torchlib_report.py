"""Write docs/torch_lib_ops.md: per OpInfo entry, how many samples pass exported and
eager and why the others do not; then the same samples exported with dynamic shapes
(passed, failed, kept static by torch, and which dims stayed dynamic); then, per Core
ATen overload, how many of those samples reached it and passed (run:
``python tools/torchlib_report.py``; ~20 min of CPU, spread over every core).

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

from tests.function_libs.core_aten import UNREACHED, core_overloads  # noqa: E402
from tests.function_libs.dynamic_harness import (  # noqa: E402
    DYNAMIC_SAMPLES,
    DynamicOutcome,
    run_all_dynamic,
)
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
from tests.function_libs.test_ops_dynamic import known_dynamic  # noqa: E402
from tests.function_libs.test_ops_opinfo import _known  # noqa: E402

REPORT_DYNAMIC_SAMPLES = max(DYNAMIC_SAMPLES, 2)
"""Samples per entry in the dynamic table: 2 (the tests run 1 by default), or more with
``TORCHLIB_DYNAMIC_SAMPLES``."""


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


def _dynamic_lines(outcomes: list[DynamicOutcome]) -> list[str]:
    """Per entry: dynamic passes, fails and samples torch keeps static, the shapes run
    (dynamic dims starred, with the growth of the second run) and the reasons."""
    by_entry: dict[str, list[DynamicOutcome]] = collections.defaultdict(list)
    for o in outcomes:
        by_entry[o.op].append(o)
    lines = [
        "| OpInfo entry | dynamic pass | dynamic fail | static only | shapes (dynamic dims*) "
        "and other sizes run | reasons |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for op in ALL_ENTRIES:
        found = by_entry[op]
        count = collections.Counter(o.result.split(":")[0] for o in found)
        shapes = "; ".join(_shapes_cell(o) for o in found if o.shapes)
        reasons = sorted({_dynamic_reason(o) for o in found if o.result != "pass"})
        lines.append(
            f"| {op} | {count['pass']} | {count['fail']} | {count['static only'] + count['skip']} "
            f"| {_escaped(shapes)} | {_escaped('; '.join(reasons))} |"
        )
    return lines


def _shapes_cell(o: DynamicOutcome) -> str:
    if o.result.startswith(("static only", "skip")):
        return f"{o.shapes} static"
    return f"{o.shapes} ({o.grown or 'no other size'})"


def _dynamic_reason(o: DynamicOutcome) -> str:
    kind, _, detail = o.result.partition(":")
    if kind == "fail":
        return known_dynamic(o.op, o.result) or detail.strip()
    return f"{kind}: {detail.strip()}"


def _escaped(text: str) -> str:
    return text.replace("|", "\\|")


def _dynamic_summary(outcomes: list[DynamicOutcome]) -> str:
    count = collections.Counter(o.result.split(":")[0] for o in outcomes)
    entries = collections.defaultdict(set)
    for o in outcomes:
        entries[o.result.split(":")[0]].add(o.op)
    failed = [o for o in outcomes if o.result.startswith("fail")]
    unknown = sum(known_dynamic(o.op, o.result) is None for o in failed)
    gaps = f"{unknown} not known gaps" if unknown else "all known gaps"
    return (
        f"{count['pass']} samples pass with dynamic dims, {count['fail']} fail ({gaps}, "
        f"listed with their reasons), {count['static only'] + count['skip']} are kept static "
        f"by torch; {len(set(ALL_ENTRIES) - entries['pass'] - entries['fail'])} entries have "
        "no sample torch captures with a dynamic dim."
    )


def _run_one(name: str) -> tuple[list[Outcome], list[DynamicOutcome]]:
    logging.disable(logging.WARNING)
    return run_all([name]), run_all_dynamic([name], REPORT_DYNAMIC_SAMPLES)


def _run_everything() -> tuple[list[Outcome], list[DynamicOutcome]]:
    """Every entry's outcomes, static and dynamic, in the order of ALL_ENTRIES, over one
    process per core."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(os.cpu_count() or 1) as pool:
        found = pool.map(_run_one, ALL_ENTRIES, chunksize=1)
    return [o for static, _ in found for o in static], [o for _, dyn in found for o in dyn]


def write_report() -> None:
    outcomes, dynamic = _run_everything()
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
        "## Dynamic shapes",
        "",
        "The same entries exported with dynamic shapes",
        "(`tests/function_libs/test_ops_dynamic.py`): per entry, the first",
        f"{REPORT_DYNAMIC_SAMPLES} samples with a dim of size 2 or more that torch captures with",
        "dynamic dims (samples torch keeps static on the way are counted as *static only*).",
        "Every dim of size 2 or more is marked `Dim.DYNAMIC`; the dims torch refuses",
        "(specialized by the op, or data-dependent) are made static and the others kept. The",
        "model runs in onnxruntime at the sample's sizes and at other sizes: torch's symbols for",
        "the dynamic dims grown (+1, else x2, else +2; *on k of n sizes* when only some symbols",
        "could grow and still make inputs torch accepts), compared with torch as above. In",
        "*shapes*, starred dims stayed dynamic; *no other size*: no growth torch accepts (the",
        "op ties the dims to the sample's sizes, as `view` to a fixed shape does).",
        "",
        _dynamic_summary(dynamic),
        "",
        *_dynamic_lines(dynamic),
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
    print(f"wrote docs/torch_lib_ops.md ({len(outcomes)} + {len(dynamic)} dynamic outcomes)")


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
