"""Shared by the fusion tests: a model from onnx's text format fused by
``onnx_fusions.fuse``, checked, and compared with the original in onnxruntime
(:mod:`tests.rewriter.rule_checks`)."""

from __future__ import annotations

import collections

import numpy as np
import onnx
import onnx.parser
import onnx.shape_inference
import onnx_ir as ir

from onnxscript.rewriter import onnx_fusions
from tests.rewriter import rule_checks


def fused(text: str) -> tuple[onnx.ModelProto, collections.Counter[str], dict[str, int]]:
    """The model of ``text`` (with inferred shapes, as torch.onnx's models have them)
    fused, its op counts and ``fuse``'s counts; a model that changed passes the full
    checker and computes what the original does."""
    before = onnx.shape_inference.infer_shapes(onnx.parser.parse_model(text), data_prop=True)
    model = ir.from_proto(before)
    counts = onnx_fusions.fuse(model)
    after = ir.to_proto(model)
    ops = collections.Counter(node.op_type for node in after.graph.node)
    if any(counts.values()):
        rule_checks.assert_same_results(before, after, rtol=1e-4, atol=1e-5)
    else:
        assert len(after.graph.node) == len(before.graph.node)
    return after, ops, counts


def header(inputs: str, outputs: str, opset: int = 23) -> str:
    return f'<ir_version: 10, opset_import: ["" : {opset}]>\ng ({inputs}) => ({outputs})'


def node_of(model: onnx.ModelProto, op_type: str) -> onnx.NodeProto:
    (node,) = [n for n in model.graph.node if n.op_type == op_type]
    return node


def attrs(node: onnx.NodeProto) -> dict[str, object]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


__all__ = ["attrs", "fused", "header", "node_of", "np"]
