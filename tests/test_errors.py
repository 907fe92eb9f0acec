"""What a user sees when their script fails: their own lines and the message, with one
frame of the package (the one that raises the error again); ONNXSCRIPT_TRACEBACK=1 shows
the package's frames and chained exceptions, for debugging onnxscript itself."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from onnxscript import FLOAT, ScriptError, script
from onnxscript import opset18 as op
from onnxscript.errors import EagerEvaluationError, InputTypeError, for_user
from tests.helpers import ROOT

PACKAGE_FRAME = f'File "{ROOT / "onnxscript"}'

HEADER = """\
import numpy as np
from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
"""

COMPILE_ERROR = """\
@script()
def f(x: FLOAT["N"], i: INT64["N"]) -> FLOAT["N"]:
    return x + i
"""

NESTED_COMPILE_ERROR = """\
def build():
    @script()
    def g(x: FLOAT["N"]) -> FLOAT["N"]:
        return np.exp(x)
    return g

build()
"""

EAGER_INPUT_ERROR = """\
op.Add(np.ones(3, np.float32), np.ones(3, np.int64))
"""

EAGER_RUNTIME_ERROR = """\
@script()
def h(x: FLOAT["N"], y: FLOAT["M"]) -> FLOAT["N"]:
    return op.Add(x, y)

h(np.ones(3, np.float32), np.ones(2, np.float32))
"""


def _run(tmp_path: Path, body: str, debug: bool = False) -> str:
    """The stderr of ``python script.py`` for a script made of HEADER and ``body``."""
    path = tmp_path / "user_script.py"
    path.write_text(HEADER + body)
    env = {k: v for k, v in os.environ.items() if k != "ONNXSCRIPT_TRACEBACK"}
    if debug:
        env["ONNXSCRIPT_TRACEBACK"] = "1"
    proc = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300
    )
    assert proc.returncode == 1, proc.stderr
    return proc.stderr


def _frames(stderr: str) -> tuple[list[str], list[str]]:
    """The traceback's (package frames, other frames), as their ``File ...`` lines."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip().startswith("File ")]
    package = [line for line in lines if line.startswith(PACKAGE_FRAME)]
    return package, [line for line in lines if not line.startswith(PACKAGE_FRAME)]


def test_a_compile_error_shows_one_package_frame(tmp_path):
    stderr = _run(tmp_path, COMPILE_ERROR)
    package, user = _frames(stderr)
    assert len(package) == 1 and "main.py" in package[0], stderr
    assert len(user) == 1 and "user_script.py" in user[0], stderr  # the @script() line
    assert "user_script.py:6:12: `+` combines a FLOAT tensor with an INT64 tensor" in stderr
    assert "hint: ONNX does not promote types" in stderr
    assert "During handling" not in stderr and "direct cause" not in stderr
    assert len(stderr.splitlines()) <= 12, stderr


def test_the_users_frames_between_are_kept(tmp_path):
    stderr = _run(tmp_path, NESTED_COMPILE_ERROR)
    package, user = _frames(stderr)
    assert len(package) == 1, stderr
    assert [line.split(", in ")[-1] for line in user] == ["<module>", "build"], stderr


def test_debugging_shows_the_package_frames(tmp_path):
    stderr = _run(tmp_path, COMPILE_ERROR, debug=True)
    package, _ = _frames(stderr)
    assert len(package) > 3, stderr
    assert any("converter" in line for line in package), stderr


def test_an_eager_input_error_shows_one_package_frame(tmp_path):
    stderr = _run(tmp_path, EAGER_INPUT_ERROR)
    package, user = _frames(stderr)
    assert len(package) == 1 and "values.py" in package[0], stderr
    assert len(user) == 1, stderr
    assert "InputTypeError: Add(): input 'B'" in stderr


def test_an_eager_runtime_error_shows_the_users_lines_not_the_backends(tmp_path):
    stderr = _run(tmp_path, EAGER_RUNTIME_ERROR)
    package, user = _frames(stderr)
    assert len(package) == 1, stderr
    # The call of h, then the line in h that failed.
    assert [line.split(", in ")[-1] for line in user] == ["<module>", "h"], stderr
    assert "EagerEvaluationError: Add (ai.onnx opset 18) failed" in stderr
    assert "direct cause" not in stderr  # the backend's message is in ours
    debug = _run(tmp_path, EAGER_RUNTIME_ERROR, debug=True)
    assert "The above exception was the direct cause" in debug


# -- the same, in process ------------------------------------------------------------------


def _package_entries(exc: BaseException) -> list[str]:
    entries = []
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.startswith(str(ROOT / "onnxscript")):
            entries.append(Path(filename).name)
        tb = tb.tb_next
    return entries


def test_compile_error_traceback_in_process(monkeypatch):
    monkeypatch.delenv("ONNXSCRIPT_TRACEBACK", raising=False)
    with pytest.raises(ScriptError) as info:

        @script()
        def bad(x: FLOAT["N"]) -> FLOAT["N"]:
            return len(x)

    assert _package_entries(info.value) == ["main.py"]
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_eager_error_keeps_the_cause_when_debugging(monkeypatch):
    @script()
    def mismatched(x: FLOAT["N"], y: FLOAT["M"]) -> FLOAT["N"]:
        return op.Add(x, y)

    a, b = np.ones(3, np.float32), np.ones(2, np.float32)
    monkeypatch.delenv("ONNXSCRIPT_TRACEBACK", raising=False)
    with pytest.raises(EagerEvaluationError) as info:
        mismatched(a, b)
    assert _package_entries(info.value) == ["values.py"]
    assert info.value.__cause__ is None
    monkeypatch.setenv("ONNXSCRIPT_TRACEBACK", "1")
    with pytest.raises(EagerEvaluationError) as info:
        mismatched(a, b)
    assert info.value.__cause__ is not None
    assert len(_package_entries(info.value)) > 3


def test_for_user_drops_package_frames_and_keeps_the_users():
    """A traceback made of: this test's frame (re-raising), a package frame, a user frame
    (here: a function of this file) called by the package."""
    namespace: dict = {}
    code = textwrap.dedent(
        """
        def call_back(fn):
            return fn()
        """
    )
    exec(compile(code, str(ROOT / "onnxscript" / "fake_module.py"), "exec"), namespace)

    def users_function():
        raise InputTypeError("wrong input")

    try:
        try:
            namespace["call_back"](users_function)
        except InputTypeError as exc:
            raise for_user(exc) from exc.__cause__
    except InputTypeError as exc:
        names = []
        tb = exc.__traceback__
        while tb is not None:
            names.append(tb.tb_frame.f_code.co_name)
            tb = tb.tb_next
    assert names == ["test_for_user_drops_package_frames_and_keeps_the_users", "users_function"]
