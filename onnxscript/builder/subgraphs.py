"""``builder.subgraph``: bodies of If/Loop/Scan built in the same imperative style."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import onnx_ir as ir

from onnxscript.builder.diagnostics import BuilderError
from onnxscript.builder.protocol import Recorder
from onnxscript.builder.types import type_and_shape, typed_value


def build_subgraph(
    parent: Recorder,
    trace_function: Callable[..., Any],
    input_types: Sequence[Any],
    output_types: Sequence[Any] | None,
    name: str,
) -> ir.Graph:
    """Run ``trace_function(op, *inputs)`` on new typed inputs into a new graph.

    Values of enclosing graphs may be used inside (ONNX captures them by name); returned
    values that are inputs or enclosing values are passed through ``Identity``. Declared
    output types are checked against the inferred element types and then applied.
    """
    graph = ir.Graph([], [], nodes=[], name=name)
    sub = parent.child(graph)
    names = parent.names
    for index, spec in enumerate(input_types):
        value_name = names.fresh(f"{names.prefix}{name}_input_{index}")
        graph.inputs.append(typed_value(value_name, spec, f"input {index} of subgraph {name}"))
    with sub:
        result = trace_function(sub.op, *graph.inputs)
    items = list(result) if isinstance(result, (tuple, list)) else [result]
    if output_types is not None and len(output_types) != len(items):
        raise BuilderError(
            f"subgraph {name} returned {len(items)} values but {len(output_types)} output "
            "types are declared"
        )
    for index, item in enumerate(items):
        if not isinstance(item, ir.Value):
            raise BuilderError(
                f"subgraph {name} returned {type(item).__name__} as output {index}; return "
                "the values its op calls make"
            )
        out = sub.add_output(item)
        if output_types is not None:
            _declare(out, output_types[index], f"output {index} of subgraph {name}")
    return graph


def _declare(value: ir.Value, spec: Any, what: str) -> None:
    declared, shape = type_and_shape(spec, what)
    if declared is not None:
        known = value.dtype
        wanted = getattr(declared, "dtype", None)
        if known is not None and wanted is not None and known != wanted:
            raise BuilderError(f"{what} is declared {wanted.name} but the body makes {known.name}")
        value.type = declared
    if shape is not None:
        value.shape = shape


__all__ = ["build_subgraph"]
