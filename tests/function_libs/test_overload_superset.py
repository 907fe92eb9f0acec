"""Every overload onnxscript 0.7.2 registers is registered here, or listed with a reason in
docs/torch_lib_ops_missing.md."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest
from onnxscript._framework_apis.torch_2_11 import get_torchlib_ops

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "missing_overloads", ROOT / "tools" / "missing_overloads.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


def test_the_baseline_list_is_0_7_2s():
    names = TOOL.baseline_overloads()
    assert len(names) == len(set(names)) == 510
    assert "aten::add.Tensor" in names and "_operator::__lshift__" in names


def test_every_overload_of_0_7_2_is_registered_or_explained():
    ours = {record.qualified_name for record in get_torchlib_ops()}
    reasons = TOOL.read_table(TOOL.DOC.read_text())
    unexplained = [n for n in TOOL.baseline_overloads() if n not in ours and n not in reasons]
    assert not unexplained, f"missing, not in {TOOL.DOC.name}: {unexplained}"
    if os.environ.get("ONNXSCRIPT_STRICT_SUPERSET") == "1":
        pending = [n for n, reason in reasons.items() if reason == TOOL.PENDING and n not in ours]
        assert not pending, f"still pending: {pending}"


def test_the_table_reads_back():
    text = TOOL.render(["aten::a", "aten::b.Tensor"], {"aten::a": "no ONNX op"}, 2)
    assert TOOL.read_table(text) == {"aten::a": "no ONNX op", "aten::b.Tensor": TOOL.PENDING}


@pytest.mark.parametrize("reason", ["", "   "])
def test_an_empty_reason_counts_as_pending(reason: str):
    text = TOOL.render(["aten::a"], {"aten::a": reason}, 1)
    assert TOOL.read_table(text) == {"aten::a": TOOL.PENDING}
