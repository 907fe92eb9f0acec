"""Output types of If, Loop and Scan, read from their bodies' outputs."""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.inference.dims import Dim, dims, unknown


def _body(node: ir.Node, name: str) -> ir.Graph | None:
    attr = node.attributes.get(name)
    return attr.value if attr is not None and attr.type == ir.AttributeType.GRAPH else None


def _copy(target: ir.Value, source: ir.Value, shape: list[Dim] | None) -> None:
    if target.type is None and source.type is not None:
        target.type = source.type
    if target.shape is None and shape is not None:
        target.shape = ir.Shape(shape)


def _merge(a: list[Dim] | None, b: list[Dim] | None) -> list[Dim] | None:
    """A shape both branches' shapes fit: equal dims kept, others unknown."""
    if a is None or b is None or len(a) != len(b):
        return None
    return [x if x == b[i] else unknown() for i, x in enumerate(a)]


def if_rule(node: ir.Node, version: int) -> None:
    then, other = _body(node, "then_branch"), _body(node, "else_branch")
    if then is None or other is None:
        return
    for out, a, b in zip(node.outputs, then.outputs, other.outputs):
        _copy(out, a, _merge(dims(a), dims(b)))


def scan_rule(node: ir.Node, version: int) -> None:
    body = _body(node, "body")
    if body is None or version < 9:
        return  # Scan-8 has a batch dim and a sequence_lens input first: left unknown
    scan_inputs = int(node.attributes["num_scan_inputs"].value)
    states = len(node.inputs) - scan_inputs
    first_scan = dims(node.inputs[states]) if scan_inputs and states < len(node.inputs) else None
    axes = node.attributes.get("scan_input_axes")
    axis = int(axes.value[0]) if axes is not None else 0
    length: Dim = first_scan[axis] if first_scan else unknown()
    out_axes = node.attributes.get("scan_output_axes")
    for index, (out, source) in enumerate(zip(node.outputs, body.outputs)):
        shape = dims(source)
        if index < states:  # a state's shape may change: what the first and body agree on
            shape = _merge(dims(node.inputs[index]), shape)
        if index >= states and shape is not None:
            at = int(out_axes.value[index - states]) if out_axes is not None else 0
            at = at + len(shape) + 1 if at < 0 else at
            shape = [*shape[:at], length, *shape[at:]]
        _copy(out, source, shape)


def loop_rule(node: ir.Node, version: int) -> None:
    body = _body(node, "body")
    if body is None:
        return
    carried = len(node.inputs) - 2
    for index, (out, source) in enumerate(zip(node.outputs, body.outputs[1:])):
        shape = dims(source)
        if index < carried:  # zero iterations give the initial value
            shape = _merge(dims(node.inputs[2 + index]), shape)
        if index >= carried and shape is not None:
            shape = [unknown(), *shape]
        _copy(out, source, shape)


__all__ = ["if_rule", "loop_rule", "scan_rule"]
