"""Script functions typed at the prompt of ``python -i``: their source is read back from
readline's history when stdin is a terminal (here a pseudo-terminal), and the error says
why it cannot be when stdin is a pipe."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import ROOT

pty = pytest.importorskip("pty")

FUNCTION = [
    "from onnxscript import script, FLOAT",
    "from onnxscript import opset18 as op",
    "@script()",
    "def f(x: FLOAT['N']) -> FLOAT['N']:",
    "    return op.Abs(x)",
    "",
]


def _environment(home: Path) -> dict[str, str]:
    """No startup file, no debugging traceback, and a history file of this test's own."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONSTARTUP", "ONNXSCRIPT_TRACEBACK")
    }
    env.update(HOME=str(home), TERM="dumb")
    return env


def _read_until_exit(fd: int, proc: subprocess.Popen, timeout: float) -> str:
    out = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # the terminal closed: the interpreter exited
                break
            if not data:
                break
            out += data
        elif proc.poll() is not None:
            break
    return out.decode(errors="replace").replace("\r\n", "\n")


def run_in_terminal(lines: list[str], home: Path, timeout: float = 120.0) -> str:
    """What ``python -i`` prints when ``lines`` are typed at its prompt (on a pty)."""
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-i", "-q"],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=_environment(home),
        cwd=ROOT,
        close_fds=True,
    )
    os.close(terminal)
    try:
        os.write(controller, "".join(line + "\n" for line in [*lines, "exit()"]).encode())
        return _read_until_exit(controller, proc, timeout)
    finally:
        proc.kill()
        proc.wait()
        os.close(controller)


def test_a_function_typed_at_the_prompt_compiles(tmp_path):
    show = "print('NODES', [n.op_type for n in f.to_function_proto().node])"
    out = run_in_terminal([*FUNCTION, show], tmp_path)
    assert "NODES ['Abs']" in out, out


def test_an_error_at_the_prompt_shows_the_typed_line_and_one_package_frame(tmp_path):
    lines = [*FUNCTION[:2], "@script()", "def g(x: FLOAT['N']) -> FLOAT['N']:"]
    lines += ["    return len(x)", ""]
    out = run_in_terminal(lines, tmp_path)
    assert "ScriptError: <stdin>:3:12: len() is a built-in function" in out, out
    assert "hint: write op.Shape(x, start=0, end=1)" in out, out
    package = f'File "{ROOT / "onnxscript"}'
    package_frames = [line for line in out.splitlines() if line.strip().startswith(package)]
    assert len(package_frames) == 1, out


def test_piped_stdin_says_why_the_source_cannot_be_read(tmp_path):
    """Without a terminal the interpreter reads stdin without readline: no history."""
    proc = subprocess.run(
        [sys.executable, "-i", "-q"],
        input="\n".join(FUNCTION) + "\n",
        capture_output=True,
        text=True,
        env=_environment(tmp_path),
        cwd=ROOT,
        timeout=120,
    )
    assert "cannot read the source of 'f'" in proc.stderr, proc.stderr
    assert "read back from readline's history" in proc.stderr
    assert "register_source(source) before exec(source)" in proc.stderr
