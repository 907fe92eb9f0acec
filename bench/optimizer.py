"""Optimizer benchmark: ``onnxscript.optimizer.optimize`` ours against onnxscript 0.7.2.

Models shaped like torch.onnx exports (``tests/exported_models.py``: a ResNet-18 layout,
a DenseNet-121 layout, a transformer block), at full width, are written to a temporary
directory; each package optimizes the same files in its own subprocess (the baseline in
the virtual environment of ``bench/support.py``), after one warm-up call, best of
``--repeat`` runs. Printed per model: nodes before and after (ours, 0.7.2) and time
(ours, 0.7.2, ratio); then both optimized models are run with onnxruntime (its own graph
optimizations off) against the original on the same input. Nothing is asserted on
timings.

Usage: ``python bench/optimizer.py [--repeat 5] [--no-baseline] [--scale 1.0]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
for path in (BENCH_DIR, REPO_ROOT):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from support import BASELINE_VERSION, ensure_baseline_venv, run_json  # noqa: E402

from tests.exported_models import densenet_like, resnet_like, transformer_block  # noqa: E402
from tests.helpers import run_unoptimized  # noqa: E402


def _models(scale: float) -> dict[str, Callable[[], onnx.ModelProto]]:
    """The models at ``scale`` of their full width (1.0: the real sizes)."""
    dim = max(8, int(512 * scale)) // 8 * 8
    return {
        "resnet18-like": lambda: resnet_like(scale, image=224 if scale == 1 else 32),
        "densenet121-like": lambda: densenet_like(scale, image=224 if scale == 1 else 32),
        "transformer-block": lambda: transformer_block(dim=dim, heads=8, seq=128),
    }


SCRIPT = r"""
import json, sys, time
import onnx
from onnxscript.optimizer import optimize

source, target, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
model = onnx.load(source)
optimize(model)  # warm-up: imports and caches
best = float("inf")
for _ in range(repeat):
    start = time.perf_counter()
    optimized = optimize(model)
    best = min(best, time.perf_counter() - start)
onnx.save(optimized, target)
print(json.dumps({"seconds": best, "before": len(model.graph.node), "after": len(optimized.graph.node)}))
"""


def _optimize_in(
    python: str, source: Path, target: Path, repeat: int, cwd: Path
) -> dict[str, float]:
    try:
        return run_json([python, "-c", SCRIPT, str(source), str(target), str(repeat)], cwd=cwd)
    except RuntimeError as exc:
        raise RuntimeError(f"{source.name}: {exc}") from None


def _max_difference(original: Path, optimized: Path) -> float:
    model = onnx.load(original)
    info = model.graph.input[0]
    shape = [d.dim_value for d in info.type.tensor_type.shape.dim]
    feeds = {info.name: np.random.default_rng(0).standard_normal(shape).astype(np.float32)}
    expected = run_unoptimized(model, feeds)[0]
    got = run_unoptimized(onnx.load(optimized), feeds)[0]
    scale = float(np.abs(expected).max()) or 1.0
    return float(np.abs(got - expected).max()) / scale


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--scale", type=float, default=1.0, help="width scale (smoke tests)")
    args = parser.parse_args()
    baseline = None if args.no_baseline else str(ensure_baseline_venv())
    header = f"{'model':<18} {'nodes':>5} {'ours':>5} {BASELINE_VERSION:>5}  {'ours ms':>8} {BASELINE_VERSION + ' ms':>9} {'ratio':>6}  max rel. diff (ours, 0.7.2)"
    print(header)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, make in _models(args.scale).items():
            source = work / f"{name}.onnx"
            onnx.save(make(), source)
            ours = _optimize_in(
                sys.executable, source, work / f"{name}.ours.onnx", args.repeat, REPO_ROOT
            )
            line = f"{name:<18} {int(ours['before']):>5} {int(ours['after']):>5}"
            diff = f"{_max_difference(source, work / f'{name}.ours.onnx'):.1e}"
            if baseline is None:
                print(f"{line} {'-':>5}  {ours['seconds'] * 1e3:8.1f}  {diff}")
                continue
            theirs = _optimize_in(baseline, source, work / f"{name}.base.onnx", args.repeat, work)
            ratio = ours["seconds"] / theirs["seconds"]
            diff += f", {_max_difference(source, work / f'{name}.base.onnx'):.1e}"
            print(
                f"{line} {int(theirs['after']):>5}  {ours['seconds'] * 1e3:8.1f} "
                f"{theirs['seconds'] * 1e3:9.1f} {ratio:6.2f}  {diff}"
            )
    print("targets: no more nodes than 0.7.2, and at most 0.5x its time")


if __name__ == "__main__":
    main()
