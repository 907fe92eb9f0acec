"""Every example function of the converter tests, run eagerly and compiled.

The converter and compatibility tests (foundation, control flow, indexing, random
programs, ...; every test module that runs models through ``tests.helpers`` is found
automatically) compile script functions and run the models through ``tests.helpers``. Here each of those tests runs
again with the helpers wrapped: whenever a model made from a script function is run on
some inputs, the same function is also called eagerly on the same inputs (with the same
attribute values) and the results must agree in count, element type, shape and value.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import onnx
import pytest

import tests.helpers as helpers
from onnxscript.testing import assert_same_values
from onnxscript.values import OnnxFunction

TESTS_DIR = Path(__file__).resolve().parents[1]
_SKIP_DIRS = {"evaluator", "testing", "bench"}  # our own tests; benchmarks run subprocesses
_RUNS_MODELS = ("run_compiled", "run_model", "assert_matches_python", "checked_model")


def _modules_running_models() -> list[str]:
    """Test modules that run compiled script functions through ``tests.helpers``."""
    found = []
    for path in sorted(TESTS_DIR.rglob("test_*.py")):
        relative = path.relative_to(TESTS_DIR)
        if relative.parts[0] in _SKIP_DIRS:
            continue
        text = path.read_text(encoding="utf-8")
        if "tests.helpers" in text and any(name in text for name in _RUNS_MODELS):
            found.append("tests." + ".".join(relative.with_suffix("").parts))
    return found


MODULES = _modules_running_models()


class EagerChecker:
    """Wraps ``checked_model``/``run_model``: records which function each model came from
    and compares every compiled run with an eager call of that function."""

    def __init__(self) -> None:
        self.origin: dict[int, tuple[OnnxFunction, dict[str, Any], onnx.ModelProto]] = {}
        self.compared: list[str] = []
        self._checked_model = helpers.checked_model
        self._run_model = helpers.run_model

    def checked_model(self, fn: OnnxFunction, **kwargs: Any) -> onnx.ModelProto:
        model = self._checked_model(fn, **kwargs)
        self.origin[id(model)] = (fn, kwargs, model)
        return model

    def run_model(self, model: onnx.ModelProto, *args: Any) -> list[np.ndarray]:
        compiled = self._run_model(model, *args)
        found = self.origin.get(id(model))
        if found is not None and found[2] is model:
            fn, kwargs, _ = found
            attr_names = {p.name for p in fn.op_signature.attributes}
            attrs = {k: v for k, v in kwargs.items() if k in attr_names}
            with np.errstate(all="ignore"):
                result = fn(*[np.asarray(a) for a in args], **attrs)
            eager = list(result) if isinstance(result, tuple) else [result]
            try:
                assert_same_values(eager, compiled)
            except AssertionError as exc:
                raise AssertionError(f"{fn.name} on inputs {args} with {attrs}: {exc}") from None
            self.compared.append(fn.name)
        return compiled


def _parametrizations(test: Callable[..., Any]) -> Iterator[dict[str, Any]]:
    marks = [m for m in getattr(test, "pytestmark", []) if m.name == "parametrize"]
    if not marks:
        yield {}
        return
    axes = []
    for mark in marks:
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        rows = []
        for value in values:
            value = value.values if hasattr(value, "values") and hasattr(value, "marks") else value
            rows.append(dict(zip(names, value if len(names) > 1 else [value], strict=True)))
        axes.append(rows)
    for combo in itertools.product(*axes):
        merged: dict[str, Any] = {}
        for part in combo:
            merged.update(part)
        yield merged


def _tests(module: ModuleType) -> list[tuple[str, Callable[..., Any]]]:
    return [
        (name, obj)
        for name, obj in vars(module).items()
        if name.startswith("test_")
        and callable(obj)
        and getattr(obj, "__module__", "") == module.__name__
    ]


@pytest.mark.parametrize("module_name", MODULES)
def test_examples_run_eagerly_as_compiled(
    module_name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:  # a test module being written in parallel
        pytest.skip(f"{module_name} is not importable: {exc}")
    checker = EagerChecker()
    monkeypatch.setattr(helpers, "checked_model", checker.checked_model)
    monkeypatch.setattr(helpers, "run_model", checker.run_model)
    for name in ("checked_model", "run_model"):
        if hasattr(module, name):
            monkeypatch.setattr(module, name, getattr(checker, name))
    ran = 0
    for test_name, test in _tests(module):
        params = inspect.signature(test).parameters
        for values in _parametrizations(test):
            kwargs = dict(values)
            if "tmp_path" in params:
                kwargs["tmp_path"] = tmp_path
            try:
                test(**kwargs)
            except pytest.skip.Exception:
                continue
            except AssertionError as exc:
                raise AssertionError(f"{module_name}::{test_name}{values or ''}: {exc}") from exc
            ran += 1
    assert ran > 0
    assert checker.compared, f"no example of {module_name} was compared"
    print(f"{module_name}: {len(checker.compared)} eager-vs-compiled comparisons in {ran} tests")
