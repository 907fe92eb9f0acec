"""Builder benchmark: µs per node building a 3,000-node chain, ours against onnxscript 0.7.2.

The chain is ``Add(x, 1.0)``, ``Mul(., 2.0)``, ``Relu(.)`` repeated on an input of shape
``["N", 64]`` with scalar constants, built through the API both packages share
(``onnxscript.GraphBuilder(graph).op``). Both packages run the same script text, each in
its own subprocess (the baseline in the virtual environment of ``bench/support.py``); the
best of several builds is reported, with the shape each builder inferred for the last
value (both must know it). Nothing is asserted on timings: it prints figures and ratios.

Usage: ``python bench/builder.py [--nodes 3000] [--repeat 5] [--no-baseline]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))

from support import BASELINE_VERSION, ensure_baseline_venv, run_json  # noqa: E402

SCRIPT = r"""
import json, sys, time
import onnx_ir as ir
import onnxscript

def build(count):
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 18}, name="chain")
    x = ir.Value(name="x", type=ir.TensorType(ir.DataType.FLOAT), shape=ir.Shape(["N", 64]))
    graph.inputs.append(x)
    op = onnxscript.GraphBuilder(graph).op
    value = x
    for i in range(count // 3):
        value = op.Relu(op.Mul(op.Add(value, 1.0), 2.0))
    graph.outputs.append(value)
    return graph, value

count, repeat = int(sys.argv[1]), int(sys.argv[2])
build(30)  # warm-up: imports and schema caches
best = float("inf")
for _ in range(repeat):
    start = time.perf_counter()
    graph, last = build(count)
    best = min(best, time.perf_counter() - start)
nodes = sum(1 for _ in graph)
print(json.dumps({
    "seconds": best,
    "nodes": nodes,
    "dtype": str(last.dtype),
    "shape": None if last.shape is None else [str(d) for d in last.shape],
    "version": onnxscript.__version__,
}))
"""


def _run(python: str, count: int, repeat: int, cwd: Path) -> dict[str, object]:
    return run_json([python, "-c", SCRIPT, str(count), str(repeat)], cwd=cwd)


def _line(label: str, figures: dict[str, object]) -> str:
    seconds = float(figures["seconds"])  # type: ignore[arg-type]
    nodes = int(figures["nodes"])  # type: ignore[call-overload]
    per_node = seconds / nodes * 1e6
    return (
        f"{label:<22} {nodes:>6} nodes  {seconds * 1e3:8.1f} ms  {per_node:7.1f} µs/node  "
        f"last value {figures['dtype']} {figures['shape']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args()
    ours = _run(sys.executable, args.nodes, args.repeat, REPO_ROOT)
    print(_line(f"ours ({ours['version']})", ours))
    if args.no_baseline:
        return
    baseline_python = str(ensure_baseline_venv())
    baseline = _run(baseline_python, args.nodes, args.repeat, Path(tempfile.gettempdir()))
    print(_line(f"onnxscript {BASELINE_VERSION}", baseline))
    ratio = float(baseline["seconds"]) / float(ours["seconds"])  # type: ignore[arg-type]
    print(f"speed-up: {ratio:.1f}x (target: at least 5x, with the shape inferred)")


if __name__ == "__main__":
    main()
