"""What the differential test knows to go wrong today, in one place.

``KNOWN_BUGS``: bugs of ours that issue 34 lists (``item`` is the case number of the
issue's "Shrunk" list), each with a shrunk reproducer (a model in onnx's text format, the
transform, the outcome it has today). ``test_differential.py`` runs each reproducer as a
strict expected failure: when the bug is fixed the test fails until the entry is removed.
Corpus cases the same bug breaks are matched by ``cases`` (a pattern of case names) and
``detail`` (a pattern of the outcome's message) and reported as that bug instead of as a
new failure; removing the entry makes them plain failures again.

``ORT_DEVIATIONS``: node tests where onnxruntime 1.32 (CPU) itself computes something else
than the test's expected outputs, before any transform, with the evidence (how far off,
and why where known). A transformed model there is right if it matches onnxruntime's
result before the transform or the expected output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class KnownBug:
    item: int
    """The case number in issue 34's list of shrunk failures."""
    name: str
    transform: str
    model: str
    """The shrunk reproducer, in onnx's text format."""
    kind: str
    """Its outcome today."""
    inputs: dict[str, Any] = field(default_factory=dict)
    """Input values that matter (the rest random)."""
    cases: str = "$^"
    """A pattern of the corpus case names the same bug breaks."""
    detail: str = ""
    """A pattern the outcome's message must contain for a corpus case to match."""
    transforms: str = ".*"
    """A pattern of the transforms through which it shows."""


KNOWN_BUGS: tuple[KnownBug, ...] = ()


def known_bug_of(case: str, transform: str, kind: str, detail: str = "") -> KnownBug | None:
    """The known bug that explains a corpus failure (None when no entry does)."""
    for bug in KNOWN_BUGS:
        if (
            re.search(bug.cases, case)
            and re.fullmatch(bug.transforms, transform)
            and re.search(bug.detail, detail)
            and kind != "ok"
        ):
            return bug
    return None


ORT_DEVIATIONS: dict[str, str] = {}


__all__ = ["KNOWN_BUGS", "ORT_DEVIATIONS", "KnownBug", "known_bug_of"]
