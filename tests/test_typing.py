"""User code type-checks: mypy (with the package's plugin) and pyright (without one) accept
the sample scripts in tests/typing_samples and report the mistakes in deliberate_errors.py.

Each checker runs once over all the samples (tests/helpers.py caches the run)."""

from __future__ import annotations

import pytest

from tests.helpers import (
    TYPING_SAMPLES,
    Diagnostic,
    load_module,
    marked_errors,
    mypy_diagnostics,
    pyright_command,
    pyright_diagnostics,
)

CLEAN_SAMPLES = ["scripts.py", "ops.py", "eager.py"]
MYPY_ONLY = "union_operators.py"
ERRORS = "deliberate_errors.py"


def _by_line(diagnostics: tuple[Diagnostic, ...], file: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for d in diagnostics:
        if d.file == file:
            found.setdefault(d.line, []).append(d.code)
    return found


def test_the_samples_are_real_scripts():
    # Compiling them (at import) and running the eager one: the checkers see code that works.
    for name in ("scripts", "ops", "union_operators"):
        load_module(f"typing_sample_{name}", TYPING_SAMPLES / f"{name}.py")
    load_module("typing_sample_eager", TYPING_SAMPLES / "eager.py").main()


@pytest.mark.parametrize("sample", [*CLEAN_SAMPLES, MYPY_ONLY])
def test_mypy_accepts_the_samples(sample: str):
    assert [d for d in mypy_diagnostics() if d.file == sample] == []


def test_mypy_reports_each_deliberate_error_and_nothing_else():
    found = _by_line(mypy_diagnostics(), ERRORS)
    expected = marked_errors(ERRORS)
    assert len(expected) >= 9
    missing = {line: code for line, code in expected.items() if code not in found.get(line, [])}
    unexpected = {line: codes for line, codes in found.items() if line not in expected}
    assert missing == {} and unexpected == {}


pyright = pytest.mark.skipif(pyright_command() is None, reason="pyright cannot run here")


@pyright
@pytest.mark.parametrize("sample", CLEAN_SAMPLES)
def test_pyright_accepts_the_samples(sample: str):
    assert [d for d in pyright_diagnostics() if d.file == sample] == []


@pyright
def test_pyright_reports_each_deliberate_error_and_nothing_else():
    found = _by_line(pyright_diagnostics(), ERRORS)
    assert set(found) == set(marked_errors(ERRORS))
