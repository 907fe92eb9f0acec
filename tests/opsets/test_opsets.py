"""Opsets built from onnx.defs: every version, op objects, schemas, errors."""

from __future__ import annotations

import inspect

import onnx
import pytest

import onnxscript
from onnxscript import Opset, opset18
from onnxscript.opsets import get_opset, opset_names


def test_every_ai_onnx_and_ml_version_exists():
    last = onnx.defs.onnx_opset_version()
    names = opset_names()
    assert f"opset{last}" in names and "opset1" in names
    for v in range(1, last + 1):
        opset = getattr(onnxscript, f"opset{v}")
        assert opset.domain == "" and opset.version == v
    ml_last = onnx.defs.C.schema_version_map()["ai.onnx.ml"][1]
    assert getattr(onnxscript, f"opset_ai_onnx_ml{ml_last}").domain == "ai.onnx.ml"
    assert get_opset(f"opset{last + 1}") is None
    with pytest.raises(AttributeError):
        getattr(onnxscript, f"opset{last + 1}")


def test_same_object_on_each_access():
    from onnxscript.opsets import opset18 as a

    assert a is onnxscript.opset18 is opset18


def test_op_has_schema_docstring_and_signature():
    op = opset18.Resize
    assert op.schema.name == "Resize" and op.schema.since_version <= 18
    assert "Resize" in (op.__doc__ or "")
    sig = inspect.signature(op)
    assert list(sig.parameters)[:4] == ["X", "roi", "scales", "sizes"]
    assert sig.parameters["mode"].kind == inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["mode"].default == "nearest"


def test_schema_version_follows_the_opset():
    assert onnxscript.opset12.Clip.schema.since_version == 12
    assert onnxscript.opset11.Clip.schema.since_version == 11
    assert onnxscript.opset18.Split.schema.since_version == 18


def test_misspelled_op_suggests_names():
    with pytest.raises(AttributeError, match="did you mean Add"):
        opset18.Addd
    with pytest.raises(AttributeError, match="Relu"):
        opset18.relu
    assert opset18.lookup("NoSuchOp") is None


def test_custom_domain_ops_are_free_form():
    custom = Opset("com.example", 2)
    op = custom.MyOp
    assert op.schema is None and op.domain == "com.example" and op.version == 2
    assert op.call_signature.free_form
    assert Opset("ai.onnx", 18) == opset18


def test_opset_arguments_are_checked():
    with pytest.raises(TypeError):
        Opset("x", 0)
    with pytest.raises(TypeError):
        Opset(1, 1)  # type: ignore[arg-type]
