"""onnxscript 0.7's small torch_lib modules, as 0.7.2 behaves black-box: ``tensor_typing``
(its type variables allow the same types), ``_constants``, ``_flags`` (read from the
environment), ``graph_building`` (the removed TorchScript builder's names), and the
``unsupported`` placeholders of ``ops``."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import typing

import pytest

from onnxscript import onnx_types
from onnxscript.function_libs.torch_lib import _constants, graph_building, tensor_typing
from onnxscript.function_libs.torch_lib.unsupported import unsupported
from tests.helpers import ROOT

_0_7_2_TYPE_VARIABLES = {
    "TFloat": ["FLOAT16", "FLOAT", "DOUBLE", "BFLOAT16"],
    "TFloatHighPrecision": ["FLOAT", "DOUBLE"],
    "TFloatOrUInt8": ["FLOAT", "FLOAT16", "DOUBLE", "INT8", "UINT8"],
    "TInt": ["INT8", "INT16", "INT32", "INT64"],
    "TReal": ["BFLOAT16", "FLOAT16", "FLOAT", "DOUBLE", "INT8", "INT16", "INT32", "INT64"],
    "TRealOrUInt8": [
        *["BFLOAT16", "FLOAT16", "FLOAT", "DOUBLE", "INT8", "INT16", "INT32", "INT64", "UINT8"]
    ],
    "TRealUnlessFloat16OrInt8": ["DOUBLE", "FLOAT", "INT16", "INT32", "INT64"],
    "TRealUnlessInt16OrInt8": ["FLOAT16", "FLOAT", "DOUBLE", "BFLOAT16", "INT32", "INT64"],
    **{
        name: [
            *["BFLOAT16", "BOOL", "COMPLEX64", "COMPLEX128", "DOUBLE", "FLOAT", "FLOAT16"],
            *["INT8", "INT16", "INT32", "INT64", "UINT8"],
        ]
        for name in ("TTensor", "TTensor2")
    },
}
"""The bound of each type variable of 0.7.2's ``tensor_typing`` (a Union, in this order)."""


@pytest.mark.parametrize("name", sorted(_0_7_2_TYPE_VARIABLES))
def test_type_variables_bound_what_0_7_2s_bind(name: str):
    variable = getattr(tensor_typing, name)
    assert isinstance(variable, typing.TypeVar) and variable.__name__ == name
    assert variable.__constraints__ == ()
    bound = [t.__name__ for t in typing.get_args(variable.__bound__)]
    assert bound == _0_7_2_TYPE_VARIABLES[name]


def test_unions_and_the_string_variant():
    assert [t.__name__ for t in typing.get_args(tensor_typing.IntType)] == [
        "INT8",
        "INT16",
        "INT32",
        "INT64",
    ]
    real = [t.__name__ for t in typing.get_args(tensor_typing.RealType)]
    assert real == _0_7_2_TYPE_VARIABLES["TReal"]
    with_string = typing.get_args(tensor_typing.TTensorOrString.__bound__)
    assert [t.__name__ for t in with_string] == [*_0_7_2_TYPE_VARIABLES["TTensor"], "STRING"]
    for name in ("BFLOAT16", "BOOL", "COMPLEX64", "FLOAT", "INT64", "STRING", "UINT8"):
        assert getattr(tensor_typing, name) is getattr(onnx_types, name)


def test_the_librarys_own_variables_say_what_it_accepts():
    assert tensor_typing.TAnyTensor.__bound__ is onnx_types.TensorType
    assert onnx_types.UINT8 in typing.get_args(tensor_typing.TIntOrUInt8.__bound__)
    assert tensor_typing.TComplex.__constraints__ == (onnx_types.COMPLEX64, onnx_types.COMPLEX128)


def test_the_domain_constant():
    assert _constants.DOMAIN == "pkg.onnxscript.torch_lib"


def _flags(environment: dict[str, str]) -> tuple[str, str]:
    code = (
        "import logging, sys\n"
        "logging.basicConfig(stream=sys.stderr, format='%(name)s %(levelname)s %(message)s')\n"
        "from onnxscript.function_libs.torch_lib import _flags\n"
        "print(_flags.EXPERIMENTAL_PREFER_TRACING, _flags.EXPERIMENTAL_INITIALIZERS_AS_INPUTS)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TORCHLIB_EXPERIMENTAL")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, **environment},
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return done.stdout.strip(), done.stderr.strip()


def test_flags_default_and_read_from_the_environment():
    assert _flags({}) == ("True False", "")
    values, log = _flags({"TORCHLIB_EXPERIMENTAL_INITIALIZERS_AS_INPUTS": "1"})
    assert values == "True True"
    assert log.startswith("onnxscript.function_libs.torch_lib._flags WARNING Experimental flag")
    assert _flags({"TORCHLIB_EXPERIMENTAL_PREFER_TRACING": "0"}) == ("False False", "")
    # Only "1" turns a flag on, as in 0.7.2.
    assert _flags({"TORCHLIB_EXPERIMENTAL_PREFER_TRACING": "true"})[0] == "False False"


@pytest.mark.parametrize(
    "name", ["TorchScriptGraph", "TorchScriptTensor", "TorchScriptTracingEvaluator"]
)
def test_the_torchscript_builder_is_gone(name: str):
    removed = getattr(graph_building, name)
    assert isinstance(removed, type)
    with pytest.raises(NotImplementedError, match=r"torch\.onnx\.export\(\.\.\., dynamo=True\)"):
        removed(object(), opset=18)


def test_an_unsupported_placeholder_names_its_operator():
    placeholder = unsupported("aten::adjoint")
    assert placeholder.__name__ == "aten_adjoint"
    assert "aten::adjoint" in (placeholder.__doc__ or "")
    with pytest.raises(NotImplementedError, match="aten::adjoint"):
        placeholder(None)
    with pytest.raises(NotImplementedError, match=r"prims::fft_r2c"):
        unsupported("prims::fft_r2c")(1, 2, dim=[0], onesided=True)


def test_logging_of_flags_uses_the_modules_logger():
    from onnxscript.function_libs.torch_lib import _flags

    assert _flags.logger is logging.getLogger("onnxscript.function_libs.torch_lib._flags")
