"""The child process of the torch.onnx benchmarks: exports one suite's models with the
onnxscript its interpreter imports and prints one JSON object, per model: seconds
without and with ``optimize()`` (best of ``--repeat``), the main graph's node count after
``optimize()``, the op histogram and the CastLike nodes' sources (ATen calls) before and
after ``optimize()``, whether the model matches torch, or the error.

Run it by path from a directory outside the repository for the baseline (the suite's
files are loaded by path, not as the tests package, whose directory would put our
onnxscript first on the baseline's path):
``python bench/export_child.py static|dynamic MODELS_FILE DYNAMIC_EXPORT_FILE
[--repeat N] [--no-plain] [--models a,b] [--path REPO_ROOT]``; a script's directory, not
the working directory, starts ``sys.path``, so our side passes ``--path``.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import logging
import sys
import time
import warnings
from types import ModuleType
from typing import Any

FX_NODE = "pkg.torch.onnx.fx_node"


def load(name: str, path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def reason(error: BaseException) -> str:
    """The first line of the error's summary (torch's report puts it under a heading)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if "## Exception summary" in lines:
        lines = lines[lines.index("## Exception summary") + 1 :]
    return (type(error).__name__ + ": " + (lines[0] if lines else ""))[:400]


def _source(node: Any) -> str:
    """Which fx node (ATen call) a node was emitted for, from torch's metadata."""
    props = node.metadata_props
    fx = props.get(FX_NODE, "")
    # torch writes e.g. "%mul : [num_users=1] = call_function[target=aten.mul.Tensor](...)"
    if "target=" in fx:
        return fx.split("target=", 1)[1].split("]", 1)[0]
    return props.get("namespace", "").rsplit("/", 1)[-1] or node.name or "?"


def _constant(value: Any) -> bool:
    if value is None:
        return False
    producer = value.producer()
    if producer is not None:
        return bool(producer.op_type == "Constant")
    return value.const_value is not None


def graph_figures(model: Any) -> tuple[dict[str, int], dict[str, int]]:
    """The op histogram of the model's main graph and functions, and the sources of its
    CastLike nodes and Casts of constants."""
    ops: collections.Counter[str] = collections.Counter()
    casts: collections.Counter[str] = collections.Counter()
    for graph in [model.graph, *model.functions.values()]:
        for node in graph:
            ops[node.op_type] += 1
            cast = node.op_type == "Cast" and _constant(node.inputs[0])
            if node.op_type == "CastLike" or cast:
                casts[f"{node.op_type} {_source(node)}"] += 1
    return dict(ops), dict(casts)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("suite", choices=["static", "dynamic"])
    parser.add_argument("models_file")
    parser.add_argument("dynamic_export_file")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--no-plain", action="store_true", help="skip the unoptimized export")
    parser.add_argument("--models", default="", help="names, comma-separated")
    parser.add_argument("--path", default="", help="put first on sys.path (our repo's root)")
    args = parser.parse_args()
    if args.path:
        sys.path.insert(0, args.path)
    warnings.filterwarnings("ignore")
    logging.disable(logging.WARNING)
    suite_module = load("suite_models", args.models_file)
    dynamic = load("dynamic_export", args.dynamic_export_file)
    wanted = [n for n in args.models.split(",") if n]

    def cases() -> dict[str, Any]:
        suite = suite_module.suite()
        if args.suite == "static":
            return dict(suite.items())
        return {n: m for n, m in suite.items() if not m.torch_fails}

    plain_figures: dict[str, Any] = {}

    def export(case: Any, module: Any, inputs: Any, optimize: bool) -> Any:
        shapes = case.dynamic_shapes(module) if args.suite == "dynamic" else None
        program = dynamic.export(module, inputs, shapes, optimize=False)
        if optimize:
            ops, casts = graph_figures(program.model)
            plain_figures.update(ops_plain=ops, casts_plain=casts)
            program.optimize()
        return program

    def parts(case: Any) -> tuple[Any, Any, list[Any]]:
        if args.suite == "static":
            module, inputs = case
            return module, inputs, [inputs]
        return case.module(), case.inputs(0), [case.inputs(0), case.inputs(1)]

    def measure(case: Any) -> dict[str, Any]:
        module, inputs, checks = parts(case)
        figures: dict[str, Any] = {}
        program = None
        for optimize in (False, True) if not args.no_plain else (True,):
            best = float("inf")
            for _ in range(max(1, args.repeat)):
                start = time.perf_counter()
                program = export(case, module, inputs, optimize)
                best = min(best, time.perf_counter() - start)
            figures["optimized" if optimize else "plain"] = best
        figures["nodes_optimized"] = len(list(program.model.graph))
        figures["ops"], figures["casts"] = graph_figures(program.model)
        figures.update(plain_figures)
        differences = dynamic.check_at(program, module, checks)
        figures["matches"] = all(d.ok for d in differences)
        figures["relative"] = max(d.relative for d in differences)
        return figures

    suite = cases()
    warm = next(iter(suite.values()))
    module, inputs, _ = parts(warm)
    export(warm, module, inputs, True)  # warm-up: imports, registry
    results: dict[str, Any] = {}
    for name, case in suite.items():
        if wanted and name not in wanted:
            continue
        try:
            results[name] = measure(case)
        except Exception as error:
            results[name] = {"error": reason(error)}
    print(json.dumps(results))


if __name__ == "__main__":
    main()
