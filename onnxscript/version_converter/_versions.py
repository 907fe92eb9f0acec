"""Which schema of an ai.onnx op a node follows, and the steps between two opsets.

A *step* is ``(op_type, from_version, to_version)``: two consecutive versions of the op's
schema (its ``since_version`` numbers), upwards or downwards. Going down from the version
that introduced an op (or from the one that replaced a deprecated op), ``to_version`` is
the opset just below it: the op does not exist there and an adapter must rewrite it.
"""

from __future__ import annotations

import functools
import itertools

from onnxscript import schemas

Key = tuple[str, int, int]
"""(op_type, from_version, to_version): a step of one op."""

FIRST_OPSET = 7
"""The oldest opset conversions are defined from (the steps of older versions are not
enumerated)."""


@functools.lru_cache(maxsize=2048)
def versions(op_type: str) -> tuple[int, ...]:
    """The since-versions of ai.onnx ``op_type``, oldest first (deprecated ones too)."""
    return tuple(f.since_version for f in schemas.op_versions("", op_type))


@functools.lru_cache(maxsize=2048)
def deprecated(op_type: str, version: int) -> bool:
    """Whether the schema of ``op_type`` with since-version ``version`` is deprecated."""
    return any(f.deprecated for f in schemas.op_versions("", op_type) if f.since_version == version)


def current(op_type: str, opset: int) -> int | None:
    """The since-version of the schema a node of ``op_type`` written for ``opset`` follows.

    A deprecated schema stands for the one before it (the op's meaning when it was last
    defined); an op newer than ``opset`` (an exporter wrote it at its own version) follows
    its first schema. ``None`` for an op onnx does not define.
    """
    known = versions(op_type)
    if not known:
        return None
    found = [v for v in known if v <= opset] or [known[0]]
    while len(found) > 1 and deprecated(op_type, found[-1]):
        found.pop()
    return found[-1]


def next_step(op_type: str, opset: int, target: int) -> tuple[Key, int] | None:
    """The next step of a node of ``op_type`` standing at ``opset`` towards ``target``,
    and the opset its result stands at; ``None`` when the node already means the same at
    ``target``."""
    here = current(op_type, opset)
    if here is None:
        return None
    known = versions(op_type)
    if target >= here:
        later = [v for v in known if here < v <= target]
        return ((op_type, here, later[0]), later[0]) if later else None
    if current(op_type, target) == here and target >= known[0]:
        return None
    earlier = [v for v in known if v < here]
    to = earlier[-1] if earlier else here - 1
    return (op_type, here, to), here - 1


def schema_steps(first: int = FIRST_OPSET) -> list[tuple[str, int, int]]:
    """Every (op_type, older, newer) pair of consecutive ai.onnx schema versions whose
    newer version is above ``first``, sorted."""
    names = {name for version in _all_versions() for name in schemas.op_names("", version)}
    steps = []
    for name in names:
        known = versions(name)
        steps += [(name, a, b) for a, b in itertools.pairwise(known) if b > first]
    return sorted(steps)


@functools.cache
def _all_versions() -> tuple[int, ...]:
    return tuple(range(1, schemas.domain_versions()[""][1] + 1))


def newest() -> int:
    """The newest ai.onnx opset the installed onnx defines."""
    return schemas.domain_versions()[""][1]


__all__ = ["FIRST_OPSET", "Key", "current", "deprecated", "next_step", "schema_steps", "versions"]
