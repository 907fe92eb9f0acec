"""onnxscript 0.7's ``onnxscript.backend.onnx_backend``: onnx's backend tests as objects
that load a model, run it with given functions and compare the outputs.

:func:`enumerate_onnx_tests` walks the folders of a series of onnx's backend tests
(``onnx/backend/test/data/<series>``: one ``.onnx`` model and ``test_data_set_<k>``
folders of inputs and expected outputs each). onnx's wheels no longer ship the ``node``
series, which 0.7.2 then cannot find (FileNotFoundError); here the ``node`` series is
written from onnx's test-case definitions (:mod:`onnxscript.testing.node_tests`) into the
cache directory the first time it is asked for.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from onnxscript.testing import node_tests


def _backend_folder() -> str:
    import onnx.backend.test

    return str(onnx.backend.test.__file__)


backend_folder = _backend_folder()
"""The ``__init__.py`` of ``onnx.backend.test`` (0.7's name); the series are in the
``data`` folder beside it."""

_RANDOM_OPS = frozenset(
    (
        "Bernoulli",
        "Multinomial",
        "RandomNormal",
        "RandomNormalLike",
        "RandomUniform",
        "RandomUniformLike",
    )
)
"""Ops whose outputs are random: a test of them cannot be compared."""

_DEFAULT_DECIMAL = 6
"""Outputs match when they differ by less than ``1.5 * 10**-decimal`` (0.7.2's default)."""


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def assert_almost_equal_string(expected: Any, value: Any) -> None:
    """Compare two arrays that may hold strings: string arrays element by element (bytes
    read as UTF-8) and shape, numeric arrays to 7 decimals. AssertionError if they differ."""
    expected_array = np.asarray(expected)
    value_array = np.asarray(value)
    if expected_array.dtype.kind in "OSU" or value_array.dtype.kind in "OSU":
        if expected_array.shape != value_array.shape:
            raise AssertionError(
                f"Shapes differ: expected {expected_array.shape}, got {value_array.shape}"
            )
        expected_texts = [_text(v) for v in expected_array.ravel()]
        value_texts = [_text(v) for v in value_array.ravel()]
        if expected_texts != value_texts:
            raise AssertionError(f"Strings differ: expected {expected_texts}, got {value_texts}")
        return
    np.testing.assert_almost_equal(expected_array, value_array)


def _assert_output(expected: Any, got: Any, decimal: int) -> None:
    if expected is None or got is None:
        if expected is not got:
            raise AssertionError(f"expected {expected!r}, got {got!r}")
        return
    if isinstance(expected, list):
        if not isinstance(got, (list, tuple)) or len(got) != len(expected):
            raise AssertionError(f"expected a sequence of {len(expected)} tensors, got {got!r}")
        for expected_item, got_item in zip(expected, got):
            _assert_output(expected_item, got_item, decimal)
        return
    if isinstance(expected, dict):
        if not isinstance(got, dict) or set(got) != set(expected):
            raise AssertionError(f"expected a map with keys {sorted(expected)}, got {got!r}")
        for key in expected:
            _assert_output(expected[key], got[key], decimal)
        return
    expected_array = np.asarray(expected)
    got_array = np.asarray(got)
    if expected_array.dtype.kind in "OSU":
        assert_almost_equal_string(expected_array, got_array)
        return
    if expected_array.shape != got_array.shape:
        raise AssertionError(f"expected shape {expected_array.shape}, got {got_array.shape}")
    np.testing.assert_almost_equal(got_array, expected_array, decimal=decimal)


class OnnxBackendTest:
    """One backend test: a folder holding one ``.onnx`` model and a ``test_data_set_<k>``
    folder per test of it.

    Attributes:
        folder: the test folder;
        onnx_path: its model file;
        onnx_model: the model (``onnx.ModelProto``);
        tests: one ``{"inputs": [...], "outputs": [...]}`` per data set (arrays; lists of
            arrays for sequences, None for an empty optional, dicts for maps).
    """

    def __init__(self, folder: str) -> None:
        path = Path(folder)
        if not path.is_dir():
            raise FileNotFoundError(f"Unable to find folder {folder!r}.")
        case = node_tests.load(path)
        self.folder = folder
        self.onnx_path = str(node_tests.model_file(path))
        self.onnx_model: onnx.ModelProto = case.model
        self.tests: list[dict[str, list[Any]]] = [
            {"inputs": list(inputs), "outputs": list(outputs)} for inputs, outputs in case.data_sets
        ]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.folder!r})"

    @property
    def name(self) -> str:
        """The test's name (its folder's)."""
        return os.path.basename(os.path.normpath(self.folder))

    def __len__(self) -> int:
        """The number of tests (data sets)."""
        return len(self.tests)

    def is_random(self) -> bool:
        """Whether the outputs are random (so not comparable): a Bernoulli test, as 0.7 says
        by the name, or a model with a random op."""
        if "bernoulli" in self.name:
            return True
        return any(n.op_type in _RANDOM_OPS for n in self.onnx_model.graph.node)

    def run(
        self,
        load_fct: Callable[[onnx.ModelProto], Any],
        run_fct: Callable[..., Any],
        index: int | None = None,
        decimal: int | None = None,
    ) -> None:
        """Run test ``index`` (every test if None): ``load_fct(onnx_model)`` once, then
        ``run_fct(loaded, *inputs)`` per test, whose outputs (a list or tuple; a dict's
        values) are compared with the expected ones, to ``decimal`` decimals (6 if None).
        AssertionError naming the output and test when one differs."""
        loaded = load_fct(self.onnx_model)
        indices = range(len(self.tests)) if index is None else [index]
        for test_index in indices:
            test = self.tests[test_index]
            got = run_fct(loaded, *test["inputs"])
            self._compare_results(test_index, test["outputs"], got, decimal)

    def _compare_results(
        self, index: int, expected: Sequence[Any], got: Any, decimal: int | None
    ) -> None:
        outputs = list(got.values()) if isinstance(got, dict) else list(got)
        if len(outputs) != len(expected):
            raise AssertionError(
                f"Unexpected number of output (test {index}, folder {self.folder}), "
                f"got {len(outputs)}, expected {len(expected)}."
            )
        for position, (expected_output, output) in enumerate(zip(expected, outputs)):
            try:
                _assert_output(
                    expected_output, output, _DEFAULT_DECIMAL if decimal is None else decimal
                )
            except AssertionError as error:
                raise AssertionError(
                    f"Output {position} of test {index} in folder {self.folder} failed."
                ) from error

    def to_python(self) -> str:
        """The model as a Python script (``onnxscript.backend.onnx_export.export2python``)."""
        from onnxscript.backend.onnx_export import export2python

        return export2python(self.onnx_model)


def _node_series() -> Path:
    """The ``node`` series written from onnx's test cases, once per onnx version, in the
    cache directory (a temporary one if that cannot be written)."""
    from onnxscript import schemas

    cache = Path(schemas.cache_dir()) / f"node-tests-onnx-{onnx.__version__}"
    if cache.is_dir():
        return cache
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".node-tests-", dir=cache.parent))
    except OSError:
        staging = Path(tempfile.mkdtemp(prefix="onnxscript-node-tests-"))
        node_tests.generate(staging)
        return staging
    node_tests.generate(staging)
    try:
        staging.rename(cache)
    except OSError:  # another process got there first
        shutil.rmtree(staging, ignore_errors=True)
    return cache


def enumerate_onnx_tests(
    series: str, fct_filter: Callable[[str], bool] | None = None
) -> Iterator[OnnxBackendTest]:
    """The tests of a series of onnx's backend tests (``"node"``, ``"simple"``, ``"real"``,
    ``"pytorch-converted"``, ``"pytorch-operator"``, ``"light"``: the folders of
    ``onnx/backend/test/data``), sorted by name; ``fct_filter(name)`` chooses which to load
    (all if None). Yielded one at a time, each loaded when reached."""
    root = Path(backend_folder).parent / "data"
    folder = root / series
    if not folder.is_dir():
        if series != "node":
            found = ", ".join(sorted(p.name for p in root.iterdir())) if root.is_dir() else ""
            raise FileNotFoundError(
                f"Unable to find series of tests in {str(root)!r}, subfolders: {found}"
            )
        folder = _node_series()
    for case in sorted(folder.iterdir()):
        if not case.is_dir() or not any(case.glob("*.onnx")):
            continue
        if fct_filter is not None and not fct_filter(case.name):
            continue
        yield OnnxBackendTest(str(case))


__all__ = [
    "OnnxBackendTest",
    "assert_almost_equal_string",
    "backend_folder",
    "enumerate_onnx_tests",
]
