"""Helpers shared by the benchmarks: best-of timing and the onnxscript 0.7.2 environment.

The baseline environment is one virtual environment, ``bench/.venv-onnxscript-0.7.2``,
with onnxscript 0.7.2 from PyPI and the same onnxruntime version as ours (so that eager
figures compare the same runtime). It is created on first use and rebuilt when a version
in it does not match.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
BASELINE_VERSION = "0.7.2"
BASELINE_VENV = BENCH_DIR / f".venv-onnxscript-{BASELINE_VERSION}"


def best_time(fn: Callable[[], Any], number: int = 1, repeat: int = 5) -> float:
    """Seconds per call of ``fn``: the best of ``repeat`` runs of ``number`` calls, after
    one warm-up call."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def run_json(
    command: Sequence[str | os.PathLike[str]],
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Run a benchmark's child process and return the JSON object its last line of output
    prints; a failing child is a RuntimeError with its error output."""
    done = subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{command[0]} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _versions(python: Path, venv: Path) -> dict[str, str]:
    probe = (
        "import importlib.metadata as m\n"
        "for name in ('onnxscript', 'onnxruntime'):\n"
        "    try:\n"
        "        print(name, m.version(name))\n"
        "    except m.PackageNotFoundError:\n"
        "        pass\n"
    )
    found = subprocess.run(
        [str(python), "-I", "-c", probe], capture_output=True, text=True, cwd=venv, check=False
    )
    if found.returncode != 0:
        return {}
    return dict(line.split(" ", 1) for line in found.stdout.splitlines() if " " in line)


def ensure_baseline_venv(venv: Path = BASELINE_VENV) -> Path:
    """The Python of ``venv``, made to hold onnxscript 0.7.2 and our onnxruntime version
    (created or rebuilt with pip when needed)."""
    import onnxruntime

    wanted = {"onnxscript": BASELINE_VERSION, "onnxruntime": onnxruntime.__version__}
    python = venv_python(venv)
    if python.exists():
        if _versions(python, venv) == wanted:
            return python
        shutil.rmtree(venv)
    print(f"creating {venv} with {wanted} from PyPI ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    requirements = [f"{name}=={version}" for name, version in wanted.items()]
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", *requirements],
        capture_output=True,
        text=True,
        check=False,
    )
    if installed.returncode != 0:
        raise RuntimeError(f"pip install {' '.join(requirements)} failed:\n{installed.stderr}")
    return python


TORCH_BASELINE_VENV = BENCH_DIR / f".venv-torch-onnxscript-{BASELINE_VERSION}"
"""The torch.onnx benchmarks' baseline: this environment's torch, torchvision,
transformers and onnxruntime, with onnxscript 0.7.2."""

TORCH_BASELINE_PACKAGES = ("torch", "torchvision", "transformers", "onnxruntime", "onnxscript")

_PACKAGE_VERSIONS = r"""
import importlib.metadata as metadata, json, sys
found = {}
for name in sys.argv[1:]:
    try:
        found[name] = metadata.version(name).split("+")[0]
    except metadata.PackageNotFoundError:
        pass
print(json.dumps(found))
"""


def _pins(versions: Mapping[str, object]) -> list[str]:
    return [f"{name}=={versions[name]}" for name in TORCH_BASELINE_PACKAGES if name in versions]


def _package_versions(python: Path) -> dict[str, object]:
    """The baseline packages' versions installed for ``python`` (local parts such as
    +cu130 dropped); read isolated (-I: no cwd on the path)."""
    return run_json([python, "-I", "-c", _PACKAGE_VERSIONS, *TORCH_BASELINE_PACKAGES])


def ensure_torch_baseline(venv: Path = TORCH_BASELINE_VENV) -> Path:
    """The Python of ``venv``, with this torch/torchvision/transformers/onnxruntime and
    onnxscript 0.7.2. Its ``requirements.txt`` marker lists the pins installed; a venv
    without the marker (or with a stale one) whose packages already match only gets the
    marker written, else it is made again."""
    python = venv_python(venv)
    wanted = _pins({**_package_versions(Path(sys.executable)), "onnxscript": BASELINE_VERSION})
    marker = venv / "requirements.txt"
    if python.exists() and marker.exists() and marker.read_text() == "\n".join(wanted):
        return python
    if python.exists() and _pins(_package_versions(python)) == wanted:
        marker.write_text("\n".join(wanted))
        return python
    print(f"creating {venv} with {wanted} ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", *wanted], check=True)
    installed = _pins(_package_versions(python))
    if installed != wanted:
        raise RuntimeError(f"{venv} holds {installed}, not {wanted}")
    marker.write_text("\n".join(installed))
    return python
