"""Fingerprints of every model the compiler makes for the corpus (tests, docs, examples,
bench/functions.py, the ATen library), to prove a refactoring changes no output byte.

``record OUT.json`` runs the compiling test suites under pytest with this module as a
plugin: every ``OnnxFunction`` created is kept, and at the end of its session each worker
writes the
SHA-256 of its ``to_function_proto()`` and ``to_model_proto()`` bytes (or the error's
type) under the function's module and qualified name; the workers' files are merged
into ``OUT.json`` (a name maps to the sorted set of its distinct prints: how many
processes made a function does not count).
``compare BEFORE.json AFTER.json`` lists the names whose prints differ and exits 1 if
any does.

Run: ``python tools/compiled_corpus.py record /tmp/before.json`` on the old tree, again
on the new one, then ``python tools/compiled_corpus.py compare /tmp/before.json
/tmp/after.json``. Takes a few minutes (the suites below, on every core). On a loaded
machine a pytest-xdist worker may be stopped before it writes its prints (names then
missing from one side): record with ``PYTEST_ADDOPTS="-n 0"`` for a reliable baseline.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SUITES = [
    "tests/converter",
    "tests/analysis",
    "tests/program",
    "tests/evaluator",
    "tests/examples",
    "tests/docs",
    "tests/reverse",
    "tests/opsets",
    "tests/testing",
    "tests/builder",
    "tests/nn",
    "tests/bench/test_compile_bench.py",
    "tests/test_compatibility.py",
    "tests/test_compat_snippets.py",
    "tests/test_compat_paths.py",
    "tests/test_errors.py",
    "tests/test_traced_functions.py",
]
"""The suites that compile script functions (torch's OpInfo suites are left out: they
compile nothing beyond the ATen library, which the plugin imports itself)."""

_OUT_ENV = "ONNXSCRIPT_CORPUS_DIR"
_made: list[Any] = []


# The pytest plugin ----------------------------------------------------------------------


def pytest_configure(config: Any) -> None:
    from onnxscript import values

    original = values.OnnxFunction.__init__

    def recording_init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        _made.append(self)

    values.OnnxFunction.__init__ = recording_init  # type: ignore[method-assign]
    _import_corpus_modules()


def _import_corpus_modules() -> None:
    """The corpus outside the tests: bench/functions.py and the ATen library."""
    sys.path.insert(0, str(ROOT / "bench"))
    with contextlib.suppress(ImportError):
        import functions  # noqa: F401  (bench/functions.py)
    with contextlib.suppress(ImportError):  # torch missing: the library does not load
        import onnxscript.function_libs.torch_lib.ops  # noqa: F401


_RANDOM_NAME = re.compile(r"[0-9a-f]{32}|[0-9a-f]{8}_[0-9a-f]{4}_")
"""A uuid in a function's name (tests made it unique at random): its bytes differ on
every run, so it is left out."""


def pytest_sessionfinish(session: Any) -> None:
    folder = os.environ.get(_OUT_ENV)
    if not folder:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prints: dict[str, set[str]] = defaultdict(set)
    for function in _made:
        if _RANDOM_NAME.search(function.__qualname__):
            continue
        prints[f"{function.__module__}:{function.__qualname__}"].add(_fingerprint(function))
    found = {name: sorted(made) for name, made in prints.items()}
    Path(folder, f"{worker}.json").write_text(json.dumps(found))


def _fingerprint(function: Any) -> str:
    parts = []
    for make in (function.to_function_proto, function.to_model_proto):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                data = make().SerializeToString(deterministic=True)
            parts.append(hashlib.sha256(data).hexdigest()[:16])
        except Exception as error:  # what fails must fail alike
            parts.append(type(error).__name__)
    return "/".join(parts)


# The command line ------------------------------------------------------------------------


def record(out: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, _OUT_ENV: folder, "PYTHONPATH": str(ROOT / "tools")}
        command = [sys.executable, "-m", "pytest", "-p", "compiled_corpus", *SUITES]
        subprocess.run(command, cwd=ROOT, env=env, check=False)
        merged: dict[str, set[str]] = defaultdict(set)
        for part in Path(folder).glob("*.json"):
            for name, found in json.loads(part.read_text()).items():
                merged[name].update(found)
    result = {name: sorted(found) for name, found in sorted(merged.items())}
    out.write_text(json.dumps(result, indent=0))
    print(f"{len(result)} names, {sum(map(len, result.values()))} functions -> {out}")


def compare(before: Path, after: Path) -> int:
    old, new = json.loads(before.read_text()), json.loads(after.read_text())
    differ = [n for n in sorted(set(old) | set(new)) if old.get(n) != new.get(n)]
    for name in differ:
        print(f"{name}: {old.get(name)} -> {new.get(name)}")
    total = len(set(old) | set(new))
    print(f"{len(differ)} of {total} names differ")
    return 1 if differ else 0


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == "record":
        record(Path(sys.argv[2]))
        return 0
    if len(sys.argv) >= 4 and sys.argv[1] == "compare":
        return compare(Path(sys.argv[2]), Path(sys.argv[3]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
