"""onnxscript 0.7's ``onnxscript._internal.analysis`` (its ``AstAnalyzer``: the variables
a script reads and writes). Here the analyses are :mod:`onnxscript.analysis`."""

from onnxscript.analysis import (
    Liveness,
    NameAllocator,
    analyze,
    assign_names,
    assigned_names,
    free_names,
    if_outputs,
    loop_carried,
    used_names,
)

__all__ = [
    "Liveness",
    "NameAllocator",
    "analyze",
    "assign_names",
    "assigned_names",
    "free_names",
    "if_outputs",
    "loop_carried",
    "used_names",
]
