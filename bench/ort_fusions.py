"""onnxruntime fusions benchmark: ``optimize_for_ort`` ours against onnxscript 0.7.2.

The models of ``tests/rewriter/ort_fusions/ort_models.py`` (Llama, Qwen2, Mistral, Phi-3,
Gemma, GPT-2, BERT, Whisper; random weights; with and without a KV cache; dynamic and
static shapes) are exported once with our package; each package's ``optimize_for_ort``
then fuses the same files in its own subprocess (0.7.2 in the torch baseline environment
of ``bench/support.py``), after one warm-up call, best of ``--repeat`` runs. Printed per
model: nodes before and after, fusion time and ratio, the fused-op counts of both,
onnxruntime CPU latency of the unfused and both fused models (median of ``--runs``, same
session options, this process) and the largest output difference from the unfused model
(relative to the output's scale, at every size the case is run at). Then totals and the
targets. Nothing is asserted; a side that cannot fuse (ours before the driver lands) is
reported as not available.

Usage: ``python bench/ort_fusions.py [--models llama_kv-dynamic,...] [--repeat 5]
[--runs 30] [--no-baseline]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
for path in (BENCH_DIR, REPO_ROOT):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from support import BASELINE_VERSION, ensure_torch_baseline, run_json  # noqa: E402

from tests.rewriter.ort_fusions import ort_models  # noqa: E402

SCRIPT = r"""
import json, sys, time
import onnx
sys.path.append(sys.argv[4])  # last: the running package's onnxscript comes first
from tests.rewriter.ort_fusions import ort_models
try:
    import onnx_ir as ir
    from onnxscript.rewriter.ort_fusions import optimize_for_ort
except ImportError as exc:
    print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
    raise SystemExit(0)

source, target, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(source, "rb").read()  # a fresh proto each run: the IR may share its tensors
optimize_for_ort(ir.from_proto(onnx.load_from_string(data)))  # warm-up: imports, caches
best = float("inf")
for _ in range(repeat):
    model = ir.from_proto(onnx.load_from_string(data))
    start = time.perf_counter()
    fused, reported = optimize_for_ort(model)
    best = min(best, time.perf_counter() - start)
result = ir.to_proto(fused)
onnx.save(result, target)
print(json.dumps({
    "seconds": best,
    "after": ort_models.node_count(result),
    "fused": ort_models.fused_counts(result),
}))
"""


@dataclass
class Side:
    """One package's fusion of one model: time, nodes, fused ops, latency, difference;
    why it is not available (``error``), or why onnxruntime cannot run it (``refused``)."""

    error: str = ""
    refused: str = ""
    seconds: float = 0.0
    after: int = 0
    fused: dict[str, int] = field(default_factory=dict)
    latency: float = 0.0
    difference: float = 0.0


def fuse_in(python: str, export: ort_models.Export, target: Path, repeat: int, cwd: Path) -> Side:
    """Fuse the export in ``python`` (a subprocess run in ``cwd``) to ``target``, then
    compare the fused model's outputs with the unfused model's at every size."""
    command = [python, "-c", SCRIPT, str(export.path), str(target), str(repeat), str(REPO_ROOT)]
    try:
        result = run_json(command, cwd=cwd)
    except RuntimeError as exc:
        return Side(error=str(exc).strip().splitlines()[-1])
    if "error" in result:
        return Side(error=result["error"])
    side = Side(seconds=result["seconds"], after=result["after"], fused=result["fused"])
    try:
        expected = ort_models.run(export.path, export.feeds)
        got = ort_models.run(target, export.feeds)
    except Exception as exc:  # onnxruntime refusing the fused model is a result
        side.refused = " ".join(str(exc).split())[:160]
        return side
    side.difference = max(ort_models.relative_difference(g, e) for g, e in zip(got, expected))
    return side


def measure_latencies(
    export: ort_models.Export, sides: dict[str, Side], targets: dict[str, Path], runs: int
) -> float:
    """Set each runnable side's latency (all measured together, taking turns); the
    unfused model's latency."""
    models: dict[str, Path] = {"unfused": export.path}
    models.update({k: targets[k] for k, s in sides.items() if not (s.error or s.refused)})
    found = ort_models.latencies(models, export.feeds[0], runs)
    for label, side in sides.items():
        side.latency = found.get(label, 0.0)
    return found["unfused"]


def missing(ours: dict[str, int], theirs: dict[str, int]) -> str:
    """The ops ours fuses fewer times than 0.7.2 (``op got<wanted``; attention ops as one
    group), or "none"."""
    ours, theirs = ort_models.grouped(ours), ort_models.grouped(theirs)
    short = [f"{op} {ours.get(op, 0)}<{n}" for op, n in theirs.items() if ours.get(op, 0) < n]
    return ", ".join(short) or "none"


def counts_text(counts: dict[str, int]) -> str:
    return " ".join(f"{op}={n}" for op, n in counts.items()) or "-"


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:8.2f}"


def report(
    export: ort_models.Export, before: int, base_latency: float, sides: dict[str, Side]
) -> None:
    """Print one model's figures: a line per side and the comparison."""
    print(f"{export.id}: nodes {before}, onnxruntime unfused {base_latency * 1e3:.3f} ms")
    for label, side in sides.items():
        if side.error:
            print(f"  {label:<6} not available ({side.error})")
            continue
        print(
            f"  {label:<6} nodes {side.after:>4}  fuse {ms(side.seconds)} ms  "
            f"ort {side.latency * 1e3:7.3f} ms  diff {side.difference:.1e}  {counts_text(side.fused)}"
        )
        if side.refused:
            print(f"         onnxruntime cannot run the fused model: {side.refused}")
    ours, theirs = sides.get("ours"), sides.get(BASELINE_VERSION)
    if ours and theirs and not ours.error and not theirs.error:
        run = f"{ours.latency / theirs.latency:.2f}x" if ours.latency and theirs.latency else "-"
        print(
            f"  ratio  fuse {ours.seconds / theirs.seconds:.2f}x  ort {run}  "
            f"fewer fusions than {BASELINE_VERSION}: {missing(ours.fused, theirs.fused)}"
        )


def totals(results: list[dict[str, Side]]) -> None:
    """Sums over the models both sides fused."""
    both = [
        r for r in results if len(r) == 2 and all(not (s.error or s.refused) for s in r.values())
    ]
    print(f"total over {len(both)} of {len(results)} models fused and run by both:", end="")
    if not both:
        print(" -")
        return
    line = []
    for label in both[0]:
        fuse = sum(r[label].seconds for r in both)
        run = sum(r[label].latency for r in both)
        nodes = sum(r[label].after for r in both)
        line.append(f"{label}: fuse {fuse * 1e3:.1f} ms, ort {run * 1e3:.3f} ms, {nodes} nodes")
    ours = sum(r["ours"].seconds for r in both) / sum(r[BASELINE_VERSION].seconds for r in both)
    run = sum(r["ours"].latency for r in both) / sum(r[BASELINE_VERSION].latency for r in both)
    print(f" {'; '.join(line)}; ratio fuse {ours:.2f}x, ort {run:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="", help="comma-separated <model>-<mode>")
    parser.add_argument("--repeat", type=int, default=5, help="fusion runs (best of)")
    parser.add_argument("--runs", type=int, default=30, help="onnxruntime runs (median)")
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args()
    cases: list[Any] = [tuple(c.rsplit("-", 1)) for c in args.models.split(",") if c]
    baseline = None if args.no_baseline else str(ensure_torch_baseline())
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, mode in cases or ort_models.SUITE:
            export = ort_models.export_model(name, mode, work)
            before = ort_models.node_count(ort_models.load(export.path))
            targets = {"ours": work / "ours.onnx", BASELINE_VERSION: work / "base.onnx"}
            ours = fuse_in(sys.executable, export, targets["ours"], args.repeat, REPO_ROOT)
            sides = {"ours": ours}
            if baseline:
                base = fuse_in(baseline, export, targets[BASELINE_VERSION], args.repeat, work)
                sides[BASELINE_VERSION] = base
            unfused = measure_latencies(export, sides, targets, args.runs)
            report(export, before, unfused, sides)
            results.append(sides)
    totals(results)
    print(
        f"targets: fusion time at most 0.5x {BASELINE_VERSION}'s; latency no worse than "
        f"{BASELINE_VERSION}'s; each fusion count at least {BASELINE_VERSION}'s"
    )


if __name__ == "__main__":
    main()
