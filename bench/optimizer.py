"""Optimizer benchmark: ``onnxscript.optimizer.optimize`` ours against onnxscript 0.7.2.

Two kinds of models are written to a temporary directory: real exports (models of the
real-model suite, ``tests/function_libs/real_models.py``: transformers and torchvision
architectures with random weights, exported by ``torch.onnx.export(dynamo=True,
optimize=False)`` with dynamic shapes; skipped without torch) and models shaped like
torch.onnx exports (``tests/exported_models.py``: a ResNet-18 layout, a DenseNet-121
layout, a transformer block) at full width. Each package optimizes the same files in its
own subprocess (the baseline in
the virtual environment of ``bench/support.py``), after one warm-up call, best of
``--repeat`` runs. Printed per model: nodes before and after (ours, 0.7.2) and time
(ours, 0.7.2, ratio); then both optimized models are run with onnxruntime (its own graph
optimizations off) against the original on the same input. Nothing is asserted on
timings.

Usage: ``python bench/optimizer.py [--repeat 5] [--no-baseline] [--scale 1.0]
[--real llama_kv,bert,...] [--no-real]``.
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


REAL_MODELS = (
    "llama_kv",
    "qwen2",
    "gemma2",
    "bert",
    "t5",
    "vit",
    "swin",
    "whisper",
    "tv_resnet18",
    "tv_mobilenet_v3_small",
    "tv_efficientnet_b0",
)
"""The real exports benchmarked by default: decoders (with a KV cache), encoders, an
encoder-decoder, vision and speech transformers, convolutional networks."""

Feeds = dict[str, np.ndarray]


def _real_exports(names: list[str], work: Path) -> dict[str, tuple[Path, Feeds]]:
    """Export the named suite models (our package does the export; both optimizers then
    read the same file); each file with inputs at the export's sizes."""
    from tests.function_libs.dynamic_export import export, flat_tensors, numpy_of
    from tests.function_libs.real_models import suite

    models = suite()
    exported = {}
    for name in names:
        model = models[name]
        module = model.module()
        args = model.inputs(0)
        program = export(module, args, model.dynamic_shapes(module), optimize=False)
        path = work / f"{name}.onnx"
        program.save(str(path))
        proto = onnx.load(path)
        arrays = [numpy_of(t) for t in flat_tensors(args)]
        feeds = {info.name: array for info, array in zip(proto.graph.input, arrays)}
        exported[name] = (path, feeds)
    return exported


def _random_feeds(model: onnx.ModelProto) -> Feeds:
    info = model.graph.input[0]
    shape = [d.dim_value for d in info.type.tensor_type.shape.dim]
    return {info.name: np.random.default_rng(0).standard_normal(shape).astype(np.float32)}


def _max_difference(original: Path, optimized: Path, feeds: Feeds) -> float:
    """The largest difference over all outputs, relative to each output's scale."""
    expected = run_unoptimized(onnx.load(original), feeds)
    got = run_unoptimized(onnx.load(optimized), feeds)
    worst = 0.0
    for e, g in zip(expected, got, strict=True):
        e, g = np.asarray(e, np.float64), np.asarray(g, np.float64)
        scale = float(np.abs(e).max()) if e.size else 1.0
        worst = max(worst, float(np.abs(g - e).max()) / (scale or 1.0) if e.size else 0.0)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--scale", type=float, default=1.0, help="width scale (smoke tests)")
    parser.add_argument("--real", default=",".join(REAL_MODELS), help="suite models")
    parser.add_argument("--no-real", action="store_true", help="skip the real exports")
    args = parser.parse_args()
    baseline = None if args.no_baseline else str(ensure_baseline_venv())
    header = f"{'model':<18} {'nodes':>5} {'ours':>5} {BASELINE_VERSION:>5}  {'ours ms':>8} {BASELINE_VERSION + ' ms':>9} {'ratio':>6}  max rel. diff (ours, 0.7.2)"
    print(header)
    totals = {"ours": 0.0, "base": 0.0, "ours_nodes": 0, "base_nodes": 0}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sources = _sources(args, work)
        for name, (source, feeds) in sources.items():
            ours = _optimize_in(
                sys.executable, source, work / f"{name}.ours.onnx", args.repeat, REPO_ROOT
            )
            line = f"{name:<18} {int(ours['before']):>5} {int(ours['after']):>5}"
            diff = f"{_max_difference(source, work / f'{name}.ours.onnx', feeds):.1e}"
            if baseline is None:
                print(f"{line} {'-':>5}  {ours['seconds'] * 1e3:8.1f}  {diff}")
                continue
            theirs = _optimize_in(baseline, source, work / f"{name}.base.onnx", args.repeat, work)
            ratio = ours["seconds"] / theirs["seconds"]
            diff += f", {_max_difference(source, work / f'{name}.base.onnx', feeds):.1e}"
            print(
                f"{line} {int(theirs['after']):>5}  {ours['seconds'] * 1e3:8.1f} "
                f"{theirs['seconds'] * 1e3:9.1f} {ratio:6.2f}  {diff}"
            )
            totals["ours"] += ours["seconds"]
            totals["base"] += theirs["seconds"]
            totals["ours_nodes"] += int(ours["after"])
            totals["base_nodes"] += int(theirs["after"])
    if baseline is not None and totals["base"]:
        print(
            f"{'total':<18} {'':>5} {totals['ours_nodes']:>5} {totals['base_nodes']:>5}  "
            f"{totals['ours'] * 1e3:8.1f} {totals['base'] * 1e3:9.1f} "
            f"{totals['ours'] / totals['base']:6.2f}"
        )
    print("targets: no more nodes than 0.7.2, and at most 0.5x its time")


def _sources(args: argparse.Namespace, work: Path) -> dict[str, tuple[Path, Feeds]]:
    """The models to optimize, written to ``work``: real exports (when torch is there),
    then the hand-built ones."""
    sources: dict[str, tuple[Path, Feeds]] = {}
    if not args.no_real:
        try:
            import torch  # noqa: F401
        except ImportError:
            print("(torch is not installed: real exports skipped)")
        else:
            sources.update(_real_exports([n for n in args.real.split(",") if n], work))
    for name, make in _models(args.scale).items():
        source = work / f"{name}.onnx"
        model = make()
        onnx.save(model, source)
        sources[name] = (source, _random_feeds(model))
    return sources


if __name__ == "__main__":
    main()
