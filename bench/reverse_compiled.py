"""What compiling the reverse translator's hot modules with mypyc would gain.

The translator is pure Python; most of its time per node goes to reading protobuf fields and
to building and walking its own small objects (see the figures of ``bench/reverse.py``).
This benchmark copies the package to a temporary directory, compiles the modules listed in
``HOT_MODULES`` there with mypyc (``mypy`` is a test dependency; a C compiler is needed), and
times ``proto2python`` on the models of ``bench/reverse.py`` with the pure-Python package and
with the compiled copy, in the same run, each in a fresh process. It also checks that both
write the same text. Nothing is installed and the repository is not changed.

    python bench/reverse_compiled.py     # prints the figures and ratios (takes ~2-3 min)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
sys.path[:0] = [str(BENCH_DIR)]

from support import run_json  # noqa: E402

HOT_MODULES = ["graph_model", "source_writer", "planning", "module", "identifiers"]
SIZES = (1_000, 10_000)
MIXES = ("mixed", "dense", "straight")

# Run in a fresh interpreter with the package tree to measure first on sys.path.
_WORKER = """
import hashlib, json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import onnxscript.reverse.graph_model as probe
from onnxscript.reverse import proto2python
from reverse import _count, make_model
from support import best_time
figures = {"compiled": probe.__file__.endswith((".so", ".pyd")), "runs": []}
for mix in json.loads(sys.argv[3]):
    for target in json.loads(sys.argv[4]):
        model = make_model(target, mix)
        text = proto2python(model)
        seconds = best_time(lambda: proto2python(model), 1, 9 if target < 5000 else 5)
        figures["runs"].append({
            "mix": mix, "nodes": _count(list(model.graph.node)), "seconds": seconds,
            "digest": hashlib.sha256(text.encode()).hexdigest(),
        })
print(json.dumps(figures))
"""


def compile_copy(workdir: Path) -> Path:
    """A copy of the package with ``HOT_MODULES`` compiled by mypyc; returns its root."""
    root = workdir / "tree"
    shutil.copytree(
        REPO / "onnxscript",
        root / "onnxscript",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
    )
    paths = [f"onnxscript/reverse/{name}.py" for name in HOT_MODULES]
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *paths],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"mypyc failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return root


def measure(tree: Path) -> dict[str, Any]:
    return run_json(
        [sys.executable, "-c", _WORKER, tree, BENCH_DIR, json.dumps(MIXES), json.dumps(SIZES)]
    )


def main() -> int:
    try:
        import mypyc  # noqa: F401
    except ImportError:
        print("mypyc is not installed (pip install mypy): nothing measured")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        print(f"compiling {', '.join(HOT_MODULES)} with mypyc ...", flush=True)
        compiled_tree = compile_copy(Path(tmp))
        pure = measure(REPO)
        compiled = measure(compiled_tree)
    assert pure["compiled"] is False and compiled["compiled"] is True
    same = True
    print(f"{'model':16s} {'pure Python':>14s} {'compiled':>14s} {'ratio':>7s}")
    for a, b in zip(pure["runs"], compiled["runs"], strict=True):
        nodes = a["nodes"]
        pure_us = a["seconds"] / nodes * 1e6
        compiled_us = b["seconds"] / nodes * 1e6
        same &= a["digest"] == b["digest"]
        print(
            f"{a['mix']:8s} {nodes:6d}  {pure_us:9.2f} us/node {compiled_us:8.2f} us/node"
            f" {compiled_us / pure_us:6.2f}x"
        )
    print(f"same text from both: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
