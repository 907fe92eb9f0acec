"""Real architectures (tests/function_libs/real_models.py) exported by
``torch.onnx.export(dynamo=True)`` with our onnxscript and dynamic shapes: each exported
model keeps its dynamic axes symbolic, and run by onnxruntime at the export's shape and at
a second shape (other batch AND sequence / image / audio / past sizes) matches torch
within 1e-4 of each output's scale. On the same export: torch's 18 -> 20 conversion never
serializes the model, and torch's metadata survives it and optimize() (export_checks).

CI runs the ``fast`` subset (one model per kind: decoder-only with KV cache, encoder,
encoder-decoder, vision, speech, torchvision classification and segmentation); the whole
suite runs with ``ONNXSCRIPT_FULL_MODEL_SUITE=1``::

    ONNXSCRIPT_FULL_MODEL_SUITE=1 python -m pytest -q -n 0 tests/function_libs/test_real_models.py

A model our export fails on is a strict xfail carrying the reason (a fix makes the test
fail until the mark is removed); the detectors torch.export cannot capture are strict
xfails of torch.export itself (test_torch_export_captures), with torch's reason.
"""

from __future__ import annotations

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("torchvision")
pytest.importorskip("onnxruntime")

from tests.function_libs.dynamic_export import check_at, export  # noqa: E402
from tests.function_libs.export_checks import (  # noqa: E402
    assert_metadata_kept,
    fused_batch_norms,
    metadata_snapshot,
    no_proto_conversion,
)
from tests.function_libs.real_models import RealModel, suite  # noqa: E402

FULL = os.environ.get("ONNXSCRIPT_FULL_MODEL_SUITE", "") not in ("", "0")
"""Whether to run every model (not only the fast CI subset)."""

MODELS = suite()


def _param(model: RealModel, reason: str) -> object:
    """The model's name, skipped outside the full suite unless ``fast``, a strict xfail
    when ``reason`` says why it fails."""
    marks = []
    if not (model.fast or FULL):
        marks.append(pytest.mark.skip(reason="full suite only (ONNXSCRIPT_FULL_MODEL_SUITE=1)"))
    if reason:
        marks.append(pytest.mark.xfail(reason=reason, strict=True))
    return pytest.param(model.name, marks=marks, id=model.name)


OURS = [_param(m, m.xfail) for m in MODELS.values() if not m.torch_fails]
TORCH_REFUSES = [_param(m, m.torch_fails) for m in MODELS.values() if m.torch_fails]


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")
@pytest.mark.parametrize("name", OURS)
def test_exports_with_dynamic_shapes_and_matches_torch_at_two_shapes(
    name: str, monkeypatch: pytest.MonkeyPatch
):
    model = MODELS[name]
    module = model.module()
    example, other = model.inputs(0), model.inputs(1)
    with no_proto_conversion(monkeypatch) as conversions:
        program = export(module, example, model.dynamic_shapes(module), optimize=False)
    assert conversions == [(18, 20)]
    metadata = metadata_snapshot(program.model)
    program.optimize()
    assert_metadata_kept(program, metadata)
    if name.startswith("tv_") and "vit" not in name:
        assert fused_batch_norms(program.model) > 0
    assert _static_axes(program.model_proto, model) == []
    differences = check_at(program, module, [example, other])
    assert all(d.ok for d in differences), differences


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", TORCH_REFUSES)
def test_torch_export_captures(name: str):
    """The models torch.export itself refuses (strict xfails with torch's reason; when a
    torch release captures one, the test fails: the model then belongs to the suite
    above). torch.export directly: torch.onnx.export retries with draft_export, 30-130 s
    per detector."""
    model = MODELS[name]
    module = model.module()
    torch.export.export(module, model.inputs(0), dynamic_shapes=model.dynamic_shapes(module))


def _static_axes(proto: object, model: RealModel) -> list[tuple[str, int]]:
    """The (input, axis) pairs that should be dynamic but the ONNX model fixes."""
    fixed = []
    for value, axes in zip(proto.graph.input, model.flat_dynamic()):  # type: ignore[attr-defined]
        dims = value.type.tensor_type.shape.dim
        fixed += [(value.name, axis) for axis in axes if not dims[axis].dim_param]
    return fixed


def test_suite_covers_the_kinds_of_models():
    """At least 15 transformers architectures and two KV-cache LLMs; the CI subset has
    one model of each kind."""
    categories = {m.category for m in MODELS.values()}
    transformers_models = [m for m in MODELS.values() if not m.name.startswith("tv_")]
    assert len(transformers_models) >= 15
    assert sum(m.category == "decoder-kv" for m in MODELS.values()) >= 2
    fast = {m.category for m in MODELS.values() if m.fast}
    assert fast == categories - {"decoder", "torchvision-detection"}, fast


def test_second_shape_differs_in_every_dynamic_size():
    """The second inputs differ from the export's in every dynamic axis (else the check
    at the second shape would not test that the size is dynamic)."""
    for model in MODELS.values():
        first, second = model.inputs(0), model.inputs(1)
        flat_first = [t for a in first for t in (a if isinstance(a, list) else [a])]
        flat_second = [t for a in second for t in (a if isinstance(a, list) else [a])]
        for a, b, axes in zip(flat_first, flat_second, model.flat_dynamic()):
            for axis in axes:
                assert a.shape[axis] != b.shape[axis], (model.name, axis)
                assert a.shape[axis] >= 2, (model.name, axis)  # torch specializes 0 and 1
