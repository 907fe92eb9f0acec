"""Rebuilding a matched node with changes: the same op, inputs and attributes, some of
them replaced (the replacement builder then records it as a new node)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import onnx_ir as ir


def has_ref_attributes(node: ir.Node) -> bool:
    """Whether an attribute of ``node`` refers to a function's attribute (its value is
    not known inside the function body)."""
    return any(attr.is_ref() for attr in node.attributes.values())


def rebuilt(
    op: Any,
    node: ir.Node,
    inputs: Sequence[ir.Value | None] | None = None,
    drop: Sequence[str] = (),
    **changes: Any,
) -> Any:
    """``node`` made again with ``op`` (the replacement builder): its inputs (or
    ``inputs``), its attributes but those in ``drop``, and ``changes`` (new values)."""
    attributes: dict[str, Any] = {
        name: attr
        for name, attr in node.attributes.items()
        if name not in drop and name not in changes
    }
    attributes.update(changes)
    values = list(node.inputs if inputs is None else inputs)
    while values and values[-1] is None:
        values.pop()
    return op.op_multi_out(node.op_type, values, _domain=node.domain, **attributes)


__all__ = ["has_ref_attributes", "rebuilt"]
