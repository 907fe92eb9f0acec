"""torch.onnx.export converts its opset-18 models to the requested opset through
``_framework_apis.torch_2_X.convert_version``: op by op on the onnx_ir model, never
serializing it nor calling onnx's (C++) version converter, for the small torch.nn suite
and three real architectures (the whole fast subset with ONNXSCRIPT_FULL_MODEL_SUITE=1)."""

from __future__ import annotations

import os

import onnx
import onnx.version_converter
import onnx_ir as ir
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from onnxscript._framework_apis import torch_2_11  # noqa: E402
from tests.function_libs.dynamic_export import check_at, export  # noqa: E402
from tests.function_libs.models import suite  # noqa: E402

SMALL = suite()
DEFAULT_REAL = ("bert", "llama_kv", "tv_resnet18")
FULL = os.environ.get("ONNXSCRIPT_FULL_MODEL_SUITE", "") not in ("", "0")


def _real_models() -> dict[str, object]:
    if not all(_importable(m) for m in ("transformers", "torchvision")):
        return {}
    from tests.function_libs.real_models import suite as real_suite

    return {
        name: model
        for name, model in real_suite().items()
        if model.fast
        and not model.xfail
        and not model.torch_fails
        and (FULL or name in DEFAULT_REAL)
    }


def _importable(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


REAL = _real_models()


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("the model went through a ModelProto")


@pytest.fixture
def no_serialization(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Serializing the model or calling onnx's converter fails the export; the versions
    convert_version was called with are recorded."""
    calls: list[tuple[int, int]] = []
    convert = torch_2_11.convert_version

    def recording(model: ir.Model, target: int) -> ir.Model:
        calls.append((model.opset_imports[""], target))
        with monkeypatch.context() as inner:
            inner.setattr(ir.serde, "serialize_model", _refuse)
            inner.setattr(onnx.version_converter, "convert_version", _refuse)
            return convert(model, target)

    monkeypatch.setattr(torch_2_11, "convert_version", recording)
    return calls


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")
@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_models_convert_18_to_20_in_place(name: str, no_serialization: list):
    module, args = SMALL[name]
    program = export(module, args, optimize=False)
    assert no_serialization == [(18, 20)]
    assert {o.domain: o.version for o in program.model_proto.opset_import}[""] == 20
    onnx.checker.check_model(program.model_proto, full_check=True)
    assert all(d.ok for d in check_at(program, module, [args]))


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")
@pytest.mark.parametrize("name", sorted(REAL))
def test_real_models_convert_18_to_20_in_place(name: str, no_serialization: list):
    model = REAL[name]
    module = model.module()  # type: ignore[attr-defined]
    example = model.inputs(0)  # type: ignore[attr-defined]
    program = export(module, example, model.dynamic_shapes(module))  # type: ignore[attr-defined]
    assert no_serialization == [(18, 20)]
    assert all(d.ok for d in check_at(program, module, [example]))
