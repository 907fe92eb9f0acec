"""The checks of the differential test of the graph transformations, shared by the CI
test (``test_differential.py``), the full run (``tools/transforms_differential.py``) and the
held-out comparison with onnxscript 0.7.2 (``tools/transforms_heldout.py``).

A case is :class:`onnxscript.testing.node_tests.Case`: a model and data sets (inputs, and
the expected outputs when the case has them: onnx's node tests do, generated models do
not). For one case and one transform, :func:`judge` answers with an :class:`Outcome`:

- ``ok``: the transformed model passes what the original passed and computes the same;
- ``refused``: the transform raised a documented error (``onnxscript.OnnxScriptError``);
- ``internal-error``: it raised anything else (an IndexError from inside the package...);
- ``checker-regression``: onnx.checker (full) accepted the model before, not after (a
  result holding onnxruntime contrib ops is judged by onnxruntime loading it instead);
- ``ort-failure``: onnxruntime loaded and ran the model before, not after;
- ``wrong-output``: other outputs (count, names, element type, shape, values beyond the
  element type's tolerance; NaN equals NaN), or other graph inputs;
- ``timeout``: the transform did not finish in time;
- ``ort-no-kernel``: not a failure: the model is valid (checker) but onnxruntime has no
  kernel for one of its standard ops at that opset (a version conversion up to an opset
  onnxruntime 1.32 does not implement for that op);
- ``ort-bug``: not a failure: onnxruntime fails on the (checker-clean) model with one of
  its own bugs recorded in ``known.ORT_FAILURES`` with the evidence.

Where onnxruntime computes different outputs on two runs of the model before the
transform (its training-mode BatchNormalization on some inputs, random ops), only the
outputs' element types and shapes are compared.

Outputs after the transform are compared with onnxruntime's before it; where onnxruntime
deviates from the spec (its outputs before differ from a node test's expected ones), an
output equal to the expected one is right as well: the case's :class:`Reference` records
the deviation, and ``known.py`` lists each deviation with its evidence.
"""

from __future__ import annotations

import dataclasses
import re
import signal
import traceback
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import onnx

from onnxscript.testing import first_mismatch
from onnxscript.testing.node_tests import Case
from tests.transforms.transform_list import (
    CONVERT,
    TRANSFORMS,
    conversion_targets,
    model_opset,
    transform,
)

KINDS = (
    "ok",
    "refused",
    "ort-no-kernel",
    "ort-bug",
    "internal-error",
    "checker-regression",
    "ort-failure",
    "wrong-output",
    "timeout",
)
FAILURES = ("internal-error", "checker-regression", "ort-failure", "wrong-output", "timeout")

CONTRIB_DOMAINS = {"com.microsoft", "com.microsoft.nchwc", "ai.onnx.contrib"}


# -- onnxruntime ----------------------------------------------------------------------------


def session(proto: onnx.ModelProto) -> Any:
    """An onnxruntime CPU session of ``proto`` with onnxruntime's own graph optimizations
    off (models are compared as written)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.log_severity_level = 4
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(
        proto.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )


def feeds_of(proto: onnx.ModelProto, inputs: Sequence[Any]) -> dict[str, Any]:
    """The inputs of one data set by graph input name (the data sets list them in the
    order of the graph's inputs)."""
    return {info.name: _ort_value(v) for info, v in zip(proto.graph.input, inputs)}


def _ort_value(value: Any) -> Any:
    if isinstance(value, list):
        return [np.asarray(v) for v in value]
    if value is None or isinstance(value, dict):
        return value
    return np.asarray(value)  # onnxruntime takes no numpy scalars


def run_all(sess: Any, proto: onnx.ModelProto, case: Case) -> list[list[Any]]:
    """onnxruntime's outputs of every data set of ``case``."""
    names = {i.name for i in sess.get_inputs()}
    results = []
    for inputs, _ in case.data_sets:
        feeds = {k: v for k, v in feeds_of(proto, inputs).items() if k in names}
        results.append(list(sess.run(None, feeds)))
    return results


# -- comparing outputs ----------------------------------------------------------------------


def _first_array(value: Any) -> Any:
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    return value


def tolerance(value: Any, rtol: float, atol: float, fuses: bool) -> tuple[float, float]:
    """The tolerance of an output: the case's, widened to its element type's rounding (and
    a fused op's different order of operations)."""
    array = _first_array(value)
    name = str(getattr(array, "dtype", ""))
    floor = {
        "float16": (2e-2, 2e-2),
        "bfloat16": (5e-2, 5e-2),
        "float32": (1e-4, 1e-5),
        "float64": (1e-9, 1e-12),
    }.get(name)
    if floor is None:
        return rtol, atol
    if fuses and name == "float32":
        floor = (1e-3, 1e-4)
    return max(rtol, floor[0]), max(atol, floor[1])


def mismatch(
    got: Sequence[Any],
    want: Sequence[Any],
    rtol: float,
    atol: float,
    fuses: bool = False,
    structure_only: bool = False,
) -> str | None:
    """Where the outputs ``got`` differ from ``want`` (None when equal within each
    output's tolerance; NaN equals NaN). ``structure_only``: element types and shapes."""
    if len(got) != len(want):
        return f"{len(got)} outputs, expected {len(want)}"
    if structure_only:
        got, want = [_structure(g) for g in got], [_structure(w) for w in want]
    for i, (g, w) in enumerate(zip(got, want)):
        r, a = tolerance(w, rtol, atol, fuses)
        found = first_mismatch([_plain(g)], [_plain(w)], r, a, names=("after", "before"))
        if found is not None:
            return f"output {i}{found[len('output 0') :]}"
    return None


def _structure(value: Any) -> Any:
    """A value with its numbers replaced by zeros (its type and shape kept)."""
    if isinstance(value, (list, tuple)):
        return [_structure(v) for v in value]
    if value is None or isinstance(value, dict):
        return value
    array = np.asarray(value)
    return np.zeros(array.shape, array.dtype)


def _plain(value: Any) -> Any:
    """A value as first_mismatch compares it: strings as numpy strings, sequences as lists."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, dict):
        return value
    array = np.asarray(value)
    if array.dtype.kind in "OSU":
        return array.astype(str)
    if array.dtype.name.startswith("float8"):  # onnxruntime gives float8 as its bytes
        return array.view(np.uint8)
    return array


# -- the case before the transform -----------------------------------------------------------


@dataclasses.dataclass
class Reference:
    """What is known of a case's model before any transform."""

    checker_ok: bool
    checker_error: str
    ort_ok: bool
    ort_error: str
    outputs: list[list[Any]]
    deviation: str | None
    """How onnxruntime's outputs differ from the case's expected ones (None: they agree,
    or the case has none)."""
    unstable: str | None = None
    """How two runs of onnxruntime on the model differ (None: they agree)."""


def check_full(proto: onnx.ModelProto) -> str | None:
    """The full checker's complaint about ``proto`` (None when it passes)."""
    try:
        onnx.checker.check_model(proto, full_check=True)
    except Exception as error:  # onnx's checker and shape inference errors
        return f"{type(error).__name__}: {str(error)[:300]}"
    return None


RANDOM_OPS = {
    "RandomNormal",
    "RandomUniform",
    "RandomNormalLike",
    "RandomUniformLike",
    "Multinomial",
    "Bernoulli",
}


def _nondeterministic(graph: onnx.GraphProto) -> str | None:
    """Why onnxruntime's outputs of the graph may differ between runs (random ops; a
    training-mode Dropout or BatchNormalization, whose onnxruntime kernel is not
    repeatable), or None."""
    for node in graph.node:
        attrs = {a.name: a for a in node.attribute}
        if node.op_type in RANDOM_OPS:
            return f"{node.op_type} is random"
        if node.op_type == "Dropout" and len(node.input) >= 3 and node.input[2]:
            return "a Dropout with a training_mode input"
        if node.op_type == "BatchNormalization" and "training_mode" in attrs:
            if attrs["training_mode"].i:
                return "a training-mode BatchNormalization (onnxruntime's is not repeatable)"
        for attr in node.attribute:
            for sub in [attr.g] if attr.HasField("g") else list(attr.graphs):
                found = _nondeterministic(sub)
                if found:
                    return found
    return None


def reference(case: Case) -> Reference:
    checker = check_full(case.model)
    try:
        sess = session(case.model)
        outputs = run_all(sess, case.model, case)
        unstable = _nondeterministic(case.model.graph) or mismatch(
            run_all(session(case.model), case.model, case)[0], outputs[0], 0, 0
        )
    except Exception as error:  # onnxruntime cannot load or run it: outputs not judged
        return Reference(checker is None, checker or "", False, _short(error), [], None)
    deviation = None
    for got, (_, want) in zip(outputs, case.data_sets):
        if want and len(want) <= len(got):  # a mutant adds outputs after the case's
            deviation = mismatch(got[: len(want)], want, case.rtol, case.atol)
            if deviation:
                break
    return Reference(checker is None, checker or "", True, "", outputs, deviation, unstable)


def _short(error: BaseException, limit: int = 300) -> str:
    return f"{type(error).__name__}: {str(error).strip()[:limit]}"


# -- judging one transform -------------------------------------------------------------------


@dataclasses.dataclass
class Outcome:
    case: str
    transform: str
    kind: str
    detail: str = ""


class TransformTimeout(Exception):
    pass


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise TransformTimeout after ``seconds`` (main thread only; no limit elsewhere)."""

    def expire(signum: int, frame: Any) -> None:
        raise TransformTimeout(f"over {seconds} s")

    try:
        previous = signal.signal(signal.SIGALRM, expire)
    except ValueError:  # not the main thread
        yield
        return
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def is_refusal(error: BaseException) -> bool:
    """A documented refusal: one of onnxscript's own error classes."""
    try:
        from onnxscript.errors import OnnxScriptError
    except ImportError:  # onnxscript 0.7.2 has no common base: every error is a rejection
        return False
    return isinstance(error, OnnxScriptError)


def root_cause(error: BaseException) -> BaseException:
    """The error behind the wrappers (onnx_ir's PassError names the pass, not the fault)."""
    while type(error).__name__ == "PassError" and error.__cause__ is not None:
        error = error.__cause__
    return error


def internal_location(error: BaseException) -> str:
    """``file:line`` of the innermost frame of onnxscript in the error's traceback."""
    frames = traceback.extract_tb(error.__traceback__)
    for frame in reversed(frames):
        if "onnxscript" in frame.filename:
            tail = frame.filename[frame.filename.rfind("onnxscript") :]
            return f" at {tail}:{frame.lineno}"
    return ""


def has_contrib_ops(proto: onnx.ModelProto) -> bool:
    """Whether the main graph holds an onnxruntime contrib op: one of its domains, or an
    op of the default domain onnx does not define (SimplifiedLayerNormalization)."""
    return any(
        node.domain in CONTRIB_DOMAINS
        or (node.domain in ("", "ai.onnx") and not onnx.defs.has(node.op_type))
        for node in proto.graph.node
    )


def apply(case: Case, name: str, seconds: int = 120) -> onnx.ModelProto | Outcome:
    """The transformed model, or the outcome of a transform that raised."""
    step = transform(name)
    try:
        with time_limit(seconds), np.errstate(all="ignore"):
            return step.apply(case.model)
    except TransformTimeout as error:
        return Outcome(case.name, name, "timeout", str(error))
    except Exception as error:  # classified: a refusal or an internal error
        cause = root_cause(error)
        kind = "refused" if is_refusal(cause) else "internal-error"
        return Outcome(case.name, name, kind, _short(cause) + internal_location(cause))


def judge_result(case: Case, name: str, after: onnx.ModelProto, ref: Reference) -> Outcome:
    """The outcome of the transformed model ``after`` against the case's reference."""
    step = transform(name)
    contrib = step.contrib and has_contrib_ops(after)
    if ref.checker_ok and not contrib:
        complaint = check_full(after)
        if complaint is not None:
            return Outcome(case.name, name, "checker-regression", complaint)
    before_inputs = [i.name for i in case.model.graph.input]
    after_inputs = [i.name for i in after.graph.input]
    init_names = {t.name for t in after.graph.initializer}
    if [n for n in after_inputs if n not in init_names] != [
        n for n in before_inputs if n not in {t.name for t in case.model.graph.initializer}
    ]:
        return Outcome(
            case.name, name, "wrong-output", f"graph inputs {before_inputs} became {after_inputs}"
        )
    before_outputs = [o.name for o in case.model.graph.output]
    after_outputs = [o.name for o in after.graph.output]
    if before_outputs != after_outputs:
        return Outcome(
            case.name,
            name,
            "wrong-output",
            f"graph outputs {before_outputs} became {after_outputs}",
        )
    if not ref.ort_ok:
        return Outcome(case.name, name, "ok", "outputs not compared: onnxruntime fails before")
    try:
        sess = session(after)
    except Exception as error:  # the transform broke loading
        if _no_kernel(error, case, after, name):
            return Outcome(case.name, name, "ort-no-kernel", _short(error))
        return _ort_failure(case, name, after, "load: " + _short(error))
    try:
        outputs = run_all(sess, after, case)
    except Exception as error:  # or running
        return _ort_failure(case, name, after, "run: " + _short(error, 1000))
    for k, (got, before) in enumerate(zip(outputs, ref.outputs)):
        found = mismatch(got, before, case.rtol, case.atol, step.fuses, bool(ref.unstable))
        if found is None:
            continue
        if ref.deviation and _matches_spec(got, before, case.data_sets[k][1], case, step.fuses):
            continue  # onnxruntime deviates before; the result is the spec's
        return Outcome(case.name, name, "wrong-output", f"data set {k}: {found}")
    return Outcome(case.name, name, "ok")


def _no_kernel(error: Exception, case: Case, proto: onnx.ModelProto, name: str) -> bool:
    """A version conversion wrote a valid model (the full checker passes) that onnxruntime
    refuses for want of a kernel of a standard op at the target opset (Swish-24, Clip-6 on
    double, Optional-28...)."""
    found = re.search(r"Could not find an implementation for (\w+)\(", str(error))
    if not row_of(case, name).startswith("convert_version") or not found:
        return False
    return onnx.defs.has(found.group(1)) and check_full(proto) is None


def _ort_failure(case: Case, name: str, after: onnx.ModelProto, detail: str) -> Outcome:
    """An ``ort-bug`` where onnxruntime fails on a checker-clean model with a recorded bug
    of its own, else an ``ort-failure``."""
    from tests.transforms.known import ORT_FAILURES

    for pattern in ORT_FAILURES:
        if re.search(pattern, detail) and check_full(after) is None:
            return Outcome(case.name, name, "ort-bug", detail)
    return Outcome(case.name, name, "ort-failure", detail)


def _matches_spec(
    got: list[Any], before: list[Any], expected: list[Any], case: Case, fuses: bool
) -> bool:
    """The outputs equal the expected ones where the case has them (its first outputs) and
    onnxruntime's before for the rest (outputs a mutant added)."""
    n = len(expected)
    if not n or len(got) < n:
        return False
    return (
        mismatch(got[:n], expected, case.rtol, case.atol, fuses) is None
        and mismatch(got[n:], before[n:], case.rtol, case.atol, fuses) is None
    )


def judge(case: Case, name: str, ref: Reference, seconds: int = 120) -> Outcome:
    """Apply the transform ``name`` to ``case`` and judge the result."""
    after = apply(case, name, seconds)
    if isinstance(after, Outcome):
        return after
    return judge_result(case, name, after, ref)


# -- which transforms, and the table ----------------------------------------------------------


def transforms_for(case: Case, full: bool, names: Iterable[str] | None = None) -> list[str]:
    """The transforms a case goes through: ``names`` (default every one of TRANSFORMS) and
    its version conversions (one opset up and down; two more in full mode)."""
    chosen = list(TRANSFORMS) if names is None else [n for n in names if n in TRANSFORMS]
    if names is None or "convert_version" in names:
        chosen += conversion_targets(case.model, zlib.crc32(case.name.encode()), full)
    return chosen


def row_of(case: Case, name: str) -> str:
    """The table row of a transform: its name, or convert_version up/down."""
    if not name.startswith(CONVERT):
        return name
    source = model_opset(case.model) or 0
    return "convert_version up" if int(name[len(CONVERT) :]) > source else "convert_version down"


COLUMNS = ("cases", "ok", "refused", *FAILURES, "ort-no-kernel", "ort-bug", "ort deviates")


def blurred_message(detail: str, limit: int) -> str:
    """The first line of a failure's message with its numbers and quoted names blurred, at
    most ``limit`` characters: failures that differ only there group together in the
    tools' reports."""
    text = re.sub(r"\d+", "N", detail.split("\n")[0])
    return re.sub(r"'[^']*'", "'…'", text)[:limit]


def table(rows: dict[str, Counter[str]]) -> str:
    """A text table: a row per transform, a column per kind of outcome."""
    width = max([len(r) for r in rows] + [9])
    head = f"{'transform':<{width}} " + " ".join(f"{c:>12}" for c in COLUMNS)
    lines = [head, "-" * len(head)]
    total: Counter[str] = Counter()
    for row in sorted(rows):
        counts = rows[row]
        total.update(counts)
        lines.append(f"{row:<{width}} " + " ".join(f"{counts[c]:>12}" for c in COLUMNS))
    lines.append("-" * len(head))
    lines.append(f"{'total':<{width}} " + " ".join(f"{total[c]:>12}" for c in COLUMNS))
    return "\n".join(lines)


# -- cases as files (the held-out comparison, the full run's workers) -------------------------


__all__ = [
    "FAILURES",
    "KINDS",
    "Outcome",
    "Reference",
    "apply",
    "blurred_message",
    "check_full",
    "judge",
    "judge_result",
    "mismatch",
    "reference",
    "row_of",
    "session",
    "table",
    "transforms_for",
]
