"""A large model through torch.onnx: export, optimize and save with external data, our
onnxscript against the same torch with onnxscript 0.7.2, in the same run.

The model is a decoder-only LLM of 0.66B parameters (Qwen3-0.6B's sizes as a
``transformers`` Llama, untied head, float32: 2.6 GB), random weights seeded alike on both
sides. Each side, in its own subprocess and one after the other (each needs several GB):

1. builds the model; its resident memory then is the *baseline*;
2. ``torch.onnx.export(..., dynamo=True, dynamic_shapes=...)`` with dynamic batch and
   sequence and ``optimize=False``; then ``program.optimize()``; then
   ``program.save(path, external_data=True)``: each phase timed, with the process's peak
   resident memory during it (the kernel's high-water mark, reset before each phase
   through ``/proc/self/clear_refs``; a thread sampling ``VmRSS`` where that is refused);
3. not counted in time or memory: ``onnx.checker.check_model(path, full_check=True)``
   by path, and onnxruntime run at two shapes against torch.

Printed per side: seconds per phase and in total (export + optimize + save), the peak of
the whole process (``ru_maxrss``: building the model included) and the peak above the
baseline, nodes, the file's size and the largest difference from torch; then the ratios
ours/0.7.2. Nothing is asserted on timings.

Usage: ``python bench/large_model.py [--no-baseline] [--only ours|0.7.2] [--layers N]
[--tiny] [--no-verify] [--json figures.json]`` (``--layers``: fewer decoder layers;
``--tiny``: the same architecture in a few MB, to try the benchmark itself).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent

GIB = 1024**3

LLAMA_SIZES: dict[str, Any] = {
    "vocab_size": 151936,
    "hidden_size": 1024,
    "intermediate_size": 3072,
    "num_hidden_layers": 28,
    "num_attention_heads": 16,
    "num_key_value_heads": 8,
    "head_dim": 64,
    "tie_word_embeddings": False,
}
"""Qwen3-0.6B's sizes, as a Llama: 0.66B parameters with the untied head."""

TINY_SIZES: dict[str, Any] = {
    **LLAMA_SIZES,
    "vocab_size": 1024,
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 1,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
}
"""``--tiny``: the same architecture in a few MB, to try the benchmark itself."""


def model_sizes(layers: int | None = None, tiny: bool = False) -> dict[str, Any]:
    sizes = dict(TINY_SIZES if tiny else LLAMA_SIZES)
    if layers is not None:
        sizes["num_hidden_layers"] = layers
    return sizes


# --- the child: one side, in its own process --------------------------------------------


def _status_bytes(field: str) -> int:
    """A ``/proc/self/status`` figure (``VmRSS``, ``VmHWM``) in bytes; 0 where there is
    no such file."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class MemoryWatch:
    """Peak resident memory per phase: the kernel's high-water mark (``VmHWM``) reset at
    the start of each phase by writing 5 to ``/proc/self/clear_refs``, and, as well, a
    thread sampling ``VmRSS`` every few milliseconds (the only measure where the reset is
    refused)."""

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.sampled = 0
        self.phases: dict[str, dict[str, float]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(self.interval):
            self.sampled = max(self.sampled, _status_bytes("VmRSS"))

    @staticmethod
    def _reset_high_water_mark() -> bool:
        try:
            with open("/proc/self/clear_refs", "w") as clear:
                clear.write("5")
            return True
        except OSError:
            return False

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        exact = self._reset_high_water_mark()
        self.sampled = _status_bytes("VmRSS")
        start = time.perf_counter()
        yield
        seconds = time.perf_counter() - start
        after = _status_bytes("VmRSS")
        peak = max(self.sampled, after, _status_bytes("VmHWM") if exact else 0)
        self.phases[name] = {"seconds": seconds, "peak": peak, "after": after}

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def build_model(sizes: dict[str, Any]) -> Any:
    """The benchmark's Llama of ``sizes`` (random weights, seed 0), wrapped to return the
    logits of ``(input_ids, attention_mask)``."""
    import torch
    import transformers

    torch.manual_seed(0)
    llama = transformers.LlamaForCausalLM(transformers.LlamaConfig(**sizes)).eval()

    class Logits(torch.nn.Module):
        def __init__(self, model: torch.nn.Module) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> Any:
            return self.model(
                input_ids=input_ids, attention_mask=attention_mask, use_cache=False
            ).logits

    return Logits(llama)


def model_inputs(batch: int, sequence: int, vocab: int) -> tuple[Any, Any]:
    """Token ids and an attention mask whose last row is left-padded by one."""
    import torch

    generator = torch.Generator().manual_seed(batch * 1000 + sequence)
    ids = torch.randint(0, vocab, (batch, sequence), generator=generator)
    mask = torch.ones(batch, sequence, dtype=torch.int64)
    mask[-1, 0] = 0
    return ids, mask


def _verify(path: str, module: Any, vocab: int) -> dict[str, Any]:
    """Check the saved model by path and run it in onnxruntime at two shapes against
    torch: the largest difference relative to the output's scale."""
    import numpy as np
    import onnx
    import onnxruntime
    import torch

    onnx.checker.check_model(path, full_check=True)
    session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    worst = 0.0
    for shape in ((2, 8), (3, 5)):
        ids, mask = model_inputs(*shape, vocab)
        with torch.no_grad():
            expected = module(ids, mask).numpy()
        got = session.run(None, {"input_ids": ids.numpy(), "attention_mask": mask.numpy()})[0]
        worst = max(worst, float(np.abs(got - expected).max() / np.abs(expected).max()))
    return {"checked": True, "relative": worst}


def child(folder: str, sizes: dict[str, Any], verify: bool) -> dict[str, Any]:
    """One side's measurements (see the module's docstring)."""
    import gc
    import logging
    import resource
    import warnings

    warnings.filterwarnings("ignore")
    logging.disable(logging.WARNING)
    import torch

    import onnxscript

    watch = MemoryWatch()
    with watch.phase("build"):
        module = build_model(sizes)
    figures: dict[str, Any] = {
        "onnxscript": f"{onnxscript.__version__} ({Path(onnxscript.__file__).parent})",
        "parameters": sum(p.numel() for p in module.parameters()),
        "baseline": _status_bytes("VmRSS"),
    }
    dim = torch.export.Dim.DYNAMIC
    path = os.path.join(folder, "model.onnx")
    with watch.phase("export"), torch.no_grad():
        program = torch.onnx.export(
            module,
            model_inputs(2, 8, sizes["vocab_size"]),
            dynamic_shapes=({0: dim, 1: dim},) * 2,
            dynamo=True,
            optimize=False,
            verbose=False,
        )
    with watch.phase("optimize"):
        program.optimize()
    with watch.phase("save"):
        program.save(path, external_data=True)
    watch.stop()
    figures["phases"] = watch.phases
    figures["ru_maxrss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    figures["nodes"] = len(list(program.model.graph))
    figures["initializers"] = len(program.model.graph.initializers)
    figures["file_bytes"] = sum(
        os.path.getsize(os.path.join(folder, name)) for name in os.listdir(folder)
    )
    del program
    gc.collect()
    if verify:
        figures.update(_verify(path, module, sizes["vocab_size"]))
    return figures


# --- the parent ------------------------------------------------------------------------


def _run_side(python: Path, ours: bool, sizes: dict[str, Any], verify: bool) -> dict[str, Any]:
    sys.path[:0] = [str(BENCH_DIR)]
    from support import run_json

    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if ours:
        env["PYTHONPATH"] = str(REPO_ROOT)
    with tempfile.TemporaryDirectory(prefix="large_model_") as folder:
        command: list[str | os.PathLike[str]] = [python, __file__, "--child", folder]
        command += ["--sizes", json.dumps(sizes)]
        if not verify:
            command.append("--no-verify")
        # Outside the repository, so that 0.7.2's side cannot import ours.
        return run_json(command, cwd=folder, env=env)


def _total(figures: dict[str, Any]) -> float:
    return sum(figures["phases"][p]["seconds"] for p in ("export", "optimize", "save"))


def _peak_above(figures: dict[str, Any]) -> float:
    phases = figures["phases"]
    return max(phases[p]["peak"] for p in ("export", "optimize", "save")) - figures["baseline"]


def report(results: dict[str, dict[str, Any]]) -> None:
    for side, figures in results.items():
        phases = figures["phases"]
        print(f"{side}: onnxscript {figures['onnxscript']}")
        print(
            f"  {figures['parameters'] / 1e9:.2f}B parameters; after building the model "
            f"{figures['baseline'] / GIB:.2f} GiB resident (build {phases['build']['seconds']:.1f} s)"
        )
        for name in ("export", "optimize", "save"):
            phase = phases[name]
            print(
                f"  {name:<8} {phase['seconds']:6.1f} s   peak {phase['peak'] / GIB:5.2f} GiB "
                f"(+{(phase['peak'] - figures['baseline']) / GIB:.2f} over the baseline), "
                f"{phase['after'] / GIB:.2f} GiB after"
            )
        print(
            f"  total {_total(figures):.1f} s; process peak (ru_maxrss) "
            f"{figures['ru_maxrss'] / GIB:.2f} GiB, peak above the baseline "
            f"{_peak_above(figures) / GIB:.2f} GiB"
        )
        verdict = (
            f"checked by path, largest difference from torch at two shapes "
            f"{figures['relative']:.2g} of the output's scale"
            if figures.get("checked")
            else "not verified"
        )
        print(
            f"  {figures['nodes']} nodes, {figures['initializers']} initializers, "
            f"{figures['file_bytes'] / GIB:.2f} GiB on disk; {verdict}"
        )
    if {"ours", "0.7.2"} <= results.keys():
        ours, base = results["ours"], results["0.7.2"]
        print("ratios ours/0.7.2:")
        for name in ("export", "optimize", "save"):
            mine, theirs = ours["phases"][name]["seconds"], base["phases"][name]["seconds"]
            print(f"  {name} time {mine / theirs:.2f}")
        print(
            f"  time export+optimize+save {_total(ours) / _total(base):.2f} (target: at most 0.7)"
        )
        print(
            f"  process peak (ru_maxrss) {ours['ru_maxrss'] / base['ru_maxrss']:.2f} "
            "(target: at most 0.8)"
        )
        print(f"  peak above the baseline {_peak_above(ours) / _peak_above(base):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-baseline", action="store_true", help="only our side")
    parser.add_argument("--only", choices=("ours", "0.7.2"), help="one side only")
    parser.add_argument("--layers", type=int, help="decoder layers (default: 28)")
    parser.add_argument("--tiny", action="store_true", help="a few-MB model of the same kind")
    parser.add_argument("--sizes", help=argparse.SUPPRESS)
    parser.add_argument("--no-verify", action="store_true", help="skip the checker and ORT")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, json.loads(args.sizes), not args.no_verify)))
        return
    sizes = model_sizes(args.layers, args.tiny)
    sys.path[:0] = [str(BENCH_DIR)]
    from support import ensure_torch_baseline

    sides: dict[str, tuple[Path, bool]] = {}
    if args.only in (None, "ours"):
        sides["ours"] = (Path(sys.executable), True)
    if args.only in (None, "0.7.2") and not args.no_baseline:
        sides["0.7.2"] = (ensure_torch_baseline(), False)
    results: dict[str, dict[str, Any]] = {}
    for side, (python, ours) in sides.items():
        print(f"running {side} ...", flush=True)
        results[side] = _run_side(python, ours, sizes, not args.no_verify)
    report(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
