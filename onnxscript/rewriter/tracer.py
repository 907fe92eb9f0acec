"""Why a rule did not match where a user expected: :class:`MatchingTracer` keeps, for
each rule, the attempts that got furthest, and prints them."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

import onnx_ir as ir

from onnxscript.rewriter.match_result import MatchResult


class MatchStatus(enum.IntEnum):
    """How far an attempt got: the structure did not match, the rule's check refused it,
    the replacement declined it, or it was rewritten."""

    NO_MATCH = 0
    CONDITION_FAILED = 1
    REPLACEMENT_FAILED = 2
    SUCCESS = 3


@dataclasses.dataclass
class MatchInfo:
    """One attempt of a rule at ``root_node`` in ``container``."""

    match_result: MatchResult
    root_node: ir.Node
    container: ir.Graph | ir.Function
    status: MatchStatus

    def score(self) -> tuple[int, int]:
        return int(self.status), len(self.match_result.nodes)

    def print(self) -> None:
        print(self.describe())

    def describe(self) -> str:
        lines = [f"  status: {self.status.name}", f"  at: {_node_text(self.root_node)}"]
        if self.match_result.reason:
            lines.append(f"  reason: {self.match_result.reason}")
        matched = self.match_result.nodes
        if matched:
            lines.append(f"  matched {len(matched)} node(s):")
            lines.extend(f"    {_node_text(n)}" for n in matched)
        for source in self.match_result.failure_nodes_and_values:
            text = _node_text(source) if isinstance(source, ir.Node) else _value_text(source)
            lines.append(f"  failed at: {text}")
        return "\n".join(lines)


class MatchingTracer:
    """Pass as ``tracer=`` to ``apply_to_model``; then :meth:`report` prints, for every
    rule, its best attempts (the furthest a failed match got, or its successes)."""

    def __init__(self) -> None:
        self._best: dict[Any, list[MatchInfo]] = {}

    @property
    def best_matches_map(self) -> dict[Any, list[MatchInfo]]:
        return self._best

    def log(
        self,
        rule: Any,
        container: ir.Graph | ir.Function,
        node: ir.Node,
        match_result: MatchResult,
        status: MatchStatus,
    ) -> None:
        info = MatchInfo(match_result, node, container, status)
        best = self._best.setdefault(rule, [])
        if not best or info.score() > best[0].score():
            best[:] = [info]
        elif info.score() == best[0].score():
            best.append(info)

    def report(self) -> None:
        print(self.report_text())

    def report_text(self) -> str:
        parts = []
        for rule, infos in self._best.items():
            name = getattr(rule, "name", None) or repr(rule)
            parts.append(f"Rule {name}: {len(infos)} best attempt(s)")
            parts.extend(info.describe() for info in infos[:3])
        return "\n".join(parts) if parts else "No rule was tried."


def _node_text(node: ir.Node) -> str:
    inputs = ", ".join(_value_name(v) for v in node.inputs)
    outputs = ", ".join(_value_name(v) for v in node.outputs)
    domain = f"{node.domain}::" if node.domain else ""
    label = f" ({node.name})" if node.name else ""
    return f"{outputs} = {domain}{node.op_type}({inputs}){label}"


def _value_text(value: ir.Value) -> str:
    return f"value {_value_name(value)}"


def _value_name(value: ir.Value | None) -> str:
    return "None" if value is None else (value.name or "<unnamed>")


__all__ = ["MatchInfo", "MatchStatus", "MatchingTracer"]
