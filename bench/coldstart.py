"""Cold start: a fresh process's ``import onnxscript``, first ``@script()`` and first
``to_model_proto()``, ours against onnxscript 0.7.2, measured in the same run.

Run it with a Python that has our package installed (see README):
``python bench/coldstart.py``. Each measurement is a new interpreter (the two packages
alternate) running the same script file, which times, with ``time.perf_counter`` inside the process:

1. ``import onnxscript`` (and the names the example uses);
2. the first ``@script()`` of the same small function (README's ``linear_hardmax``);
3. its first ``to_model_proto()``;

and the sum of the three. The figures are medians over ``--runs`` processes (default 15),
with the ratio ours / 0.7.2. The target is at most 0.4x for the sum. Interpreter start-up
is the same for both and is not included.

Our package keeps an index of onnx's operator schemas per onnx version in a cache
directory (``onnxscript.schemas``); the benchmark uses a fresh directory, reports the first
process (which builds the index) on its own line, and times the rest with the index in
place, as every process after a machine's first one runs. 0.7.2 lives in the virtual
environment ``bench/support.py`` makes (the same onnxruntime as ours). Nothing here asserts
on timings.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import sys
import tempfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from support import BASELINE_VERSION, ensure_baseline_venv, run_json  # noqa: E402

CHILD = r'''
import time
t0 = time.perf_counter()
import onnxscript
from onnxscript import FLOAT, script
from onnxscript import opset18 as op
t1 = time.perf_counter()


@script()
def linear_hardmax(x: FLOAT["N", 4], w: FLOAT[4, 3], b: FLOAT[3]) -> FLOAT["N", 3]:
    """A linear layer followed by a hardmax."""
    y = op.MatMul(x, w) + b
    return op.Hardmax(y, axis=-1)


t2 = time.perf_counter()
model = linear_hardmax.to_model_proto()
t3 = time.perf_counter()
import json, sys
assert len(model.graph.node) >= 3
print(json.dumps({
    "import": t1 - t0, "script": t2 - t1, "model": t3 - t2, "total": t3 - t0,
    "onnxruntime imported": "onnxruntime" in sys.modules,
}))
'''

PHASES = ("import", "script", "model", "total")


def run_child(python: str, script_path: str, env: dict[str, str]) -> dict[str, float]:
    return run_json([python, script_path], cwd=tempfile.gettempdir(), env=env)


def row(name: str, ours: float, base: float | None) -> str:
    ratio = f"{ours / base:6.2f}x" if base else "      -"
    base_text = f"{base * 1e3:10.1f}" if base is not None else "         -"
    return f"{name:34s} {ours * 1e3:10.1f} {base_text} {ratio}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="processes per package")
    parser.add_argument("--no-baseline", action="store_true", help="skip onnxscript 0.7.2")
    args = parser.parse_args()

    base_python = None if args.no_baseline else str(ensure_baseline_venv())
    # pip compiled 0.7.2's bytecode when it installed it; compile ours the same way (an
    # editable install has no bytecode until a first import writes it, and not at all
    # under PYTHONDONTWRITEBYTECODE).
    compileall.compile_dir(str(BENCH_DIR.parent / "onnxscript"), quiet=1)
    with tempfile.TemporaryDirectory() as work:
        env = {**os.environ, "ONNXSCRIPT_CACHE_DIR": os.path.join(work, "cache")}
        script_path = os.path.join(work, "cold_start_child.py")
        Path(script_path).write_text(CHILD)
        first = run_child(sys.executable, script_path, env)
        ours: list[dict[str, float]] = []
        base: list[dict[str, float]] = []
        for _ in range(args.runs):
            ours.append(run_child(sys.executable, script_path, env))
            if base_python is not None:
                base.append(run_child(base_python, script_path, env))

    def median(results: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in results)

    print(f"Python {sys.version.split()[0]}, {args.runs} fresh processes per package, medians")
    print(f"{'phase (ms)':34s} {'ours':>10s} {BASELINE_VERSION:>10s}   ratio")
    for phase in PHASES:
        print(row(phase, median(ours, phase), median(base, phase) if base else None))
    print(row("first process ever (builds index)", first["total"], None))
    imported = sum(bool(r["onnxruntime imported"]) for r in ours)
    print(f"onnxruntime imported by our first to_model_proto: {imported} of {len(ours)} runs")


if __name__ == "__main__":
    main()
