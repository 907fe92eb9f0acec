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

Usage: ``python bench/torch_export.py [--repeat 3] [--no-baseline]
[--dynamic [--models llama_kv,bert]]``.
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

SCRIPT = r"""
import importlib.util, json, logging, sys, time, warnings
warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)
import torch
spec = importlib.util.spec_from_file_location("models", sys.argv[1])
models = importlib.util.module_from_spec(spec); spec.loader.exec_module(models)
repeat = int(sys.argv[2])

def export(module, args, optimize):
    program = torch.onnx.export(module, args, dynamo=True, optimize=False, verbose=False)
    if optimize:
        program.optimize()
    return program

suite = models.suite()
export(*suite["mlp"], True)  # warm-up: imports, registry
results = {}
for name, (module, args) in suite.items():
    figures = {}
    for optimize in (False, True):
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            program = export(module, args, optimize)
            best = min(best, time.perf_counter() - start)
        figures["optimized" if optimize else "plain"] = best
        figures["nodes_optimized" if optimize else "nodes"] = len(list(program.model.graph))
    results[name] = figures
print(json.dumps(results))
"""

# The dynamic suite's child: the suite's modules are loaded from their files (not as the
# tests package, whose directory would put our onnxscript first on the baseline's path).
DYNAMIC_SCRIPT = r"""
import importlib.util, json, logging, sys, time, warnings
warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)

def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

real = load("real_models", sys.argv[1])
dynamic = load("dynamic_export", sys.argv[2])
repeat = int(sys.argv[3])
wanted = [n for n in sys.argv[4].split(",") if n]

def export(model, module, args, optimize):
    program = dynamic.export(module, args, model.dynamic_shapes(module), optimize=False)
    if optimize:
        program.optimize()
    return program

def reason(error):
    lines = [l.strip() for l in str(error).splitlines() if l.strip()]
    if "## Exception summary" in lines:
        lines = lines[lines.index("## Exception summary") + 1 :]
    return (type(error).__name__ + ": " + (lines[0] if lines else ""))[:400]

def measure(model):
    module, args = model.module(), model.inputs(0)
    figures = {}
    for optimize in (False, True):
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            program = export(model, module, args, optimize)
            best = min(best, time.perf_counter() - start)
        figures["optimized" if optimize else "plain"] = best
    figures["nodes_optimized"] = len(list(program.model.graph))
    differences = dynamic.check_at(program, module, [args, model.inputs(1)])
    figures["matches"] = all(d.ok for d in differences)
    figures["relative"] = max(d.relative for d in differences)
    return figures

suite = real.suite()
warm = suite["bert"]
export(warm, warm.module(), warm.inputs(0), True)  # warm-up: imports, registry
results = {}
for name, model in suite.items():
    if model.torch_fails or (wanted and name not in wanted):
        continue
    try:
        results[name] = measure(model)
    except Exception as error:
        results[name] = {"error": reason(error)}
print(json.dumps(results))
"""

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
    parser.add_argument("--models", default="", help="with --dynamic: names, comma-separated")
    args = parser.parse_args()
    sides = {"ours": Path(sys.executable)}
    if not args.no_baseline:
        sides["0.7.2"] = ensure_torch_baseline()
    if args.dynamic:
        script = [DYNAMIC_SCRIPT, str(REAL_MODELS_FILE), str(DYNAMIC_EXPORT_FILE)]
        script += [str(args.repeat), args.models]
    else:
        script = [SCRIPT, str(MODELS_FILE), str(args.repeat)]
    with tempfile.TemporaryDirectory() as tmp:
        cwds = {"ours": REPO_ROOT, "0.7.2": Path(tmp)}
        results = {side: _run(python, *script, cwd=cwds[side]) for side, python in sides.items()}
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
            if figures is None:
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
