"""Merging the ``metadata_props`` of nodes with a merging rule per key (onnxscript 0.7's
``MetadataMerger``).

The package's own passes follow one fixed rule (``onnxscript.ir_utils.metadata``: a key
takes the first value found); a :class:`MetadataMerger` without mergers and without a
default follows the same rule, and one with mergers combines the values of chosen keys
(``comma_separator_merger`` joins them, ``overwrite`` keeps the last).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import onnx_ir as ir

StringMerger = Callable[[str, str], str]
"""Combines the value a key has (first) with a new one (second)."""


def overwrite(_: str, new: str) -> str:
    """The new value."""
    return new


def join(separator: str) -> StringMerger:
    """A merger joining the two values with ``separator`` (``join("|")("a", "b") ==
    "a|b"``)."""

    def merge(first: str, second: str) -> str:
        return f"{first}{separator}{second}"

    return merge


def comma_separator_merger(first: str, second: str) -> str:
    """The two values joined with ``", "``."""
    return f"{first}, {second}"


class MetadataMerger:
    """Merges metadata properties: ``mergers`` maps a key to how its values combine;
    ``default`` combines the other keys (None: the value already there is kept; pass
    :func:`overwrite` to take the new one)."""

    def __init__(
        self, mergers: dict[str, StringMerger], default: StringMerger | None = None
    ) -> None:
        self.mergers = mergers
        self.default = default

    def update_dict(self, updated: dict[str, str], updates: dict[str, str]) -> None:
        """Merge ``updates`` into ``updated``: a new key is added, a key present in both
        gets its merger's (or the default's) combination of the two values."""
        for key, value in updates.items():
            if key not in updated:
                updated[key] = value
                continue
            merger = self.mergers.get(key, self.default)
            if merger is not None:
                updated[key] = merger(updated[key], value)

    def copy_merged_metadata(
        self, from_nodes: Iterable[ir.Node], to: ir.Node | Iterable[ir.Node]
    ) -> None:
        """Merge the metadata of ``from_nodes`` (in order) and merge the result into the
        metadata of ``to`` (one node or several)."""
        merged: dict[str, str] = {}
        for node in from_nodes:
            self.update_dict(merged, dict(node.metadata_props))
        if not merged:
            return
        targets = [to] if isinstance(to, ir.Node) else list(to)
        for target in targets:
            self.update_dict(target.metadata_props, merged)


__all__ = ["MetadataMerger", "StringMerger", "comma_separator_merger", "join", "overwrite"]
