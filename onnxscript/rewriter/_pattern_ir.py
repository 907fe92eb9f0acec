"""0.7.2's module path for the pattern IR (:mod:`onnxscript.rewriter.pattern_graph`) and
the pattern builders (:mod:`onnxscript.rewriter.pattern_builder`)."""

from __future__ import annotations

from onnxscript.rewriter.pattern_builder import (
    OpPatternBuilder,
    OpsetPatternBuilder,
    onnxop,
    pattern_builder,
    torch_module_op,
)
from onnxscript.rewriter.pattern_graph import (
    ANY_VALUE,
    AnyValue,
    AttrConstantPattern,
    AttrPattern,
    AttrVar,
    BacktrackingOr,
    Constant,
    GraphPattern,
    NodeOutputPattern,
    NodePattern,
    OpIdDispatchOr,
    OrValue,
    PrefixPattern,
    StringConstantPattern,
    StringPattern,
    ValuePattern,
    Var,
    to_value_pattern,
)
from onnxscript.rewriter.pattern_graph import Predicate as Pattern

_to_value_pattern = to_value_pattern
"""0.7.2's private name, which its tests call."""

__all__ = [
    "ANY_VALUE",
    "AnyValue",
    "AttrConstantPattern",
    "AttrPattern",
    "AttrVar",
    "BacktrackingOr",
    "Constant",
    "GraphPattern",
    "NodeOutputPattern",
    "NodePattern",
    "OpIdDispatchOr",
    "OpPatternBuilder",
    "OpsetPatternBuilder",
    "OrValue",
    "Pattern",
    "PrefixPattern",
    "StringConstantPattern",
    "StringPattern",
    "ValuePattern",
    "Var",
    "onnxop",
    "pattern_builder",
    "torch_module_op",
]
