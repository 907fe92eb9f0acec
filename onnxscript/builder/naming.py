"""Names in a built graph: module scopes (``push_module``) and unique, readable names.

One :class:`Names` is shared by a root graph and all its subgraphs, because ONNX wants a
value name defined once across nested graphs.
"""

from __future__ import annotations

from collections.abc import Iterable

from onnxscript.unique_names import UniqueNames


class Names:
    """The scope stack and the names already used (``used``: the set of them)."""

    def __init__(self, used: Iterable[str] = ()) -> None:
        self.scopes: list[tuple[str, str]] = []
        self._unique = UniqueNames(used)
        self.counter = 0
        self._prefix = ""

    @property
    def used(self) -> set[str]:
        return self._unique.taken

    def push(self, module: str, class_name: str = "") -> None:
        self.scopes.append((module, class_name))
        self._prefix = self._joined()

    def pop(self) -> None:
        if not self.scopes:
            raise ValueError("pop_module() without a matching push_module()")
        self.scopes.pop()
        self._prefix = self._joined()

    def _joined(self) -> str:
        """The scopes' names joined; a scope with no name (a model's root module, which
        names only its class) adds nothing."""
        named = [m for m, _ in self.scopes if m]
        return ".".join(named) + "." if named else ""

    @property
    def prefix(self) -> str:
        """``"layer1.attention."`` inside those modules, else ``""``."""
        return self._prefix

    def namespace(self) -> str:
        """The scope as node metadata: ``"layer1: Linear/attention: Attention"``."""
        return "/".join(f"{m}: {c}" if c else m for m, c in self.scopes)

    def next_id(self) -> int:
        self.counter += 1
        return self.counter - 1

    def fresh(self, base: str) -> str:
        """``base``, or ``base_1``, ``base_2``... when taken; recorded as used."""
        return self._unique.claim(base)

    def claim(self, name: str) -> str:
        """Record a name the user chose; it must not be taken."""
        if name in self.used:
            raise ValueError(f"the name {name!r} is already used in this graph")
        self.used.add(name)
        return name


__all__ = ["Names"]
