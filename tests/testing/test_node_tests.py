"""onnxscript.testing.node_tests: cases written in the backend-test layout read back equal."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from onnxscript.testing import node_tests


def _same(a: object, b: object) -> bool:
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(map(_same, a, b))
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def test_written_cases_read_back_equal(tmp_path: Path) -> None:
    names = {
        "test_add",
        "test_sequence_insert_at_back",
        "test_optional_has_element_empty_optional_input",
    }
    folders = node_tests.generate(tmp_path / "onnx", names)
    assert [f.name for f in folders] == sorted(names)
    for folder in folders:
        case = node_tests.load(folder)
        again = node_tests.load(_rewritten(case, tmp_path / "again" / folder.name))
        assert again.model == case.model and (again.rtol, again.atol) == (case.rtol, case.atol)
        assert len(again.data_sets) == len(case.data_sets) > 0
        for (inputs, outputs), (inputs2, outputs2) in zip(case.data_sets, again.data_sets):
            assert _same(inputs, inputs2) and _same(outputs, outputs2), folder.name


def _rewritten(case: node_tests.Case, folder: Path) -> Path:
    node_tests.write_case(case, folder)
    return folder
