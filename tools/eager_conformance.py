"""Conformance of eager mode with the ONNX backend node tests.

The node tests of the installed onnx (``onnx.backend.test.case.node``) are written into a
temporary folder in the backend-test layout (``<case>/model.onnx`` and
``<case>/test_data_set_<k>/{input,output}_<j>.pb``). Each case is then run twice:

1. with onnxruntime on the whole model; a case onnxruntime cannot load, run, or get right
   is skipped (eager mode runs ops with onnxruntime, so it cannot do better there);
2. eagerly, node by node, as ``getattr(opsetN, op_type)(*inputs, **attributes)``. When a
   node asks for a number of outputs that differs from the op's default (for example
   Dropout's optional mask), the call is the one a script makes for ``a, b = op.X(...)``:
   ``onnxscript.evaluator.call_op(op, inputs, attributes, n_outputs=k)``. Graph attributes
   that read values of the enclosing graph get those values bound as constants.

The eager outputs must equal the expected outputs (the case's tolerances, equal element
types and shapes). The report gives pass/fail/skip counts and lists failures.

Usage: ``python tools/eager_conformance.py [--sample N] [--filter SUBSTRING] [--keep DIR]
[--json PATH] [-v]``. ``--sample N`` runs every k-th case so that about N run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnx.helper
import onnx.numpy_helper

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import onnxscript  # noqa: E402
from onnxscript import runtime  # noqa: E402
from onnxscript.evaluator import call_op  # noqa: E402
from onnxscript.opsets import get_opset  # noqa: E402
from onnxscript.schemas import imported_versions  # noqa: E402
from onnxscript.testing.node_tests import Case, case_names, generate, load  # noqa: E402
from onnxscript.testing.values import first_mismatch  # noqa: E402
from onnxscript.values import Opset  # noqa: E402

# -- running ----------------------------------------------------------------------------------


def run_with_onnxruntime(case: Case) -> str | None:
    """Why onnxruntime itself cannot run the case (``None`` if it runs it correctly)."""
    try:
        session = runtime.session(case.model)
    except Exception as exc:
        return f"onnxruntime cannot load it: {_first_line(exc)}"
    names = [i.name for i in case.model.graph.input]
    for inputs, expected in case.data_sets:
        try:
            feeds = dict(zip(names, inputs, strict=False))
            actual = session.run(None, feeds)
        except Exception as exc:
            return f"onnxruntime cannot run it: {_first_line(exc)}"
        why = first_mismatch(actual, expected, case.rtol, case.atol, ("onnxruntime", "expected"))
        if why:
            return f"onnxruntime gets it wrong: {why}"
    return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:240]


def _defined_in(graph: onnx.GraphProto) -> set[str]:
    names = {i.name for i in graph.input} | {t.name for t in graph.initializer}
    for node in graph.node:
        names.update(o for o in node.output if o)
    return names


def free_names(graph: onnx.GraphProto) -> list[str]:
    """Names a graph (and the graphs nested in it) reads from enclosing graphs."""
    defined = _defined_in(graph)
    found: list[str] = []
    for node in graph.node:
        used = [i for i in node.input if i]
        for attr in node.attribute:
            for sub in [attr.g] if attr.type == onnx.AttributeProto.GRAPH else list(attr.graphs):
                used.extend(free_names(sub))
        for name in used:
            if name not in defined and name not in found:
                found.append(name)
    return found


def _constant_node(name: str, value: Any) -> onnx.NodeProto:
    if isinstance(value, list):
        items = [f"{name}__item{k}" for k in range(len(value))]
        return onnx.helper.make_node("SequenceConstruct", items, [name])
    return onnx.helper.make_node(
        "Constant", [], [name], value=onnx.numpy_helper.from_array(np.asarray(value))
    )


def bind_outer_values(graph: onnx.GraphProto, env: dict[str, Any]) -> onnx.GraphProto:
    """A copy of ``graph`` whose reads of enclosing values are constants (eager graph
    attributes cannot see the caller's variables)."""
    free = [n for n in free_names(graph) if n in env]
    if not free:
        return graph
    bound = onnx.GraphProto()
    bound.CopyFrom(graph)
    prefix = []
    for name in free:
        value = env[name]
        if isinstance(value, list):
            prefix.extend(_constant_node(f"{name}__item{k}", v) for k, v in enumerate(value))
        prefix.append(_constant_node(name, value))
    nodes = [*prefix, *bound.node]
    del bound.node[:]
    bound.node.extend(nodes)
    return bound


def python_body(graph: onnx.GraphProto, env: dict[str, Any], model: onnx.ModelProto) -> Any:
    """A ``@graph()`` function that runs ``graph`` eagerly, reading enclosing values from
    ``env``: what a script's nested graph function is when the script runs eagerly."""

    def body(*args: Any) -> tuple[Any, ...]:
        inner = dict(env)
        for vi, value in zip(graph.input, args, strict=False):
            inner[vi.name] = value
        run_nodes(graph, inner, model)
        return tuple(inner[o.name] for o in graph.output)

    body.__name__ = graph.name or "body"
    return onnxscript.graph()(body)


def _attribute(attr: onnx.AttributeProto, env: dict[str, Any], model: onnx.ModelProto) -> Any:
    value = onnx.helper.get_attribute_value(attr)
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, list) and value and isinstance(value[0], bytes):
        return [v.decode("utf-8") for v in value]
    if isinstance(value, onnx.GraphProto):
        # A graph reading enclosing values runs as a Python body; others run as graphs.
        if any(n in env for n in free_names(value)):
            return python_body(value, env, model)
        return value
    if isinstance(value, list) and value and isinstance(value[0], onnx.GraphProto):
        return [bind_outer_values(g, env) for g in value]
    return value


def _opset(model: onnx.ModelProto, domain: str) -> Opset:
    versions = imported_versions(model.opset_import)
    version = versions.get(domain, versions.get("", 1))
    if domain == "":
        opset = get_opset(f"opset{version}")
        if opset is not None:
            return opset
    return Opset(domain, version)


@dataclass
class EagerRun:
    outputs: list[Any]
    explicit_counts: int = 0


def run_nodes(graph: onnx.GraphProto, env: dict[str, Any], model: onnx.ModelProto) -> int:
    """Run ``graph``'s nodes one by one as eager op calls, storing outputs in ``env``.
    Returns how many calls asked for a non-default number of outputs."""
    for tensor in graph.initializer:
        env.setdefault(tensor.name, onnx.numpy_helper.to_array(tensor))
    explicit = 0
    for node in graph.node:
        op = getattr(_opset(model, node.domain), node.op_type)
        args = [env[name] if name else None for name in node.input]
        attrs = {a.name: _attribute(a, env, model) for a in node.attribute}
        n_out = len(node.output)
        sig = op.call_signature
        if sig.default_num_outputs() == n_out or (sig.free_form and n_out == 1):
            result = op(*args, **attrs)
        else:
            result = call_op(op, args, attrs, n_outputs=n_out)
            explicit += 1
        results = list(result) if isinstance(result, tuple) else [result]
        for name, value in zip(node.output, results, strict=False):
            if name:
                env[name] = value
    return explicit


def run_eagerly(case: Case, inputs: Sequence[Any]) -> EagerRun:
    """Run the model's nodes one by one as eager op calls."""
    graph = case.model.graph
    env: dict[str, Any] = {}
    for vi, value in zip(graph.input, inputs, strict=False):
        env[vi.name] = value
    explicit = run_nodes(graph, env, case.model)
    return EagerRun([env.get(o.name) for o in graph.output], explicit)


@dataclass
class Report:
    passed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    explicit_counts: list[str] = field(default_factory=list)

    @property
    def runnable(self) -> int:
        return len(self.passed) + len(self.failed)

    @property
    def pass_rate(self) -> float:
        return len(self.passed) / self.runnable if self.runnable else 1.0


def run_case(folder: Path, report: Report, verbose: bool = False) -> None:
    case = load(folder)
    if not case.data_sets:
        report.skipped.append((case.name, "no test data"))
        return
    why = run_with_onnxruntime(case)
    if why is not None:
        report.skipped.append((case.name, why))
        return
    try:
        for inputs, expected in case.data_sets:
            with np.errstate(all="ignore"):
                run = run_eagerly(case, inputs)
            found = first_mismatch(
                run.outputs, expected, case.rtol, case.atol, ("eager", "expected")
            )
            if found:
                report.failed.append((case.name, found))
                return
    except Exception as exc:
        detail = _first_line(exc)
        if verbose:
            detail += "\n" + traceback.format_exc()
        report.failed.append((case.name, detail))
        return
    report.passed.append(case.name)
    if run.explicit_counts:
        report.explicit_counts.append(case.name)


def _categories(reasons: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for reason in reasons:
        key = re.sub(r":.*", "", reason)
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def run_all(folders: Sequence[Path], verbose: bool = False) -> Report:
    report = Report()
    for folder in folders:
        run_case(folder, report, verbose)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="run about N evenly spaced cases")
    parser.add_argument("--filter", default="", help="only cases whose name contains this")
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    parser.add_argument("--json", type=Path, help="save the report as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="tracebacks of failures")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="onnx-node-tests-") as tmp:
        dest = args.keep or Path(tmp)
        folders = generate(dest, [n for n in case_names() if args.filter in n])
        if args.sample and len(folders) > args.sample:
            step = len(folders) / args.sample
            folders = [folders[int(i * step)] for i in range(args.sample)]
        print(f"{len(folders)} node test cases in {dest}")
        report = run_all(folders, args.verbose)
    elapsed = time.perf_counter() - start

    print(
        f"passed {len(report.passed)}, failed {len(report.failed)}, skipped {len(report.skipped)}"
        f" (onnxruntime itself cannot run them) in {elapsed:.0f} s"
    )
    print(f"pass rate over the cases onnxruntime runs: {report.pass_rate:.2%}")
    print(f"{len(report.explicit_counts)} passing case(s) asked for a non-default output count")
    if report.failed:
        print("failures:")
        for name, why in report.failed:
            print(f"  {name}: {why}")
    print("skip reasons:")
    for reason, count in _categories(r for _, r in report.skipped).items():
        print(f"  {count:4d}  {reason}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "passed": report.passed,
                    "failed": report.failed,
                    "skipped": report.skipped,
                    "explicit_counts": report.explicit_counts,
                },
                indent=1,
            )
        )
    return 0 if report.pass_rate >= 0.99 else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    sys.exit(main())
