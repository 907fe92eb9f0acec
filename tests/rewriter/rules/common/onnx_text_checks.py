"""Checking one rewrite rule on a small model written in ONNX text: what it becomes, that
it passes the full checker, and that onnxruntime computes the same before and after."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnx.printer

from onnxscript.rewriter import rewrite
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_rules import RewriteRule
from tests.rewriter.rules.common.cases_072 import model

HERE = Path(__file__).resolve().parent


def parse(text: str, opset: int = 18) -> onnx.ModelProto:
    """A model from a graph (and functions) in ONNX text, importing ai.onnx at ``opset``
    (and the ``local`` domain of model-local functions); graph outputs written without a
    type get the inferred one."""
    return model(opset, text)


def op_types(model: onnx.ModelProto) -> list[str]:
    return [node.op_type for node in model.graph.node]


def apply(
    model: onnx.ModelProto, rules: RewriteRule | Sequence[RewriteRule] | RewriteRuleSet
) -> onnx.ModelProto:
    """``rewrite(model, rules)``."""
    if isinstance(rules, RewriteRule):
        rules = [rules]
    return rewrite(model, pattern_rewrite_rules=rules)


def random_feeds(
    model: onnx.ModelProto, dims: Mapping[str, int] | None = None, seed: int = 0
) -> dict[str, np.ndarray]:
    """Random inputs for ``model``: each symbolic dim takes its size from ``dims``
    (default 3)."""
    rng = np.random.default_rng(seed)
    sizes = dict(dims or {})
    feeds = {}
    initializers = {i.name for i in model.graph.initializer}
    for info in model.graph.input:
        if info.name in initializers:
            continue
        tensor = info.type.tensor_type
        shape = [
            d.dim_value if d.HasField("dim_value") else sizes.get(d.dim_param, 3)
            for d in tensor.shape.dim
        ]
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        if dtype == np.bool_:  # alternating, a scalar false (a Dropout's training_mode)
            feeds[info.name] = np.asarray(np.arange(int(np.prod(shape))).reshape(shape) % 2 == 1)
        elif np.issubdtype(dtype, np.integer):
            feeds[info.name] = np.asarray(rng.integers(-5, 6, shape), dtype)
        else:
            feeds[info.name] = np.asarray(rng.standard_normal(shape) * 4, dtype)
    return feeds


def run(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> list[Any]:
    """``model`` run by onnxruntime with its own graph optimizations off."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    return list(session.run(None, dict(feeds)))


def assert_same_results(
    before: onnx.ModelProto,
    after: onnx.ModelProto,
    dims: Mapping[str, int] | None = None,
    feeds: Mapping[str, np.ndarray] | None = None,
) -> None:
    """``after`` passes the full checker and computes exactly what ``before`` does."""
    onnx.checker.check_model(after, full_check=True)
    feeds = feeds if feeds is not None else random_feeds(before, dims)
    expected, got = run(before, feeds), run(after, feeds)
    assert len(expected) == len(got)
    for e, g in zip(expected, got, strict=True):
        assert e.dtype == g.dtype and e.shape == g.shape, (e, g)
        np.testing.assert_array_equal(g, e)


def check_rewrite(
    text: str,
    rules: RewriteRule | Sequence[RewriteRule] | RewriteRuleSet,
    expected_ops: Sequence[str],
    *,
    opset: int = 18,
    dims: Mapping[str, int] | None = None,
    feeds: Mapping[str, np.ndarray] | None = None,
) -> onnx.ModelProto:
    """Rewrite the model of ``text``: its ops become ``expected_ops`` and it computes
    what it did. Returns the rewritten model."""
    before = parse(text, opset)
    after = apply(before, rules)
    assert op_types(after) == list(expected_ops), onnx.printer.to_text(after)
    assert_same_results(before, after, dims, feeds)
    return after


def check_unchanged(
    text: str, rules: RewriteRule | Sequence[RewriteRule] | RewriteRuleSet, *, opset: int = 18
) -> None:
    """The rules leave the model of ``text`` as it is."""
    before = parse(text, opset)
    after = apply(before, rules)
    assert op_types(after) == op_types(before), onnx.printer.to_text(after)


def recorded_072_ops() -> dict[str, list[str]]:
    """The op types onnxscript 0.7.2 left for each case of ``cases_072.py`` (recorded by
    ``record_072.py``)."""
    data: dict[str, list[str]] = json.loads((HERE / "ops_072.json").read_text())
    return data
