"""Small models for the version converter's tests: built with onnx.helper, converted
through onnx_ir, checked with onnx's full checker and run in onnxruntime (or onnx's
reference evaluator where onnxruntime lacks a kernel)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnx
import onnx.reference
import onnx_ir as ir
import onnxruntime as ort
from onnx import TensorProto, helper

from onnxscript.version_converter import convert_version

FLOAT = TensorProto.FLOAT
INT64 = TensorProto.INT64
node = helper.make_node
Runner = Callable[[onnx.ModelProto, dict[str, Any]], list[Any]]


def info(name: str, elem_type: int = FLOAT, shape: Sequence[Any] = (2, 3, 4)) -> Any:
    """A graph input or output; ``shape`` may hold names (symbolic sizes)."""
    return helper.make_tensor_value_info(name, elem_type, list(shape))


def out(name: str, rank: int, elem_type: int = FLOAT) -> Any:
    """A graph output of known rank and unknown sizes."""
    return info(name, elem_type, [f"{name}_{axis}" for axis in range(rank)])


def tensor(name: str, array: Any, dtype: Any = np.int64) -> onnx.TensorProto:
    return onnx.numpy_helper.from_array(np.asarray(array, dtype=dtype), name)


def make(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[Any],
    outputs: Sequence[Any],
    opset: int,
    initializers: Sequence[onnx.TensorProto] = (),
    functions: Sequence[onnx.FunctionProto] = (),
    extra_opsets: Sequence[Any] = (),
) -> onnx.ModelProto:
    """A checked model of ``nodes`` at ai.onnx ``opset``."""
    graph = helper.make_graph(list(nodes), "g", list(inputs), list(outputs), list(initializers))
    opsets = [helper.make_opsetid("", opset), *extra_opsets]
    model = helper.make_model(graph, opset_imports=opsets, functions=list(functions))
    model.ir_version = max(4, min(10, helper.find_min_ir_version_for(opsets[:1])))
    onnx.checker.check_model(model, full_check=True)
    return model


def to_ir(proto: onnx.ModelProto) -> ir.Model:
    return ir.serde.deserialize_model(proto)


def convert(proto: onnx.ModelProto, target: int, fallback: bool = False) -> onnx.ModelProto:
    """``proto`` converted to ``target`` through onnx_ir, and checked."""
    model = to_ir(proto)
    convert_version(model, target, fallback=fallback)
    converted = ir.serde.serialize_model(model)
    onnx.checker.check_model(converted, full_check=True)
    assert {o.domain: o.version for o in converted.opset_import}[""] == target
    return converted


def run(proto: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(
        proto.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    return session.run(None, feeds)


def reference(proto: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
    return list(onnx.reference.ReferenceEvaluator(proto).run(None, feeds))


def assert_same(
    first: onnx.ModelProto,
    second: onnx.ModelProto,
    feeds: dict[str, Any],
    runner: Runner = run,
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> None:
    for a, b in zip(runner(first, feeds), runner(second, feeds), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


def converts(
    proto: onnx.ModelProto,
    target: int,
    feeds: dict[str, Any],
    runner: Runner = run,
    **tolerance: float,
) -> onnx.ModelProto:
    """``proto`` converted to ``target``, computing what it computed."""
    converted = convert(proto, target)
    assert_same(proto, converted, feeds, runner, **tolerance)
    return converted


def pair(
    old: onnx.ModelProto,
    new: onnx.ModelProto,
    feeds: dict[str, Any],
    runner: Runner = run,
    **tolerance: float,
) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    """An op's old and new forms (equal results): ``old`` converted up and ``new``
    converted down, each computing the same; returns (up, down)."""
    old_opset, new_opset = (_opset(m) for m in (old, new))
    assert_same(old, new, feeds, runner, **tolerance)
    up = converts(old, new_opset, feeds, runner, **tolerance)
    down = converts(new, old_opset, feeds, runner, **tolerance)
    return up, down


def _opset(proto: onnx.ModelProto) -> int:
    return {o.domain: o.version for o in proto.opset_import}[""]


def ops(proto: onnx.ModelProto) -> list[str]:
    """The op types of the main graph, in order."""
    return [n.op_type for n in proto.graph.node]


def the(proto: onnx.ModelProto, op_type: str) -> onnx.NodeProto:
    """The one node of ``op_type`` in the main graph."""
    found = [n for n in proto.graph.node if n.op_type == op_type]
    assert len(found) == 1, ops(proto)
    return found[0]


def attrs(node_proto: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: helper.get_attribute_value(a) for a in node_proto.attribute}


def rand(*shape: int, seed: int = 0, dtype: Any = np.float32) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)
