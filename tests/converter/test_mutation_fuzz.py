"""Robustness fuzz test: mutants of real scripts either fail with a clear error or give a
model that onnx.checker (full) and strict shape inference accept, or one that
``to_model_proto()`` warns about. Never an internal exception, never a bad model returned
silently.

CI runs 400 mutants; ``ONNXSCRIPT_FUZZ_MUTANTS=5000`` runs more (the counts of each
outcome are printed with ``-s``).
"""

from __future__ import annotations

import collections
import os
import typing
import warnings

import numpy as np
import onnx
import onnx.shape_inference
import pytest

import onnxscript
from onnxscript import Opset, ScriptError, graph, script
from onnxscript import opset18 as op
from onnxscript.errors import ModelCheckWarning, OnnxScriptError
from tests.converter.mutations import Mutant, Seed, mutant, seeds
from tests.helpers import define

CASES = int(os.environ.get("ONNXSCRIPT_FUZZ_MUTANTS", "400"))


def _namespace() -> dict[str, typing.Any]:
    names = {name: getattr(onnxscript, name) for name in onnxscript.__all__}
    names.update(
        op=op,
        np=np,
        script=script,
        graph=graph,
        Opset=Opset,
        lib=Opset("lib.domain", 1),
        Optional=typing.Optional,
        Sequence=typing.Sequence,
    )
    return names


def _model_is_valid(model: onnx.ModelProto) -> bool:
    try:
        onnx.checker.check_model(model, full_check=True)
        onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError):
        return False
    return True


def outcome(source: str, name: str) -> str:
    """What happens to one script: ``refused ...``, ``model ...`` or ``BUG: ...``."""
    try:
        fn = define(source, _namespace(), name)
    except (OnnxScriptError, ValueError, TypeError, NameError):
        return "refused when Python defines it"
    try:
        compiled = script()(fn)
    except ScriptError:
        return "refused by @script()"
    except Exception as exc:
        return f"BUG: @script() raised {type(exc).__name__}: {exc}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = compiled.to_model_proto()
        except OnnxScriptError:
            return "refused by to_model_proto()"
        except Exception as exc:
            return f"BUG: to_model_proto() raised {type(exc).__name__}: {exc}"
    warned = any(issubclass(w.category, ModelCheckWarning) for w in caught)
    valid = _model_is_valid(model)
    if valid and not warned:
        return "model: valid"
    if not valid and warned:
        return "model: rejected, with a warning"
    if valid:
        return "BUG: a warning about a valid model"
    return "BUG: a model the checker rejects, returned silently"


@pytest.fixture(scope="module")
def usable_seeds() -> list[Seed]:
    """The seeds that compile as written in the shared namespace."""
    found = [s for s in seeds() if not outcome(s.source, s.name).startswith(("BUG", "refused"))]
    assert len(found) >= 40
    return found


def _mutants(usable: list[Seed]) -> list[Mutant]:
    made = []
    case = 0
    while len(made) < CASES:
        m = mutant(usable[case % len(usable)], case)
        if m is not None:
            made.append(m)
        case += 1
    return made


def test_mutants_fail_clearly_or_give_valid_models(usable_seeds):
    counts: collections.Counter[str] = collections.Counter()
    bugs = []
    for m in _mutants(usable_seeds):
        result = outcome(m.source, m.seed.name)
        counts[result if not result.startswith("BUG") else "BUG"] += 1
        if result.startswith("BUG"):
            bugs.append(f"{m.seed.origin} {m.kinds}: {result}\n{m.source}")
    print(f"\n{CASES} mutants of {len(usable_seeds)} seeds: {dict(sorted(counts.items()))}")
    assert not bugs, f"{len(bugs)} of {CASES} mutants:\n\n" + "\n\n".join(bugs[:10])
    # The mutants exercise every outcome, so the test can see each kind of failure.
    assert counts["refused by @script()"] > CASES // 10
    assert counts["model: valid"] > CASES // 10
