#!/usr/bin/env python3
"""The version converter's adapter table (docs/version_converter.md), from the registry.

Prints the table; with --write replaces the part of docs/version_converter.md between the
``<!-- adapters -->`` and ``<!-- /adapters -->`` markers (a test checks it is current).

Usage: python tools/version_converter_table.py [--write]
"""

from __future__ import annotations

import sys
from pathlib import Path

from onnxscript.version_converter._versions import schema_steps
from onnxscript.version_converter.registry import ADAPTERS, WITHOUT_ADAPTER, lookup

DOC = Path(__file__).resolve().parents[1] / "docs" / "version_converter.md"
BEGIN, END = "<!-- adapters -->", "<!-- /adapters -->"
TYPES = "unchanged (new element types)"


def _summary(key: tuple[str, int, int]) -> str:
    adapter = lookup(key)
    if adapter is not None:
        return adapter.summary
    return f"no adapter: {WITHOUT_ADAPTER[key]}"


def rows() -> list[str]:
    """One row per op and step (steps that only add element types grouped per op)."""
    by_op: dict[str, list[tuple[int, int]]] = {}
    for op, old, new in schema_steps():
        by_op.setdefault(op, []).append((old, new))
    for op, source, target in ADAPTERS:
        if target == source - 1 and (op, target, source) not in ADAPTERS:
            by_op.setdefault(op, []).append((target, source))
    lines = []
    for op in sorted(by_op):
        typed = []
        for old, new in sorted(by_op[op]):
            up = (
                "-"
                if lookup((op, old, new)) is None and (op, old, new) not in WITHOUT_ADAPTER
                else _summary((op, old, new))
            )
            if up == TYPES and _summary((op, new, old)).startswith("unchanged;"):
                typed.append(str(new))
                continue
            down = _summary((op, new, old))
            lines.append(f"| {op} | {old} ↔ {new} | {_cell(up)} | {_cell(down)} |")
        if typed:
            lines.append(f"| {op} | {', '.join(typed)} | new element types only | types checked |")
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table() -> str:
    header = [
        "| op | versions | up | down |",
        "| --- | --- | --- | --- |",
    ]
    return "\n".join(header + rows())


def rewritten(text: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return f"{text[:start]}\n{table()}\n{text[end:]}"


def main(argv: list[str]) -> None:
    if "--write" in argv:
        DOC.write_text(rewritten(DOC.read_text()))
    else:
        print(table())


if __name__ == "__main__":
    main(sys.argv[1:])
