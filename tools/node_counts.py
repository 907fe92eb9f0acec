"""Write docs/node_counts.md: per model of the static suite (tests/function_libs/models.py)
and of the dynamic one (every model of tests/function_libs/real_models.py, exported with
dynamic shapes), the node count after ``optimize()`` with our onnxscript and with 0.7.2,
the difference, whether each side's model matches torch, and the totals.

Each side runs ``bench/export_child.py`` (the benchmark's child) in a subprocess: ours
from the repository, 0.7.2 in its environment (``bench/support.py``) from a directory
outside it. ~10+ min of CPU per side. Run: ``python tools/node_counts.py [--baseline
PYTHON] [--save results.json] [--load results.json --sides ours]`` (``--load`` starts
from saved results, ``--sides`` says which sides to export again; ``--sides ''`` none).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "node_counts.md"
SIDES = ("ours", "0.7.2")
SUITES = {
    "static": "Static suite (`tests/function_libs/models.py`, fixed shapes)",
    "dynamic": "Dynamic suite (`tests/function_libs/real_models.py`, dynamic shapes)",
}

Results = dict[str, dict[str, dict[str, dict[str, Any]]]]
"""suite -> side -> model -> figures (the child's JSON)."""


def suite_models() -> dict[str, dict[str, str]]:
    """Per suite, every model's name with why it is not exported ("" for those that are)."""
    sys.path.insert(0, str(ROOT))
    from tests.function_libs import models, real_models

    static = dict.fromkeys(models.suite(), "")
    dynamic = {name: model.torch_fails for name, model in real_models.suite().items()}
    return {"static": static, "dynamic": dynamic}


def measure(baseline: Path | None, sides: tuple[str, ...] = SIDES) -> Results:
    """Both suites exported by ``sides`` (two children at a time)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from support import ensure_torch_baseline, run_json
    from torch_export import child_command

    pythons = {"ours": Path(sys.executable)}
    if "0.7.2" in sides:
        pythons["0.7.2"] = baseline or ensure_torch_baseline()
    with tempfile.TemporaryDirectory() as outside, ThreadPoolExecutor(2) as pool:
        jobs = {
            (suite, side): pool.submit(
                run_json,
                child_command(
                    pythons[side], dynamic=suite == "dynamic", ours=side == "ours", plain=False
                ),
                cwd=ROOT if side == "ours" else outside,
            )
            for suite in SUITES
            for side in sides
        }
        results: Results = {suite: {} for suite in SUITES}
        for (suite, side), job in jobs.items():
            results[suite][side] = job.result()
    return results


def _cell(figures: dict[str, Any] | None) -> tuple[str, str]:
    """The node count and the "matches torch" cell of one side."""
    if figures is None:
        return "-", "not run"
    if "error" in figures:
        return "-", "FAIL"
    return str(figures["nodes_optimized"]), "yes" if figures["matches"] else "NO"


def _exported(figures: dict[str, Any] | None) -> bool:
    return figures is not None and "error" not in figures


def render(results: Results, models: dict[str, dict[str, str]]) -> str:
    """The document: one table per suite, totals, the failures and the CastLike nodes."""
    lines = [
        "# Node counts after `optimize()`: ours and onnxscript 0.7.2",
        "",
        "Written by `python tools/node_counts.py` (do not edit): each model exported with",
        "`torch.onnx.export(dynamo=True)` by the same torch, optimized, and its main graph's",
        "nodes counted; *matches* says whether onnxruntime's result is torch's (at the",
        "export's sizes and, for the dynamic suite, at second sizes). The difference is",
        "ours minus 0.7.2; totals count the models both sides export.",
    ]
    for suite, title in SUITES.items():
        ours, base = results[suite].get("ours", {}), results[suite].get("0.7.2", {})
        lines += ["", f"## {title}", ""]
        lines += [
            "| model | ours | 0.7.2 | difference | ours matches torch | 0.7.2 matches torch |",
            "| --- | ---: | ---: | ---: | --- | --- |",
        ]
        totals = [0, 0]
        both = 0
        for name, torch_fails in models[suite].items():
            if torch_fails:
                lines.append(f"| {name} | - | - | - | torch.export fails | torch.export fails |")
                continue
            (mine, my_match), (theirs, their_match) = _cell(ours.get(name)), _cell(base.get(name))
            difference = "-"
            if _exported(ours.get(name)) and _exported(base.get(name)):
                a, b = ours[name]["nodes_optimized"], base[name]["nodes_optimized"]
                totals = [totals[0] + a, totals[1] + b]
                both += 1
                difference = f"{a - b:+d}"
            row = f"| {name} | {mine} | {theirs} | {difference} | {my_match} | {their_match} |"
            lines.append(row)
        lines += [
            f"| **total ({both} models)** | {totals[0]} | {totals[1]} | "
            f"{totals[0] - totals[1]:+d} | | |",
            "",
        ]
        lines += _failures(ours, base) + _casts(ours, base)
    return "\n".join(lines).rstrip() + "\n"


def _failures(ours: dict[str, Any], base: dict[str, Any]) -> list[str]:
    found = [
        f"- {side} fails on `{name}`: {figures['error']}"
        for side, results in (("ours", ours), ("0.7.2", base))
        for name, figures in results.items()
        if "error" in figures
    ]
    return ["Failures:", "", *found, ""] if found else []


def _casts(ours: dict[str, Any], base: dict[str, Any]) -> list[str]:
    """CastLike nodes per side before and after optimize(), and ours before optimize() by
    the ATen call that emitted them."""

    def count(results: dict[str, Any], key: str) -> str:
        found = [f[key].get("CastLike", 0) for f in results.values() if key in f]
        return str(sum(found)) if found else "not measured"

    sources: Counter[str] = Counter()
    for figures in ours.values():
        sources.update(figures.get("casts_plain", {}))
    lines = [
        f"CastLike nodes after `optimize()`: ours {count(ours, 'ops')}, "
        f"0.7.2 {count(base, 'ops')}; before it (as the ATen functions emit them): "
        f"ours {count(ours, 'ops_plain')}, 0.7.2 {count(base, 'ops_plain')}.",
    ]
    if sources:
        lines += ["", "Ours before `optimize()`, by op and ATen call:", ""]
        lines += [f"- `{key}`: {n}" for key, n in sources.most_common()]
    return lines


def read_table(text: str) -> dict[str, dict[str, list[str]]]:
    """The doc's rows by suite title and model name: the cells after the name."""
    tables: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = tables.setdefault(line[3:].strip(), {})
        elif line.startswith("|") and current is not None:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] in ("model", "---") or cells[0].startswith("**total"):
                continue
            current[cells[0]] = cells[1:]
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="the Python with onnxscript 0.7.2")
    parser.add_argument("--save", type=Path, help="also write the raw results (JSON) here")
    parser.add_argument("--load", type=Path, help="start from these raw results")
    parser.add_argument(
        "--sides",
        default="ours,0.7.2",
        help="the sides to export ('' with --load: none); the others' results are loaded",
    )
    args = parser.parse_args()
    results: Results = json.loads(args.load.read_text()) if args.load else {}
    sides = tuple(s for s in args.sides.split(",") if s)
    if sides:
        measured = measure(args.baseline, sides)
        for suite, by_side in measured.items():
            results.setdefault(suite, {}).update(by_side)
    if args.save:
        args.save.write_text(json.dumps(results, indent=1))
    DOC.write_text(render(results, suite_models()))
    print(f"{DOC} written")


if __name__ == "__main__":
    main()
