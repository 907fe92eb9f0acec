"""Checking a rewrite rule on a model written in onnx's text format: rewrite it, check
the result with the full onnx checker, and compare its outputs with the original's in
onnxruntime on random inputs (symbolic dims given sizes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort

from onnxscript import rewriter

HEADER = '<ir_version: 10, opset_import: ["" : {opset}]>\n'


def parse(text: str, opset: int = 20) -> onnx.ModelProto:
    """A model from onnx's text format (the header added when missing)."""
    if not text.lstrip().startswith("<"):
        text = HEADER.format(opset=opset) + text
    model = onnx.parser.parse_model(text)
    onnx.checker.check_model(model, full_check=True)
    return model


def op_types(model: onnx.ModelProto) -> list[str]:
    return [node.op_type for node in model.graph.node]


def random_inputs(
    model: onnx.ModelProto, sizes: Mapping[str, int] | None = None, seed: int = 0
) -> dict[str, np.ndarray]:
    """A random array per graph input (symbolic dims from ``sizes``, default 3)."""
    rng = np.random.default_rng(seed)
    feeds = {}
    for value in model.graph.input:
        tensor_type = value.type.tensor_type
        shape = [
            d.dim_value if d.HasField("dim_value") else (sizes or {}).get(d.dim_param, 3)
            for d in tensor_type.shape.dim
        ]
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tensor_type.elem_type)
        if np.issubdtype(dtype, np.integer):
            feeds[value.name] = rng.integers(0, 10, size=shape).astype(dtype)
        else:
            feeds[value.name] = rng.standard_normal(shape).astype(dtype)
    return feeds


def run(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> list[Any]:
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    return session.run(None, dict(feeds))


def check_rule(
    text: str | onnx.ModelProto,
    rules: Sequence[Any],
    *,
    sizes: Mapping[str, int] | None = None,
    feeds: Mapping[str, np.ndarray] | None = None,
    opset: int = 20,
    rtol: float = 1e-5,
    atol: float = 1e-5,
) -> onnx.ModelProto:
    """``text`` rewritten by ``rules``: checker-clean and computing what the original does
    (compared in onnxruntime on ``feeds``, random ones by default)."""
    model = parse(text, opset) if isinstance(text, str) else text
    result = rewriter.rewrite(model, pattern_rewrite_rules=list(rules))
    onnx.checker.check_model(result, full_check=True)
    feeds = random_inputs(model, sizes) if feeds is None else feeds
    expected, actual = run(model, feeds), run(result, feeds)
    assert len(expected) == len(actual)
    for e, a in zip(expected, actual):
        assert e.shape == a.shape and e.dtype == a.dtype
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol)
    return result


__all__ = ["check_rule", "op_types", "parse", "random_inputs", "run"]
