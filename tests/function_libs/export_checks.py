"""Checks shared by the export suites (test_model_suite, test_real_models,
test_export_metadata), so that each model is exported once and every property is checked
on that one export:

- :func:`no_proto_conversion`: torch's 18 -> 20 conversion goes through our
  ``convert_version`` op by op, never serializing the model nor calling onnx's converter;
- :func:`metadata_snapshot` / :func:`assert_metadata_kept`: the metadata torch.onnx writes
  (five keys on every node, the exported program's signature and range constraints on the
  graph, ``InputSpec``/``OutputSpec`` kinds on inputs, outputs, initializers) is there
  after the export and is still there after ``optimize()``; nodes made by folding and
  fusion carry their sources' (onnxscript.ir_utils.metadata).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import onnx
import onnx.version_converter
import onnx_ir as ir
import pytest

from onnxscript._framework_apis import torch_2_11
from onnxscript.ir_utils.metadata import FOLDED_FROM

NODE_KEYS = (
    "namespace",
    "pkg.torch.onnx.class_hierarchy",
    "pkg.torch.onnx.name_scopes",
    "pkg.torch.onnx.fx_node",
    "pkg.torch.onnx.stack_trace",
)
GRAPH_KEYS = (
    "pkg.torch.export.ExportedProgram.graph_signature",
    "pkg.torch.export.ExportedProgram.range_constraints",
)
INPUT_KIND = "pkg.torch.export.graph_signature.InputSpec.kind"
OUTPUT_KIND = "pkg.torch.export.graph_signature.OutputSpec.kind"
SUBGRAPH_DOMAIN = "pkg.torch.__subgraph__"
"""The domain of the functions torch.onnx makes of cond branches and loop bodies (torch
leaves their calls bare of metadata)."""


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("the model went through a ModelProto for version conversion")


@contextlib.contextmanager
def no_proto_conversion(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, int]]]:
    """Inside the block, serializing the model or calling onnx's converter while torch
    converts the exported model's opset fails the export; yields the (source, target)
    versions ``convert_version`` was called with."""
    calls: list[tuple[int, int]] = []
    convert = torch_2_11.convert_version

    def recording(model: ir.Model, target: int) -> ir.Model:
        calls.append((model.opset_imports[""], target))
        with monkeypatch.context() as inner:
            inner.setattr(ir.serde, "serialize_model", _refuse)
            inner.setattr(onnx.version_converter, "convert_version", _refuse)
            return convert(model, target)

    with monkeypatch.context() as patch:
        patch.setattr(torch_2_11, "convert_version", recording)
        yield calls


def all_nodes(model: ir.Model) -> Iterator[ir.Node]:
    """Every node: main graph, function bodies, subgraphs at any depth."""
    yield from ir.traversal.RecursiveGraphIterator(model.graph)
    for function in model.functions.values():
        yield from ir.traversal.RecursiveGraphIterator(function)


def _has_keys(node: ir.Node) -> bool:
    return all(node.metadata_props.get(key) is not None for key in NODE_KEYS)


def _values(values: Any) -> list[dict[str, str]]:
    return [dict(v.metadata_props) for v in values]


@dataclass
class MetadataSnapshot:
    """torch's metadata on an exported model before ``optimize()``."""

    graph: dict[str, str]
    inputs: list[dict[str, str]]
    outputs: list[dict[str, str]]
    initializers: dict[str, dict[str, str]]
    node_count: int


def metadata_snapshot(model: ir.Model) -> MetadataSnapshot:
    """Checks that torch wrote its metadata everywhere it writes it (every node but the
    bare calls of its subgraph functions) and records it."""
    bare = [n for n in all_nodes(model) if not _has_keys(n)]
    assert all(n.domain == SUBGRAPH_DOMAIN for n in bare), [n.op_type for n in bare]
    assert all(key in model.graph.metadata_props for key in GRAPH_KEYS)
    assert all(INPUT_KIND in v.metadata_props for v in model.graph.inputs)
    assert all(OUTPUT_KIND in v.metadata_props for v in model.graph.outputs)
    assert all(INPUT_KIND in v.metadata_props for v in model.graph.initializers.values())
    return MetadataSnapshot(
        graph=dict(model.graph.metadata_props),
        inputs=_values(model.graph.inputs),
        outputs=_values(model.graph.outputs),
        initializers={k: dict(v.metadata_props) for k, v in model.graph.initializers.items()},
        node_count=sum(1 for _ in all_nodes(model)),
    )


def assert_metadata_kept(program: Any, before: MetadataSnapshot) -> None:
    """After ``optimize()``: every node of every graph has the five keys, the graph,
    inputs, outputs and surviving initializers keep theirs; a Conv that absorbed a batch
    norm carries its fx node and its new weights say what they were folded from; the
    proto handed out says the same."""
    model: ir.Model = program.model
    nodes = list(all_nodes(model))
    assert 0 < len(nodes) <= before.node_count
    assert [n.op_type for n in nodes if not _has_keys(n)] == []
    assert dict(model.graph.metadata_props) == before.graph
    assert _values(model.graph.inputs) == before.inputs
    assert _values(model.graph.outputs) == before.outputs
    for key, value in model.graph.initializers.items():
        if key in before.initializers:
            assert dict(value.metadata_props) == before.initializers[key], key
    for conv in nodes:
        if conv.op_type == "Conv" and "batch_norm" in conv.metadata_props[NODE_KEYS[3]]:
            assert all(FOLDED_FROM in v.metadata_props for v in conv.inputs[1:] if v), conv
    proto = program.model_proto
    for node in proto.graph.node:
        assert set(NODE_KEYS) <= {entry.key for entry in node.metadata_props}, node.op_type
    assert {e.key for e in proto.graph.metadata_props} >= set(GRAPH_KEYS)


def fused_batch_norms(model: ir.Model) -> int:
    """How many Convs absorbed a batch norm (carry its fx node)."""
    return sum(
        1
        for n in all_nodes(model)
        if n.op_type == "Conv" and "batch_norm" in n.metadata_props.get(NODE_KEYS[3], "")
    )
