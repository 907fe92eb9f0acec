"""``torch_op``, ``Registry`` and ``default_registry`` (onnxscript 0.7's API for users'
ATen functions), as 0.7.2 behaves black-box; and torch.onnx exporting with them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib import registration
from onnxscript.function_libs.torch_lib.registration import (
    OverloadedFunction,
    Registry,
    torch_op,
)
from onnxscript.function_libs.torch_lib.tensor_typing import TFloat
from onnxscript.values import OnnxFunction, TracedOnnxFunction
from tests.helpers import ROOT


def _relu(x: TFloat) -> TFloat:
    return op.Relu(x)


def _neg(x: TFloat) -> TFloat:
    return op.Neg(x)


def test_a_scripted_function_of_the_library_domain_is_registered():
    registry = Registry()
    function = torch_op("aten::relu", registry=registry)(_relu)
    assert isinstance(function, OnnxFunction) and not isinstance(function, TracedOnnxFunction)
    assert (function.opset.domain, function.opset.version) == ("pkg.onnxscript.torch_lib", 1)
    assert function.name == "_relu"
    assert registry["aten::relu"].overloads == [function]
    assert registry["aten::relu"].complex == []
    proto = function.to_function_proto()
    assert proto.domain == "pkg.onnxscript.torch_lib"
    assert [n.op_type for n in proto.node] == ["Relu"]


def test_trace_only_gives_a_traced_function():
    registry = Registry()
    function = torch_op("aten::neg", registry=registry, trace_only=True)(_neg)
    assert isinstance(function, TracedOnnxFunction)
    assert function.opset.domain == "pkg.onnxscript.torch_lib"
    assert registry["aten::neg"].overloads == [function]


def test_a_tuple_registers_every_name_and_complex_ones_apart():
    registry = Registry()
    function = torch_op(("aten::x.Tensor", "aten::x.Scalar"), registry=registry, trace_only=True)(
        _neg
    )
    complex_one = torch_op("aten::x.Tensor", registry=registry, trace_only=True, complex=True)(
        _relu
    )
    assert list(registry) == ["aten::x.Tensor", "aten::x.Scalar"]
    assert registry["aten::x.Tensor"].overloads == [function]
    assert registry["aten::x.Tensor"].complex == [complex_one]
    assert registry["aten::x.Scalar"].complex == []
    entry = registry["aten::x.Tensor"]
    assert isinstance(entry, OverloadedFunction) and entry.name == "aten::x.Tensor"
    assert [name for name, _ in registry.items()] == list(registry)
    assert list(registry.values()) == [registry[n] for n in registry]
    assert "aten::x.Scalar" in registry and "aten::x" not in registry and len(registry) == 2
    with pytest.raises(KeyError):
        registry["aten::x"]


@pytest.mark.parametrize(
    "name",
    [
        "aten::relu",
        "aten::add.Tensor",
        "aten::_foo",
        "aten::div.Tensor_mode",
        "quantized_decomposed::quantize_per_tensor.tensor2",
        "aten::x.y.z",
        "Aten::X",
    ],
)
def test_names_0_7_accepts(name: str):
    registry = Registry()
    torch_op(name, registry=registry, trace_only=True)(_neg)
    assert name in registry


@pytest.mark.parametrize(
    "name",
    [
        "relu",
        "aten:relu",
        "aten::",
        "::relu",
        "aten::relu.",
        "aten::relu.default",
        "aten::x.y.default",
        "aten::foo bar",
        "aten::foo-bar",
        "a.b::c",
        "aten::x::y",
    ],
)
def test_names_0_7_refuses(name: str):
    with pytest.raises(ValueError, match="namespace::name"):
        torch_op(name, registry=Registry(), trace_only=True)


def test_a_list_of_names_is_refused():
    with pytest.raises(TypeError, match="string or a tuple"):
        torch_op(["aten::a", "aten::b"], registry=Registry())  # type: ignore[arg-type]


def test_a_private_function_is_not_registered():
    registry = Registry()
    function = torch_op("aten::relu", registry=registry, trace_only=True, private=True)(_relu)
    assert isinstance(function, TracedOnnxFunction)
    assert "aten::relu" not in registry


def test_a_second_function_for_a_name_is_refused_with_a_warning():
    registry = Registry()
    first = torch_op("aten::relu", registry=registry, trace_only=True)(_relu)
    with pytest.warns(UserWarning, match=r"aten::relu has a real function registered already"):
        torch_op("aten::relu", registry=registry, trace_only=True)(_neg)
    assert registry["aten::relu"].overloads == [first]
    complex_first = torch_op("aten::relu", registry=registry, trace_only=True, complex=True)(_neg)
    with pytest.warns(UserWarning, match="complex function registered already"):
        registry.register(_relu, "aten::relu", complex=True)
    assert registry["aten::relu"].complex == [complex_first]


def test_register_takes_any_name_and_object():
    registry = Registry()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        registry.register(_relu, "not a qualified name")
    assert registry["not a qualified name"].overloads == [_relu]


def test_the_default_registry_holds_every_function_of_the_library():
    records = registration.collect_ops()
    default = registration.default_registry
    assert len(default) == len({r.qualified_name for r in records})
    for record in records:
        entry = default[record.qualified_name]
        functions = entry.complex if record.is_complex else entry.overloads
        assert functions[0] is record.function, record
    assert registration.registered_ops() == [
        registration.OpRecord(name, f, c)
        for name, entry in default.items()
        for c, fs in ((False, entry.overloads), (True, entry.complex))
        for f in fs
    ]


_EXPORT_SCRIPT = """
import warnings
import numpy as np
import onnxruntime as ort
import torch
from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.registration import default_registry, torch_op
from onnxscript.function_libs.torch_lib.tensor_typing import TFloat

@torch.library.custom_op("testlib::twice", mutates_args=())
def twice(x: torch.Tensor) -> torch.Tensor:
    return x * 2

@twice.register_fake
def _(x):
    return torch.empty_like(x)

@torch_op("testlib::twice")
def onnx_twice(x: TFloat) -> TFloat:
    return op.Mul(x, op.CastLike(2.0, x))

warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    IMPORT_OPS
    @torch_op("aten::relu", trace_only=True)
    def negated_relu(x: TFloat) -> TFloat:
        return op.Neg(x)

class M(torch.nn.Module):
    def forward(self, x):
        return torch.sigmoid(torch.relu(torch.ops.testlib.twice(x)))

x = torch.randn(2, 3)
with warnings.catch_warnings(record=True) as caught_at_export:
    program = torch.onnx.export(M(), (x,), dynamo=True, verbose=False)
session = ort.InferenceSession(program.model_proto.SerializeToString())
got = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
relu = -(x * 2) if default_registry["aten::relu"].overloads[0] is negated_relu else torch.relu(x * 2)
np.testing.assert_allclose(got, torch.sigmoid(relu).numpy(), rtol=1e-5, atol=1e-6)
refused = [str(w.message).split(" ")[0] for w in caught + caught_at_export]
print(default_registry["aten::relu"].overloads[0] is negated_relu, [r for r in refused if "::" in r])
"""


def _export_with_user_functions(import_ops: bool, folder: Path) -> str:
    """Run the script in a fresh process (the default registry is process-wide)."""
    script = _EXPORT_SCRIPT.replace(
        "IMPORT_OPS",
        "import onnxscript.function_libs.torch_lib.ops" if import_ops else "pass",
    )
    path = folder / "export_with_user_functions.py"
    path.write_text(textwrap.dedent(script))
    done = subprocess.run(
        [sys.executable, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_torch_onnx_exports_with_functions_users_register(tmp_path: Path):
    pytest.importorskip("torch")
    # A custom op translated by the user's function; relu registered before the library
    # fills the registry (at the export) replaces the library's, whose registration is
    # refused with a warning, as with 0.7.2.
    assert _export_with_user_functions(False, tmp_path) == "True ['aten::relu']"


def test_importing_ops_fills_the_registry_first(tmp_path: Path):
    pytest.importorskip("torch")
    # As with 0.7.2, importing torch_lib.ops registers the library: the user's relu is
    # the one refused.
    assert _export_with_user_functions(True, tmp_path) == "False ['aten::relu']"
