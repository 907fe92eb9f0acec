"""``optimize_for_ort`` on exports of real transformers, against onnxscript 0.7.2.

Each case of ``ort_models`` (a model of the real-model suite exported with dynamic or
static shapes) is fused; each fused-op count must be at least 0.7.2's on the same case
(``data/ort_fusion_counts_072.json``, written by ``record_072_counts.py``: 0.7.2 on its
own export and on ours, the larger of the two; the attention ops count as one group,
since one block becomes one of them), and the fused model's onnxruntime
outputs must equal the unfused model's at the export's sizes and (dynamic) at second
sizes. CI runs :data:`ort_models.CI_SUITE`; the whole suite runs with::

    ONNXSCRIPT_FULL_MODEL_SUITE=1 python -m pytest -q -n 0 \
        tests/rewriter/ort_fusions/test_optimize_for_ort.py
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.rewriter.ort_fusions import ort_models

DATA = Path(__file__).resolve().parent / "data" / "ort_fusion_counts_072.json"
FULL = os.environ.get("ONNXSCRIPT_FULL_MODEL_SUITE", "") not in ("", "0")
CASES = ort_models.SUITE if FULL else ort_models.CI_SUITE

Optimize = Callable[..., tuple[Any, dict[str, int]]]


def optimize_for_ort() -> Optimize:
    """Our ``optimize_for_ort``."""
    from onnxscript.rewriter.ort_fusions import optimize_for_ort as ours

    return ours


def fuse(optimize: Optimize, model: onnx.ModelProto, **options: Any) -> onnx.ModelProto:
    """``optimize`` on an ``ir.Model`` of a copy of ``model`` (the IR may share the
    proto's tensors, and fusions change them); the fused proto."""
    import onnx_ir as ir

    copy = onnx.ModelProto.FromString(model.SerializeToString())
    fused, _ = optimize(ir.from_proto(copy), **options)
    return ir.to_proto(fused)


def baseline_counts(case: str) -> dict[str, int]:
    """0.7.2's fused-op counts on ``case`` (attention ops as one group): per op, the
    larger of its pipeline's and its fusions on our export."""
    recorded = json.loads(DATA.read_text())["cases"][case]
    wanted: dict[str, int] = {}
    for source in recorded.values():
        for op, count in ort_models.grouped(source["fused"]).items():
            wanted[op] = max(wanted.get(op, 0), count)
    return wanted


def missing_fusions(got: dict[str, int], wanted: dict[str, int]) -> dict[str, str]:
    """The ops fused fewer times than wanted: ``{op: "<got> < <wanted>"}``."""
    return {
        op: f"{got.get(op, 0)} < {count}" for op, count in wanted.items() if got.get(op, 0) < count
    }


def check_case(optimize: Optimize, export: ort_models.Export) -> None:
    """Fused counts at least 0.7.2's and outputs equal to the unfused model's."""
    model = ort_models.load(export.path)
    expected = ort_models.run(model, export.feeds)
    fused = fuse(optimize, model)
    got = ort_models.grouped(ort_models.fused_counts(fused))
    missing = missing_fusions(got, baseline_counts(export.id))
    assert not missing, f"{export.id}: fewer fusions than 0.7.2: {missing}"
    runs = zip(export.feeds, ort_models.run(fused, export.feeds), expected)
    for feeds, outputs, want in runs:
        difference = ort_models.relative_difference(outputs, want)
        sizes = {name: array.shape for name, array in feeds.items()}
        assert difference <= ort_models.TOLERANCE, f"{export.id} at {sizes}: {difference:.2e}"


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], ort_models.Export]:
    """Export a case once per module (our package's torch.onnx export)."""
    directory = tmp_path_factory.mktemp("ort_exports")
    made: dict[tuple[str, str], ort_models.Export] = {}

    def get(name: str, mode: str) -> ort_models.Export:
        if (name, mode) not in made:
            made[name, mode] = ort_models.export_model(name, mode, directory)
        return made[name, mode]

    return get


@pytest.mark.parametrize(("name", "mode"), CASES, ids=[ort_models.case_id(*c) for c in CASES])
def test_fusions_reach_072_and_keep_outputs(
    name: str, mode: str, exports: Callable[[str, str], ort_models.Export]
) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("onnxruntime")
    optimize = optimize_for_ort()
    check_case(optimize, exports(name, mode))


def test_recorded_counts_cover_the_suite() -> None:
    cases = json.loads(DATA.read_text())["cases"]
    assert sorted(cases) == sorted(ort_models.case_id(*c) for c in ort_models.SUITE)
    for case, sources in cases.items():
        assert set(sources) == {"072_export", "our_export"}, case


# debug=True ------------------------------------------------------------------------------


def rms_norm_model(exponent: float) -> onnx.ModelProto:
    """x * 1/sqrt(mean(x ** exponent) + eps) * w, as torch exports RMSNorm: an RMSNorm
    when the exponent is 2, a near miss otherwise."""
    nodes = [
        helper.make_node("Pow", ["x", "exponent"], ["squared"]),
        helper.make_node(
            "ReduceMean", ["squared", "axes"], ["mean"], keepdims=1, noop_with_empty_axes=0
        ),
        helper.make_node("Add", ["mean", "eps"], ["shifted"]),
        helper.make_node("Sqrt", ["shifted"], ["root"]),
        helper.make_node("Reciprocal", ["root"], ["inverse"]),
        helper.make_node("Mul", ["x", "inverse"], ["normalized"]),
        helper.make_node("Mul", ["w", "normalized"], ["y"]),
    ]
    initializers = [
        numpy_helper.from_array(np.array(exponent, np.float32), "exponent"),
        numpy_helper.from_array(np.array([-1], np.int64), "axes"),
        numpy_helper.from_array(np.array(1e-6, np.float32), "eps"),
        numpy_helper.from_array(np.linspace(0.5, 1.5, 8, dtype=np.float32), "w"),
    ]
    graph = helper.make_graph(
        nodes,
        "rms_norm",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4, 8])],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def debug_report(optimize: Optimize, model: onnx.ModelProto) -> tuple[onnx.ModelProto, str]:
    """The model fused with ``debug=True`` and what that printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        fused = fuse(optimize, model, debug=True)
    return fused, printed.getvalue()


def check_debug_explains_near_miss(optimize: Optimize) -> None:
    """An RMSNorm fuses; with a cube instead of a square it does not, and ``debug=True``
    prints a report naming an RMSNorm rule and the value that differs."""
    assert ort_models.fused_counts(fuse(optimize, rms_norm_model(2.0))) == {
        "SimplifiedLayerNormalization": 1
    }
    fused, report = debug_report(optimize, rms_norm_model(3.0))
    assert ort_models.fused_counts(fused) == {}
    assert re.search(r"rule.*rms", report, re.IGNORECASE), report[:2000]
    assert "3.0" in report or "Pow" in report, report[:2000]


def test_debug_explains_a_failed_match() -> None:
    pytest.importorskip("onnxruntime")
    check_debug_explains_near_miss(optimize_for_ort())
