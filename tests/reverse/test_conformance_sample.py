"""A quick, deterministic sample of the backend-node-test conformance run
(``tools/reverse_conformance.py`` runs all of them)."""

from __future__ import annotations

from types import ModuleType

import pytest

from onnxscript.testing.node_tests import case_names, generate
from tests.helpers import load_module


@pytest.fixture(scope="module")
def conformance() -> ModuleType:
    return load_module("reverse_conformance", "tools/reverse_conformance.py")


def test_sample_of_backend_node_tests(conformance, tmp_path):
    names = conformance.sample_names(case_names(), 60)
    assert any("loop" in n for n in names) and any("if" in n for n in names)
    results = [conformance.check(str(path)) for path in generate(tmp_path, set(names))]
    eligible = [r for r in results if r.status != "skip"]
    assert len(eligible) >= 30
    failures = [f"{r.name} [{r.stage}] {r.message}" for r in eligible if r.status != "pass"]
    assert not failures, "\n".join(failures)
    not_equal = [f"{r.name}: {r.differences}" for r in eligible if not r.isomorphic]
    assert not not_equal, "\n".join(not_equal)
    assert all(r.fixpoint for r in eligible), [r.name for r in eligible if not r.fixpoint]
