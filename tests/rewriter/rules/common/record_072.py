"""Record what onnxscript 0.7.2 makes of each case of ``cases_072.py``: run with the
interpreter of a venv holding onnxscript 0.7.2, from a directory outside this repository
(so that it imports 0.7.2), e.g.

    cd /tmp && /work/main/bench/.venv-torch-onnxscript-0.7.2/bin/python \\
        /work/wt-rulesa/tests/rewriter/rules/common/record_072.py

It writes ``ops_072.json``: case name -> the op types of the rewritten graph, or
``["error: <exception type>"]`` when 0.7.2 raised."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import onnxscript
import onnxscript.rewriter
import onnxscript.rewriter.rules.common as common

HERE = Path(__file__).resolve().parent


def _cases_module() -> Any:
    spec = importlib.util.spec_from_file_location("cases_072", HERE / "cases_072.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    assert onnxscript.__version__ == "0.7.2", onnxscript.__version__
    recorded = {}
    cases = _cases_module()
    for name, (rule, opset, text) in cases.CASES.items():
        model = cases.model(opset, text)
        try:
            rules = [getattr(common, rule)]
            out = onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=rules)
            recorded[name] = [node.op_type for node in out.graph.node]
        except Exception as error:
            cause = error
            while cause.__cause__ is not None:
                cause = cause.__cause__
            recorded[name] = [f"error: {type(cause).__name__}"]
    text = json.dumps(recorded, indent=1, sort_keys=True)
    (HERE / "ops_072.json").write_text(text + "\n")


if __name__ == "__main__":
    main()
