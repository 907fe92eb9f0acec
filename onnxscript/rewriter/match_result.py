"""The outcome of matching a pattern at one node: success, or failure with a reason and
the graph nodes or values it concerns; on success, the bindings of the pattern's
variables and the matched nodes and outputs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import onnx_ir as ir

from onnxscript.errors import OnnxScriptError

_Source = ir.Node | ir.Value | None


class MatchResult:
    """Truthy on success. ``fail(reason, source)`` turns it into a failure (and returns
    it), so a check can write ``return result.fail("rank must be 3", x)``."""

    def __init__(self) -> None:
        self._success = True
        self._reason = ""
        self._failure_sources: list[ir.Node | ir.Value] = []
        self.bindings: dict[str, Any] = {}
        self.nodes: list[ir.Node] = []
        self.outputs: list[ir.Value] = []

    def __bool__(self) -> bool:
        return self._success

    def fail(
        self, reason: str = "", failure_source: _Source | Iterable[_Source] = None
    ) -> MatchResult:
        self._success = False
        self._reason = reason
        if isinstance(failure_source, (ir.Node, ir.Value)):
            self._failure_sources.append(failure_source)
        elif failure_source is not None:
            self._failure_sources.extend(s for s in failure_source if s is not None)
        return self

    @property
    def reason(self) -> str:
        return self._reason

    @property
    def failure_nodes_and_values(self) -> list[ir.Node | ir.Value]:
        return list(self._failure_sources)

    def add_node(self, node: ir.Node) -> None:
        self.nodes.append(node)

    def bind(self, var: str, value: Any) -> bool:
        """Bind ``var``; False (a failure) when it is bound to another value already."""
        if var in self.bindings and self.bindings[var] is not value:
            self.fail(f"variable {var!r} is bound to two different values", value)
            return False
        self.bindings[var] = value
        return True

    def merge(self, other: MatchResult) -> None:
        """Take ``other``'s bindings, nodes and outputs (a sub-match) into this one; its
        failure too."""
        self.bindings.update(other.bindings)
        self.nodes.extend(n for n in other.nodes if n not in self.nodes)
        self.outputs.extend(other.outputs)
        if not other:
            self.fail(other.reason, other.failure_nodes_and_values)

    def __repr__(self) -> str:
        if self._success:
            return f"MatchResult(success, nodes={len(self.nodes)})"
        return f"MatchResult(failed: {self._reason!r})"


class MatchFailureInfo:
    """Why a match failed: a reason and the graph nodes or values it concerns."""

    def __init__(self, reason: str = "", *failure_source: ir.Node | ir.Value) -> None:
        self.reason = reason
        self.failure_sources: tuple[ir.Node | ir.Value, ...] = failure_source

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r})"


class MatchFailureError(MatchFailureInfo, OnnxScriptError):
    """Raised inside a check (or a pattern's own code) to say "no match here", with the
    reason and the nodes or values concerned; the rule then does not apply."""

    def __init__(self, reason: str = "", *failure_source: ir.Node | ir.Value) -> None:
        MatchFailureInfo.__init__(self, reason, *failure_source)
        OnnxScriptError.__init__(self, reason)

    def __str__(self) -> str:
        return self.reason


def as_match_result(outcome: object, what: str, *, none_accepts: bool = False) -> MatchResult:
    """A check's return value (a MatchResult, or anything true or false) as a
    MatchResult. None refuses, as in 0.7.2 (a check that falls off its end without
    returning does not match), except where ``none_accepts`` (0.7.2's value checkers)."""
    if isinstance(outcome, MatchResult):
        return outcome
    if outcome is None:
        return MatchResult() if none_accepts else MatchResult().fail(f"{what} returned None")
    if bool(outcome):
        return MatchResult()
    return MatchResult().fail(f"{what} returned False")


PartialMatchResult = MatchResult
"""0.7.2's name for the state of a sub-match: ours is a :class:`MatchResult` too."""

__all__ = [
    "MatchFailureError",
    "MatchFailureInfo",
    "MatchResult",
    "PartialMatchResult",
    "as_match_result",
]
