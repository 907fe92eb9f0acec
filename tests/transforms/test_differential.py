"""The differential test of every graph transformation (issue 34, item 3), CI's sample.

Each transform of ``transform_list.py`` (optimize, optimize_ir, fold_constants, rewrite
with the default rules, onnx_fusions.fuse, optimize_for_ort, inline, remove_unused, and
convert_version one opset up and one down) runs on every case of a fixed sample of the
corpus (``corpus.ci_corpus``: every onnx node test, 12 seeds of each rule family, the
exporter suites' models, 250 validated mutants). Per case: no internal error (a refusal
is one of onnxscript's documented errors), onnx.checker (full) still passes where it
passed, onnxruntime still loads and runs the model, and the outputs are equal
(``harness.judge``). A failure that a known bug explains (``known.KNOWN_BUGS``) is
reported with its issue item, and that bug's shrunk reproducer is a strict expected
failure here. ``python tools/transforms_differential.py`` runs the full corpus.
"""

from __future__ import annotations

import functools
import logging
import warnings

import numpy as np
import onnx
import onnx.parser
import pytest

from onnxscript.testing.node_tests import Case
from tests.transforms import corpus, harness, known
from tests.transforms.families import family_case
from tests.transforms.mutants import mutate
from tests.transforms.transform_list import TRANSFORMS

SOURCES = ("node", "family", "mutant", "export")
CONVERSIONS = ("convert_version up", "convert_version down")
ROWS = (*TRANSFORMS, *CONVERSIONS)


@functools.cache
def _corpus() -> dict[str, list[Case]]:
    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)
    return corpus.ci_corpus()


@functools.cache
def _reference(source: str, index: int) -> harness.Reference:
    return harness.reference(_corpus()[source][index])


def _transforms(case: Case, row: str) -> list[str]:
    if row in TRANSFORMS:
        return [row]
    return [
        name
        for name in harness.transforms_for(case, full=False, names=["convert_version"])
        if harness.row_of(case, name) == row
    ]


@pytest.mark.parametrize("row", ROWS)
@pytest.mark.parametrize("source", SOURCES)
def test_transform_keeps_what_the_model_computes(source: str, row: str) -> None:
    cases = _corpus()[source]
    assert cases, f"the CI corpus has no {source} case"
    failures, explained = [], []
    judged = 0
    for index, case in enumerate(cases):
        for name in _transforms(case, row):
            outcome = harness.judge(case, name, _reference(source, index))
            judged += 1
            if outcome.kind in ("ok", "refused", "ort-no-kernel", "ort-bug"):
                continue
            line = f"{case.name} [{name}] {outcome.kind}: {outcome.detail[:300]}"
            bug = known.known_bug_of(case.name, name, outcome.kind, outcome.detail)
            (explained if bug else failures).append(
                line if not bug else f"item {bug.item} ({bug.name}): {line}"
            )
    assert judged, "no case went through this transform"
    if explained:
        warnings.warn(
            f"{len(explained)} failures of known bugs:\n" + "\n".join(explained), stacklevel=1
        )
    assert not failures, f"{len(failures)} of {judged} judged:\n" + "\n".join(failures)


def _base_case(name: str) -> Case:
    if "#" in name:
        family, seed = name.split("#")
        return family_case(family, int(seed))
    return next(c for c in corpus.node_cases() if c.name == name)


def _reproducer(bug: known.KnownBug) -> Case:
    if bug.model.startswith("node:"):
        return _base_case(bug.model[len("node:") :])
    if bug.model.startswith("mutant:"):
        name, chains, probes = bug.model[len("mutant:") :].split("/")
        base, seed = name.rsplit("~m", 1)
        mutant, _ = mutate(_base_case(base), int(seed), chains=int(chains), probes=int(probes))
        return mutant
    model = onnx.parser.parse_model(bug.model)
    rng = np.random.default_rng(0)
    inputs = []
    for info in model.graph.input:
        tensor_type = info.type.tensor_type
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tensor_type.elem_type)
        if info.name in bug.inputs:
            inputs.append(np.asarray(bug.inputs[info.name], dtype=dtype))
            continue
        shape = [d.dim_value or 3 for d in tensor_type.shape.dim]
        inputs.append(rng.standard_normal(shape).astype(dtype))
    return Case(bug.name, model, [(inputs, [])], 1e-4, 1e-5)


@pytest.mark.parametrize(
    "bug",
    [
        pytest.param(
            bug,
            id=f"item{bug.item}-{bug.name}",
            marks=pytest.mark.xfail(
                strict=True, reason=f"issue 34 item {bug.item}: {bug.transform} gives {bug.kind}"
            ),
        )
        for bug in known.KNOWN_BUGS
    ],
)
def test_known_bug_reproducer(bug: known.KnownBug) -> None:
    """Each known bug's shrunk reproducer (a strict xfail: a fix makes it pass, and the
    entry must then leave known.py)."""
    case = _reproducer(bug)
    ref = harness.reference(case)
    assert ref.checker_ok and ref.ort_ok, "the reproducer is a valid model onnxruntime runs"
    outcome = harness.judge(case, bug.transform, ref)
    assert outcome.kind in ("ok", "refused"), f"{outcome.kind}: {outcome.detail}"


def test_reproducers_fail_as_recorded() -> None:
    """Each known bug's reproducer fails today the way its entry says (so that a changed
    failure is seen, not only a fixed one)."""
    for bug in known.KNOWN_BUGS:
        case = _reproducer(bug)
        outcome = harness.judge(case, bug.transform, harness.reference(case))
        if outcome.kind not in ("ok", "refused"):
            assert outcome.kind == bug.kind, f"{bug.name}: {outcome.kind}: {outcome.detail}"


def test_onnxruntime_deviations_are_the_recorded_ones() -> None:
    """Where onnxruntime itself computes something else than a node test expects (before
    any transform), the case is in known.ORT_DEVIATIONS with its evidence; and every
    recorded deviation still occurs."""
    found = {}
    for index, case in enumerate(_corpus()["node"]):
        deviation = _reference("node", index).deviation
        if deviation:
            found[case.name] = deviation
    unrecorded = {k: v for k, v in found.items() if k not in known.ORT_DEVIATIONS}
    assert not unrecorded, f"onnxruntime deviates from the spec, not recorded: {unrecorded}"
    gone = sorted(set(known.ORT_DEVIATIONS) - set(found) - known.ORT_DEVIATIONS_NOT_REPEATABLE)
    assert not gone, f"recorded deviations onnxruntime no longer has: {gone}"


def test_mutants_are_spliced_and_valid() -> None:
    """The CI sample got its 250 mutants, each with more nodes than its base and computing
    its base's outputs (a chain that changed a value would be the generator's bug, not a
    transform's)."""
    mutants = _corpus()["mutant"]
    assert len(mutants) == 250
    bases = {c.name: c for source in ("node", "family", "export") for c in _corpus()[source]}
    for mutant in mutants[:50]:
        base = bases[mutant.name.rsplit("~m", 1)[0]]
        assert len(mutant.model.graph.node) > len(base.model.graph.node), mutant.name
        assert corpus.invalid_mutant(mutant, harness.reference(base)) == "", mutant.name
