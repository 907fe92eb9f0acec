"""Smoke test of ``bench/rewriter.py`` (ours only, a small graph): it runs, every rule
fires and the figures are printed. No timing is asserted."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT


def test_rewriter_bench_rewrites_the_chain():
    done = subprocess.run(
        [sys.executable, "bench/rewriter.py", "--blocks", "4", "--repeat", "1", "--no-baseline"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "nodes before 100, after: ours 56" in done.stdout
    for op in ("Gelu", "ScaledMatMulRelu", "Swish"):
        assert op in done.stdout
