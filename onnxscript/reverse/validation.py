"""Refuse models that no script can express before translating them, with a
:class:`TranslationError` naming the problem (instead of writing source that does not
compile): no graph, an opset version below 1, local functions that call each other in a
cycle. Checks of single nodes (an attribute given twice, an omitted required input) are
made where the source writer writes the node, so that no extra pass reads every node."""

from __future__ import annotations

from collections.abc import Iterable

import onnx

from onnxscript.proto_graphs import nested_nodes
from onnxscript.reverse.graph_model import TranslationError
from onnxscript.schemas import canonical_domain, imported_versions


def check_model(model: onnx.ModelProto) -> None:
    if not model.HasField("graph"):
        raise TranslationError("the model has no graph")
    _versions(model.opset_import, "the model")
    for fn in model.functions:
        check_function(fn)
    _check_no_cycle(model.functions)


def check_function(fn: onnx.FunctionProto) -> None:
    _versions(fn.opset_import, f"function {fn.name}")


def _versions(opset_import: Iterable[onnx.OperatorSetIdProto], owner: str) -> dict[str, int]:
    versions = imported_versions(opset_import)
    for domain, version in versions.items():
        if version < 1:
            raise TranslationError(
                f"{owner} imports opset {domain or 'ai.onnx'} version {version} (versions "
                "start at 1)"
            )
    return versions


def _check_no_cycle(functions: Iterable[onnx.FunctionProto]) -> None:
    """Local functions calling each other in a cycle (scripts cannot define them)."""
    local = {(canonical_domain(f.domain), f.name): f for f in functions}
    calls = {
        key: {
            (canonical_domain(n.domain), n.op_type)
            for n in nested_nodes(fn.node)
            if (canonical_domain(n.domain), n.op_type) in local
        }
        for key, fn in local.items()
    }
    state: dict[tuple[str, str], int] = {}  # 1: being visited, 2: done
    for start in calls:
        if state.get(start):
            continue
        stack = [(start, iter(calls[start]))]
        state[start] = 1
        while stack:
            key, pending = stack[-1]
            callee = next(pending, None)
            if callee is None:
                state[key] = 2
                stack.pop()
            elif state.get(callee) == 1:
                raise TranslationError(
                    f"local function {callee[1]} calls itself through {key[1]} (a cycle)"
                )
            elif not state.get(callee):
                state[callee] = 1
                stack.append((callee, iter(calls[callee])))
