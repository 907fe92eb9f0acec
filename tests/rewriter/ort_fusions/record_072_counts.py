"""Record onnxscript 0.7.2's ``optimize_for_ort`` fusion counts on the model suite.

Run with the Python of an environment holding onnxscript 0.7.2 (and the same torch,
transformers, onnxruntime), from a directory where ``import onnxscript`` finds 0.7.2:

    cd /tmp && /work/venv-torch-072/bin/python \
        <repo>/tests/rewriter/ort_fusions/record_072_counts.py \
        [--our-python <repo>/.venv/bin/python] [--cases llama_kv-dynamic,...]

For each case of ``ort_models.SUITE`` it records, under ``072_export``, 0.7.2's whole
pipeline (torch.onnx's export with 0.7.2, then 0.7.2's ``optimize_for_ort``); with
``--our-python`` also, under ``our_export``, 0.7.2's ``optimize_for_ort`` on the export
made with our package (the file our fusions get in the tests). Recorded: nodes before
and after, the fused-op histogram (``ort_models.fused_counts``) and the counts
``optimize_for_ort`` reports. Written to ``data/ort_fusion_counts_072.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
DATA = HERE / "data" / "ort_fusion_counts_072.json"

if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # last: ``import onnxscript`` must still find 0.7.2

from tests.rewriter.ort_fusions import ort_models  # noqa: E402

OUR_EXPORT = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from tests.rewriter.ort_fusions.ort_models import export_model
for case in sys.argv[3:]:
    name, mode = case.rsplit("-", 1)
    export_model(name, mode, Path(sys.argv[2]))
"""


def fuse_072(path: Path) -> dict[str, Any]:
    """0.7.2's ``optimize_for_ort`` on the file: nodes before and after, fused ops, the
    counts it reports."""
    import onnx_ir as ir

    from onnxscript.rewriter.ort_fusions import (  # type: ignore[import-not-found]
        optimize_for_ort,
    )

    proto = ort_models.load(path)
    fused, reported = optimize_for_ort(ir.from_proto(proto))
    result = ir.to_proto(fused)
    return {
        "nodes_before": ort_models.node_count(proto),
        "nodes_after": ort_models.node_count(result),
        "fused": ort_models.fused_counts(result),
        "reported": {k: v for k, v in sorted(reported.items()) if v},
    }


def record(cases: list[tuple[str, str]], our_python: str | None) -> dict[str, Any]:
    import onnxruntime
    import torch
    import transformers

    import onnxscript

    if onnxscript.__version__ != "0.7.2":
        raise SystemExit(f"onnxscript {onnxscript.__version__} imported, 0.7.2 expected")
    versions = {
        "onnxscript": onnxscript.__version__,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "onnxruntime": onnxruntime.__version__,
    }
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        theirs, ours = Path(tmp, "072"), Path(tmp, "ours")
        theirs.mkdir()
        ours.mkdir()
        if our_python:
            ids = [ort_models.case_id(*case) for case in cases]
            command = [our_python, "-c", OUR_EXPORT, str(ROOT), str(ours), *ids]
            subprocess.run(command, check=True, cwd=ROOT)
        for name, mode in cases:
            case = ort_models.case_id(name, mode)
            print(case, flush=True)
            export = ort_models.export_model(name, mode, theirs)
            results[case] = {"072_export": fuse_072(export.path)}
            if our_python:
                results[case]["our_export"] = fuse_072(ours / f"{case}.onnx")
    return {"versions": versions, "cases": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--our-python", help="a Python whose torch.onnx uses our package")
    parser.add_argument("--cases", help="comma-separated <model>-<mode> (default: all)")
    parser.add_argument("--output", type=Path, default=DATA)
    args = parser.parse_args()
    cases = list(ort_models.SUITE)
    if args.cases:
        cases = [(c.rsplit("-", 1)[0], c.rsplit("-", 1)[1]) for c in args.cases.split(",")]
    data = record(cases, args.our_python)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
