"""``onnxscript.backend.onnx_backend``: onnx's backend tests as objects that load a model,
run it and compare the outputs (0.7.2's API; its results and messages on the same calls
are those asserted below). The ``node`` series, which onnx's wheels no longer ship, is
written from onnx's test cases into the cache directory."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from onnxscript import runtime
from onnxscript.backend import onnx_backend
from onnxscript.backend.onnx_backend import (
    OnnxBackendTest,
    assert_almost_equal_string,
    enumerate_onnx_tests,
)
from onnxscript.testing import node_tests

SAMPLE = {
    "test_abs",
    "test_add",
    "test_bernoulli",
    "test_identity_sequence",
    "test_sequence_insert_at_front",
    "test_string_concat",
}


@pytest.fixture(scope="module")
def series(tmp_path_factory) -> Path:
    """A backend-test ``data`` layout holding a sample of the node tests."""
    root = tmp_path_factory.mktemp("backend")
    (root / "__init__.py").write_text("")
    node_tests.generate(root / "data" / "node", SAMPLE)
    return root


@pytest.fixture
def sample(series, monkeypatch) -> dict[str, OnnxBackendTest]:
    monkeypatch.setattr(onnx_backend, "backend_folder", str(series / "__init__.py"))
    return {t.name: t for t in enumerate_onnx_tests("node")}


def _load(model):
    return runtime.session(model)


def _run(session, *inputs):
    names = [i.name for i in session.get_inputs()]
    return session.run(None, dict(zip(names, inputs)))


def test_a_test_holds_its_model_and_data_sets(sample):
    test = sample["test_add"]
    assert repr(test) == f"OnnxBackendTest({test.folder!r})"
    assert test.name == "test_add" and len(test) == 1
    assert test.onnx_path == os.path.join(test.folder, "model.onnx")
    assert [i.name for i in test.onnx_model.graph.input] == ["x", "y"]
    (data,) = test.tests
    assert sorted(data) == ["inputs", "outputs"]
    x, y = data["inputs"]
    np.testing.assert_array_equal(data["outputs"][0], x + y)


def test_tests_come_sorted_and_filtered(sample, series, monkeypatch):
    assert list(sample) == sorted(SAMPLE)
    monkeypatch.setattr(onnx_backend, "backend_folder", str(series / "__init__.py"))
    chosen = [t.name for t in enumerate_onnx_tests("node", lambda name: "add" in name)]
    assert chosen == ["test_add"]
    with pytest.raises(FileNotFoundError, match="Unable to find series of tests"):
        list(enumerate_onnx_tests("no-such-series"))


def test_only_bernoulli_tests_are_random(sample):
    assert [name for name, t in sample.items() if t.is_random()] == ["test_bernoulli"]


@pytest.mark.parametrize("name", sorted(SAMPLE - {"test_bernoulli"}))
def test_every_deterministic_test_passes_with_onnxruntime(sample, name):
    # 0.7.2 fails on string outputs (ValueError) and sequences (NotImplementedError)
    sample[name].run(_load, _run)


def test_run_compares_outputs_as_0_7_2_does(sample):
    test = sample["test_add"]

    def shifted(eps):
        return lambda _, x, y: [x + y + np.float32(eps)]

    test.run(_load, _run, index=0)
    test.run(lambda m: None, lambda _, x, y: (x + y,))
    test.run(lambda m: None, lambda _, x, y: {"sum": x + y})
    test.run(lambda m: None, lambda _, x, y: [(x + y).tolist()])
    test.run(lambda m: None, lambda _, x, y: [(x + y).astype(np.float64)])
    test.run(lambda m: None, shifted(1.4e-6))  # default: 6 decimals
    test.run(lambda m: None, shifted(1e-3), decimal=3)
    folder = test.folder
    for kwargs in ({}, {"decimal": 4}):
        with pytest.raises(AssertionError, match=f"Output 0 of test 0 in folder {folder} failed."):
            test.run(lambda m: None, shifted(1e-3), **kwargs)
    with pytest.raises(AssertionError, match="Output 0 of test 0"):
        test.run(lambda m: None, lambda _, x, y: [(x + y)[:1]])
    message = f"Unexpected number of output (test 0, folder {folder}), got 2, expected 1."
    with pytest.raises(AssertionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        test.run(lambda m: None, lambda _, x, y: [x, y])
    with pytest.raises(IndexError):
        test.run(lambda m: None, lambda _, x, y: [x + y], index=3)


def test_string_outputs_are_compared(sample):
    test = sample["test_string_concat"]
    with pytest.raises(AssertionError, match="Output 0 of test 0"):
        test.run(lambda m: None, lambda _, a, b: [a])


def test_to_python_gives_a_script_of_the_model(sample):
    # 0.7.2 fails here (AttributeError: no export2onnx)
    code = sample["test_add"].to_python()
    assert "opset" in code and "Add" in code and "def " in code


def test_assert_almost_equal_string():
    strings = np.array(["a", "b"], dtype=object)
    assert_almost_equal_string(strings, np.array(["a", "b"], dtype=object))
    assert_almost_equal_string(strings, np.array([b"a", b"b"], dtype=object))
    with pytest.raises(AssertionError):
        assert_almost_equal_string(strings, np.array(["a", "c"], dtype=object))
    with pytest.raises(AssertionError):
        assert_almost_equal_string(strings, strings.reshape(2, 1))
    assert_almost_equal_string(np.array([1.0, 2.0]), np.array([1.0, 2.0000000001]))
    with pytest.raises(AssertionError, match="7 decimals"):
        assert_almost_equal_string(np.array([1.0, 2.0]), np.array([1.0, 2.1]))


def test_the_node_series_is_written_from_onnxs_cases_when_onnx_ships_none(tmp_path, monkeypatch):
    shipped = Path(onnx_backend.backend_folder).parent / "data" / "node"
    monkeypatch.setenv("ONNXSCRIPT_CACHE_DIR", str(tmp_path))
    tests = list(enumerate_onnx_tests("node", lambda name: name in {"test_abs", "test_relu"}))
    assert [t.name for t in tests] == ["test_abs", "test_relu"]
    for test in tests:
        test.run(_load, _run)
    if not shipped.is_dir():
        assert (
            tmp_path / f"node-tests-onnx-{__import__('onnx').__version__}" / "test_abs"
        ).is_dir()
