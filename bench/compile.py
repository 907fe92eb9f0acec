"""Compile-time benchmark: our ``@script()`` against onnxscript 0.7.2 from PyPI.

Run it with a Python that has our package installed (see README): ``python
bench/compile.py``. It creates (once, then reuses) a virtual environment with
``onnxscript==0.7.2`` in ``bench/.venv-onnxscript-0.7.2`` (``bench/support.py``) and measures both packages in the same run, each in its
own subprocesses, on the same generated files:

1. ``@script()`` time per function on the representative set of ``bench/functions.py``
   (median of many repetitions), and ``@script()`` followed by ``to_model_proto()``;
2. the import time of a generated module with 500 scripted functions (fresh interpreter each
   run), minus the import time of a module with the same imports and no function;
3. ``@script()`` time of functions of 10, 100, 1,000 and 10,000 statements (straight-line;
   mixed with if/else and for loops; and a stress shape with many values live at once),
   per statement, with a linearity verdict.

It also checks that both packages' models compute the same outputs (onnxruntime on the same
inputs). Nothing here asserts on timings: the script prints figures and ratios.

Options: ``--quick`` for a short run (no 10,000-statement size), ``--no-baseline`` to skip
0.7.2, ``--against-tree DIR`` to compare with another checkout of this repository instead, ``--baseline-timeout``/``--ours-timeout`` to cap each size measurement (reported as
"timed out"), ``--json PATH`` to also save the raw figures, ``--keep`` to keep the generated
files. A full run takes about five minutes.
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
FUNCTIONS_FILE = BENCH_DIR / "functions.py"
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))

from support import BASELINE_VENV, BASELINE_VERSION, ensure_baseline_venv  # noqa: E402

MODULE_HEADER = (
    "from onnxscript import BOOL, FLOAT, INT64, graph, script\n"
    "from onnxscript import opset18 as op\n"
)
IMPORT_FUNCTIONS = 500
SIZES = (10, 100, 1_000, 10_000)
SHAPES = ("straight", "mixed", "wide")
SHAPE_LEGEND = {
    "straight": "straight-line op calls and operators, each reading the previous value",
    "mixed": "blocks of 8: op calls, operators, an if/else and a for loop",
    "wide": "stress: each statement reads the previous value and one from halfway back, "
    "so about n/4 values are live at once",
}

# ---------------------------------------------------------------------------------------
# Workload generation (driver side; plain text, no onnxscript import).
# ---------------------------------------------------------------------------------------


def _function_sources(path: Path) -> tuple[dict[str, str], str]:
    """The source text of every top-level function of ``path`` that is not decorated, and
    the source of its ``@script()`` helpers (functions the others call)."""
    text = path.read_text()
    lines = text.splitlines()
    sources: dict[str, str] = {}
    helpers = []
    for node in ast.parse(text).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        if node.decorator_list:
            start = node.decorator_list[0].lineno - 1
            helpers.append("\n".join(lines[start : node.end_lineno or node.lineno]))
        else:
            segment = ast.get_source_segment(text, node)
            if segment is not None:
                sources[node.name] = segment
    return sources, "\n\n\n".join(helpers)


def _rename(source: str, old: str, new: str) -> str:
    return source.replace(f"def {old}(", f"def {new}(", 1)


def generate_import_module(common_names: Sequence[str]) -> tuple[str, int]:
    """A module with ``IMPORT_FUNCTIONS`` scripted functions, cycling through the common
    representative functions (the two called helpers count among them)."""
    sources, helpers = _function_sources(FUNCTIONS_FILE)
    helper_count = helpers.count("@script()")
    parts = [MODULE_HEADER, helpers]
    count = helper_count
    index = 0
    while count < IMPORT_FUNCTIONS:
        name = common_names[index % len(common_names)]
        parts.append("@script()\n" + _rename(sources[name], name, f"{name}_{index}"))
        index += 1
        count += 1
    return "\n\n".join(parts) + "\n", count


def _straight_body(statements: int) -> list[str]:
    """``statements`` straight-line statements (the last one a return) over ``x`` and
    ``y``: op calls, operators with literals and attributes, in turn."""
    lines = ["v0 = op.Add(x, y)"]
    forms = (
        "v{k} = op.Mul(v{p}, x)",
        "v{k} = v{p} * 0.5 + y",
        "v{k} = op.LeakyRelu(v{p}, alpha=0.1)",
        "v{k} = op.Sub(v{p}, y)",
        "v{k} = op.Tanh(v{p}) - 1.0",
    )
    for k in range(1, statements - 1):
        lines.append(forms[k % len(forms)].format(k=k, p=k - 1))
    lines.append(f"return v{statements - 2}" if statements > 2 else "return v0")
    return lines


_MIXED_BLOCK = (
    "a{k} = op.Add(p, x)",
    "b{k} = a{k} * 0.5 - y",
    "if op.ReduceSum(b{k}, keepdims=0) > 0.0:",
    "    c{k} = op.Relu(b{k})",
    "else:",
    "    c{k} = op.Neg(b{k})",
    "for i in range(n):",
    "    c{k} = c{k} * 0.9 + a{k}",
    "p = op.Tanh(c{k})",
)
_MIXED_BLOCK_STATEMENTS = 8  # a, b, if, c (then), c (else), for, c (body), p


def _mixed_body(statements: int) -> list[str]:
    """``statements`` statements: blocks of op calls, operators, an if/else and a for loop,
    padded with straight-line statements."""
    lines = ["p = op.Identity(x)"]
    remaining = statements - 2
    k = 0
    while remaining >= _MIXED_BLOCK_STATEMENTS:
        lines.extend(line.format(k=k) for line in _MIXED_BLOCK)
        remaining -= _MIXED_BLOCK_STATEMENTS
        k += 1
    for _ in range(remaining):
        lines.append("p = op.Add(p, y)")
    lines.append("return p")
    return lines


def _wide_body(statements: int) -> list[str]:
    """``statements`` straight-line statements, each reading the previous value and one
    defined halfway back: many values stay live at once (a stress test of liveness)."""
    lines = ["v0 = op.Add(x, y)"]
    for k in range(1, statements - 1):
        lines.append(f"v{k} = op.Add(v{k - 1}, v{k // 2})")
    lines.append(f"return v{statements - 2}" if statements > 2 else "return v0")
    return lines


def generate_sized_module(shape: str, statements: int) -> str:
    """A module defining one undecorated function ``big`` with ``statements`` statements."""
    if shape in ("straight", "wide"):
        signature = 'def big(x: FLOAT["N"], y: FLOAT["N"]) -> FLOAT["N"]:'
        body = _straight_body(statements) if shape == "straight" else _wide_body(statements)
    else:
        signature = 'def big(x: FLOAT["N"], y: FLOAT["N"], n: INT64) -> FLOAT["N"]:'
        body = _mixed_body(statements)
    return MODULE_HEADER + "\n\n" + signature + "\n" + "".join(f"    {b}\n" for b in body)


def count_statements(source: str) -> int:
    """Statements in the body of the first function of ``source`` (nested ones included)."""
    tree = ast.parse(source)
    function = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    return sum(
        1 for node in ast.walk(function) if isinstance(node, ast.stmt) and node is not function
    )


# ---------------------------------------------------------------------------------------
# Worker side: runs under either package's interpreter; imports onnxscript lazily.
# ---------------------------------------------------------------------------------------


def _time_series(
    action: Callable[[], object], min_reps: int, max_reps: int, budget: float
) -> list[float]:
    """Times of ``action`` in seconds: at least ``min_reps`` runs, then more until
    ``budget`` seconds have been spent or ``max_reps`` runs were made."""
    gc.collect()
    times: list[float] = []
    spent = 0.0
    while len(times) < max_reps and (len(times) < min_reps or spent < budget):
        start = time.perf_counter()
        action()
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        spent += elapsed
    return times


def _package_info() -> dict[str, str]:
    import onnxscript

    return {
        "version": str(getattr(onnxscript, "__version__", "?")),
        "file": str(Path(onnxscript.__file__).resolve()),
    }


def _wrapped_model(compiled: Any) -> Any:
    """A model whose graph calls the compiled function as a local function, so that its
    attribute defaults apply the way they do when another model calls it."""
    import onnx.helper as oh

    model = compiled.to_model_proto()
    proto = compiled.to_function_proto()
    node = oh.make_node(
        proto.name,
        [i.name for i in model.graph.input],
        [o.name for o in model.graph.output],
        domain=proto.domain,
    )
    graph = oh.make_graph([node], "wrapper", model.graph.input, model.graph.output)
    functions = [f for f in model.functions if (f.domain, f.name) != (proto.domain, proto.name)]
    functions.append(proto)
    imports = {o.domain: o.version for o in model.opset_import}
    for function in functions:
        for o in function.opset_import:
            imports.setdefault(o.domain, o.version)
    imports.setdefault(proto.domain, 1)
    return oh.make_model(
        graph,
        functions=functions,
        opset_imports=[oh.make_opsetid(d, v) for d, v in sorted(imports.items())],
        ir_version=model.ir_version,
    )


def worker_functions(args: argparse.Namespace) -> dict[str, Any]:
    """Per-function ``@script()`` times of the representative set, and the models."""
    import functions as bench_functions  # type: ignore[import-not-found]

    from onnxscript import script

    entries = list(bench_functions.COMMON)
    if args.include_ours_only:
        entries += bench_functions.OURS_ONLY
    out_dir = Path(args.models_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    for entry in entries:
        fn = entry.function
        record: dict[str, Any] = {}
        try:
            compiled = script()(fn)
        except Exception as error:
            record["error"] = f"{type(error).__name__}: {error}".splitlines()[0][:200]
            results[entry.name] = record
            continue
        record["script"] = _time_series(
            lambda fn=fn: script()(fn), args.min_reps, args.max_reps, args.budget
        )
        try:
            compiled.to_model_proto()
            record["script_model"] = _time_series(
                lambda fn=fn: script()(fn).to_model_proto(),
                args.min_reps,
                args.max_reps,
                args.budget,
            )
        except Exception as error:
            record["model_error"] = f"{type(error).__name__}: {error}".splitlines()[0][:200]
        for kind, build in (("model", compiled.to_model_proto), ("wrapped", None)):
            try:
                proto = build() if build is not None else _wrapped_model(compiled)
                path = out_dir / f"{entry.name}.{kind}.onnx"
                path.write_bytes(proto.SerializeToString())
                record[f"{kind}_path"] = str(path)
            except Exception as error:
                record[f"{kind}_error"] = f"{type(error).__name__}: {error}".splitlines()[0]
        results[entry.name] = record
    return {"package": _package_info(), "functions": results}


def worker_sized(args: argparse.Namespace) -> dict[str, Any]:
    """``@script()`` times of the generated function ``big`` of module ``args.module``."""
    sys.path.insert(0, str(Path(args.module).parent))
    from onnxscript import script

    module = importlib.import_module(Path(args.module).stem)
    fn = module.big
    first_start = time.perf_counter()
    script()(fn)
    first = time.perf_counter() - first_start
    times = [first]
    if first < args.budget:
        times += _time_series(lambda: script()(fn), 1, args.max_reps, args.budget - first)
    result: dict[str, Any] = {"package": _package_info(), "times": times}
    if args.also_gc_off:
        # The same with the cyclic garbage collector paused, to tell the compiler's own
        # growth from the collector's (whose full collections scan every live object).
        gc.disable()
        try:
            result["times_gc_off"] = _time_series(
                lambda: script()(fn), 1, args.max_reps, args.budget
            )
        finally:
            gc.enable()
    return result


def run_worker(args: argparse.Namespace) -> None:
    try:
        result = worker_functions(args) if args.worker == "functions" else worker_sized(args)
    except Exception as error:
        result = {"crash": f"{type(error).__name__}: {error}", "trace": traceback.format_exc()}
    Path(args.out).write_text(json.dumps(result))


# ---------------------------------------------------------------------------------------
# Driver side.
# ---------------------------------------------------------------------------------------


@dataclass
class Package:
    """One package under test: a label and the interpreter (and environment) to use."""

    label: str
    python: str
    env: dict[str, str]


def _clean_env() -> dict[str, str]:
    """The environment for the subprocesses: bytecode caching on (as for most users, and
    the same for both packages), no inherited PYTHONPATH or PYTHONHOME."""
    drop = ("PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE")
    return {k: v for k, v in os.environ.items() if k not in drop}


def _our_package() -> Package:
    env = _clean_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    return Package("ours", sys.executable, env)


def _baseline_package(python: Path) -> Package:
    return Package(f"{BASELINE_VERSION}", str(python), _clean_env())


def _tree_package(tree: Path) -> Package:
    """Another checkout of this repository (say, the commit before a change), run with
    our interpreter: the baseline when a change must not make compiling slower."""
    env = _clean_env()
    env["PYTHONPATH"] = str(tree.resolve())
    return Package(f"tree@{_git(tree, 'rev-parse', '--short', 'HEAD')}", sys.executable, env)


def _git(tree: Path, *args: str) -> str:
    """What ``git -C tree args`` prints (raises when git fails)."""
    return subprocess.run(
        ["git", "-C", str(tree), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def _run_worker(
    package: Package, work: Path, argv: list[str], timeout: float | None
) -> dict[str, Any] | None:
    """Run this file as a worker under ``package``; ``None`` if it timed out."""
    out = work / f"result-{package.label}-{time.monotonic_ns()}.json"
    command = [package.python, str(Path(__file__).resolve()), *argv, "--out", str(out)]
    try:
        completed = subprocess.run(
            command,
            env=package.env,
            cwd=work,
            timeout=timeout,
            capture_output=True,
            text=True,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None
    if not out.exists():
        return {"crash": f"worker exited {completed.returncode}", "trace": completed.stderr}
    result: dict[str, Any] = json.loads(out.read_text())
    return result


def _merge_rounds(merged: dict[str, dict[str, Any]], label: str, result: dict[str, Any]) -> None:
    """Add one round's times of a functions worker to ``merged[label]``."""
    if label not in merged:
        merged[label] = result
        return
    for name, record in result["functions"].items():
        previous = merged[label]["functions"][name]
        for key in ("script", "script_model"):
            if key in record and key in previous:
                previous[key] = previous[key] + record[key]


def _wall_time(package: Package, work: Path, code: str) -> float:
    start = time.perf_counter()
    completed = subprocess.run(
        [package.python, "-c", code],
        env=package.env,
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if completed.returncode != 0:
        raise RuntimeError(f"{package.label}: {code!r} failed:\n{completed.stderr}")
    return elapsed


def measure_imports(packages: list[Package], work: Path, runs: int) -> dict[str, Any]:
    """Wall time of ``python -c "import bench_import_500"`` and of the header alone, in
    fresh interpreters, the packages taking turns."""
    names = {"module": "bench_import_500", "header": "bench_import_header"}
    times: dict[str, dict[str, list[float]]] = {p.label: {k: [] for k in names} for p in packages}
    for package in packages:  # warm-up: bytecode caches, file system caches
        for name in names.values():
            _wall_time(package, work, f"import {name}")
    for _ in range(runs):
        for package in packages:
            for key, name in names.items():
                times[package.label][key].append(_wall_time(package, work, f"import {name}"))
    return times


def _run_model(path: str | None, inputs: list[Any]) -> list[Any] | None:
    """Outputs of the model at ``path`` on ``inputs`` (onnxruntime), or ``None`` if it
    cannot be loaded or run."""
    if path is None:
        return None
    import onnx

    from onnxscript.testing import run_model

    try:
        return run_model(onnx.load(path), inputs)
    except Exception:
        return None


def compare_meaning(ours: dict[str, Any], base: dict[str, Any], inputs: list[Any]) -> str:
    """Whether our models and the baseline's compute the same outputs on ``inputs``: first
    for ``to_model_proto()``, then for a model calling ``to_function_proto()``."""
    from onnxscript.testing import first_mismatch

    cells = []
    for kind in ("model", "wrapped"):
        ours_out = _run_model(ours.get(f"{kind}_path"), inputs)
        base_out = _run_model(base.get(f"{kind}_path"), inputs)
        if ours_out is None:
            cells.append("ours fails")
        elif base_out is None:
            cells.append("0.7.2 fails")
        else:
            same = first_mismatch(ours_out, base_out, names=("ours", "0.7.2")) is None
            cells.append("same" if same else "DIFFER")
    return " / ".join(cells)


def _git_state() -> str:
    """The repository's commit, and whether the package's sources differ from it."""
    try:
        commit = _git(REPO_ROOT, "rev-parse", "--short", "HEAD")
        dirty = _git(REPO_ROOT, "status", "--porcelain", "--", "onnxscript")
    except (OSError, subprocess.CalledProcessError):
        return "commit unknown"
    return f"commit {commit}" + (" + uncommitted changes in onnxscript/" if dirty else "")


def _load() -> str:
    """The machine's load averages (other processes skew timings; shown for honesty)."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load average unknown"
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def _median_us(times: Sequence[float]) -> float:
    return statistics.median(times) * 1e6


def _fmt_us(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 100_000:
        return f"{value / 1e6:.2f} s"
    if value >= 1_000:
        return f"{value / 1e3:.2f} ms"
    return f"{value:.0f} us"


def _fmt_ratio(ours: float | None, base: float | None) -> str:
    if ours is None or base is None or ours <= 0:
        return "-"
    return f"{base / ours:.1f}x"


def _geomean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [str(c).rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells))
    return "\n".join(lines)


def report_functions(
    ours: dict[str, Any], base: dict[str, Any] | None, bench_functions: Any, label: str = "0.7.2"
) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    rows: list[list[str]] = []
    ratios: list[float] = []
    model_ratios: list[float] = []
    for entry in bench_functions.COMMON:
        o = ours["functions"].get(entry.name, {})
        b = (base or {}).get("functions", {}).get(entry.name, {}) if base else {}
        o_us = _median_us(o["script"]) if "script" in o else None
        b_us = _median_us(b["script"]) if "script" in b else None
        om_us = _median_us(o["script_model"]) if "script_model" in o else None
        bm_us = _median_us(b["script_model"]) if "script_model" in b else None
        if o_us and b_us:
            ratios.append(b_us / o_us)
        if om_us and bm_us:
            model_ratios.append(bm_us / om_us)
        if base is None:
            meaning = "-"
        elif "error" in o or "error" in b:
            meaning = "ours: " + o["error"] if "error" in o else f"{label}: " + b["error"]
        else:
            meaning = compare_meaning(o, b, entry.inputs())
        model_cell_b = _fmt_us(bm_us) if bm_us is not None else "fails"
        rows.append(
            [
                f"{entry.name} ({entry.construct})",
                _fmt_us(o_us),
                _fmt_us(b_us),
                _fmt_ratio(o_us, b_us),
                _fmt_us(om_us),
                model_cell_b if base else "-",
                _fmt_ratio(om_us, bm_us),
                str(len(o.get("script", []))),
                meaning,
            ]
        )
        summary[entry.name] = {"ours_us": o_us, "base_us": b_us, "ours_model_us": om_us}
        summary[entry.name].update({"base_model_us": bm_us, "outputs": meaning})
    print(
        _table(
            rows,
            [
                "function (construct)",
                "ours",
                label,
                "ratio",
                "ours+model",
                f"{label}+model",
                "ratio",
                "reps",
                "outputs (model / function)",
            ],
        )
    )
    if ratios:
        print(
            f"\nper-function @script() speed-up: geometric mean {_geomean(ratios):.1f}x, "
            f"min {min(ratios):.1f}x, max {max(ratios):.1f}x"
            + (
                f"  (target: >= 5x on every function: {'met' if min(ratios) >= 5 else 'NOT met'})"
                if label == "0.7.2"
                else f"  (ratio = {label} time / ours)"
            )
        )
    if model_ratios:
        print(
            f"@script() + to_model_proto() speed-up: geometric mean "
            f"{_geomean(model_ratios):.1f}x, min {min(model_ratios):.1f}x, "
            f"max {max(model_ratios):.1f}x  (over the functions where {label} makes a model)"
        )
    summary["geomean_ratio"] = _geomean(ratios) if ratios else None
    summary["min_ratio"] = min(ratios) if ratios else None

    print("\nConstructs only we accept (0.7.2 rejects them; no baseline):")
    only_rows = []
    for entry in bench_functions.OURS_ONLY:
        o = ours["functions"].get(entry.name, {})
        if "error" in o:
            only_rows.append([f"{entry.name} ({entry.construct})", "FAILS: " + o["error"], "-"])
            continue
        o_us = _median_us(o["script"])
        om_us = _median_us(o["script_model"]) if "script_model" in o else None
        only_rows.append([f"{entry.name} ({entry.construct})", _fmt_us(o_us), _fmt_us(om_us)])
        summary[entry.name] = {"ours_us": o_us, "ours_model_us": om_us}
    print(_table(only_rows, ["function (construct)", "ours", "ours+model"]))
    return summary


def report_imports(times: dict[str, Any], packages: list[Package]) -> dict[str, Any]:
    rows = []
    summary: dict[str, Any] = {}
    for package in packages:
        t = times[package.label]
        total = statistics.median(t["module"])
        alone = statistics.median(t["header"])
        # median of the per-run differences (runs are paired: same moment, same machine)
        diff = statistics.median(m - h for m, h in zip(t["module"], t["header"], strict=True))
        summary[package.label] = {"total_s": total, "package_s": alone, "functions_s": diff}
        rows.append(
            [
                package.label,
                f"{total:.3f} s",
                f"{alone:.3f} s",
                f"{diff:.3f} s",
                _fmt_us(diff / IMPORT_FUNCTIONS * 1e6),
            ]
        )
    print(
        _table(
            rows,
            [
                "package",
                "import module (total)",
                "package alone",
                "500 functions",
                "per function",
            ],
        )
    )
    if len(packages) == 2:
        o, b = (summary[p.label] for p in packages)
        print(
            f"import of the 500 functions (difference): {b['functions_s'] / o['functions_s']:.1f}x "
            f"faster; total import: {b['total_s'] / o['total_s']:.1f}x faster"
        )
    return summary


def measure_sizes(
    packages: list[Package], work: Path, args: argparse.Namespace, sizes: Sequence[int]
) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for shape in SHAPES:
        for size in sizes:
            module = work / f"bench_size_{shape}_{size}.py"
            for package in packages:
                is_base = package.label != "ours"
                budget = args.size_budget
                argv = [
                    "--worker",
                    "sized",
                    "--module",
                    str(module),
                    "--budget",
                    str(budget),
                    "--max-reps",
                    str(args.max_reps),
                ]
                if not is_base:
                    argv.append("--also-gc-off")
                timeout = args.baseline_timeout if is_base else args.ours_timeout
                result = _run_worker(package, work, argv, timeout)
                key = f"{package.label}/{shape}/{size}"
                if result is None:
                    results[key] = {"timed_out": timeout}
                elif "crash" in result:
                    results[key] = {"error": result["crash"], "trace": result.get("trace")}
                else:
                    results[key] = {"times": result["times"]}
                    if "times_gc_off" in result:
                        results[f"{package.label} (gc off)/{shape}/{size}"] = {
                            "times": result["times_gc_off"]
                        }
    return results


def _loglog_slope(points: list[tuple[int, float]]) -> float | None:
    """Least-squares slope of log(time) against log(size): 1.0 is linear."""
    if len(points) < 2:
        return None
    xs = [math.log(s) for s, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else None


def report_sizes(
    results: dict[str, Any], packages: list[Package], sizes: Sequence[int], args: argparse.Namespace
) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    rows = []
    for shape in SHAPES:
        points: dict[str, list[tuple[int, float]]] = {p.label: [] for p in packages}
        for size in sizes:
            statements = size  # the generator's count (tests check it with count_statements)
            row = [f"{shape} {statements}"]
            best_times: dict[str, float | None] = {}
            for package in packages:
                r = results[f"{package.label}/{shape}/{size}"]
                if "times" in r:
                    # Few repetitions at the large sizes: the best one is the estimate
                    # least disturbed by other processes (the work itself is deterministic).
                    best = min(r["times"])
                    best_times[package.label] = best
                    points[package.label].append((statements, best))
                    row += [
                        _fmt_us(best * 1e6),
                        _fmt_us(best / statements * 1e6),
                        str(len(r["times"])),
                    ]
                elif "timed_out" in r:
                    best_times[package.label] = None
                    row += [f"timed out (> {r['timed_out']:.0f} s)", "-", "-"]
                else:
                    best_times[package.label] = None
                    row += ["error: " + r["error"].splitlines()[0][:60], "-", "-"]
            if len(packages) == 2:
                row.append(_fmt_ratio(best_times.get("ours"), best_times.get(packages[1].label)))
            gc_off = results.get(f"ours (gc off)/{shape}/{size}")
            if gc_off is not None:
                best = min(gc_off["times"])
                points.setdefault("ours (gc off)", []).append((statements, best))
                row.append(_fmt_us(best / statements * 1e6))
            else:
                row.append("-")
            rows.append(row)
        for label, pts in points.items():
            # Fixed per-function costs dominate at 10 statements: judge from 100 up.
            large = [(n, t) for n, t in pts if n >= 100] or pts
            per_stmt = {n: t / n for n, t in pts}
            last, previous = (large[-1][0], large[-2][0]) if len(large) >= 2 else (None, None)
            summary[f"{label}/{shape}"] = {
                "points": pts,
                "loglog_slope": _loglog_slope(large),
                "from": large[0][0],
                "to": large[-1][0],
                "per_statement_growth": (
                    per_stmt[last] / per_stmt[previous] if last and previous else None
                ),
                "growth_sizes": (previous, last),
            }
    header = ["function (statements)"]
    for package in packages:
        header += [f"{package.label}", f"{package.label}/stmt", "reps"]
    if len(packages) == 2:
        header.append("ratio")
    header.append("ours/stmt gc off")
    print(_table(rows, header))
    print(
        "\nlinearity (criterion: log-log slope of time against size <= 1.10 from 100 "
        "statements up, and time per statement at the largest size <= 1.25x that at the "
        "size before):"
    )
    for key, value in summary.items():
        slope, growth = value["loglog_slope"], value["per_statement_growth"]
        if slope is None or growth is None:
            print(f"  {key}: too few points")
            continue
        previous, last = value["growth_sizes"]
        verdict = "linear" if slope <= 1.10 and growth <= 1.25 else "NOT linear"
        value["linear"] = verdict == "linear"
        print(
            f"  {key:25s} slope {slope:.2f} over {value['from']}..{value['to']} statements; "
            f"per statement at {last} / at {previous} = {growth:.2f}  -> {verdict}"
        )
    return summary


def run_driver(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="onnxscript-bench-"))
    args.work = str(work)
    packages = [_our_package()]
    if args.against_tree:
        packages.append(_tree_package(Path(args.against_tree)))
    elif not args.no_baseline:
        packages.append(_baseline_package(ensure_baseline_venv(Path(args.venv))))
    sizes = SIZES if not args.quick else SIZES[:3]
    try:
        # Generated workloads, the same files for both packages.
        sys.path.insert(0, str(REPO_ROOT))
        import functions as bench_functions  # type: ignore[import-not-found]

        common_names = [e.name for e in bench_functions.COMMON]
        module_text, count = generate_import_module(common_names)
        (work / "bench_import_500.py").write_text(module_text)
        (work / "bench_import_header.py").write_text(MODULE_HEADER)
        for shape in SHAPES:
            for size in sizes:
                text = generate_sized_module(shape, size)
                (work / f"bench_size_{shape}_{size}.py").write_text(text)

        print("onnxscript compile benchmark")
        print(f"python {platform.python_version()} ({sys.executable}), {platform.machine()}")
        print(f"cpus: {os.cpu_count()}, time: {time.strftime('%Y-%m-%d %H:%M:%S')}, {_load()}")
        print(f"our package: {_git_state()}")

        # The packages take turns, in rounds, so that a change of machine load affects both.
        per_function: dict[str, dict[str, Any]] = {}
        for _ in range(args.rounds):
            for package in packages:
                argv = [
                    "--worker",
                    "functions",
                    "--models-dir",
                    str(work / f"models-{package.label}"),
                    "--min-reps",
                    str(max(1, args.min_reps // args.rounds)),
                    "--max-reps",
                    str(args.max_reps),
                    "--budget",
                    str(args.budget / args.rounds),
                ]
                if package.label == "ours":
                    argv.append("--include-ours-only")
                result = _run_worker(package, work, argv, None)
                if result is None or "crash" in result:
                    raise RuntimeError(f"{package.label} worker failed: {result}")
                _merge_rounds(per_function, package.label, result)
        for package in packages:
            info = per_function[package.label]["package"]
            print(f"{package.label}: onnxscript {info['version']} from {info['file']}")

        print("\n== 1. @script() time per function (median; 'ours+model' adds to_model_proto())")
        base_result = per_function.get(packages[1].label) if len(packages) == 2 else None
        functions_summary = report_functions(
            per_function["ours"], base_result, bench_functions, packages[-1].label
        )

        print(
            f"\n== 2. import time of a module with {count} scripted functions "
            f"(fresh interpreter, median of {args.import_runs} runs)"
        )
        import_times = measure_imports(packages, work, args.import_runs)
        imports_summary = report_imports(import_times, packages)

        print(
            "\n== 3. @script() time against function size (best of the repetitions, as few "
            "are made at the large sizes; '/stmt' = that time divided by the number of "
            "statements)"
        )
        for shape, legend in SHAPE_LEGEND.items():
            print(f"   {shape}: {legend}")
        size_results = measure_sizes(packages, work, args, sizes)
        sizes_summary = report_sizes(size_results, packages, sizes, args)

        print("\n== targets")
        if functions_summary.get("min_ratio") is not None and not args.against_tree:
            met = functions_summary["min_ratio"] >= 5
            print(
                f"  >= 5x faster @script() per function: {'met' if met else 'NOT met'} "
                f"(min {functions_summary['min_ratio']:.1f}x, geometric mean "
                f"{functions_summary['geomean_ratio']:.1f}x)"
            )
        for shape in ("straight", "mixed"):
            linear = sizes_summary.get(f"ours/{shape}", {}).get("linear")
            paused = sizes_summary.get(f"ours (gc off)/{shape}", {}).get("linear")
            if linear is not None:
                note = (
                    ""
                    if paused is None
                    else f" (garbage collector paused: {'met' if paused else 'NOT met'})"
                )
                print(
                    f"  linear compile time up to {sizes[-1]} statements ({shape}): "
                    f"{'met' if linear else 'NOT met'}{note}"
                )
        print(f"  finished {time.strftime('%H:%M:%S')}, {_load()}, {_git_state()}")

        if args.json:
            Path(args.json).write_text(
                json.dumps(
                    {
                        "functions": functions_summary,
                        "imports": imports_summary,
                        "sizes": sizes_summary,
                        "raw_imports": import_times,
                        "raw_sizes": size_results,
                    },
                    indent=1,
                )
            )
    finally:
        if args.keep:
            print(f"\nwork files kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and sizes")
    parser.add_argument("--no-baseline", action="store_true", help="measure our package only")
    parser.add_argument("--venv", default=str(BASELINE_VENV), help="baseline virtual env")
    parser.add_argument(
        "--against-tree",
        help="compare with another checkout of this repository instead of 0.7.2 "
        "(e.g. a `git worktree` of the commit before a change)",
    )
    parser.add_argument(
        "--baseline-timeout",
        type=float,
        default=300.0,
        help="seconds allowed to 0.7.2 for one function size (default 300)",
    )
    parser.add_argument(
        "--ours-timeout",
        type=float,
        default=600.0,
        help="seconds allowed to our package for one function size (default 600)",
    )
    parser.add_argument("--import-runs", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3, help=argparse.SUPPRESS)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    # Worker options (internal).
    parser.add_argument("--worker", choices=["functions", "sized"], help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--module", help=argparse.SUPPRESS)
    parser.add_argument("--models-dir", help=argparse.SUPPRESS)
    parser.add_argument("--include-ours-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--also-gc-off", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--min-reps", type=int, default=20, help=argparse.SUPPRESS)
    parser.add_argument("--max-reps", type=int, default=2000, help=argparse.SUPPRESS)
    parser.add_argument("--budget", type=float, default=1.5, help=argparse.SUPPRESS)
    parser.add_argument("--size-budget", type=float, default=3.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick and args.worker is None:
        args.import_runs = min(args.import_runs, 3)
        args.rounds = 1
        args.budget = min(args.budget, 0.2)
        args.min_reps = min(args.min_reps, 5)
        args.size_budget = min(args.size_budget, 0.5)
        args.baseline_timeout = min(args.baseline_timeout, 60.0)
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.worker:
        run_worker(args)
    else:
        run_driver(args)


if __name__ == "__main__":
    main()
