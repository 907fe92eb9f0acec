"""Shared test helpers: compile, check with onnx.checker, run with onnxruntime."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
from hypothesis import HealthCheck, settings

from onnxscript.values import OnnxFunction

ROOT = Path(__file__).resolve().parents[1]


def load_module(name: str, path: str | Path) -> ModuleType:
    """Import a Python file that is not in a package (``tools/...``, ``bench/...``; a
    relative ``path`` is from the repository's root) as the module ``name``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look a module up by its name
    spec.loader.exec_module(module)
    return module


def checked_model(fn: OnnxFunction, **kwargs: Any) -> onnx.ModelProto:
    """``fn.to_model_proto(**kwargs)``, verified by the full onnx checker."""
    model = fn.to_model_proto(**kwargs)
    onnx.checker.check_model(model, full_check=True)
    return model


def run_model(model: onnx.ModelProto, *args: Any) -> list[np.ndarray]:
    """Run ``model`` with onnxruntime on positional inputs."""
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    feeds = {name: np.asarray(arg) for name, arg in zip(names, args)}
    return list(session.run(None, feeds))


def run_compiled(fn: OnnxFunction, *args: Any, **kwargs: Any) -> list[np.ndarray]:
    """Compile ``fn`` to a checked model and run it."""
    return run_model(checked_model(fn, **kwargs), *args)


def assert_close(actual: Sequence[Any], expected: Sequence[Any], rtol: float = 1e-5) -> None:
    assert len(actual) == len(expected), (len(actual), len(expected))
    for a, e in zip(actual, expected):
        e = np.asarray(e)
        a = np.asarray(a)
        assert a.shape == e.shape, (a.shape, e.shape)
        if e.dtype.kind in "fc":
            np.testing.assert_allclose(a, e, rtol=rtol, atol=1e-6)
        else:
            np.testing.assert_array_equal(a, e)


def assert_matches_python(fn: OnnxFunction, *input_sets: Sequence[Any], **attrs: Any) -> None:
    """Run the compiled model and the undecorated Python function (on numpy values) on each
    input set and compare. Use for scripts whose body is plain Python on numpy values."""
    import types

    from tests.numpy_ops import NumpyOps

    model = checked_model(fn, **attrs)
    python_fn = fn.function
    # Run the same code with `op` bound to numpy implementations.
    namespace = {**python_fn.__globals__, "op": NumpyOps}
    oracle = types.FunctionType(
        python_fn.__code__,
        namespace,
        python_fn.__name__,
        python_fn.__defaults__,
        python_fn.__closure__,
    )
    for inputs in input_sets:
        arrays = [np.asarray(a) for a in inputs]
        expected = oracle(*arrays, **attrs)
        if not isinstance(expected, tuple):
            expected = (expected,)
        actual = run_model(model, *arrays)
        try:
            assert_close(actual, [np.asarray(e) for e in expected])
        except AssertionError as exc:
            raise AssertionError(f"inputs {inputs}: {exc}") from None


_sources = iter(range(1 << 62))


def define(source: str, namespace: dict[str, Any] | None = None, name: str = "f") -> Any:
    """Run ``source`` (Python text) as if it came from a file, so that ``@script()`` can
    read it, and return the function called ``name`` it defines (not yet scripted)."""
    from onnxscript import register_source

    filename = f"<test-source-{next(_sources)}>"
    register_source(source, filename)
    scope: dict[str, Any] = dict(namespace or {})
    exec(compile(source, filename, "exec"), scope)
    return scope[name]


def fuzz_settings(examples: int) -> settings:
    """Hypothesis settings of the property tests: CI runs ``examples`` fixed examples; set
    ``ONNXSCRIPT_FUZZ_EXAMPLES`` for that many random ones (a longer run)."""
    chosen = os.environ.get("ONNXSCRIPT_FUZZ_EXAMPLES")
    return settings(
        max_examples=int(chosen or examples),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=chosen is None,
    )
