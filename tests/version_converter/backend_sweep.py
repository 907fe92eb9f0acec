"""onnx's backend node tests converted to other opsets and run in onnxruntime.

Each case's model (written at some opset) is converted to opsets around it where every op
of the model exists, checked with onnx's full checker, run in onnxruntime on the case's
data sets and compared with the expected outputs. Outcomes are counted:

- ``pass``: converted, checked, equal to the expected outputs;
- ``refused``: the converter said the node cannot be converted (a feature the target lacks,
  an input that must be constant, an unknown rank) with a VersionConversionError;
- ``skip:<reason>``: onnxruntime cannot judge (it fails or disagrees at the source
  opset, lacks a kernel at the target, or its kernel of an unchanged node disagrees);
- ``fail:<stage>``: the converter crashed, produced a model the checker rejects, or one
  computing something else.

``python -m tests.version_converter.backend_sweep [--full]`` prints the counts.
"""

from __future__ import annotations

import collections
import dataclasses
import sys
import warnings
import zlib
from collections.abc import Iterable
from typing import Any

import numpy as np
import onnx
import onnx_ir as ir
import onnxruntime as ort

from onnxscript.version_converter import VersionConversionError, convert_version
from onnxscript.version_converter._versions import FIRST_OPSET, newest, versions

SAMPLE_DISTANCES = (1, 2, 4, 8)
FULL_DISTANCES = tuple(range(1, 30))


@dataclasses.dataclass
class Case:
    name: str
    model: onnx.ModelProto
    data_sets: list[tuple[list[Any], list[Any]]]
    rtol: float
    atol: float


@dataclasses.dataclass
class Outcome:
    case: str
    source: int
    target: int
    result: str
    detail: str = ""


def load_cases() -> list[Case]:
    import onnx.backend.test.case.node as node_cases

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        found = node_cases.collect_testcases(None)
    return [
        Case(c.name, c.model, list(c.data_sets or []), c.rtol, c.atol)
        for c in found
        if c.kind == "node" and c.model is not None
    ]


def _nodes(graph: onnx.GraphProto) -> Iterable[onnx.NodeProto]:
    for n in graph.node:
        yield n
        for attr in n.attribute:
            if attr.HasField("g"):
                yield from _nodes(attr.g)
            for sub in attr.graphs:
                yield from _nodes(sub)


def _session(proto: onnx.ModelProto) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.log_severity_level = 4
    return ort.InferenceSession(
        proto.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )


def _check_outputs(proto: onnx.ModelProto, case: Case) -> None:
    session = _session(proto)
    for inputs, expected in case.data_sets:
        feeds = {i.name: v for i, v in zip(proto.graph.input, inputs)}
        for got, want in zip(session.run(None, feeds), expected):
            _compare(got, want, case.rtol, case.atol)


def _compare(got: Any, want: Any, rtol: float, atol: float) -> None:
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            _compare(g, w, rtol, atol)
        return
    if want is None:
        assert got is None
        return
    want = np.asarray(want)
    if want.dtype.kind in "OSU":
        assert np.array_equal(np.asarray(got).astype(want.dtype), want)
        return
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol, equal_nan=True)


def _opset(proto: onnx.ModelProto) -> int | None:
    imports = {o.domain or "ai.onnx": o.version for o in proto.opset_import}
    return imports.get("ai.onnx") if set(imports) == {"ai.onnx"} else None


def targets(case: Case, distances: Iterable[int]) -> list[int]:
    """Opsets around the case's where every op of its model exists."""
    source = _opset(case.model)
    if source is None:
        return []
    ops = {n.op_type for n in _nodes(case.model.graph)}
    found = set()
    for distance in distances:
        for target in (source - distance, source + distance):
            if FIRST_OPSET <= target <= newest() and all(
                versions(op) and versions(op)[0] <= target for op in ops
            ):
                found.add(target)
    return sorted(found)


def sweep(cases: Iterable[Case], distances: Iterable[int], sample: int = 1) -> list[Outcome]:
    """The outcome of every (case, target); with ``sample`` > 1 only the cases whose name
    hashes to 0 modulo ``sample`` (a fixed subset)."""
    outcomes = []
    distances = tuple(distances)
    for case in cases:
        if sample > 1 and zlib.crc32(case.name.encode()) % sample:
            continue
        source = _opset(case.model)
        if source is None or not case.data_sets:
            reason = "skip:other-domain" if source is None else "skip:no-data"
            outcomes.append(Outcome(case.name, source or 0, 0, reason))
            continue
        wanted = targets(case, distances)
        source_ok, full = _source_state(case)
        for target in wanted:
            if not source_ok:
                outcomes.append(Outcome(case.name, source, target, "skip:ort-fails-at-source"))
                continue
            result, detail = _one(case, target, full)
            outcomes.append(Outcome(case.name, source, target, result, detail))
    return outcomes


def _source_state(case: Case) -> tuple[bool, bool]:
    """Whether onnxruntime computes the expected outputs at the source opset, and whether
    onnx's full checker accepts the source model (some expanded functions fail it)."""
    try:
        _check_outputs(case.model, case)
        ok = True
    except Exception:  # onnxruntime's errors, or a mismatch: it cannot judge this case
        ok = False
    try:
        onnx.checker.check_model(case.model, full_check=True)
        full = True
    except Exception:  # onnx's own checker rejects a few of its test models
        full = False
    return ok, full


def _one(case: Case, target: int, full: bool) -> tuple[str, str]:
    model = ir.serde.deserialize_model(case.model)
    try:
        convert_version(model, target)
    except VersionConversionError as error:
        return "refused", str(error)
    except Exception as error:  # a bug: reported with its message
        return "fail:convert-crash", f"{type(error).__name__}: {error}"
    proto = ir.serde.serialize_model(model)
    try:
        onnx.checker.check_model(proto, full_check=full)
    except Exception as error:
        return "fail:checker", str(error)
    try:
        _check_outputs(proto, case)
    except AssertionError as error:
        unchanged = [n.SerializeToString() for n in proto.graph.node] == [
            n.SerializeToString() for n in case.model.graph.node
        ]
        if unchanged:
            return "skip:ort-kernel-differs-at-target", str(error)[:200]
        return "fail:mismatch", str(error)[:500]
    except Exception as error:
        message = str(error)
        if "NOT_IMPLEMENTED" in message or "kernel" in message.lower():
            return "skip:ort-no-kernel-at-target", message[:200]
        return "fail:onnxruntime", message[:500]
    return "pass", ""


def counts(outcomes: Iterable[Outcome]) -> dict[str, int]:
    return dict(sorted(collections.Counter(o.result for o in outcomes).items()))


def main(argv: list[str]) -> None:
    full = "--full" in argv
    outcomes = sweep(load_cases(), FULL_DISTANCES if full else SAMPLE_DISTANCES, 1)
    print(counts(outcomes))
    for outcome in outcomes:
        if outcome.result.startswith("fail"):
            print(outcome)


if __name__ == "__main__":
    main(sys.argv[1:])
