"""Smoke test of ``bench/large_model.py`` on its ``--tiny`` model (ours only): every
phase is timed and measured, the saved model is checked by path and matches torch at two
shapes. No timing is asserted."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import ROOT

pytest.importorskip("torch")
pytest.importorskip("transformers")


def test_large_model_bench_runs_on_the_tiny_model(tmp_path):
    figures_path = tmp_path / "figures.json"
    command = [sys.executable, "bench/large_model.py", "--tiny", "--no-baseline"]
    done = subprocess.run(
        [*command, "--json", str(figures_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(figures_path.read_text())["ours"]
    assert str(ROOT / "onnxscript") in figures["onnxscript"]  # this checkout, not another
    assert set(figures["phases"]) == {"build", "export", "optimize", "save"}
    for phase in figures["phases"].values():
        assert phase["seconds"] > 0 and phase["peak"] >= phase["after"] > 0
    assert figures["ru_maxrss"] >= figures["baseline"] > 0
    assert figures["checked"] and figures["relative"] < 1e-4
    assert "checked by path" in done.stdout and "peak above the baseline" in done.stdout
