"""Building adapter tables: both directions of a step, and the checks most steps share."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from onnxscript.version_converter._context import Adapt, Adapter, Rewrite, nothing
from onnxscript.version_converter._versions import Key, versions

Table = dict[Key, Adapter]


def previous(op_type: str, version: int) -> int:
    """The since-version before ``version`` of ``op_type``."""
    return max(v for v in versions(op_type) if v < version)


def step(
    op_type: str,
    version: int,
    up: Adapt,
    down: Adapt,
    up_summary: str,
    down_summary: str,
) -> Table:
    """The adapters of both directions between ``version`` and the one before it."""
    old = previous(op_type, version)
    return {
        (op_type, old, version): Adapter(up, up_summary),
        (op_type, version, old): Adapter(down, down_summary),
    }


def types_only(ops: dict[str, tuple[int, ...]]) -> Table:
    """Steps that only admit new element types or reword the documentation: nothing to do
    either way (a downgraded node's types are checked against the older schema)."""
    table: Table = {}
    for op_type, changed in ops.items():
        for version in changed:
            table |= step(
                op_type,
                version,
                nothing,
                nothing,
                "unchanged (new element types)",
                "unchanged; element types checked",
            )
    return table


def chain(*adapts: Adapt) -> Adapt:
    """The adapters one after the other."""

    def apply(rewrite: Rewrite) -> None:
        for adapt in adapts:
            adapt(rewrite)

    return apply


def default_only(name: str, harmless: Callable[[Any], bool]) -> Adapt:
    """Going down to a version without attribute ``name``: allowed when absent or
    ``harmless(value)`` (its default), then dropped."""

    def apply(rewrite: Rewrite) -> None:
        value = rewrite.attr(name)
        if value is not None and not harmless(value):
            rewrite.fail(f"attribute {name}={value!r} has no equivalent in the older version")
        rewrite.drop_attr(name)

    return apply


def equals(default: Any) -> Callable[[Any], bool]:
    return lambda value: value == default


def all_ones(value: Any) -> bool:
    return all(v == 1 for v in value)


def new_attributes(op_type: str, version: int, defaults: dict[str, Callable[[Any], bool]]) -> Table:
    """Attributes added at ``version`` whose defaults keep the old meaning."""
    names = ", ".join(sorted(defaults))
    down = chain(*(default_only(name, harmless) for name, harmless in defaults.items()))
    return step(
        op_type,
        version,
        nothing,
        down,
        f"unchanged (new {names}: the default keeps the old behaviour)",
        f"{names} must be absent or default; dropped",
    )


def without_values(name: str, values: Iterable[Any]) -> Adapt:
    """Going down to a version that lacks some values of attribute ``name``."""
    new = tuple(values)

    def apply(rewrite: Rewrite) -> None:
        if rewrite.attr(name) in new:
            rewrite.fail(f"{name}={rewrite.attr(name)!r} does not exist in the older version")

    return apply


def new_values(op_type: str, version: int, name: str, values: Iterable[Any]) -> Table:
    """New values of attribute ``name`` at ``version``."""
    new = tuple(values)
    listed = ", ".join(repr(v) for v in new)
    return step(
        op_type,
        version,
        nothing,
        without_values(name, new),
        f"unchanged (new {name} values {listed})",
        f"{name} must not be {listed}",
    )


def absent_input(index: int, what: str) -> Adapt:
    """Going down to a version without optional input ``index``."""

    def apply(rewrite: Rewrite) -> None:
        if rewrite.input(index) is not None:
            rewrite.fail(f"{what} (input {index}) does not exist in the older version")

    return apply


__all__ = [
    "Table",
    "absent_input",
    "all_ones",
    "chain",
    "default_only",
    "equals",
    "new_attributes",
    "new_values",
    "previous",
    "step",
    "types_only",
    "without_values",
]
