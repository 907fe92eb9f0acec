"""Smoke test of ``bench/ort_fusions.py`` (ours only, one small static export, one run):
it exports, fuses or reports ours as not available, and prints its figures. No timing is
asserted."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT


def test_ort_fusions_bench_reports_the_model():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("onnxruntime")
    options = ["--models", "bert-static", "--repeat", "1", "--runs", "2", "--no-baseline"]
    done = subprocess.run(
        [sys.executable, "bench/ort_fusions.py", *options],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"^bert-static: nodes [1-9]\d*, onnxruntime unfused", done.stdout, re.M)
    ours = re.search(r"^  ours +(.*)$", done.stdout, re.M)
    assert ours, done.stdout
    assert ours.group(1).startswith("not available (") or " fuse " in ours.group(1)
    assert "targets: fusion time at most 0.5x" in done.stdout
