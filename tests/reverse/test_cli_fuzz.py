"""Command-line fuzz test: malformed models (tests/reverse/cli_fuzz.py) given to
``python -m onnxscript`` end in one line on stderr and exit code 1, or in a script that
compiles; never a traceback or a crash. With ``--check`` the exit code is 0 or 1.

CI runs 200 files (60 of them with ``--check``); ``ONNXSCRIPT_FUZZ_MODELS=2000`` runs more.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

import onnxscript.errors
from onnxscript.testing.node_tests import case_names, generate
from tests.reverse.cli_fuzz import base_models, malformed

ROOT = Path(__file__).resolve().parents[2]
CASES = int(os.environ.get("ONNXSCRIPT_FUZZ_MODELS", "200"))
CLEAR_ERRORS = {
    name
    for name in dir(onnxscript.errors)
    if isinstance(getattr(onnxscript.errors, name), type)
    and issubclass(getattr(onnxscript.errors, name), onnxscript.errors.OnnxScriptError)
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, dict[str, tuple[str, bool]]]:
    """The malformed files, with what was done to each and whether onnx.checker accepts it."""
    names = case_names()[:: max(1, len(case_names()) // 25)]
    node_dir = tmp_path_factory.mktemp("node_tests")
    node_models = [onnx.load(folder / "model.onnx") for folder in generate(node_dir, set(names))]
    bases = base_models(node_models)
    folder = tmp_path_factory.mktemp("malformed")
    made: dict[str, tuple[str, bool]] = {}
    for case in range(CASES):
        kind, data = malformed(bases[case % len(bases)], case)
        name = f"case_{case:05d}.onnx"
        (folder / name).write_bytes(data)
        made[name] = (kind, _valid(data))
    return folder, made


def _valid(data: bytes) -> bool:
    try:
        onnx.checker.check_model(onnx.load_from_string(data), full_check=True)
    except Exception:
        return False
    return True


def _run(folder: Path, *flags: str) -> dict[str, dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.reverse.cli_fuzz", str(folder), *flags],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0, (
        f"the runner died after {len(results)} files: {done.stderr[-2000:]}"
    )
    return {r["file"]: r for r in results}


def _problem(result: dict[str, object], valid: bool) -> str | None:
    code, stderr = result["code"], str(result["stderr"])
    if code not in (0, 1):
        return f"exit code {code}"
    if "Traceback" in stderr:
        return "a traceback"
    if code == 1:
        lines = stderr.strip().splitlines()
        if len(lines) != 1 or not lines[0].startswith("error: "):
            return f"not one error line: {stderr!r}"
        return None
    compiles = result.get("compiles", "ok")
    if compiles == "ok":
        return None
    if valid or compiles not in CLEAR_ERRORS:
        return f"exit 0, but the printed script fails with {compiles}"
    return None


def test_malformed_models_fail_in_one_line_or_translate(corpus):
    folder, made = corpus
    results = _run(folder)
    assert set(results) == set(made)
    problems = []
    outcomes: collections.Counter[str] = collections.Counter()
    for name, (kind, valid) in sorted(made.items()):
        result = results[name]
        outcomes[
            f"exit {result['code']}"
            + (f", {result.get('compiles')}" if result["code"] == 0 else "")
        ] += 1
        problem = _problem(result, valid)
        if problem is not None:
            problems.append(f"{name} ({kind}): {problem}")
    print(f"\n{CASES} malformed models: {dict(sorted(outcomes.items()))}")
    assert not problems, "\n".join(problems[:20])
    assert outcomes["exit 1"] > CASES // 5


def test_check_on_malformed_models_exits_0_or_1(corpus, tmp_path):
    folder, made = corpus
    subset = tmp_path / "subset"
    subset.mkdir()
    for name in sorted(made)[:60]:
        (subset / name).write_bytes((folder / name).read_bytes())
    results = _run(subset, "--check")
    assert len(results) == min(60, len(made))
    bad = {
        name: r
        for name, r in results.items()
        if r["code"] not in (0, 1) or "Traceback" in str(r["stderr"])
    }
    assert not bad, bad
