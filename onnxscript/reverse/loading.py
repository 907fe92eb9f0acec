"""Run translated source: register it so that ``@script`` can read it, then execute it."""

from __future__ import annotations

import itertools
from typing import Any

_COUNTER = itertools.count()


def exec_script(source: str, filename: str | None = None) -> dict[str, Any]:
    """Execute script source given as a string and return its namespace.

    The source is registered with :mod:`linecache` under ``filename`` (default: a fresh
    ``<onnxscript-reverse-N>`` name) first, because ``@script()`` reads the source of the
    functions it compiles.
    """
    from onnxscript.source import register_source

    name = filename or f"<onnxscript-reverse-{next(_COUNTER)}>"
    register_source(source, name)
    namespace: dict[str, Any] = {"__name__": "onnxscript_reverse_script", "__file__": name}
    exec(compile(source, name, "exec"), namespace)
    return namespace
