"""Tensor type annotations."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import typing
from pathlib import Path

import onnx
import pytest

import onnxscript
from onnxscript import BOOL, DOUBLE, FLOAT, INT64, STRING, script
from onnxscript.onnx_types import TYPES_BY_DTYPE, TensorType, tensor_type
from onnxscript.value_types import TensorTypeSpec
from tests.helpers import ROOT


def test_shapes_and_dtypes():
    assert FLOAT.dtype == onnx.TensorProto.FLOAT and FLOAT.shape is None
    assert FLOAT.type_spec() == TensorTypeSpec(onnx.TensorProto.FLOAT, ())
    assert FLOAT[...].shape is Ellipsis and FLOAT[...].type_spec().shape is None
    assert FLOAT[None].shape == (None,)
    assert FLOAT[64, "N"].shape == (64, "N")
    assert INT64["N"].type_spec() == TensorTypeSpec(onnx.TensorProto.INT64, ("N",))


def test_subscription_is_cached_and_distinct():
    assert FLOAT[3] is FLOAT[3]
    assert FLOAT[3] is not FLOAT[4]
    assert FLOAT[3] is not DOUBLE[3]
    assert issubclass(FLOAT[3], FLOAT)
    assert FLOAT[3].element_type() is FLOAT


def test_cannot_instantiate_or_subscribe_twice():
    with pytest.raises(NotImplementedError):
        FLOAT()
    with pytest.raises(ValueError):
        FLOAT[3][4]
    with pytest.raises(TypeError):
        FLOAT[1.5]
    with pytest.raises(TypeError):
        TensorType[3]


def test_unions_and_optional():
    union = FLOAT | INT64
    assert set(typing.get_args(union)) == {FLOAT, INT64}
    opt = typing.Optional[FLOAT[3]]
    assert FLOAT[3] in typing.get_args(opt)

    @script()
    def f(x: FLOAT | DOUBLE, y: typing.Optional[FLOAT["N"]]):
        return x

    proto = f.to_function_proto()
    assert list(proto.input) == ["x", "y"]


def test_every_installed_element_type_has_a_class():
    for name, code in onnx.TensorProto.DataType.items():
        if code == 0:
            continue
        cls = tensor_type(code)
        assert cls.__name__ == name
        assert getattr(onnxscript.onnx_types, name) is cls
    assert {BOOL.dtype, STRING.dtype} <= set(TYPES_BY_DTYPE)


def test_every_type_class_is_exported_by_the_package():
    # Scripts (and the reverse translator's output) import them from `onnxscript`.
    for cls in TYPES_BY_DTYPE.values():
        assert getattr(onnxscript, cls.__name__) is cls
        assert cls.__name__ in onnxscript.__all__


def test_to_type_proto():
    proto = FLOAT["N", 3].to_type_proto()
    dims = proto.tensor_type.shape.dim
    assert proto.tensor_type.elem_type == onnx.TensorProto.FLOAT
    assert dims[0].dim_param == "N" and dims[1].dim_value == 3


def test_mypy_accepts_annotations_with_the_plugin(tmp_path: Path):
    pytest.importorskip("mypy")
    user = tmp_path / "user.py"
    user.write_text(
        textwrap.dedent(
            """
            from typing import Optional
            from onnxscript import FLOAT, INT64


            def f(
                x: FLOAT[64, "batch size"],
                y: FLOAT,
                z: FLOAT[None],
                w: FLOAT[...],
                u: FLOAT | INT64,
                v: Optional[FLOAT[3]],
            ) -> FLOAT[2, 3]:
                raise NotImplementedError


            def g(a: int) -> FLOAT:
                return a  # a real type error, which mypy must still report
            """
        )
    )
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = onnxscript.mypy_plugin\nfollow_imports = silent\n")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--no-incremental", str(user)],
        capture_output=True,
        text=True,
        env={"MYPYPATH": str(ROOT), "PATH": ""},
        cwd=tmp_path,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, result.stdout
    assert "user.py:18" in errors[0] and "Incompatible return value" in errors[0]


# -- onnxscript 0.7's ONNXType and onnx_type_to_onnxscript_repr ----------------------------


def test_onnx_type_is_0_7s_name_of_the_tensor_type_base():
    from onnxscript.onnx_types import ONNXType

    assert ONNXType is TensorType
    assert issubclass(FLOAT, ONNXType)


@pytest.mark.parametrize(
    ("type_proto", "expected"),
    [  # each text as onnxscript 0.7.2 writes it
        (onnx.helper.make_tensor_type_proto(1, [2, "N"]), "FLOAT[2,'N']"),
        (onnx.helper.make_tensor_type_proto(7, None), "INT64[...]"),
        (onnx.helper.make_tensor_type_proto(7, []), "INT64"),
        (onnx.helper.make_tensor_type_proto(1, [None, 3]), "FLOAT[None,3]"),
        (onnx.helper.make_tensor_type_proto(16, ["a b", 'x"y']), "BFLOAT16['a b','x\"y']"),
        (onnx.helper.make_tensor_type_proto(0, [2]), "UNDEFINED[2]"),
    ],
)
def test_onnx_type_to_onnxscript_repr_writes_0_7s_text(type_proto, expected):
    from onnxscript.onnx_types import onnx_type_to_onnxscript_repr

    assert onnx_type_to_onnxscript_repr(type_proto) == expected
    assert onnx_type_to_onnxscript_repr(type_proto, reversible=False) == expected


def test_onnx_type_to_onnxscript_repr_texts_are_annotations_that_compile_back():
    from onnxscript.onnx_types import onnx_type_to_onnxscript_repr

    original = onnx.helper.make_tensor_type_proto(1, [2, "N", None])
    annotation = eval(onnx_type_to_onnxscript_repr(original), vars(onnxscript))
    assert annotation.to_type_proto() == original


@pytest.mark.parametrize(
    "type_proto",
    [
        onnx.helper.make_sequence_type_proto(onnx.helper.make_tensor_type_proto(1, [2])),
        onnx.helper.make_optional_type_proto(onnx.helper.make_tensor_type_proto(1, [2])),
        onnx.helper.make_sparse_tensor_type_proto(1, [2]),
        onnx.TypeProto(),
    ],
)
def test_onnx_type_to_onnxscript_repr_rejects_other_kinds_as_0_7_does(type_proto):
    from onnxscript.onnx_types import onnx_type_to_onnxscript_repr

    with pytest.raises(NotImplementedError, match="Unable to translate type"):
        onnx_type_to_onnxscript_repr(type_proto)
