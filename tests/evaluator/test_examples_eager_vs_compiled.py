"""Every example function of the converter tests, run eagerly and compiled.

The converter and compatibility tests (foundation, control flow, indexing, random
programs, ...; every test module that runs models through ``tests.helpers`` is found
automatically) compile script functions and run the models through ``tests.helpers``. Here each of those tests runs
again with the helpers wrapped: whenever a model made from a script function is run on
some inputs, the same function is also called eagerly on the same inputs (with the same
attribute values) and the results must agree in count, element type, shape and value.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import itertools
import warnings
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import onnx
import pytest

import tests.helpers as helpers
from onnxscript.errors import ModelCheckWarning
from onnxscript.testing import assert_same_values, compiled_outputs
from onnxscript.values import OnnxFunction

TESTS_DIR = helpers.ROOT / "tests"
# Our own tests; benchmarks run subprocesses; the builder, inference and optimizer tests run
# graphs built op by op, not compiled script functions.
_SKIP_DIRS = {"evaluator", "testing", "bench", "builder", "inference", "optimizer"}
# The helpers that run models. A module that imports only checked_model (to check protos)
# runs nothing to compare.
_RUNS_MODELS = ("run_compiled", "run_model", "model_runner", "assert_matches_python")


def _modules_running_models() -> list[str]:
    """Test modules that run compiled script functions through ``tests.helpers``."""
    found = []
    for path in sorted(TESTS_DIR.rglob("test_*.py")):
        relative = path.relative_to(TESTS_DIR)
        if relative.parts[0] in _SKIP_DIRS:
            continue
        if _uses_helpers_that_run_models(path.read_text(encoding="utf-8")):
            found.append("tests." + ".".join(relative.with_suffix("").parts))
    return found


def _uses_helpers_that_run_models(text: str) -> bool:
    """Whether a module imports one of ``_RUNS_MODELS`` from ``tests.helpers`` (or imports
    ``tests.helpers`` itself and names one of them). A ``run_model`` imported from
    ``onnxscript.testing`` does not count: its models are not made by ``checked_model``."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module == "tests.helpers":
            if any(alias.name in _RUNS_MODELS for alias in node.names):
                return True
        elif isinstance(node, ast.Import) and any(a.name == "tests.helpers" for a in node.names):
            if any(name in text for name in _RUNS_MODELS):
                return True
    return False


MODULES = _modules_running_models()


class EagerChecker:
    """Wraps ``checked_model``, ``run_model`` and ``model_runner``: records which function
    each model came from and compares every compiled run with an eager call of that
    function."""

    def __init__(self) -> None:
        self.origin: dict[int, tuple[OnnxFunction, dict[str, Any], onnx.ModelProto]] = {}
        self.compared: list[str] = []
        self.compared_functions: set[int] = set()
        self.created: list[OnnxFunction] = []
        self._checked_model = helpers.checked_model
        self._run_model = helpers.run_model
        self._model_runner = helpers.model_runner

    def checked_model(self, fn: OnnxFunction, **kwargs: Any) -> onnx.ModelProto:
        model = self._checked_model(fn, **kwargs)
        self.origin[id(model)] = (fn, kwargs, model)
        return model

    def run_model(self, model: onnx.ModelProto, *args: Any) -> list[np.ndarray]:
        return self._compare(model, args, self._run_model(model, *args))

    def model_runner(self, model: onnx.ModelProto) -> Callable[..., list[np.ndarray]]:
        run = self._model_runner(model)
        return lambda *args: self._compare(model, args, run(*args))

    def _compare(
        self, model: onnx.ModelProto, args: tuple[Any, ...], compiled: list[np.ndarray]
    ) -> list[np.ndarray]:
        """Compare the run ``compiled`` of ``model`` on ``args`` with an eager call."""
        found = self.origin.get(id(model))
        if found is not None and found[2] is model:
            fn, kwargs, _ = found
            attr_names = {p.name for p in fn.call_signature.attributes}
            attrs = {k: v for k, v in kwargs.items() if k in attr_names}
            with np.errstate(all="ignore"):
                result = fn(*[np.asarray(a) for a in args], **attrs)
            eager = list(result) if isinstance(result, tuple) else [result]
            try:
                assert_same_values(eager, compiled)
            except AssertionError as exc:
                raise AssertionError(f"{fn.name} on inputs {args} with {attrs}: {exc}") from None
            self.compared.append(fn.name)
            self.compared_functions.add(id(fn))
        return compiled

    def recording_script(self, real: Callable[..., Any]) -> Callable[..., Any]:
        """``script`` that also remembers every function it compiles."""

        def script(*args: Any, **kwargs: Any) -> Any:
            decorate = real(*args, **kwargs)

            def transform(fn: Any) -> Any:
                compiled = decorate(fn)
                self.created.append(compiled)
                return compiled

            return transform

        return script


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
    """The module's test functions, except those marked as expected to fail."""
    return [
        (name, obj)
        for name, obj in vars(module).items()
        if name.startswith("test_")
        and callable(obj)
        and getattr(obj, "__module__", "") == module.__name__
        and not any(mark.name == "xfail" for mark in getattr(obj, "pytestmark", []))
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
    monkeypatch.setattr(helpers, "model_runner", checker.model_runner)
    for name in ("checked_model", "run_model", "model_runner"):
        if hasattr(module, name):
            monkeypatch.setattr(module, name, getattr(checker, name))
    if hasattr(module, "script"):
        monkeypatch.setattr(module, "script", checker.recording_script(module.script))
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
    # Functions the tests compile but never run (they check protos or errors): run them on
    # synthesized inputs, when their compiled model runs on those.
    module_level = [v for v in vars(module).values() if isinstance(v, OnnxFunction)]
    unrun = [
        f for f in [*checker.created, *module_level] if id(f) not in checker.compared_functions
    ]
    synthesized, not_runnable = _compare_on_synthesized_inputs(unrun)
    print(
        f"{module_name}: {len(checker.compared)} eager-vs-compiled comparisons in {ran} tests;"
        f" {synthesized} more functions on synthesized inputs ({not_runnable} not runnable)"
    )


def _synthesized_inputs(fn: OnnxFunction, rng: np.random.Generator) -> list[np.ndarray] | None:
    """Inputs for ``fn`` from its annotations (symbolic dims are 3; ints are 0..2, so that
    they work as indices and loop counts), or ``None`` when an input type is open."""
    if any(not p.has_default and not p.optional for p in fn.call_signature.attributes):
        return None
    args = []
    for value in fn.function_ir.graph.inputs:
        spec = value.declared_type
        dtype = getattr(spec, "dtype", None)
        shape = getattr(spec, "shape", None)
        if not dtype or shape is None:
            return None
        dims = tuple(d if isinstance(d, int) else 3 for d in shape)
        np_dtype = onnx.helper.tensor_dtype_to_np_dtype(dtype)
        kind = np.dtype(np_dtype).kind
        if kind == "f":
            args.append(rng.standard_normal(dims).astype(np_dtype))
        elif kind in "iu":
            args.append(rng.integers(0, 3, dims).astype(np_dtype))
        elif kind == "b":
            args.append(rng.random(dims) < 0.5)
        else:
            return None
    return args


def _compare_on_synthesized_inputs(functions: list[OnnxFunction]) -> tuple[int, int]:
    rng = np.random.default_rng(0)
    compared = not_runnable = 0
    seen: set[int] = set()
    for fn in functions:
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        args = _synthesized_inputs(fn, rng)
        if args is None:
            not_runnable += 1
            continue
        try:
            # A model the checker rejects (a test's deliberate mistake) is not runnable.
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("error", ModelCheckWarning)
                compiled = compiled_outputs(fn, *args)
        except Exception:
            not_runnable += 1  # the model rejects these inputs (or is not meant to run)
            continue
        with np.errstate(all="ignore"):
            result = fn(*args)
        eager = list(result) if isinstance(result, tuple) else [result]
        try:
            assert_same_values(eager, compiled)
        except AssertionError as exc:
            raise AssertionError(f"{fn.name} on synthesized inputs {args}: {exc}") from None
        compared += 1
    return compared, not_runnable


def _support_modules() -> list[str]:
    """Non-test modules under tests/ that may define script functions at module level."""
    found = []
    for path in sorted(TESTS_DIR.rglob("*.py")):
        relative = path.relative_to(TESTS_DIR)
        if relative.parts[0] in _SKIP_DIRS or path.name.startswith(("test_", "__")):
            continue
        if "script" in path.read_text(encoding="utf-8"):
            found.append("tests." + ".".join(relative.with_suffix("").parts))
    return found


OPTIONAL_DEPENDENCIES = {"torch", "torchvision", "transformers", "expecttest"}
"""What support modules of the torch tests import; without them those modules are skipped."""


@pytest.mark.parametrize("module_name", _support_modules())
def test_module_level_example_functions_run_eagerly_as_compiled(module_name: str) -> None:
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name not in OPTIONAL_DEPENDENCIES:
            raise
        pytest.skip(f"{module_name} needs {error.name}, which is not installed")
    functions = [v for v in vars(module).values() if isinstance(v, OnnxFunction)]
    if not functions:
        pytest.skip(f"{module_name} defines no script function")
    compared, not_runnable = _compare_on_synthesized_inputs(functions)
    assert compared > 0, f"no function of {module_name} could run on synthesized inputs"
    print(f"{module_name}: {compared} functions compared ({not_runnable} not runnable)")
