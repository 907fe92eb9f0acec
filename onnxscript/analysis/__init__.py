"""Dataflow analysis over script ASTs and the IR: names, liveness, loop-carried values, SSA names."""

from onnxscript.analysis.liveness import Liveness, analyze, if_outputs, loop_carried
from onnxscript.analysis.names import assigned_names, free_names, used_names
from onnxscript.analysis.naming import NameAllocator, assign_names

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
