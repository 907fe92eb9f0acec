"""The corpus of the differential test: onnx's node tests, the exporter suites' models,
synthetic graphs per rule family, and seeded mutants of all three.

Every case has a name unique in the corpus: ``test_abs`` (a node test), ``export:llama``,
``layer_norm#12`` (family and seed), ``test_abs~m7`` (mutant 7 of a base case). CI runs a
fixed sample (:func:`ci_corpus`); the full run everything (:func:`full_corpus`).
"""

from __future__ import annotations

import functools
import json
import warnings
import zlib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from onnxscript.testing import node_tests
from onnxscript.testing.node_tests import Case
from tests.transforms import harness
from tests.transforms.exports import export_cases
from tests.transforms.families import FAMILIES, family_case
from tests.transforms.mutants import mutate


def key(name: str) -> int:
    """A stable number of a case name (sampling, conversion targets)."""
    return zlib.crc32(name.encode())


@functools.cache
def node_cases() -> tuple[Case, ...]:
    """onnx's node tests (``onnx.backend.test.case.node``) with their data sets."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        collected = node_tests._collect()
    return tuple(
        Case(c.name, c.model, list(c.data_sets or []), c.rtol, c.atol)
        for c in collected
        if c.data_sets
    )


def family_cases(seeds: Iterable[int], families: Iterable[str] = FAMILIES) -> list[Case]:
    """``family#seed`` for each family and seed (a drawn combination onnx's shape inference
    rejects is left out: the generator draws opsets and attributes freely)."""
    found = []
    for family in families:
        for seed in seeds:
            try:
                found.append(family_case(family, seed))
            except Exception:  # onnx.shape_inference's errors on an invalid combination
                continue
    return found


def mutant_cases(
    bases: list[Case], count: int, seed: int, discarded: Counter[str] | None = None
) -> list[Case]:
    """``count`` valid mutants of bases drawn with ``seed``: each passes what its base
    passed and gives the base's outputs in onnxruntime. A mutant that does not is
    discarded (counted in ``discarded`` by reason) and the next seed tried."""
    rng = np.random.default_rng(seed)
    usable = [b for b in bases if b.model.opset_import]
    found: list[Case] = []
    attempts = 0
    while len(found) < count and attempts < count * 4 and usable:
        attempts += 1
        base = usable[int(rng.integers(len(usable)))]
        base_ref = harness.reference(base)
        if not base_ref.ort_ok or base_ref.unstable:  # nothing to compare a mutant with
            continue
        mutant_seed = int(rng.integers(1 << 30))
        try:
            mutant, _ = mutate(base, mutant_seed)
        except Exception as error:  # a generator bug: counted, never hidden
            if discarded is not None:
                discarded[f"generator error {type(error).__name__}"] += 1
            continue
        reason = invalid_mutant(mutant, base_ref)
        if reason:
            if discarded is not None:
                discarded[reason] += 1
            continue
        found.append(mutant)
    return found


def invalid_mutant(mutant: Case, base_ref: harness.Reference) -> str:
    """Why a mutant cannot be used ('' when it can)."""
    ref = harness.reference(mutant)
    if base_ref.checker_ok and not ref.checker_ok:
        return "the checker rejects the chain (an op's type or opset)"
    if not ref.ort_ok:
        return "onnxruntime cannot run the chain (no kernel for that type/opset)"
    for got, want in zip(ref.outputs, base_ref.outputs):
        if harness.mismatch(got[: len(want)], want, mutant.rtol, mutant.atol) is not None:
            return "onnxruntime computes another value through the chain"
    return ""


def _sample(cases: Iterable[Case], modulo: int) -> list[Case]:
    return [c for c in cases if key(c.name) % modulo == 0]


def ci_corpus() -> dict[str, list[Case]]:
    """The CI sample by source: every node test, 12 seeds of each family, 250 mutants
    (of node tests, families and exports), the CI exports."""
    nodes = list(node_cases())
    families = family_cases(range(12))
    exports = export_cases(full=False)
    bases = _sample(nodes, 3) + families + exports
    return {
        "node": nodes,
        "family": families,
        "export": exports,
        "mutant": mutant_cases(bases, 250, seed=0),
    }


def full_corpus(
    mutants: int = 3000, family_seeds: int = 60, discarded: Counter[str] | None = None
) -> dict[str, list[Case]]:
    """Everything: every node test, ``family_seeds`` seeds of each family, the full
    exports, ``mutants`` mutants."""
    nodes = list(node_cases())
    families = family_cases(range(family_seeds))
    exports = export_cases(full=True)
    bases = nodes + families + exports
    return {
        "node": nodes,
        "family": families,
        "export": exports,
        "mutant": mutant_cases(bases, mutants, seed=1, discarded=discarded),
    }


def write_corpus(
    out: Path, mutants: int, family_seeds: int, full: bool = True
) -> list[dict[str, Any]]:
    """Write the full corpus into ``out/cases/<index>`` (``node_tests.write_case``'s layout)
    with ``out/manifest.json`` (folder, name, source, transforms of each case) and
    ``out/discarded.json`` (the mutants discarded, by reason); returns the manifest."""
    discarded: Counter[str] = Counter()
    sources = full_corpus(mutants, family_seeds, discarded)
    manifest: list[dict[str, Any]] = []
    for source, cases in sources.items():
        for case in cases:
            folder = out / "cases" / f"{len(manifest):05d}"
            node_tests.write_case(case, folder)
            manifest.append(
                {
                    "folder": str(folder),
                    "name": case.name,
                    "source": source,
                    "transforms": harness.transforms_for(case, full=full),
                    "rows": [harness.row_of(case, t) for t in harness.transforms_for(case, full)],
                    "nodes": len(case.model.graph.node),
                }
            )
    (out / "manifest.json").write_text(json.dumps(manifest))
    (out / "discarded.json").write_text(json.dumps(dict(discarded)))
    return manifest


def read_case(entry: dict[str, Any]) -> Case:
    """A case written by :func:`write_corpus`, under its corpus name."""
    case = node_tests.load(Path(entry["folder"]))
    case.name = entry["name"]
    return case


__all__ = [
    "ci_corpus",
    "family_cases",
    "full_corpus",
    "invalid_mutant",
    "key",
    "mutant_cases",
    "node_cases",
    "read_case",
    "write_corpus",
]
