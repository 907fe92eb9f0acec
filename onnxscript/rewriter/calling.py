"""Calling a user's check or replacement function with the match's bindings: all of them
when it takes ``**kwargs``, else those it names (0.7 required ``**_`` for the rest; we
accept either). A named parameter no binding fills (a variable of an alternative that did
not match) gets None."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any

_Signature = tuple[bool, tuple[str, ...], tuple[str, ...]]


def call_with_bindings(
    function: Callable[..., Any], first: Any, bindings: Mapping[str, Any]
) -> Any:
    takes_all, required, optional = _signature(function)
    if takes_all:
        return function(first, **{**dict.fromkeys(required), **bindings})
    arguments = {name: bindings.get(name) for name in required}
    arguments.update((name, bindings[name]) for name in optional if name in bindings)
    return function(first, **arguments)


@functools.lru_cache(maxsize=4096)
def _signature(function: Callable[..., Any]) -> _Signature:
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return True, (), ()
    takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    required = tuple(
        p.name for p in parameters[1:] if p.kind in named and p.default is inspect.Parameter.empty
    )
    optional = tuple(
        p.name
        for p in parameters[1:]
        if p.kind in named and p.default is not inspect.Parameter.empty
    )
    return takes_all, required, optional


__all__ = ["call_with_bindings"]
