"""Python identifiers for names taken from an ONNX model.

A model's names are untrusted text: they may contain any character, start with a digit, be
Python keywords, or collide once cleaned up. Every name that reaches the emitted source goes
through :class:`NameAllocator`, which only ever hands out valid, unique, NFKC-stable
identifiers, so a name can never change the meaning of the code around it.
"""

from __future__ import annotations

import builtins
import keyword
import re
import unicodedata
from collections.abc import Iterable

from onnxscript.unique_names import UniqueNames

_ASCII_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_DIGITS = "0123456789"
# Where a name ends with `_` and digits (a name may contain NUL: then it may also match).
_SSA_TAIL = re.compile(r"_[0-9]+(?:\x00|\Z)")

# Names the emitted code itself reads inside functions; a variable with one of these names
# would hide it. Builtins that scripts do not use (``input``, ``max``, ...) stay available
# as variable names because ONNX models use them a lot.
RESERVED_BUILTINS = frozenset(
    {"range", "float", "bytes", "complex", "print", "len", "tuple", "list"}
)


def _clean(name: str, keep_unicode: bool) -> str:
    out = []
    for ch in name:
        if ch.isascii():
            out.append(ch if (ch.isalnum() or ch == "_") else "_")
        elif keep_unicode and ("a" + ch).isidentifier():
            out.append(ch)
        else:
            out.append("_")
    return "".join(out)


def sanitize(name: str, default: str = "v") -> str:
    """A valid identifier that resembles ``name`` (not yet unique).

    ASCII letters, digits and ``_`` are kept, as are non-ASCII letters when the result is
    stable under NFKC normalization (which Python applies to identifiers, and which could
    otherwise make two different names equal). Everything else becomes ``_``.
    """
    if _ASCII_WORD.match(name) is None:
        cleaned = _clean(name, keep_unicode=True)
        if not cleaned.isidentifier() or unicodedata.normalize("NFKC", cleaned) != cleaned:
            cleaned = _clean(name, keep_unicode=False)
        name = cleaned
        if not name.strip("_"):
            name = default + name
        if name[0].isdigit():
            name = default + "_" + name
    if name.startswith("__"):
        name = default + name  # dunder names can mean something to Python
    if keyword.iskeyword(name):
        name += "_"
    return name


def ssa_base(name: str) -> str | None:
    """``x`` for ``x_3``: the variable an SSA-renamed value probably came from."""
    head = name.rstrip(_DIGITS)
    if len(head) < len(name) and len(head) > 1 and head[-1] == "_":
        return head[:-1]
    return None


def may_have_ssa_names(names: Iterable[str]) -> bool:
    """Whether one of ``names`` may be an SSA variant (see :func:`ssa_base`; it may say yes
    for a name that is not): one search through all of them, so that the passes that look
    at every value for such names can be skipped when there are none."""
    return _SSA_TAIL.search("\x00".join(names)) is not None


class NameAllocator(UniqueNames):
    """Hands out unique identifiers; the first to ask for a name gets it unchanged."""

    __slots__ = ()

    def __init__(self, reserved: frozenset[str] | set[str] = frozenset()) -> None:
        super().__init__(set(reserved) | RESERVED_BUILTINS)

    @property
    def used(self) -> set[str]:
        """The names taken (module-level names, builtins the code reads, identifiers)."""
        return self.taken

    @used.setter
    def used(self, names: set[str]) -> None:
        self.taken = names

    def copy(self) -> NameAllocator:
        other = NameAllocator()
        other.restore(self.snapshot())
        return other

    def reserve(self, name: str) -> None:
        """Mark ``name`` as taken (a module-level name the emitted code defines)."""
        self.taken.add(name)

    def take(self, name: str, default: str = "v") -> str:
        """A unique identifier derived from ``name``."""
        if (
            name not in self.taken
            and name.isascii()
            and name.isidentifier()
            and name[:2] != "__"
            and not keyword.iskeyword(name)
        ):
            self.taken.add(name)
            return name
        return self.claim(sanitize(name, default))


def is_plain_identifier(name: str) -> bool:
    """Whether ``name`` can be written as is as a Python identifier (``x.name`` or
    ``name=``): Python would read it as the same name (identifiers are NFKC-normalized:
    ``op.Ｒｅｌｕ`` is ``op.Relu``)."""
    return (
        name.isidentifier()
        and not keyword.iskeyword(name)
        and (name.isascii() or unicodedata.normalize("NFKC", name) == name)
    )


BUILTIN_NAMES = frozenset(dir(builtins))
