"""onnxscript 0.7's ATen module paths (``torch_lib.ops.core``, ``.nn``, ...): every name
0.7.2 defines there exists and stands for the same ATen overloads.

The expected names are ``data/onnxscript_0_7_2_torch_lib_names.json``, made from the
installed 0.7.2 by ``tools/torchlib_072_names.py``; ``tools/torchlib_faces.py`` writes the
faces from it.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest

pytest.importorskip("torch")

from onnxscript.function_libs.torch_lib import registration
from onnxscript.values import Opset
from tests.helpers import ROOT, load_module

NAMES: dict[str, dict[str, dict[str, Any]]] = json.loads(
    (
        ROOT / "tests" / "function_libs" / "data" / "onnxscript_0_7_2_torch_lib_names.json"
    ).read_text()
)
FACES = load_module("torchlib_faces", "tools/torchlib_faces.py")
MISSING = load_module("missing_overloads", "tools/missing_overloads.py")

NOT_REGISTERED_HERE = {
    **{
        (name, True): "torch.onnx never calls it (see tools/torchlib_faces.py)"
        for name, _ in FACES.UNREACHABLE_COMPLEX
    },
    **{
        (name, False): reason
        for name, reason in MISSING.read_table(MISSING.DOC.read_text()).items()
        if reason != MISSING.PENDING
    },
}
"""0.7.2 overloads (qualified name, complex) this library does not register, and why."""


def _entries(kind: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (module, name, entry)
        for module, names in NAMES.items()
        for name, entry in names.items()
        if kind in entry
    ]


def _face(module: str) -> Any:
    return importlib.import_module(f"onnxscript.function_libs.torch_lib.ops.{module}")


def _registered_for(function: Any) -> set[tuple[str, bool]]:
    return {
        (name, is_complex)
        for name, entry in registration.default_registry.items()
        for is_complex, functions in ((False, entry.overloads), (True, entry.complex))
        if function in functions
    }


def test_the_list_is_0_7_2s_surface():
    counts = {kind: len(_entries(kind)) for kind in ("overloads", "unsupported", "helper")}
    assert counts == {"overloads": 464, "unsupported": 622, "helper": 19}
    assert len(NAMES["core"]) == 709
    assert sorted(NAMES) == [
        "common",
        "core",
        "fft",
        "linalg",
        "nested",
        "nn",
        "prims",
        "quantized_decomposed",
        "sparse",
        "special",
        "vision",
    ]


@pytest.mark.parametrize("module", sorted(NAMES))
def test_every_name_exists(module: str):
    face = _face(module)
    assert [name for name in NAMES[module] if not hasattr(face, name)] == []
    assert sorted(face.__all__) == sorted(NAMES[module])


def test_the_faces_are_what_the_tool_writes():
    stale = [str(p) for p, text in FACES.faces().items() if p.read_text() != text]
    assert not stale, "run python tools/torchlib_faces.py: " + ", ".join(stale)


def test_a_registered_name_is_our_function_for_its_overloads():
    wrong = []
    for module, name, entry in _entries("overloads"):
        function = getattr(_face(module), name)
        ours = _registered_for(function)
        expected = {(q, bool(c)) for q, c in entry["overloads"]}
        if not ours & expected:  # ours implements none of 0.7.2's overloads of the name
            fallback = {(q, not c) for q, c in expected}  # a real function taking complex
            if not ours & fallback:
                wrong.append(f"{module}.{name}: {sorted(expected)}, ours {sorted(ours)}")
    assert not wrong, wrong


def test_every_overload_0_7_2_registers_is_registered_or_explained():
    ours = {
        (name, is_complex)
        for name, entry in registration.default_registry.items()
        for is_complex, functions in ((False, entry.overloads), (True, entry.complex))
        if functions
    }
    expected = {(q, bool(c)) for _, _, e in _entries("overloads") for q, c in e["overloads"]}
    assert sorted(expected - ours - set(NOT_REGISTERED_HERE)) == []
    assert set(NOT_REGISTERED_HERE) <= expected  # no stale exception


def test_a_split_name_binds_the_function_of_its_first_overload():
    from onnxscript.function_libs.torch_lib.aten import elementwise, symbolic

    core = _face("core")
    assert core.aten_eq is elementwise.eq  # aten::eq.Tensor; aten::eq is eq_scalars
    assert core.aten_div is elementwise.div
    assert core.aten_add is core.aten_add_scalar  # one function of ours, two names of 0.7
    assert ("_operator::eq", False) in _registered_for(symbolic.sym_eq)


def test_a_placeholder_raises_naming_its_operator():
    placeholders = [
        (getattr(_face(m), n), e["unsupported"])
        for m, n, e in _entries("unsupported")
        if not _registered_for(getattr(_face(m), n))
    ]
    assert len(placeholders) > 550
    for function, qualified in placeholders:
        with pytest.raises(NotImplementedError, match=qualified.replace(".", r"\.")):
            function(None, dim=1)


def test_a_placeholder_of_0_7_2_that_we_implement_is_our_function():
    implemented = {
        f"{m}.{n}": e["unsupported"]
        for m, n, e in _entries("unsupported")
        if _registered_for(getattr(_face(m), n))
    }
    assert len(implemented) >= 31
    for name, qualified in implemented.items():
        module, _, attribute = name.partition(".")
        registered = {q for q, _ in _registered_for(getattr(_face(module), attribute))}
        assert qualified in registered, name


def test_values_are_0_7_2s():
    import onnx_ir as ir

    from onnxscript import opset18, opset19

    for module in NAMES:
        if "op" in NAMES[module]:
            assert _face(module).op is opset18
    assert _face("vision").opset19 is opset19
    common = _face("common")
    assert common.DOMAIN == "pkg.onnxscript.torch_lib.common"
    assert isinstance(common.common_opset, Opset)
    assert (common.common_opset.domain, common.common_opset.version) == (common.DOMAIN, 1)
    assert common.COMPLEX64_TYPE is ir.DataType.COMPLEX64
    assert common.COMPLEX128_TYPE is ir.DataType.COMPLEX128
