"""The exporter suites' models as cases: the real architectures of
``tests/function_libs/real_models.py`` exported by ``torch.onnx.export(dynamo=True)``
without torch's optimization (random weights; nothing downloaded), with their inputs at
the export's sizes, and the exporter-shaped models of ``tests/exported_models.py``.

Exports are cached on disk (``<tmp>/onnxscript-tests-transforms/exports-<key>``, the key a
hash of the torch version and the sources the export runs through) under a file lock, so
that the pytest-xdist workers of one run, and later runs on the same machine, export each
model once.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import tempfile
from pathlib import Path

import numpy as np
import onnx

from onnxscript.testing.node_tests import Case
from tests import exported_models

ROOT = Path(__file__).resolve().parents[2]

CI_EXPORTS = ("llama", "bert", "tv_resnet18")
"""The torch exports the CI sample uses (2-5 s each, once per machine)."""

FULL_EXPORTS = (
    "llama",
    "qwen2",
    "mistral",
    "phi3",
    "gemma",
    "gpt2",
    "llama_kv",
    "bert",
    "t5",
    "vit",
    "wav2vec2",
    "tv_resnet18",
    "tv_mobilenet_v3_small",
    "tv_lraspp_mobilenet_v3_large",
)
"""The torch exports of the full run."""


def synthetic_cases() -> list[Case]:
    """tests/exported_models.py's exporter-shaped models (no torch), small."""
    rng = np.random.default_rng(0)
    found = []
    for name, model in (
        ("resnet_like", exported_models.resnet_like(scale=0.05, image=16)),
        ("densenet_like", exported_models.densenet_like(scale=0.1, image=16)),
        ("transformer_block", exported_models.transformer_block(dim=16, heads=2, seq=4)),
    ):
        shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
        data = rng.standard_normal(shape).astype(np.float32)
        found.append(Case(f"export:{name}", model, [([data], [])], 1e-3, 1e-4))
    return found


def _cache_dir() -> Path:
    import torch

    digest = hashlib.sha256(torch.__version__.encode())
    sources = [ROOT / "tests" / "function_libs" / "real_models.py"]
    sources += sorted((ROOT / "onnxscript" / "function_libs").rglob("*.py"))
    sources += sorted((ROOT / "onnxscript" / "_framework_apis").rglob("*.py"))
    for path in sources:
        digest.update(path.read_bytes())
    base = Path(tempfile.gettempdir()) / "onnxscript-tests-transforms"
    return base / f"exports-{digest.hexdigest()[:16]}"


def _export(name: str, folder: Path) -> None:
    from tests.function_libs.dynamic_export import export, flat_tensors, numpy_of
    from tests.function_libs.real_models import suite

    real = suite()[name]
    module = real.module()
    args = real.inputs(0)
    program = export(module, args, real.dynamic_shapes(module), optimize=False)
    proto = program.model_proto
    arrays = [numpy_of(t) for t in flat_tensors(args)]
    names = [i.name for i in proto.graph.input]
    onnx.save(proto, str(folder / f"{name}.onnx"))
    np.savez(folder / f"{name}.npz", **dict(zip(names, arrays)))


def torch_cases(names: tuple[str, ...] = CI_EXPORTS) -> list[Case]:
    """The exports named, from the cache (exported on first use)."""
    folder = _cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    cases = []
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            for name in names:
                if not (folder / f"{name}.npz").exists():
                    _export(name, folder)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    for name in names:
        model = onnx.load(str(folder / f"{name}.onnx"))
        with np.load(folder / f"{name}.npz") as saved:
            inputs = [saved[i.name] for i in model.graph.input]
        cases.append(Case(f"export:{name}", model, [(inputs, [])], 1e-3, 1e-4))
    return cases


def export_cases(full: bool = False) -> list[Case]:
    """The synthetic exporter-shaped models and the torch exports (CI's or all); the
    synthetic ones only where torch is not installed (it is an optional extra)."""
    if (
        os.environ.get("ONNXSCRIPT_TRANSFORMS_NO_TORCH")
        or importlib.util.find_spec("torch") is None
    ):
        return synthetic_cases()
    return synthetic_cases() + torch_cases(FULL_EXPORTS if full else CI_EXPORTS)


__all__ = ["CI_EXPORTS", "FULL_EXPORTS", "export_cases", "synthetic_cases", "torch_cases"]
