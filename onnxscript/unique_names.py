"""Fresh names: ``base`` itself, or else ``base_1``, ``base_2``... the first one not taken.

The one naming scheme of the package: the converter's temporaries, the optimizer's and
version converter's new values, the rewriter's new outputs, the reverse translator's
identifiers all read alike. Plain Python (no onnx, no onnx_ir), so every layer can use it.
"""

from __future__ import annotations

import itertools
from collections.abc import Container, Iterable, Iterator


def candidates(base: str, separator: str = "_") -> Iterator[str]:
    """``base``, then ``base_1``, ``base_2``... without end (``separator`` between)."""
    yield base
    for index in itertools.count(1):
        yield f"{base}{separator}{index}"


def first_free(base: str, taken: Container[str], separator: str = "_") -> str:
    """The first of :func:`candidates` not in ``taken`` (which is left as it is)."""
    return next(name for name in candidates(base, separator) if name not in taken)


class UniqueNames:
    """Hands out names not taken yet, and takes them: :func:`first_free` that remembers.

    The last suffix handed out for a base is kept, so that the n-th name from one base
    costs one lookup, not n; names are only ever added to ``taken``, so this gives the
    same names as trying every suffix from 1.
    """

    __slots__ = ("_suffixes", "separator", "taken")

    def __init__(self, taken: Iterable[str] = (), separator: str = "_") -> None:
        self.taken: set[str] = set(taken)
        self.separator = separator
        self._suffixes: dict[str, int] = {}

    def claim(self, name: str) -> str:
        """``name`` when free, else the first free ``name_N``; it is taken from now on."""
        if name not in self.taken:
            self.taken.add(name)
            return name
        index = self._suffixes.get(name, 0)
        while True:
            index += 1
            candidate = f"{name}{self.separator}{index}"
            if candidate not in self.taken:
                self._suffixes[name] = index
                self.taken.add(candidate)
                return candidate

    def snapshot(self) -> tuple[frozenset[str], dict[str, int]]:
        """The state, for :meth:`restore` to undo the names taken since."""
        return frozenset(self.taken), dict(self._suffixes)

    def restore(self, state: tuple[frozenset[str], dict[str, int]]) -> None:
        self.taken = set(state[0])
        self._suffixes = dict(state[1])


__all__ = ["UniqueNames", "candidates", "first_free"]
