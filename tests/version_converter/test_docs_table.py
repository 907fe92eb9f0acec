"""docs/version_converter.md's adapter table is the registry's."""

from __future__ import annotations

from tests.helpers import ROOT, load_module


def test_adapter_table_is_current():
    tool = load_module("version_converter_table", ROOT / "tools" / "version_converter_table.py")
    text = tool.DOC.read_text()
    assert tool.rewritten(text) == text, "run: python tools/version_converter_table.py --write"
    assert "| Softmax | 11 ↔ 13 |" in text and "| Gelu | 19 ↔ 20 |" in text
