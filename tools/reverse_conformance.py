"""Conformance of the reverse translator on every ONNX backend node test.

For each test generated from ``onnx.backend.test.case.node`` (written to a temporary
folder as ``model.onnx`` plus input/output protobuf files, as onnx's own ``generate-data``
does):

1. run the original model with onnxruntime; a test is *eligible* when that works and the
   results match the expected outputs (others are reported as skipped, with the reason);
2. translate it with ``proto2python``, execute the source from a string, compile it back
   with ``make_model()`` and run that with onnxruntime against the expected outputs;
3. also check that the compiled model is structurally equal to the original up to renaming,
   and that translating it again gives the same text (fixpoint); both are reported but do
   not decide pass/fail, which is about results.

    python tools/reverse_conformance.py                 # all tests, summary + failures
    python tools/reverse_conformance.py --sample 60     # a deterministic sample
    python tools/reverse_conformance.py -k loop -v      # tests whose name contains "loop"
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import onnx

from onnxscript.testing.node_tests import case_names, generate, load
from onnxscript.testing.values import first_mismatch, run_model


@dataclass
class Result:
    name: str
    status: str  # pass | fail | skip
    stage: str = ""
    message: str = ""
    isomorphic: bool | None = None
    differences: list[str] = field(default_factory=list)
    fixpoint: bool | None = None
    eager: str = ""  # "pass", or why eager evaluation of the translated function failed
    seconds: float = 0.0


def check(path: str) -> Result:
    """Run the whole round trip on one generated test folder (its first data set)."""
    from onnxscript.reverse import exec_script, proto2python
    from onnxscript.testing.isomorphism import differences

    name = os.path.basename(path)
    start = time.perf_counter()
    result = Result(name, "fail")
    try:
        case = load(Path(path))
        model = case.model
        inputs, expected = case.data_sets[0]
    except Exception as exc:
        return Result(name, "skip", "load", f"{type(exc).__name__}: {exc}")

    def mismatch(actual: Sequence[Any], what: str) -> str | None:
        return first_mismatch(actual, expected, case.rtol, case.atol, (what, "expected"))

    try:
        original = run_model(model, inputs)
    except Exception as exc:
        return Result(name, "skip", "original", _first_line(exc))
    why = mismatch(original, "onnxruntime")
    if why is not None:
        return Result(name, "skip", "original", f"onnxruntime's results differ: {why}")
    stage = "translate"
    try:
        source = proto2python(model)
        stage = "exec"
        namespace = exec_script(source)
        stage = "compile"
        compiled = namespace["make_model"]()
        stage = "check_model"
        onnx.checker.check_model(compiled)
        stage = "run"
        actual = run_model(compiled, inputs)
        stage = "compare"
        why = mismatch(actual, "compiled")
        if why is not None:
            raise AssertionError(f"results differ from the expected outputs: {why}")
        result.status = "pass"
        result.stage = ""
        result.eager = _eager(namespace, inputs, mismatch)
        try:
            result.differences = differences(model, compiled, canonical=True)
            result.isomorphic = not result.differences
            result.fixpoint = proto2python(compiled) == source
        except Exception as exc:
            result.differences.append(f"comparison failed: {_first_line(exc)}")
            result.isomorphic = False
    except Exception as exc:
        result.stage = stage
        result.message = _first_line(exc)
        if os.environ.get("REVERSE_CONFORMANCE_TRACEBACK"):
            result.message += "\n" + traceback.format_exc()
    result.seconds = time.perf_counter() - start
    return result


def _eager(
    namespace: dict[str, Any],
    inputs: Sequence[Any],
    mismatch: Callable[[Sequence[Any], str], str | None],
) -> str:
    """Call the translated main function eagerly (op by op) on the test's inputs."""
    from onnxscript.values import OnnxFunction

    functions = [v for v in namespace.values() if isinstance(v, OnnxFunction)]
    if not functions:
        return "no function"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = functions[-1](*inputs)
    except Exception as exc:
        return f"error: {_first_line(exc)}"
    why = mismatch(list(got) if isinstance(got, tuple) else [got], "eager")
    return "pass" if why is None else f"different results: {why}"


def _first_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return " | ".join(lines[:4])[:400]


def run_all(paths: Sequence[str], jobs: int) -> list[Result]:
    if jobs <= 1:
        return [check(p) for p in paths]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(jobs, maxtasksperchild=200) as pool:
        return list(pool.imap(check, paths, chunksize=4))


def summarize(results: Sequence[Result], verbose: bool) -> dict[str, Any]:
    counts = Counter(r.status for r in results)
    eligible = counts["pass"] + counts["fail"]
    rate = counts["pass"] / eligible if eligible else 1.0
    passed = [r for r in results if r.status == "pass"]
    iso = sum(1 for r in passed if r.isomorphic)
    fix = sum(1 for r in passed if r.fixpoint)
    eager = sum(1 for r in passed if r.eager == "pass")
    print(
        f"reverse conformance: {len(results)} tests, {eligible} eligible "
        f"(onnxruntime runs the original and matches the expected outputs)"
    )
    print(f"{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")
    print(
        f"pass rate {100 * rate:.2f}% of eligible; structurally equal {iso}/{len(passed)}, "
        f"fixpoint {fix}/{len(passed)}; eager evaluation of the translation matches "
        f"{eager}/{len(passed)}"
    )
    failures = [r for r in results if r.status == "fail"]
    if failures:
        print("\nfailures:")
        for r in failures:
            print(f"  {r.name} [{r.stage}] {r.message}")
    if verbose:
        skips = Counter(f"{r.stage}: {r.message[:80]}" for r in results if r.status == "skip")
        print("\nskipped:")
        for reason, n in skips.most_common():
            print(f"  {n:4d} {reason}")
        print("\nnot structurally equal:")
        for r in passed:
            if not r.isomorphic:
                print(f"  {r.name}: {'; '.join(r.differences[:3])}")
        print("\nnot a fixpoint:")
        for r in passed:
            if not r.fixpoint:
                print(f"  {r.name}")
        print("\neager evaluation of the translation differs or fails:")
        for r in passed:
            if r.eager != "pass":
                print(f"  {r.name}: {r.eager}")
    return {
        "total": len(results),
        "eligible": eligible,
        "passed": counts["pass"],
        "failed": counts["fail"],
        "skipped": counts["skip"],
        "rate": rate,
        "isomorphic": iso,
        "fixpoint": fix,
        "eager": eager,
    }


def sample_names(names: Sequence[str], count: int) -> list[str]:
    """A deterministic sample: every control-flow test (If, Loop, Scan, SequenceMap and the
    expanded functions built on them), then an even spread of the others up to ``count``."""
    names = sorted(names)
    keys = ("_loop", "test_if", "scan", "sequence_map", "range_", "affine_grid")
    control = [n for n in names if any(k in n for k in keys)]
    rest = [n for n in names if n not in control]
    room = max(0, count - len(control))
    step = max(1, len(rest) // room) if room else len(rest) + 1
    return sorted(control + rest[::step][:room])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", dest="pattern", help="only tests whose name contains this")
    parser.add_argument("--sample", type=int, help="a deterministic sample of this many tests")
    parser.add_argument("-j", "--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--json", help="write the results to this file")
    parser.add_argument(
        "--min-rate", type=float, default=0.995, help="exit with 1 when the pass rate is below this"
    )
    args = parser.parse_args(argv)
    names = case_names()
    if args.pattern:
        names = [n for n in names if args.pattern in n]
    if args.sample:
        names = sample_names(names, args.sample)
    with tempfile.TemporaryDirectory(prefix="onnx-node-tests-") as folder:
        paths = [str(p) for p in generate(Path(folder), set(names))]
        results = run_all(paths, args.jobs)
    summary = summarize(results, args.verbose)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "results": [asdict(r) for r in results]}, f, indent=1)
    return 0 if summary["rate"] >= args.min_rate else 1


if __name__ == "__main__":
    sys.exit(main())
