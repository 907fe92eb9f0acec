"""The full differential test of the graph transformations (issue 34, item 3).

Builds the whole corpus (every onnx node test, ``--family-seeds`` seeded graphs of each
rule family, the torch exports of the full list, ``--mutants`` validated mutants), writes
it under ``--out``, runs every transform on every case in ``--jobs`` worker processes (a
worker that dies, say in onnxruntime, is restarted after the case it was on, which counts
as an internal error), and prints:

- the table: cases per transform, outcomes by kind, cases where onnxruntime itself deviates
  from a node test's expected outputs;
- the failures, grouped by transform, kind and message, with the cases of each group
  (a case matched by a known bug of ``tests/transforms/known.py`` is marked with its item);
- onnxruntime's deviations from the spec, against the recorded list.

Run from the repository: ``python tools/transforms_differential.py`` (about 10 minutes on
2 cores). ``--out`` keeps the corpus and the per-case results (``results-*.jsonl``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH: a snapshot of the package may go first


def worker(out: Path, part: int, parts: int, skip: int, names: list[str] | None) -> None:
    """Judge the cases ``k`` with ``k % parts == part`` (after the first ``skip`` of them),
    one JSON line per outcome, a ``start`` line before each transform."""
    import logging
    import warnings

    from tests.transforms import corpus, harness

    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)
    manifest = json.loads((out / "manifest.json").read_text())
    mine = [e for k, e in enumerate(manifest) if k % parts == part][skip:]
    with open(out / f"results-{part}.jsonl", "a") as log:
        for entry in mine:
            case = corpus.read_case(entry)
            ref = harness.reference(case)
            log.write(
                json.dumps(
                    {
                        "case": entry["name"],
                        "reference": True,
                        "deviation": ref.deviation,
                        "ort_ok": ref.ort_ok,
                        "checker_ok": ref.checker_ok,
                    }
                )
                + "\n"
            )
            for name in harness.transforms_for(case, full=True, names=names):
                log.write(json.dumps({"start": [entry["name"], name]}) + "\n")
                log.flush()
                outcome = harness.judge(case, name, ref)
                log.write(
                    json.dumps(
                        {
                            "case": entry["name"],
                            "source": entry["source"],
                            "transform": name,
                            "row": harness.row_of(case, name),
                            "kind": outcome.kind,
                            "detail": outcome.detail,
                        }
                    )
                    + "\n"
                )
            log.write(json.dumps({"done": entry["name"]}) + "\n")
            log.flush()


def run_part(out: Path, part: int, parts: int, names: list[str] | None) -> None:
    """Run one worker to the end, restarting it after a case that killed it."""
    skip = 0
    log_path = out / f"results-{part}.jsonl"
    log_path.unlink(missing_ok=True)
    while True:
        command = [sys.executable, __file__, "--worker", str(out), "--part", f"{part}/{parts}"]
        command += ["--skip", str(skip)]
        if names:
            command += ["--transforms", ",".join(names)]
        done = subprocess.run(command, check=False)
        if done.returncode == 0:
            return
        lines = [json.loads(line) for line in log_path.read_text().splitlines() if line.strip()]
        finished = sum(1 for line in lines if "done" in line)
        started = [line["start"] for line in lines if "start" in line]
        with open(log_path, "a") as log:
            if started:
                case, name = started[-1]
                log.write(
                    json.dumps(
                        {
                            "case": case,
                            "source": "?",
                            "transform": name,
                            "row": name,
                            "kind": "internal-error",
                            "detail": f"the process died (exit {done.returncode})",
                        }
                    )
                    + "\n"
                )
            log.write(json.dumps({"done": started[-1][0] if started else "?"}) + "\n")
        skip = finished + 1


def report(out: Path, parts: int) -> int:
    from tests.transforms import known
    from tests.transforms.harness import blurred_message

    manifest = json.loads((out / "manifest.json").read_text())
    source_of = {e["name"]: e["source"] for e in manifest}
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    deviations: dict[str, str] = {}
    groups: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    failures = unexplained = 0
    for part in range(parts):
        path = out / f"results-{part}.jsonl"
        for line in path.read_text().splitlines():
            item = json.loads(line)
            if item.get("reference"):
                if item["deviation"]:
                    deviations[item["case"]] = item["deviation"]
                continue
            if "kind" not in item:
                continue
            counts = rows[item["row"]]
            counts["cases"] += 1
            counts[item["kind"]] += 1
            if item["case"] in deviations:
                counts["ort deviates"] += 1
            if item["kind"] not in ("ok", "refused", "ort-no-kernel", "ort-bug"):
                failures += 1
                bug = known.known_bug_of(
                    item["case"], item["transform"], item["kind"], item["detail"]
                )
                mark = f" [known: item {bug.item}, {bug.name}]" if bug else ""
                unexplained += bug is None
                key = (item["row"], item["kind"], blurred_message(item["detail"], 160))
                groups[key].append(f"{item['case']} ({item['transform']}){mark}")
    from tests.transforms import harness

    by_source = Counter(source_of.values())
    print(f"corpus: {len(manifest)} cases {dict(by_source)}")
    discarded = json.loads((out / "discarded.json").read_text())
    print(f"mutants discarded before use: {sum(discarded.values())} {discarded}")
    print()
    print(harness.table(rows))
    print()
    print(
        f"failures: {failures}, in {len(groups)} groups; {unexplained} not explained by a known bug"
    )
    for (row, kind, signature), cases in sorted(groups.items(), key=lambda g: -len(g[1])):
        print(f"\n[{row}] {kind} x{len(cases)}: {signature}")
        for case in cases[:6]:
            print(f"    {case}")
        if len(cases) > 6:
            print(f"    ... {len(cases) - 6} more")
    print("\nonnxruntime deviations from the node tests' expected outputs:")
    mutants = sorted(c for c in deviations if "~m" in c)
    print(f"    ({len(mutants)} mutants of these deviate as their base does)")
    for case in sorted(c for c in deviations if "~m" not in c):
        listed = "recorded" if case in known.ORT_DEVIATIONS else "NOT RECORDED"
        print(f"    {case} [{listed}]: {deviations[case][:150]}")
    for case in sorted(
        set(known.ORT_DEVIATIONS) - set(deviations) - known.ORT_DEVIATIONS_NOT_REPEATABLE
    ):
        print(f"    {case}: recorded but onnxruntime now agrees with the spec")
    return 1 if unexplained else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--mutants", type=int, default=3000)
    parser.add_argument("--family-seeds", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--transforms", default="", help="comma-separated; default all")
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--part", default="0/1", help=argparse.SUPPRESS)
    parser.add_argument("--skip", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [n for n in args.transforms.split(",") if n] or None
    if args.worker:
        part, parts = (int(p) for p in args.part.split("/"))
        worker(args.worker, part, parts, args.skip, names)
        return 0
    out = args.out or Path(tempfile.mkdtemp(prefix="transforms-differential-"))
    if not args.report_only:
        start = time.time()
        from tests.transforms import corpus

        manifest = corpus.write_corpus(out, args.mutants, args.family_seeds)
        print(f"corpus of {len(manifest)} cases written to {out} in {time.time() - start:.0f} s")
        start = time.time()
        import threading

        threads = [
            threading.Thread(target=run_part, args=(out, k, args.jobs, names))
            for k in range(args.jobs)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(f"transforms judged in {time.time() - start:.0f} s")
    return report(out, args.jobs)


if __name__ == "__main__":
    sys.exit(main())
