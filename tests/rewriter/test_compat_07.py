"""0.7-style rewriter code (the public tutorial's examples and the options it documents)
runs unchanged on our package and on onnxscript 0.7.2, giving the same graphs: op types,
domains, attributes, node count, structure, graph output names and opset imports.

0.7.2 runs in its own environment (``bench/.venv-torch-onnxscript-0.7.2``), in a
subprocess started in /tmp so that it imports 0.7.2; the test is skipped without it.
Where the two differ on purpose, the difference is asserted and explained
(docs/rewriter.md, "Differences from 0.7").
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from tests.helpers import ROOT
from tests.rewriter import compat_runner
from tests.rewriter.compat_cases import CASES

BASELINE_PYTHON = ROOT / "bench" / ".venv-torch-onnxscript-0.7.2" / "bin" / "python"

INTENDED = {
    "mul_by_one_graph_output": "0.7.2 renames the graph input X to the output's name Z",
    "multi_output_pattern": "0.7.2 matches both MatMul patterns to one node (w1 is w2)",
}


@pytest.fixture(scope="module")
def baseline() -> dict[str, Any]:
    if not BASELINE_PYTHON.exists():
        pytest.skip("no onnxscript 0.7.2 environment (bench/.venv-torch-onnxscript-0.7.2)")
    done = subprocess.run(
        [str(BASELINE_PYTHON), str(ROOT / "tests" / "rewriter" / "compat_runner.py")],
        input=json.dumps(CASES),
        capture_output=True,
        text=True,
        cwd="/tmp",
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _ours(name: str) -> Any:
    return compat_runner.run_snippet(CASES[name])


@pytest.mark.parametrize("name", [n for n in CASES if n not in INTENDED])
def test_same_result_as_07(name: str, baseline: dict[str, Any]) -> None:
    ours = _ours(name)
    assert "error" not in ours, ours
    assert ours == baseline[name]


def test_x_times_one_keeps_the_graph_input_name(baseline: dict[str, Any]) -> None:
    """``Z = X * 1`` with X a graph input: we keep the model's interface (an Identity
    from X to Z); 0.7.2 renames the graph input to Z."""
    ours = _ours("mul_by_one_graph_output")["model"]
    theirs = baseline["mul_by_one_graph_output"]["model"]
    assert ours["graph"] == ["::Relu[]/1->1($X)#0", "::Identity[]/1->1($X)#0"]
    assert "$X" not in json.dumps(theirs["graph"])  # the input is no longer called X


def test_multi_output_pattern_binds_distinct_nodes(baseline: dict[str, Any]) -> None:
    """Two MatMul patterns sharing x match two different MatMul nodes (one fused node
    computing both); 0.7.2 matches both to the same node and binds w1 and w2 alike."""
    ours = _ours("multi_output_pattern")["model"]
    theirs = baseline["multi_output_pattern"]["model"]
    assert ours["graph"] == [
        "custom.domain::TwoHeads[]/3->2($X,$A,$B)#0",
        "custom.domain::TwoHeads[]/3->2($X,$A,$B)#1",
    ]
    assert "custom.domain::TwoHeads[]/3->2($X,$A,$A)#0" in theirs["graph"]
