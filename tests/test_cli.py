"""The command line's version and program name, and the package version it reports."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import onnxscript
from onnxscript import cli
from tests.helpers import ROOT


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def test_version_is_the_one_in_pyproject_and_above_the_replaced_package():
    found = re.search(r'^version = "([^"]+)"$', (ROOT / "pyproject.toml").read_text(), re.M)
    assert found is not None
    assert onnxscript.__version__ == found.group(1)
    assert _version_tuple(onnxscript.__version__) > (0, 7, 2)


def test_version_option(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"onnxscript {onnxscript.__version__}\n"


def test_program_name_is_the_one_invoked():
    assert cli.program_name("/usr/local/bin/onnxscript") == "onnxscript"
    assert cli.program_name(r"C:\Python\Scripts\onnxscript.exe") == "onnxscript"
    main_module = str(ROOT / "onnxscript" / "__main__.py")
    assert cli.program_name(main_module) == "python -m onnxscript"


def test_python_dash_m_usage_and_version():
    usage = subprocess.run(
        [sys.executable, "-m", "onnxscript"], capture_output=True, text=True, cwd=ROOT
    )
    assert usage.returncode == 2
    assert usage.stderr.startswith("usage: python -m onnxscript [-h] [--version]")
    version = subprocess.run(
        [sys.executable, "-m", "onnxscript", "--version"], capture_output=True, text=True
    )
    assert version.stdout == f"onnxscript {onnxscript.__version__}\n"


def test_console_script_usage_and_version():
    executable = shutil.which("onnxscript", path=str(Path(sys.executable).parent))
    if executable is None:
        pytest.skip("the console script is not installed next to this Python")
    usage = subprocess.run([executable], capture_output=True, text=True)
    assert usage.returncode == 2
    assert usage.stderr.startswith("usage: onnxscript [-h] [--version]")
    version = subprocess.run([executable, "--version"], capture_output=True, text=True)
    assert version.stdout == f"onnxscript {onnxscript.__version__}\n"
