"""torch.onnx.export benchmark: the model suite exported with our onnxscript against the
same torch with onnxscript 0.7.2, in the same run.

The baseline is a virtual environment (``bench/.venv-torch-onnxscript-0.7.2``) with the
torch and onnxruntime versions of this one and onnxscript 0.7.2, made on first use. Each
side exports every model of ``tests/function_libs/models.py`` in its own subprocess (after
one warm-up export of a small model), without and with ``optimize()``, best of
``--repeat``; printed: seconds per model and in total, node counts after optimize, and the
ratio ours/0.7.2. Also the time of ``get_torchlib_ops()`` in a fresh interpreter.
Nothing is asserted on timings.

Usage: ``python bench/torch_export.py [--repeat 3] [--no-baseline]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
MODELS_FILE = REPO_ROOT / "tests" / "function_libs" / "models.py"
sys.path[:0] = [str(BENCH_DIR)]

from support import run_json  # noqa: E402

BASELINE_VENV = BENCH_DIR / ".venv-torch-onnxscript-0.7.2"

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

OPS_TIMING = r"""
import json, time
start = time.perf_counter()
from onnxscript._framework_apis.torch_2_11 import get_torchlib_ops
ops = get_torchlib_ops()
print(json.dumps({"seconds": time.perf_counter() - start, "count": len(ops)}))
"""


def _python(venv: Path) -> Path:
    return venv / "bin" / "python"


def ensure_baseline() -> Path:
    """The baseline venv's Python, made with this torch/onnxruntime and onnxscript 0.7.2."""
    import onnxruntime
    import torch

    python = _python(BASELINE_VENV)
    wanted = [
        f"torch=={torch.__version__.split('+')[0]}",
        f"onnxruntime=={onnxruntime.__version__}",
        "onnxscript==0.7.2",
    ]
    marker = BASELINE_VENV / "requirements.txt"
    if python.exists() and marker.exists() and marker.read_text() == "\n".join(wanted):
        return python
    print(f"creating {BASELINE_VENV} with {wanted} ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(BASELINE_VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", *wanted], check=True)
    marker.write_text("\n".join(wanted))
    return python


def _run(python: Path, script: str, *args: str, cwd: Path) -> dict[str, object]:
    return run_json([python, "-c", script, *args], cwd=cwd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args()
    sides = {"ours": Path(sys.executable)}
    if not args.no_baseline:
        sides["0.7.2"] = ensure_baseline()
    with tempfile.TemporaryDirectory() as tmp:
        cwds = {"ours": REPO_ROOT, "0.7.2": Path(tmp)}
        results = {
            side: _run(python, SCRIPT, str(MODELS_FILE), str(args.repeat), cwd=cwds[side])
            for side, python in sides.items()
        }
        timings = {side: _run(python, OPS_TIMING, cwd=cwds[side]) for side, python in sides.items()}
    _report(results, timings)


def _report(results: dict[str, dict[str, object]], timings: dict[str, dict[str, object]]) -> None:
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
    for side, figures in timings.items():
        print(
            f"get_torchlib_ops() {side}: {figures['seconds']:.3f} s for {figures['count']} overloads"
        )


if __name__ == "__main__":
    main()
