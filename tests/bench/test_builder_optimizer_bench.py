"""Smoke test of the builder and optimizer benchmarks: they run and print their figures
(ours only, small sizes); no timing is asserted."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from tests.helpers import ROOT


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=ROOT, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_builder_bench_builds_the_chain_with_its_shape():
    out = _run("bench/builder.py", "--nodes", "60", "--repeat", "1", "--no-baseline")
    assert "60 nodes" in out and "FLOAT ['N', '64']" in out


def test_optimizer_bench_optimizes_every_model():
    real = ["--real", "tv_resnet18"] if importlib.util.find_spec("torchvision") else ["--no-real"]
    out = _run("bench/optimizer.py", "--scale", "0.05", "--repeat", "1", "--no-baseline", *real)
    names = ("tv_resnet18", "resnet18-like", "densenet121-like", "transformer-block")
    rows = [line.split() for line in out.splitlines() if line.startswith(names)]
    expected = list(names) if real[0] == "--real" else list(names[1:])
    assert [row[0] for row in rows] == expected
    for row in rows:
        assert int(row[2]) < int(row[1])  # fewer nodes after
