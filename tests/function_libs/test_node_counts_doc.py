"""docs/node_counts.md (written by tools/node_counts.py) parses and lists every model of
both suites; nothing is exported here."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
COUNT = re.compile(r"^(-|\d+)$")
DIFFERENCE = re.compile(r"^(-|[+-]\d+)$")
MATCH = {"yes", "NO", "FAIL", "not run", "torch.export fails"}


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("node_counts", ROOT / "tools" / "node_counts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


def test_the_doc_lists_every_model_of_both_suites_with_counts():
    for needed in ("torch", "torchvision", "transformers"):  # the suites' model lists
        pytest.importorskip(needed)
    tables = TOOL.read_table(TOOL.DOC.read_text())
    expected = TOOL.suite_models()
    assert set(tables) == {title.replace("## ", "") for title in TOOL.SUITES.values()}
    for suite, title in TOOL.SUITES.items():
        rows = tables[title]
        assert list(rows) == list(expected[suite])
        for name, cells in rows.items():
            ours, base, difference, ours_match, base_match = cells
            assert COUNT.match(ours) and COUNT.match(base), name
            assert DIFFERENCE.match(difference), name
            assert {ours_match, base_match} <= MATCH, name


def test_render_reads_back():
    results = {
        "static": {
            "ours": {"a": {"nodes_optimized": 3, "matches": True}},
            "0.7.2": {"a": {"nodes_optimized": 5, "matches": False}},
        },
        "dynamic": {"ours": {"b": {"error": "E: e"}}, "0.7.2": {}},
    }
    models = {"static": {"a": ""}, "dynamic": {"b": "", "c": "cannot capture"}}
    tables = TOOL.read_table(TOOL.render(results, models))
    static, dynamic = (tables[title] for title in TOOL.SUITES.values())
    assert static == {"a": ["3", "5", "-2", "yes", "NO"]}
    assert dynamic["b"] == ["-", "-", "-", "FAIL", "not run"]
    assert dynamic["c"][3] == "torch.export fails"
