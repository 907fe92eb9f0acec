"""torch.onnx.export benchmark: the model suite exported with our onnxscript against the
same torch with onnxscript 0.7.2, in the same run.

The baseline is a virtual environment (``bench/.venv-torch-onnxscript-0.7.2``) with the
torch, torchvision, transformers and onnxruntime versions of this one and onnxscript
0.7.2, made on first use. Each side exports every model of the suite in its own
subprocess (after one warm-up export), without and with ``optimize()``, best of
``--repeat``; printed: seconds per model and in total, node counts after optimize, and the
ratio ours/0.7.2. Also the time of ``get_torchlib_ops()`` in a fresh interpreter.
Nothing is asserted on timings.

Two suites: the static one (default), the torch.nn models of
``tests/function_libs/models.py`` at fixed shapes; and with ``--dynamic`` the real
architectures of ``tests/function_libs/real_models.py`` (transformers and torchvision,
tiny random weights) exported with dynamic shapes, where each side also says whether its
optimized model matches torch at the export's shape and at a second one (the totals and
the ratio count the models both sides export).

A large model (a 0.66B-parameter Llama saved with external data: time and peak memory)
is ``bench/large_model.py``.

Both sides run the same child, ``bench/export_child.py`` (also used by
``tools/node_counts.py``).

Usage: ``python bench/torch_export.py [--repeat 3] [--no-baseline] [--dynamic]
[--models llama_kv,bert]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
MODELS_FILE = REPO_ROOT / "tests" / "function_libs" / "models.py"
REAL_MODELS_FILE = REPO_ROOT / "tests" / "function_libs" / "real_models.py"
DYNAMIC_EXPORT_FILE = REPO_ROOT / "tests" / "function_libs" / "dynamic_export.py"
sys.path[:0] = [str(BENCH_DIR)]

from support import ensure_torch_baseline, run_json  # noqa: E402

CHILD = BENCH_DIR / "export_child.py"
"""The child each side runs (by path; for the baseline from a directory outside the repo)."""


def child_command(
    python: Path,
    *,
    dynamic: bool,
    ours: bool,
    repeat: int = 1,
    plain: bool = True,
    models: str = "",
) -> list[str]:
    """The command line of one side's export child over the static or the dynamic suite
    (``ours``: with this repository first on the child's path)."""
    suite = [str(REAL_MODELS_FILE if dynamic else MODELS_FILE), str(DYNAMIC_EXPORT_FILE)]
    command = [str(python), str(CHILD), "dynamic" if dynamic else "static", *suite]
    command += ["--repeat", str(repeat), "--models", models]
    command += ["--path", str(REPO_ROOT)] if ours else []
    return command + ([] if plain else ["--no-plain"])


OPS_TIMING = r"""
import json, time
start = time.perf_counter()
from onnxscript._framework_apis.torch_2_11 import get_torchlib_ops
ops = get_torchlib_ops()
print(json.dumps({"seconds": time.perf_counter() - start, "count": len(ops)}))
"""


def _run(python: Path, script: str, *args: str, cwd: Path) -> dict[str, object]:
    return run_json([python, "-c", script, *args], cwd=cwd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument(
        "--dynamic", action="store_true", help="the real-model suite with dynamic shapes"
    )
    parser.add_argument("--models", default="", help="names, comma-separated")
    args = parser.parse_args()
    sides = {"ours": Path(sys.executable)}
    if not args.no_baseline:
        sides["0.7.2"] = ensure_torch_baseline()
    with tempfile.TemporaryDirectory() as tmp:
        cwds = {"ours": REPO_ROOT, "0.7.2": Path(tmp)}
        results = {
            side: run_json(
                child_command(
                    python,
                    dynamic=args.dynamic,
                    ours=side == "ours",
                    repeat=args.repeat,
                    models=args.models,
                ),
                cwd=cwds[side],
            )
            for side, python in sides.items()
        }
        timings = {side: _run(python, OPS_TIMING, cwd=cwds[side]) for side, python in sides.items()}
    if args.dynamic:
        _report_dynamic(results)
    else:
        _report(results)
    _report_timings(timings)


def _report(results: dict[str, dict[str, object]]) -> None:
    sides = list(results)
    print(
        f"{'model':<10}"
        + "".join(f" {s + ' plain':>12} {s + ' opt':>10} {s + ' nodes':>11}" for s in sides)
    )
    totals = {s: 0.0 for s in sides}
    for name in results["ours"]:
        row = f"{name:<10}"
        for side in sides:
            figures = results[side].get(name)
            if figures is None or "error" in figures:
                row += f" {'-':>12} {'-':>10} {'-':>11}"
                continue
            totals[side] += figures["plain"] + figures["optimized"]  # type: ignore[index, operator]
            row += f" {figures['plain']:12.3f} {figures['optimized']:10.3f} {figures['nodes_optimized']:>11}"  # type: ignore[index]
        print(row)
    print(
        "total seconds (plain + optimized): " + ", ".join(f"{s} {t:.2f}" for s, t in totals.items())
    )
    if "0.7.2" in totals:
        print(f"ratio ours/0.7.2: {totals['ours'] / totals['0.7.2']:.2f} (target: at most 0.8)")


def _report_timings(timings: dict[str, dict[str, object]]) -> None:
    for side, figures in timings.items():
        print(
            f"get_torchlib_ops() {side}: {figures['seconds']:.3f} s for {figures['count']} overloads"
        )


def _report_dynamic(results: dict[str, dict[str, Any]]) -> None:
    """Per model and side: seconds without and with optimize, nodes after optimize and
    whether it matches torch at both shapes (or FAIL); then totals over the models both
    sides export, the ratio, and each failure's reason."""
    sides = list(results)
    print(
        f"{'model':<38}"
        + "".join(f" {s + ' plain':>11} {s + ' opt':>9} {'nodes':>6} {'ok':>4}" for s in sides)
    )
    for name in results["ours"]:
        row = f"{name:<38}"
        for side in sides:
            figures = results[side].get(name, {"error": "not run"})
            if "error" in figures:
                row += f" {'-':>11} {'-':>9} {'-':>6} {'FAIL':>4}"
                continue
            ok = "yes" if figures["matches"] else "NO"
            row += f" {figures['plain']:11.2f} {figures['optimized']:9.2f} {figures['nodes_optimized']:>6} {ok:>4}"
        print(row)
    both = [
        n
        for n in results["ours"]
        if all("error" not in results[s].get(n, {"error": 1}) for s in sides)
    ]
    totals = {
        s: sum(results[s][n]["plain"] + results[s][n]["optimized"] for n in both) for s in sides
    }
    nodes = {s: sum(results[s][n]["nodes_optimized"] for n in both) for s in sides}
    print(
        f"total over the {len(both)} models every side exports (plain + optimized seconds; "
        "nodes): " + ", ".join(f"{s} {totals[s]:.1f} s, {nodes[s]} nodes" for s in sides)
    )
    if "0.7.2" in totals:
        print(
            f"ratio ours/0.7.2: time {totals['ours'] / totals['0.7.2']:.2f}, nodes {nodes['ours'] / nodes['0.7.2']:.2f}"
        )
    for side in sides:
        exported = [n for n, f in results[side].items() if "error" not in f]
        matching = [n for n in exported if results[side][n]["matches"]]
        print(
            f"{side}: {len(exported)}/{len(results[side])} export, {len(matching)} match torch at both shapes"
        )
        for name, figures in results[side].items():
            if "error" in figures:
                print(f"  {name}: {figures['error']}")
            elif not figures["matches"]:
                print(
                    f"  {name}: differs from torch by {figures['relative']:.2g} of the output's scale"
                )


if __name__ == "__main__":
    main()
