"""0.7's ``onnxscript.onnx_opset`` package: each standard opset is the one instance of its
own class (``Opset18``, a subclass of ``Opset17`` ... of ``Opset``), named at
``onnx_opset._impl.opsetN`` as 0.7 has it (behaviour measured on onnxscript 0.7.2)."""

from __future__ import annotations

import copy
import importlib
import pickle

import numpy as np
import pytest

import onnxscript
from onnxscript import FLOAT, script
from onnxscript.onnx_opset import opset_ai_onnx_preview1
from onnxscript.opsets import get_opset_class, opset_class, opset_names
from onnxscript.values import Opset
from tests.helpers import checked_model

ONNX_072_MODULES = [
    *(f"opset{v}" for v in range(1, 28)),
    *(f"opset_ai_onnx_ml{v}" for v in range(1, 6)),
    "opset_ai_onnx_preview1",
]
"""The ``_impl`` modules of 0.7.2."""


def _class_name(module: str) -> str:
    return module[0].upper() + module[1:]


@pytest.mark.parametrize("module", ONNX_072_MODULES)
def test_each_impl_module_names_the_class_of_its_opset(module: str):
    impl = importlib.import_module(f"onnxscript.onnx_opset._impl.{module}")
    cls = getattr(impl, _class_name(module))
    opset = getattr(onnxscript.onnx_opset, module)
    assert type(opset) is cls
    assert cls() is opset  # 0.7.2: Opset18() is opset18
    assert isinstance(opset, Opset)


def test_classes_derive_from_the_previous_version_as_in_0_7():
    from onnxscript.onnx_opset._impl.opset18 import Opset18
    from onnxscript.onnx_opset._impl.opset_ai_onnx_ml5 import Opset_ai_onnx_ml5

    names = [c.__name__ for c in Opset18.__mro__]
    assert names == [*(f"Opset{v}" for v in range(18, 0, -1)), "Opset", "object"]
    assert [c.__name__ for c in Opset_ai_onnx_ml5.__mro__][-3:] == [
        "Opset_ai_onnx_ml1",
        "Opset",
        "object",
    ]
    assert repr(onnxscript.opset18) == "Opset18('', 18)"
    assert repr(onnxscript.opset_ai_onnx_ml5) == "Opset_ai_onnx_ml5('ai.onnx.ml', 5)"
    assert repr(Opset("com.x", 1)) == "Opset('com.x', 1)"


def test_one_object_per_opset_through_every_path():
    from onnxscript.onnx_opset import Opset18, all_opsets, opset18

    assert opset18 is onnxscript.opset18 is onnxscript.opsets.opset18 is Opset18()
    assert Opset18("", 18) is opset18  # 0.7's arguments are accepted and ignored
    assert copy.copy(opset18) is opset18 and copy.deepcopy(opset18) is opset18
    assert pickle.loads(pickle.dumps(opset18)) is opset18
    assert all_opsets[("", 18)] is opset18
    assert all_opsets[("ai.onnx.preview", 1)] is opset_ai_onnx_preview1
    assert set(all_opsets) == {
        (o.domain, o.version) for o in map(onnxscript.opsets.get_opset, opset_names()) if o
    }
    assert get_opset_class("Opset18") is Opset18 is opset_class("", 18)
    assert get_opset_class("Opset999") is None and get_opset_class("Opset018") is None


def test_preview_opset_has_the_preview_ops():
    assert opset_ai_onnx_preview1.domain == "ai.onnx.preview"
    assert opset_ai_onnx_preview1.FlexAttention.schema.name == "FlexAttention"
    with pytest.raises(AttributeError):
        opset_ai_onnx_preview1.Add


def test_an_opset_object_of_a_class_compiles_and_runs_like_the_others():
    from onnxscript.onnx_opset._impl.opset18 import Opset18

    op = Opset18()

    @script(default_opset=op)
    def add_relu(x: FLOAT["N"], y: FLOAT["N"]) -> FLOAT["N"]:
        return op.Relu(op.Add(x, y))

    model = checked_model(add_relu)
    assert [(o.domain, o.version) for o in model.opset_import] == [("", 18)]
    x = np.array([-2.0, 1.0], dtype=np.float32)
    y = np.array([1.0, 1.0], dtype=np.float32)
    np.testing.assert_array_equal(add_relu(x, y), np.array([0.0, 2.0], dtype=np.float32))
