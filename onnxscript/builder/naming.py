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
        self._node_prefix = ""

    @property
    def used(self) -> set[str]:
        return self._unique.taken

    def push(self, module: str, class_name: str = "") -> None:
        self.scopes.append((module, class_name))
        self._rejoin()

    def pop(self) -> None:
        if not self.scopes:
            raise ValueError("pop_module() without a matching push_module()")
        self.scopes.pop()
        self._rejoin()

    def _rejoin(self) -> None:
        """The prefixes of the scopes' names; a scope with no name (a model's root module,
        which names only its class) adds nothing."""
        named = [m for m, _ in self.scopes if m]
        self._prefix = ".".join(named) + "." if named else ""
        self._node_prefix = "/".join(named) + "/" if named else ""

    @property
    def prefix(self) -> str:
        """``"layer1.attention."`` inside those modules, else ``""``: the prefix of
        initializer names (``layer1.attention.weight``)."""
        return self._prefix

    @property
    def value_prefix(self) -> str:
        """``"v_layer1.attention."`` (``"v_"`` outside modules): the prefix of the values
        that op calls make, as onnxscript 0.7 names them."""
        return "v_" + self._prefix

    @property
    def node_prefix(self) -> str:
        """``"layer1/attention/"`` inside those modules, else ``""``: the prefix of node
        names, as onnxscript 0.7 (and torch.onnx) name them."""
        return self._node_prefix

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
