"""Compiling the same source gives byte-identical protos under any PYTHONHASHSEED."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers import ROOT, checked_model

SCRIPT = """
import hashlib
from tests.converter.determinism_cases import FUNCTIONS
h = hashlib.sha256()
for fn in FUNCTIONS:
    h.update(fn.to_function_proto().SerializeToString())
h.update(FUNCTIONS[-1].to_model_proto().SerializeToString())
print(h.hexdigest())
"""


def _digest(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def test_protos_are_identical_across_hash_seeds():
    digests = {_digest(seed) for seed in ("0", "1", "12345", "random")}
    assert len(digests) == 1, digests


def test_determinism_cases_compile_and_check():
    from tests.converter.determinism_cases import everything

    checked_model(everything)
