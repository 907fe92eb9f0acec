"""Exports of real transformer architectures for the onnxruntime fusions, and what is
measured on them: the fused-op histogram, onnxruntime outputs and latency.

The suite is a set of models of ``tests/function_libs/real_models.py`` (random weights,
tiny configurations), each exported by ``torch.onnx.export(dynamo=True)`` in two modes:
``dynamic`` (the model's dynamic axes) and ``static`` (every size fixed). A dynamic export
is run at the export's sizes and at second sizes (every dynamic size differs); a static
one at the export's sizes only.

This module imports torch, transformers, onnx, onnx_ir and onnxruntime but never
onnxscript, so that the same code runs in the onnxscript 0.7.2 environment (the recorded
baseline counts, the benchmark's baseline side) and in ours.
"""

from __future__ import annotations

import collections
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx

MODELS = (
    "llama",
    "llama_kv",
    "qwen2",
    "qwen2_kv",
    "mistral",
    "phi3",
    "gemma",
    "gpt2",
    "bert",
    "whisper",
)
"""Decoder-only LLMs (with and without a KV cache), an encoder, an encoder-decoder."""

MODES = ("dynamic", "static")

SUITE: tuple[tuple[str, str], ...] = tuple((m, mode) for m in MODELS for mode in MODES)
"""Every (model, export mode) of the suite."""

CI_SUITE: tuple[tuple[str, str], ...] = (("llama_kv", "dynamic"), ("bert", "static"))
"""The cases CI runs (``ONNXSCRIPT_FULL_MODEL_SUITE=1`` runs :data:`SUITE`)."""

TOLERANCE = 1e-4
"""Largest difference between fused and unfused outputs, relative to the output's scale."""

MICROSOFT = "com.microsoft"
ONNX_DOMAIN_FUSED = {"SimplifiedLayerNormalization"}
"""onnxruntime contrib ops registered in the ONNX domain (counted under their name)."""
OPSET_23_FUSED = {"RMSNormalization", "RotaryEmbedding", "Attention"}
"""ONNX opset-23 ops the fusions may produce (counted as ``ai.onnx.<name>``)."""

Feeds = dict[str, np.ndarray]


def case_id(name: str, mode: str) -> str:
    return f"{name}-{mode}"


@dataclass(frozen=True)
class Export:
    """An exported model file and its inputs: at the export's sizes, and for a dynamic
    export at the second sizes."""

    name: str
    mode: str
    path: Path
    feeds: tuple[Feeds, ...]

    @property
    def id(self) -> str:
        return case_id(self.name, self.mode)


def export_model(name: str, mode: str, directory: Path, *, optimize: bool = True) -> Export:
    """Export suite model ``name`` in ``mode`` with the installed torch.onnx (and
    whichever onnxscript it finds) to ``directory/<name>-<mode>.onnx``."""
    from tests.function_libs.dynamic_export import export
    from tests.function_libs.real_models import suite

    model = suite()[name]
    module = model.module()
    dynamic = model.dynamic_shapes(module) if mode == "dynamic" else None
    program = export(module, model.inputs(0), dynamic, optimize=optimize)
    path = directory / f"{case_id(name, mode)}.onnx"
    onnx.save(program.model_proto, path)
    return Export(name, mode, path, model_feeds(name, mode, program.model_proto))


def model_feeds(name: str, mode: str, model: onnx.ModelProto) -> tuple[Feeds, ...]:
    """The inputs of suite model ``name`` by the exported ``model``'s input names: at the
    export's sizes, and (dynamic mode) at the second sizes."""
    from tests.function_libs.dynamic_export import flat_tensors, numpy_of
    from tests.function_libs.real_models import suite

    suite_model = suite()[name]
    names = [i.name for i in model.graph.input]
    result = []
    for which in (0, 1) if mode == "dynamic" else (0,):
        arrays = [numpy_of(t) for t in flat_tensors(suite_model.inputs(which))]
        if len(arrays) != len(names):
            raise ValueError(f"{name}: the model takes {len(names)} inputs, {len(arrays)} given")
        result.append(dict(zip(names, arrays)))
    return tuple(result)


def load(path: Path) -> onnx.ModelProto:
    return onnx.load(path)


def node_count(model: onnx.ModelProto) -> int:
    """Nodes of the main graph (the ones the fusions replace)."""
    return len(model.graph.node)


def fused_counts(model: onnx.ModelProto) -> dict[str, int]:
    """How many fused ops the model holds, by op: every com.microsoft op, onnxruntime's
    ONNX-domain contrib ops, and opset-23 ``ai.onnx.*`` fusion targets."""
    counts: collections.Counter[str] = collections.Counter()
    for node in model.graph.node:
        if node.domain == MICROSOFT or (
            node.domain in ("", "ai.onnx") and node.op_type in ONNX_DOMAIN_FUSED
        ):
            counts[node.op_type] += 1
        elif node.domain in ("", "ai.onnx") and node.op_type in OPSET_23_FUSED:
            counts[f"ai.onnx.{node.op_type}"] += 1
    return dict(sorted(counts.items()))


ATTENTION_OPS = frozenset(
    {"Attention", "MultiHeadAttention", "GroupQueryAttention", "PackedMultiHeadAttention"}
    | {"ai.onnx.Attention"}
)
"""Fused attention ops: one attention block becomes exactly one of them, so they are
compared as one group (0.7.2 makes a block ``Attention`` on one export and
``MultiHeadAttention`` on another)."""

ATTENTION = "attention ops"


def grouped(counts: dict[str, int]) -> dict[str, int]:
    """Fused-op counts with the attention ops summed under :data:`ATTENTION`: what
    "each fusion count at least 0.7.2's" compares."""
    result: dict[str, int] = {}
    for op, count in counts.items():
        key = ATTENTION if op in ATTENTION_OPS else op
        result[key] = result.get(key, 0) + count
    return result


def session(model: onnx.ModelProto | Path) -> object:
    """An onnxruntime CPU session with the options every measurement here uses (default
    graph optimizations, one intra-op thread so that runs compare, log quiet)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    options.intra_op_num_threads = 1
    source = str(model) if isinstance(model, Path) else model.SerializeToString()
    return onnxruntime.InferenceSession(source, options, providers=["CPUExecutionProvider"])


def run(model: onnx.ModelProto | Path, feeds: Sequence[Feeds]) -> list[list[np.ndarray]]:
    """The model's outputs on each of ``feeds`` (one session)."""
    sess = session(model)
    return [list(sess.run(None, f)) for f in feeds]  # type: ignore[attr-defined]


def latencies(
    models: Mapping[str, onnx.ModelProto | Path], feeds: Feeds, runs: int = 30
) -> dict[str, float]:
    """Median seconds of one onnxruntime run of each model on ``feeds``, after two
    warm-up runs; the models take turns run by run, so that drifts of the machine's load
    fall on all of them alike."""
    sessions = {label: session(model) for label, model in models.items()}
    times: dict[str, list[float]] = {label: [] for label in sessions}
    for index in range(runs + 2):
        for label, sess in sessions.items():
            start = time.perf_counter()
            sess.run(None, feeds)  # type: ignore[attr-defined]
            if index >= 2:
                times[label].append(time.perf_counter() - start)
    return {label: statistics.median(values) for label, values in times.items()}


def relative_difference(got: Sequence[np.ndarray], expected: Sequence[np.ndarray]) -> float:
    """The worst difference over all outputs, relative to each expected output's scale
    (infinite when counts, shapes or integer values differ)."""
    if len(got) != len(expected):
        return float("inf")
    worst = 0.0
    for g, e in zip(got, expected):
        g, e = np.asarray(g), np.asarray(e)
        if g.shape != e.shape:
            return float("inf")
        if e.size == 0:
            continue
        if not np.issubdtype(e.dtype, np.floating):
            if not np.array_equal(g, e):
                return float("inf")
            continue
        scale = max(float(np.max(np.abs(e))), 1e-6)
        worst = max(worst, float(np.max(np.abs(g.astype(np.float64) - e))) / scale)
    return worst
