"""``rewrite(model, rules)`` and :class:`RewritePass`: rules applied to a whole model,
then what they left unused removed."""

from __future__ import annotations

from collections.abc import Sequence

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils.model_kinds import ModelT, on_ir
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.rules.common import default_rules


class RewritePass(ir.passes.InPlacePass):
    """Apply ``rules`` (a sequence or a :class:`RewriteRuleSet`) once to every graph."""

    def __init__(self, rules: Sequence[RewriteRule] | RewriteRuleSet) -> None:
        super().__init__()
        self.rules = rules if isinstance(rules, RewriteRuleSet) else RewriteRuleSet(rules)

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        count = self.rules.apply_to_model(model)
        return ir.passes.PassResult(model, count > 0)


def rewrite(
    model: ModelT, pattern_rewrite_rules: Sequence[RewriteRule] | RewriteRuleSet | None = None
) -> ModelT:
    """Rewrite ``model`` with the rules (None: the default rules; empty: no change), then
    remove unused nodes, functions and opsets. An ``ir.Model`` is rewritten in place and
    returned; for a ``ModelProto`` a new one is returned."""
    if pattern_rewrite_rules is None:
        rules = RewriteRuleSet(default_rules())
    elif isinstance(pattern_rewrite_rules, RewriteRuleSet):
        rules = pattern_rewrite_rules
    else:
        rules = RewriteRuleSet(list(pattern_rewrite_rules))
    if not rules.rules:
        return model

    def run(ir_model: ir.Model) -> None:
        RewritePass(rules)(ir_model)
        common.RemoveUnusedNodesPass()(ir_model)
        common.RemoveUnusedFunctionsPass()(ir_model)  # type: ignore[no-untyped-call]
        common.RemoveUnusedOpsetsPass()(ir_model)

    return on_ir(model, run)


__all__ = ["RewritePass", "rewrite"]
