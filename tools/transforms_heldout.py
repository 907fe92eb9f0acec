"""Held-out comparison of the graph transformations with onnxscript 0.7.2 (issue 34).

1. Writes the corpus of the differential test (``tests/transforms``: onnx node tests,
   exporter-suite models, rule-family graphs, mutants) with its inputs to ``--out``.
2. Runs the same transforms (``tests/transforms/transform_list.py``, loaded by path) on
   every case through each package, each in its own processes started from ``/tmp`` (so
   that the interpreter imports its own installed onnxscript): ours with this venv's
   Python, 0.7.2 with ``--ref-python`` (default ``/work/ref072/bin/python``). The results
   (models, or the error raised) go to ``--out/<side>/``.
3. Judges both sides' results with this repository's harness (checker where it passed,
   onnxruntime loads and runs it, same outputs) and prints, per transform, how often each
   side is right, then every case where ours is wrong, invalid, rejected or crashing while
   0.7.2 is right (grouped by transform, outcome and message, the smallest model of each
   group printed in onnx's text format), and the reverse (counts and groups).

A side's error is "refused" when it is one of onnxscript's documented errors (ours:
``OnnxScriptError``; 0.7.2 has no such base, so each of its errors is a rejection) and
"internal-error" otherwise; a worker process that dies is an internal error of the case it
was on. Run: ``python tools/transforms_heldout.py --out /tmp/heldout`` (about 15 minutes
on 2 cores); ``--judge-only`` re-judges existing results.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TRANSFORM_LIST = ROOT / "tests" / "transforms" / "transform_list.py"


# -- the worker: runs under either package ----------------------------------------------------


def _load_transform_list() -> Any:
    spec = importlib.util.spec_from_file_location("transform_list", TRANSFORM_LIST)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["transform_list"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _is_refusal(error: BaseException) -> bool:
    while type(error).__name__ == "PassError" and error.__cause__ is not None:
        error = error.__cause__
    try:
        from onnxscript.errors import OnnxScriptError  # ours only
    except ImportError:
        return False
    return isinstance(error, OnnxScriptError)


def _expire(signum: int, frame: Any) -> None:
    raise TimeoutError("the transform ran over 120 s")


def apply_worker(out: Path, side: str, part: int, parts: int, skip: int) -> None:
    """Apply each case's transforms; write ``<side>/<index>/<transform>.onnx`` or
    ``.json`` (the error). A ``started`` file names what is running (for crashes)."""
    import logging
    import warnings

    import onnx

    import onnxscript

    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)
    transforms = _load_transform_list()
    manifest = json.loads((out / "manifest.json").read_text())
    (out / side).mkdir(exist_ok=True)
    (out / side / "version.txt").write_text(f"{onnxscript.__version__} {onnxscript.__file__}")
    signal.signal(signal.SIGALRM, _expire)
    mine = [(k, e) for k, e in enumerate(manifest) if k % parts == part][skip:]
    for index, entry in mine:
        folder = out / side / f"{index:05d}"
        folder.mkdir(exist_ok=True)
        model = onnx.load(str(Path(entry["folder"]) / "model.onnx"))
        for name in entry["transforms"]:
            (out / side / f"started-{part}").write_text(json.dumps([index, name]))
            file_name = name.replace(":", "_")
            signal.alarm(120)
            try:
                result = transforms.transform(name).apply(model)
                signal.alarm(0)
                (folder / f"{file_name}.onnx").write_bytes(result.SerializeToString())
            except BaseException as error:  # recorded: the judge classifies it
                signal.alarm(0)
                if isinstance(error, KeyboardInterrupt):
                    raise
                cause = error
                while type(cause).__name__ == "PassError" and cause.__cause__ is not None:
                    cause = cause.__cause__
                frames = [
                    f"{f.filename[f.filename.rfind('onnxscript') :]}:{f.lineno}"
                    for f in traceback.extract_tb(cause.__traceback__)
                    if "onnxscript" in f.filename
                ]
                record = {
                    "type": type(cause).__name__,
                    "message": str(cause)[:500],
                    "refusal": _is_refusal(error),
                    "where": frames[-1] if frames else "",
                    "timeout": isinstance(cause, TimeoutError),
                }
                (folder / f"{file_name}.json").write_text(json.dumps(record))
        (out / side / f"done-{part}").write_text(str(index))


def run_side(out: Path, side: str, python: str, part: int, parts: int) -> None:
    """One worker of one side to the end, restarted past a case that kills it."""
    skip = 0
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if side == "ours" and os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]  # a snapshot of our package
    log = open(out / f"{side}-{part}.log", "w")  # noqa: SIM115
    while True:
        command = [python, str(Path(__file__).resolve()), "--apply", str(out), "--side", side]
        command += ["--part", f"{part}/{parts}", "--skip", str(skip)]
        done = subprocess.run(command, cwd="/tmp", env=env, stdout=log, stderr=log, check=False)
        if done.returncode == 0:
            return
        started = out / side / f"started-{part}"
        if not started.exists():
            raise RuntimeError(f"{side} worker {part} failed at start: see {log.name}")
        index, name = json.loads(started.read_text())
        folder = out / side / f"{index:05d}"
        record = {
            "type": "ProcessDied",
            "message": f"the process died (exit {done.returncode})",
            "refusal": False,
            "where": "",
            "timeout": False,
        }
        (folder / f"{name.replace(':', '_')}.json").write_text(json.dumps(record))
        manifest = json.loads((out / "manifest.json").read_text())
        mine = [k for k in range(len(manifest)) if k % parts == part]
        skip = mine.index(index) + 1
        started.unlink()


# -- the judge: this repository's harness -----------------------------------------------------


def _kind_of_error(record: dict[str, Any]) -> tuple[str, str]:
    if record["timeout"]:
        return "timeout", record["message"]
    kind = "refused" if record["refusal"] else "internal-error"
    where = f" at {record['where']}" if record["where"] else ""
    return kind, f"{record['type']}: {record['message'][:300]}{where}"


def judge_worker(out: Path, part: int, parts: int) -> None:
    """Judge both sides' results of this part's cases; one JSON line each."""
    import logging
    import warnings

    import onnx

    from tests.transforms import corpus, harness

    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)
    manifest = json.loads((out / "manifest.json").read_text())
    with open(out / f"judged-{part}.jsonl", "w") as log:
        for index, entry in enumerate(manifest):
            if index % parts != part:
                continue
            case = corpus.read_case(entry)
            ref = harness.reference(case)
            for name, row in zip(entry["transforms"], entry["rows"]):
                result: dict[str, Any] = {"index": index, "case": entry["name"]}
                result |= {"transform": name, "row": row, "source": entry["source"]}
                for side in ("ours", "ref"):
                    folder = out / side / f"{index:05d}"
                    stem = name.replace(":", "_")  # "onnx_fusions.fuse": no with_suffix
                    error_file, model_file = folder / f"{stem}.json", folder / f"{stem}.onnx"
                    if error_file.exists():
                        kind, detail = _kind_of_error(json.loads(error_file.read_text()))
                    elif model_file.exists():
                        after = onnx.load(str(model_file))
                        outcome = harness.judge_result(case, name, after, ref)
                        kind, detail = outcome.kind, outcome.detail
                    else:
                        kind, detail = "missing", "no result written"
                    result[side] = [kind, detail]
                log.write(json.dumps(result) + "\n")


GOOD = ("ok",)


def _signature(kind: str, detail: str) -> str:
    from tests.transforms.harness import blurred_message

    return f"{kind}: " + blurred_message(detail, 150)


def report(out: Path, parts: int) -> int:
    import onnx
    import onnx.printer

    manifest = json.loads((out / "manifest.json").read_text())
    results = []
    for part in range(parts):
        results += [json.loads(x) for x in (out / f"judged-{part}.jsonl").read_text().splitlines()]
    for side in ("ours", "ref"):
        print(f"{side}: onnxscript {(out / side / 'version.txt').read_text()}")
    print(f"corpus: {len(manifest)} cases, {len(results)} (case, transform) pairs")
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    worse: dict[str, dict[tuple[str, str, str], list[dict[str, Any]]]] = {
        "ours": defaultdict(list),
        "ref": defaultdict(list),
    }
    for r in results:
        ours_ok, ref_ok = r["ours"][0] in GOOD, r["ref"][0] in GOOD
        counts = rows[r["row"]]
        counts["pairs"] += 1
        counts["ours ok"] += ours_ok
        counts["0.7.2 ok"] += ref_ok
        counts["both ok"] += ours_ok and ref_ok
        if ref_ok and not ours_ok:
            counts["ours worse"] += 1
            worse["ours"][(r["row"], r["ours"][0], _signature(*r["ours"]))].append(r)
        if ours_ok and not ref_ok:
            counts["0.7.2 worse"] += 1
            worse["ref"][(r["row"], r["ref"][0], _signature(*r["ref"]))].append(r)
        counts["ours internal-error"] += r["ours"][0] in ("internal-error", "timeout")
        counts["0.7.2 internal-error"] += r["ref"][0] in ("internal-error", "timeout")
    columns = (
        "pairs",
        "ours ok",
        "0.7.2 ok",
        "both ok",
        "ours worse",
        "0.7.2 worse",
        "ours internal-error",
        "0.7.2 internal-error",
    )
    width = max(len(r) for r in rows) + 1
    print("\n" + f"{'transform':<{width}}" + "".join(f"{c:>21}" for c in columns))
    total: Counter[str] = Counter()
    for row in sorted(rows):
        total.update(rows[row])
        print(f"{row:<{width}}" + "".join(f"{rows[row][c]:>21}" for c in columns))
    print(f"{'total':<{width}}" + "".join(f"{total[c]:>21}" for c in columns))
    for side, title in (
        ("ours", "OURS wrong/invalid/rejected/crashing, 0.7.2 right"),
        ("ref", "0.7.2 wrong/invalid/rejected/crashing, ours right"),
    ):
        groups = worse[side]
        print(f"\n== {title}: {sum(len(g) for g in groups.values())} pairs in {len(groups)} groups")
        for (row, _kind, signature), items in sorted(groups.items(), key=lambda g: -len(g[1])):
            print(f"\n[{row}] x{len(items)} {signature}")
            for r in items[:5]:
                print(f"    {r['case']} ({r['transform']})")
            if len(items) > 5:
                print(f"    ... {len(items) - 5} more")
            if side == "ours":
                smallest = min(items, key=lambda r: manifest[r["index"]]["nodes"])
                model = onnx.load(str(Path(manifest[smallest["index"]]["folder"]) / "model.onnx"))
                text = onnx.printer.to_text(model)
                if len(text) < 2500:
                    print(f"  smallest: {smallest['case']} ({smallest['transform']}):")
                    print("    " + text.replace("\n", "\n    "))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--mutants", type=int, default=3000)
    parser.add_argument("--family-seeds", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ref-python", default="/work/ref072/bin/python")
    parser.add_argument("--judge-only", action="store_true")
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--apply", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--judge", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--side", default="ours", help=argparse.SUPPRESS)
    parser.add_argument("--part", default="0/1", help=argparse.SUPPRESS)
    parser.add_argument("--skip", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    part, parts = (int(p) for p in args.part.split("/"))
    if args.apply:
        apply_worker(args.apply, args.side, part, parts, args.skip)
        return 0
    sys.path.append(str(ROOT))
    if args.judge:
        judge_worker(args.judge, part, parts)
        return 0
    out = args.out or Path(tempfile.mkdtemp(prefix="transforms-heldout-"))
    out.mkdir(parents=True, exist_ok=True)
    if not (args.judge_only or args.report_only):
        from tests.transforms import corpus

        start = time.time()
        manifest = corpus.write_corpus(out, args.mutants, args.family_seeds)
        print(f"corpus of {len(manifest)} cases written to {out} in {time.time() - start:.0f} s")
        start = time.time()
        sides = [("ours", sys.executable), ("ref", args.ref_python)]
        threads = [
            threading.Thread(target=run_side, args=(out, side, python, k, args.jobs))
            for side, python in sides
            for k in range(args.jobs)
        ]
        for k in range(0, len(threads), args.jobs):  # one side at a time, jobs workers each
            for thread in threads[k : k + args.jobs]:
                thread.start()
            for thread in threads[k : k + args.jobs]:
                thread.join()
        print(f"transforms applied by both packages in {time.time() - start:.0f} s")
    if not args.report_only:
        start = time.time()
        judges = [
            subprocess.Popen(
                [sys.executable, __file__, "--judge", str(out), "--part", f"{k}/{args.jobs}"]
            )
            for k in range(args.jobs)
        ]
        for judge in judges:
            judge.wait()
        print(f"judged in {time.time() - start:.0f} s")
    return report(out, args.jobs)


if __name__ == "__main__":
    sys.exit(main())
