"""The pattern rewriter: rules written as a pattern function and a replacement function
(or a rule class), applied to ``onnx_ir`` models or ``ModelProto``\\ s.

>>> from onnxscript.rewriter import pattern, rewrite
>>> def pat(op, x):
...     return op.Relu(op.Relu(x))
>>> def repl(op, x):
...     return op.Relu(x)
>>> rule = pattern.RewriteRule(pat, repl)
"""

from __future__ import annotations

from onnxscript.ir_utils.metadata import carry_metadata as merge_metadata
from onnxscript.rewriter import pattern
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.replacement import RewriterContext
from onnxscript.rewriter.rewrite import RewritePass, rewrite
from onnxscript.rewriter.substitution import RULE_NAME_TAG
from onnxscript.rewriter.tracer import MatchingTracer, MatchStatus

__all__ = [
    "RULE_NAME_TAG",
    "MatchContext",
    "MatchResult",
    "MatchStatus",
    "MatchingTracer",
    "RewritePass",
    "RewriteRule",
    "RewriteRuleClassBase",
    "RewriteRuleSet",
    "RewriterContext",
    "merge_metadata",
    "pattern",
    "rewrite",
]
