"""Checking rewrite rules on small models written in onnx's text format, the one helper of
the rule tests: parse a model, rewrite it, check the result with onnx's full checker and
compare its outputs with the original's in onnxruntime (its own graph optimizations off)
on random inputs, symbolic dims given sizes.

    after = check_rule(text, [rule], expected_ops=["Relu"])   # rewritten, checked, equal
    check_unchanged(text, [rule])                             # the rule does not apply

The comparison is :func:`tests.helpers.assert_transform_keeps_results` (types, shapes,
values within ``rtol`` / ``atol``; 0 for both: exactly; NaN where NaN)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
import onnx.parser
import onnx.printer
import onnx.shape_inference

from onnxscript import rewriter
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_rules import RewriteRule
from tests.helpers import assert_transform_keeps_results, run_unoptimized

HEADER = '<ir_version: 10, opset_import: ["" : {opset}, "local" : 1]>\n'
"""The header :func:`parse` adds: ai.onnx at the given opset and the ``local`` domain of
model-local functions."""

Rules = RewriteRule | Sequence[Any] | RewriteRuleSet


def parse(text: str, opset: int = 20, *, check: bool = True) -> onnx.ModelProto:
    """A model from onnx's text format (:data:`HEADER` added when the text has none);
    graph outputs written without a type get the one onnx's shape inference gives.
    ``check``: the model must pass the full checker."""
    if not text.lstrip().startswith("<"):
        text = HEADER.format(opset=opset) + text
    model = onnx.parser.parse_model(text)
    untyped = [o for o in model.graph.output if not o.type.HasField("tensor_type")]
    if untyped:
        inferred = onnx.shape_inference.infer_shapes(model)
        for output, found in zip(model.graph.output, inferred.graph.output):
            if not output.type.HasField("tensor_type"):
                output.type.CopyFrom(found.type)
    if check:
        onnx.checker.check_model(model, full_check=True)
    return model


def op_types(model: onnx.ModelProto) -> list[str]:
    """The op types of the main graph's nodes, in order."""
    return [node.op_type for node in model.graph.node]


def random_inputs(
    model: onnx.ModelProto, sizes: Mapping[str, int] | None = None, seed: int = 0
) -> dict[str, np.ndarray]:
    """A random array per graph input that is not also an initializer: each symbolic dim
    takes its size from ``sizes`` (default 3); floats standard normal, integers in
    [0, 10), booleans alternating (a scalar is false: a Dropout's training_mode)."""
    rng = np.random.default_rng(seed)
    initializers = {i.name for i in model.graph.initializer}
    feeds = {}
    for info in model.graph.input:
        if info.name in initializers:
            continue
        tensor = info.type.tensor_type
        shape = [
            d.dim_value if d.HasField("dim_value") else (sizes or {}).get(d.dim_param, 3)
            for d in tensor.shape.dim
        ]
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        if dtype == np.bool_:
            feeds[info.name] = np.asarray(np.arange(int(np.prod(shape))).reshape(shape) % 2 == 1)
        elif np.issubdtype(dtype, np.integer):
            feeds[info.name] = rng.integers(0, 10, size=shape).astype(dtype)
        else:
            feeds[info.name] = rng.standard_normal(shape).astype(dtype)
    return feeds


def run(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> list[Any]:
    """``model``'s outputs on ``feeds`` in onnxruntime, its graph optimizations off."""
    return run_unoptimized(model, dict(feeds))


def apply(model: onnx.ModelProto, rules: Rules) -> onnx.ModelProto:
    """``model`` rewritten by ``rules`` (one rule, a list, or a rule set)."""
    if isinstance(rules, RewriteRule):
        rules = [rules]
    return rewriter.rewrite(model, pattern_rewrite_rules=rules)


def assert_same_results(
    before: onnx.ModelProto,
    after: onnx.ModelProto,
    *,
    sizes: Mapping[str, int] | None = None,
    feeds: Mapping[str, np.ndarray] | None = None,
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> None:
    """``after`` passes the full checker and computes what ``before`` does on ``feeds``
    (random ones by default)."""
    feeds = random_inputs(before, sizes) if feeds is None else feeds
    assert_transform_keeps_results(before, after, dict(feeds), rtol=rtol, atol=atol)


def check_rule(
    text: str | onnx.ModelProto,
    rules: Rules,
    *,
    expected_ops: Sequence[str] | None = None,
    opset: int = 20,
    sizes: Mapping[str, int] | None = None,
    feeds: Mapping[str, np.ndarray] | None = None,
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> onnx.ModelProto:
    """``text`` (or a model) rewritten by ``rules``: its ops ``expected_ops`` when given,
    checker-clean and computing what the original does. Returns the rewritten model."""
    before = parse(text, opset) if isinstance(text, str) else text
    after = apply(before, rules)
    if expected_ops is not None:
        assert op_types(after) == list(expected_ops), onnx.printer.to_text(after)
    assert_same_results(before, after, sizes=sizes, feeds=feeds, rtol=rtol, atol=atol)
    return after


def check_unchanged(text: str | onnx.ModelProto, rules: Rules, *, opset: int = 20) -> None:
    """``rules`` leave the model of ``text`` as it is (the same ops)."""
    before = parse(text, opset) if isinstance(text, str) else text
    after = apply(before, rules)
    assert op_types(after) == op_types(before), onnx.printer.to_text(after)


__all__ = [
    "HEADER",
    "apply",
    "assert_same_results",
    "check_rule",
    "check_unchanged",
    "op_types",
    "parse",
    "random_inputs",
    "run",
]
