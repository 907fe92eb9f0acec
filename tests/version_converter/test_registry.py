"""Every change of an ai.onnx schema between consecutive versions (opset 7 to the newest
onnx knows), in both directions, has an adapter (the compatible upgrades are
those whose adapter does nothing) or a documented reason why it has none."""

from __future__ import annotations

import pytest

from onnxscript import schemas
from onnxscript.version_converter._context import nothing
from onnxscript.version_converter._versions import newest, schema_steps, versions
from onnxscript.version_converter.adapters.compatible import TYPES_ONLY
from onnxscript.version_converter.registry import (
    ADAPTERS,
    WITHOUT_ADAPTER,
    lookup,
)

STEPS = schema_steps()


def test_every_schema_change_is_covered_both_ways():
    uncovered = []
    for op, old, new in STEPS:
        for key in ((op, old, new), (op, new, old)):
            if lookup(key) is None and key not in WITHOUT_ADAPTER:
                uncovered.append(key)
    assert not uncovered
    assert len(STEPS) > 350 and newest() >= 23


def test_every_adapter_is_a_step_or_writes_out_an_op_below_its_first_version():
    steps = {(op, a, b) for op, a, b in STEPS} | {(op, b, a) for op, a, b in STEPS}
    for key in ADAPTERS:
        if key in steps:
            continue
        op, source, target = key
        assert target == source - 1, key
        assert (
            schemas.op_facts("", op, target) is None
            or schemas.op_facts("", op, source).since_version == versions(op)[-1]
        ), key


def test_steps_without_adapter_say_why():
    assert all(len(reason) > 20 for reason in WITHOUT_ADAPTER.values())
    steps = {(op, a, b) for op, a, b in STEPS} | {(op, b, a) for op, a, b in STEPS}
    assert set(WITHOUT_ADAPTER) <= steps


def _signature(op: str, version: int) -> tuple:
    facts = schemas.op_facts("", op, version)
    assert facts is not None and facts.since_version == version
    formals = [(f.name, f.option, f.min_arity) for f in (*facts.inputs, *facts.outputs)]
    attributes = sorted((a.name, a.kind, a.required, a.default) for a in facts.attributes)
    return formals, attributes


@pytest.mark.parametrize(
    ("op", "version"), sorted((op, v) for op, changed in TYPES_ONLY.items() for v in changed)
)
def test_types_only_steps_change_no_input_output_or_attribute(op: str, version: int):
    known = versions(op)
    assert version in known and known.index(version) > 0
    before = known[known.index(version) - 1]
    assert _signature(op, before) == _signature(op, version)


def test_every_signature_change_is_acted_on_one_way_at_least():
    """Where inputs, outputs or attributes changed, some adapter does or checks
    something (not both directions 'nothing')."""
    idle = []
    for op, old, new in STEPS:
        if schemas.op_facts("", op, new).deprecated:
            continue
        if _signature(op, old) == _signature(op, new):
            continue
        adapters = [lookup((op, old, new)), lookup((op, new, old))]
        if all(a is not None and a.apply is nothing for a in adapters):
            idle.append((op, old, new))
    assert not idle
