"""Shared test helpers: compile, check with onnx.checker, run with onnxruntime."""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import onnx
from hypothesis import HealthCheck, settings

from onnxscript import testing
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


def model_runner(model: onnx.ModelProto) -> Callable[..., list[Any]]:
    """:func:`onnxscript.testing.model_runner` on positional inputs, each passed through
    ``np.asarray`` (onnxruntime takes no Python numbers). For one run, :func:`run_model`."""
    run = testing.model_runner(model)
    return lambda *args: run([np.asarray(a) for a in args])


def run_model(model: onnx.ModelProto, *args: Any) -> list[Any]:
    """Run ``model`` once with :func:`onnxscript.testing.run_model` on positional inputs,
    each passed through ``np.asarray`` (onnxruntime takes no numpy or Python scalars)."""
    return testing.run_model(model, [np.asarray(a) for a in args])


def run_compiled(fn: OnnxFunction, *args: Any, **kwargs: Any) -> list[Any]:
    """Compile ``fn`` to a checked model and run it."""
    return run_model(checked_model(fn, **kwargs), *args)


def assert_close(
    actual: Sequence[Any], expected: Sequence[Any], rtol: float = 1e-5, atol: float = 1e-6
) -> None:
    """The compiled outputs ``actual`` equal ``expected`` in count, element type, shape and
    values (floats within ``rtol``/``atol``): :func:`onnxscript.testing.first_mismatch`.
    Expected tensors may be given as anything ``np.asarray`` takes."""
    if len(actual) == len(expected):  # else first_mismatch reports the counts
        expected = [e if isinstance(a, list) else np.asarray(e) for a, e in zip(actual, expected)]
    found = testing.first_mismatch(actual, expected, rtol, atol, names=("compiled", "expected"))
    if found is not None:
        raise AssertionError(found)


def _as_compiled(value: Any, compiled: Any) -> Any:
    """The oracle's output ``value`` in the element type of the compiled output, when numpy
    casts it so as ``same_kind`` (a lower-kind value such as a Python number, which numpy
    computes as int64/float64 and the compiler types like the tensor it meets or the
    declared output). Other values stay as they are, so that a float where the compiled
    model gives an integer, for example, is still reported."""
    value = np.asarray(value)
    if isinstance(compiled, np.ndarray) and np.can_cast(value.dtype, compiled.dtype, "same_kind"):
        return value.astype(compiled.dtype)
    return value


def assert_matches_python(fn: OnnxFunction, *input_sets: Sequence[Any], **attrs: Any) -> None:
    """Run the compiled model and the undecorated Python function (on numpy values) on each
    input set and compare. Use for scripts whose body is plain Python on numpy values."""
    import types

    from tests.numpy_ops import NumpyOps

    run = model_runner(checked_model(fn, **attrs))
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
        actual = run(*arrays)
        if len(expected) == len(actual):
            expected = tuple(_as_compiled(e, a) for e, a in zip(expected, actual))
        try:
            assert_close(actual, expected)
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


def run_unoptimized(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[Any]:
    """Run ``model`` with onnxruntime's own graph optimizations off, so that two models
    are compared as written (onnxruntime would otherwise fuse both alike)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = onnxruntime.InferenceSession(model.SerializeToString(), options)
    return list(session.run(None, feeds))


def assert_same_results(before: onnx.ModelProto, after: onnx.ModelProto, seed: int = 0) -> None:
    """``after`` passes the full checker and computes what ``before`` does, on random
    inputs of the graph inputs' (static) shapes."""
    onnx.checker.check_model(after, full_check=True)
    rng = np.random.default_rng(seed)
    feeds = {}
    for info in before.graph.input:
        shape = [d.dim_value for d in info.type.tensor_type.shape.dim]
        dtype = onnx.helper.tensor_dtype_to_np_dtype(info.type.tensor_type.elem_type)
        feeds[info.name] = rng.standard_normal(shape).astype(dtype)
    expected = run_unoptimized(before, feeds)
    got = run_unoptimized(after, feeds)
    assert len(expected) == len(got)
    for e, g in zip(expected, got):
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)


# -- type checkers ---------------------------------------------------------------------------

TYPING_SAMPLES = ROOT / "tests" / "typing_samples"
"""User scripts for the type checkers (tests/test_typing.py, tests/opsets/test_stubs.py)."""

_MYPY_CONFIG = """\
[mypy]
plugins = onnxscript.mypy_plugin
strict = True
# The package is found on MYPYPATH (as an editable install is not): like an installed
# package, its own modules are analysed but not reported on.
[mypy-onnxscript.*]
follow_imports = silent
[mypy-onnxruntime.*]
ignore_missing_imports = True
"""


@dataclass(frozen=True)
class Diagnostic:
    """One error a type checker reported: file name, line (1-based), error code."""

    file: str
    line: int
    code: str
    message: str


def _checker_dir(name: str) -> Path:
    """A directory in the system's temporary directory for one checker's config and cache,
    kept between runs (a warm mypy cache turns ~12 s into ~2 s)."""
    path = Path(tempfile.gettempdir()) / f"onnxscript-tests-{name}"
    path.mkdir(exist_ok=True)
    return path


@functools.cache
def mypy_diagnostics() -> tuple[Diagnostic, ...]:
    """mypy (strict, with onnxscript's plugin) on every file of tests/typing_samples, in
    one run."""
    work = _checker_dir("mypy")
    config = work / "mypy.ini"
    config.write_text(_MYPY_CONFIG, encoding="utf-8")
    files = sorted(str(p) for p in TYPING_SAMPLES.glob("*.py"))
    command = [sys.executable, "-m", "mypy", "--config-file", str(config)]
    command += ["--cache-dir", str(work / "cache"), "--no-error-summary", *files]
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=work)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    found = []
    for line in done.stdout.splitlines():
        match = re.match(r"(.+?):(\d+): error: (.*?)(?:  \[([a-z-]+)\])?$", line)
        if match:
            path, number, message, code = match.groups()
            found.append(Diagnostic(Path(path).name, int(number), code or "", message))
    return tuple(found)


def pyright_command() -> list[str] | None:
    """How to run pyright here, or None when it is not installed or cannot run (it needs
    Node.js)."""
    command = [sys.executable, "-m", "pyright"]
    try:
        done = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return command if done.returncode == 0 and "pyright" in done.stdout else None


@functools.cache
def pyright_diagnostics() -> tuple[Diagnostic, ...]:
    """pyright (strict, no plugin) on every file of tests/typing_samples, in one run."""
    command = pyright_command()
    assert command is not None
    work = _checker_dir("pyright")
    config = {"extraPaths": [str(ROOT)], "typeCheckingMode": "strict"}
    (work / "pyrightconfig.json").write_text(json.dumps(config), encoding="utf-8")
    files = sorted(str(p) for p in TYPING_SAMPLES.glob("*.py"))
    command += ["--outputjson", "--project", str(work), "--pythonpath", sys.executable, *files]
    done = subprocess.run(command, capture_output=True, text=True)
    report = json.loads(done.stdout)
    return tuple(
        Diagnostic(
            Path(d["file"]).name, d["range"]["start"]["line"] + 1, d.get("rule", ""), d["message"]
        )
        for d in report["generalDiagnostics"]
        if d["severity"] == "error"
    )


def marked_errors(file: str) -> dict[int, str]:
    """The lines of a typing sample marked ``# error: <mypy code>``, with the code."""
    marked = {}
    lines = (TYPING_SAMPLES / file).read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        match = re.search(r"# error: ([a-z-]+)$", line)
        if match:
            marked[number] = match.group(1)
    return marked


def _same_output(expected: Any, actual: Any, rtol: float = 1e-5, atol: float = 1e-6) -> str | None:
    """Why ``actual`` is not ``expected`` (arrays, sequences as lists, None for an empty
    optional), or None when it is: same types and shapes, equal values (floating-point
    ones within ``rtol`` / ``atol``, NaN where NaN)."""
    if isinstance(expected, list) or isinstance(actual, list):
        if not (isinstance(expected, list) and isinstance(actual, list)):
            return f"{type(actual).__name__} where {type(expected).__name__} was expected"
        if len(expected) != len(actual):
            return f"a sequence of {len(actual)} items, not {len(expected)}"
        found = [_same_output(e, a, rtol, atol) for e, a in zip(expected, actual)]
        return next((f for f in found if f is not None), None)
    if expected is None or actual is None:
        return None if expected is actual else f"{actual!r} where {expected!r} was expected"
    e, a = np.asarray(expected), np.asarray(actual)
    if e.dtype != a.dtype or e.shape != a.shape:
        return f"{a.dtype}{list(a.shape)} where {e.dtype}{list(e.shape)} was expected"
    if e.dtype.kind in "fc":
        close = np.allclose(a, e, rtol=rtol, atol=atol, equal_nan=True)
        return None if close else f"values {a} where {e} were expected"
    return None if np.array_equal(a, e) else f"values {a} where {e} were expected"


def assert_transform_keeps_results(
    before: onnx.ModelProto,
    after: onnx.ModelProto,
    feeds: dict[str, Any],
    *,
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> None:
    """``after`` (a transformed ``before``) passes the full checker, and onnxruntime (its
    own graph optimizations off) computes on ``feeds`` what it computes for ``before``:
    the same outputs, types and shapes (sequences item by item, floating-point values
    within ``rtol`` / ``atol``, NaN where NaN)."""
    onnx.checker.check_model(after, full_check=True)
    expected, actual = run_unoptimized(before, feeds), run_unoptimized(after, feeds)
    assert len(expected) == len(actual), f"{len(actual)} outputs, not {len(expected)}"
    for index, (e, a) in enumerate(zip(expected, actual)):
        found = _same_output(e, a, rtol, atol)
        assert found is None, f"output {index}: {found}"
