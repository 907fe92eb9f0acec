"""Checking an onnxruntime fusion: the model before and after, run in onnxruntime on the
same random inputs (symbolic dims given sizes, twice: the fused model must not depend on
the sizes), the fused model checked by onnx's full checker with the contrib ops (which
it does not know) set aside, and the real exports the tests share."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import onnx
import onnx.parser
import onnx_ir as ir
import pytest

from tests.rewriter import rule_checks

CONTRIB_IN_DEFAULT_DOMAIN = frozenset({"SimplifiedLayerNormalization"})
"""onnxruntime's contrib ops registered in the default domain."""

SIZES: tuple[dict[str, int], dict[str, int]] = ({"B": 2, "S": 3, "T": 5}, {"B": 3, "S": 1, "T": 2})


def parse(text: str, *, check: bool = True) -> onnx.ModelProto:
    """A model from onnx's text format with the types and shapes of its values inferred
    (the rules read them); ``check``: run onnx's full checker on it first."""
    model = onnx.parser.parse_model(text)
    if check:
        onnx.checker.check_model(model, full_check=True)
    return onnx.shape_inference.infer_shapes(model)


def check_model(model: onnx.ModelProto) -> None:
    """onnx's full checker on ``model`` with the contrib ops of the default domain moved
    to a domain the checker does not know (it skips those)."""
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    for node in copy.graph.node:
        if node.domain in ("", "ai.onnx") and node.op_type in CONTRIB_IN_DEFAULT_DOMAIN:
            node.domain = "com.microsoft"
    if not any(o.domain == "com.microsoft" for o in copy.opset_import):
        copy.opset_import.append(onnx.helper.make_opsetid("com.microsoft", 1))
    onnx.checker.check_model(copy, full_check=True)


def compare(
    before: onnx.ModelProto,
    after: onnx.ModelProto,
    *,
    rtol: float = 1e-5,
    atol: float = 1e-5,
    sizes: tuple[Mapping[str, int], ...] = SIZES,
) -> None:
    """The outputs of ``before`` and ``after`` in onnxruntime, equal within tolerance."""
    for seed, dims in enumerate(sizes):
        feeds = rule_checks.random_inputs(before, dims, seed=seed)
        expected = rule_checks.run(before, feeds)
        got = rule_checks.run(after, feeds)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            np.testing.assert_allclose(
                np.asarray(g, np.float64), np.asarray(e, np.float64), rtol=rtol, atol=atol
            )


def fuse_and_compare(
    text: str,
    fuse: Callable[[ir.Model], int],
    count: int,
    *,
    check_input: bool = True,
    rtol: float = 1e-5,
    atol: float = 1e-5,
    sizes: tuple[Mapping[str, int], ...] = SIZES,
) -> ir.Model:
    """Parse ``text``, apply ``fuse`` (expecting ``count`` rewrites), check the result and
    compare its outputs with the original's; the fused model."""
    before = parse(text, check=check_input)
    model = ir.from_proto(before)
    assert fuse(model) == count
    after = ir.to_proto(model)
    check_model(after)
    compare(before, after, rtol=rtol, atol=atol, sizes=sizes)
    return model


def ops(model: ir.Model) -> list[str]:
    """``domain::op_type`` (no domain for the default) of each node but the Constants
    (the fusions leave unused ones for the driver's cleanup), in order."""
    return [
        f"{n.domain}::{n.op_type}" if n.domain else n.op_type
        for n in model.graph
        if n.op_type != "Constant"
    ]


def node(model: ir.Model, op_type: str) -> ir.Node:
    return next(n for n in model.graph if n.op_type == op_type)


def input_names(n: ir.Node) -> list[str]:
    """The names of ``n``'s inputs ("" for an omitted one)."""
    return [v.name or "" if v is not None else "" for v in n.inputs]


def attributes(n: ir.Node) -> dict[str, Any]:
    return {name: attr.value for name, attr in n.attributes.items()}


@functools.cache
def exported(name: str) -> bytes:
    """The model ``name`` of the real-model suite exported by torch.onnx (this package's
    ATen library) with dynamic shapes, serialized; skipped without torch and transformers."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests.function_libs import dynamic_export, real_models

    entry = real_models.suite()[name]
    module = entry.module()
    program = dynamic_export.export(module, entry.inputs(0), entry.dynamic_shapes(module))
    return bytes(program.model_proto.SerializeToString())


def export_inputs(name: str, which: int) -> dict[str, np.ndarray]:
    """The suite's inputs of ``name`` at its export sizes (0) or its second sizes (1),
    keyed by the exported model's input names."""
    from tests.function_libs import dynamic_export, real_models

    proto = onnx.load_from_string(exported(name))
    arrays = dynamic_export.flat_tensors(real_models.suite()[name].inputs(which))
    names = [value.name for value in proto.graph.input]
    return {n: dynamic_export.numpy_of(t) for n, t in zip(names, arrays)}


def fuse_export_and_compare(
    name: str, fusions: list[Callable[[ir.Model], int]], *, rtol: float = 1e-4
) -> tuple[ir.Model, list[int]]:
    """Apply ``fusions`` in order to the export of ``name``; their counts, after checking
    the fused model and its outputs against the export's at both sizes of the suite."""
    before = onnx.load_from_string(exported(name))
    model = ir.from_proto(before)
    counts = [fuse(model) for fuse in fusions]
    after = ir.to_proto(model)
    check_model(after)
    for which in (0, 1):
        feeds = export_inputs(name, which)
        expected = rule_checks.run(before, feeds)
        got = rule_checks.run(after, feeds)
        for g, e in zip(got, expected):
            scale = max(float(np.max(np.abs(e))), 1.0)
            assert float(np.max(np.abs(g - e))) <= rtol * scale
    return model, counts


__all__ = [
    "SIZES",
    "attributes",
    "check_model",
    "compare",
    "export_inputs",
    "exported",
    "fuse_and_compare",
    "fuse_export_and_compare",
    "input_names",
    "node",
    "ops",
    "parse",
]
