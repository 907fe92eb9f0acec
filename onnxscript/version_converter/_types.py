"""Element types of values against the type constraints of an op's schema."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import onnx_ir as ir

from onnxscript import schemas


def type_string(type_: ir.TypeProtocol) -> str:
    """The ONNX type string of an IR type: ``tensor(float)``, ``seq(tensor(int64))``."""
    if isinstance(type_, ir.SequenceType):
        return f"seq({type_string(type_.elem_type)})"
    if isinstance(type_, ir.OptionalType):
        return f"optional({type_string(type_.elem_type)})"
    kind = "sparse_tensor" if isinstance(type_, ir.SparseTensorType) else "tensor"
    return f"{kind}({type_.dtype.name.lower()})"


def _actuals(
    formals: Sequence[schemas.Formal], values: Sequence[ir.Value | None]
) -> Iterator[tuple[schemas.Formal, int, ir.Value]]:
    """(formal, position, value) for every present value, a variadic formal taking the
    rest."""
    for position, value in enumerate(values):
        if not formals:
            return
        formal = formals[min(position, len(formals) - 1)]
        if position >= len(formals) and formal.option != schemas.VARIADIC:
            return
        if value is not None and value.type is not None:
            yield formal, position, value


def type_errors(node: ir.Node, opset: int) -> list[str]:
    """What in ``node``'s known input and output types the schema of its op at ``opset``
    does not allow (element types outside a constraint, or one type parameter bound to
    two types)."""
    facts = schemas.op_facts("", node.op_type, opset)
    if facts is None:
        return [f"{node.op_type} does not exist in opset {opset}"]
    allowed = dict(facts.type_constraints)
    bound: dict[str, str] = {}
    problems = []
    for side, formals, values in (
        ("input", facts.inputs, node.inputs),
        ("output", facts.outputs, node.outputs),
    ):
        for formal, position, value in _actuals(formals, values):
            assert value.type is not None
            actual = type_string(value.type)
            permitted = allowed.get(formal.type_str, (formal.type_str,))
            if actual not in permitted:
                problems.append(
                    f"{side} {position} ({formal.name}) is {actual}, which "
                    f"{node.op_type}-{facts.since_version} does not accept"
                )
                continue
            if formal.type_str not in allowed or not formal.homogeneous:
                continue
            first = bound.setdefault(formal.type_str, actual)
            if first != actual:
                problems.append(
                    f"{side} {position} ({formal.name}) is {actual} but {formal.type_str} is "
                    f"already {first}: {node.op_type}-{facts.since_version} needs one type"
                )
    return problems


__all__ = ["type_errors", "type_string"]
