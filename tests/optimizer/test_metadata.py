"""``metadata_props`` through every optimizer pass (onnxscript.ir_utils.metadata's rule):
nodes and values a pass leaves keep theirs, a node made to replace others carries its
sources' (the node whose result it computes first), a value taking a graph output's place
takes its metadata, folded tensors record what they were computed from; the graph's and
the model's metadata stay. Models are annotated the way torch.onnx annotates exports."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import onnx
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript import optimizer
from onnxscript._framework_apis import torch_2_5
from onnxscript.ir_utils.metadata import (
    FOLDED_FROM,
    carry_metadata,
    copy_metadata_by_name,
    record_folded_from,
)
from onnxscript.passes.common_subexpressions import CommonSubexpressionPass
from onnxscript.passes.identity_removal import IdentityRemovalPass
from onnxscript.passes.noop_removal import NoOpRemovalPass
from onnxscript.rewriter import RewritePass
from onnxscript.rewriter.rules.common import (
    fuse_batchnorm_into_conv_rule,
    transpose_transpose_rule,
    unsqueeze_unsqueeze_rule,
)
from tests.exported_models import resnet_like, transformer_block

F = TensorProto.FLOAT
TORCH_KEYS = (
    "namespace",
    "pkg.torch.onnx.class_hierarchy",
    "pkg.torch.onnx.name_scopes",
    "pkg.torch.onnx.fx_node",
    "pkg.torch.onnx.stack_trace",
)
GRAPH_METADATA = {
    "pkg.torch.export.ExportedProgram.graph_signature": "ExportGraphSignature(...)",
    "pkg.torch.export.ExportedProgram.range_constraints": "{s0: VR[2, int_oo]}",
}
MODEL_METADATA = {"exported_by": "a test"}
INPUT = {"pkg.torch.export.graph_signature.InputSpec.kind": "USER_INPUT"}
OUTPUT = {"pkg.torch.export.graph_signature.OutputSpec.kind": "USER_OUTPUT"}


def node_metadata(name: str) -> dict[str, str]:
    """What torch.onnx writes on a node, for a node called ``name``."""
    return {
        "namespace": f": Model/{name}: aten.{name}",
        "pkg.torch.onnx.class_hierarchy": repr(["Model", f"aten.{name}"]),
        "pkg.torch.onnx.name_scopes": repr(["", name]),
        "pkg.torch.onnx.fx_node": f"%{name} : call_function[target=aten.{name}]",
        "pkg.torch.onnx.stack_trace": f'File "model.py", line 1, in forward\n    {name}(x)',
    }


def _graphs(model: ir.Model) -> Iterator[ir.Graph | ir.Function]:
    yield model.graph
    yield from model.functions.values()


def _nodes(model: ir.Model) -> Iterator[ir.Node]:
    for graph in _graphs(model):
        yield from ir.traversal.RecursiveGraphIterator(graph)


def annotated(proto: onnx.ModelProto, skip: tuple[str, ...] = ()) -> ir.Model:
    """``proto`` as an ir.Model annotated like a torch.onnx export: each node (but those
    named in ``skip``) with the five torch keys of its name, the main graph with the
    program's signature, inputs and outputs with their kind, initializers with their
    kind and original name, the model with a key of its own."""
    model = ir.serde.deserialize_model(proto)
    model.metadata_props.update(MODEL_METADATA)
    model.graph.metadata_props.update(GRAPH_METADATA)
    for value in model.graph.inputs:
        value.metadata_props.update(INPUT)
    for value in model.graph.outputs:
        value.metadata_props.update(OUTPUT)
    for name, value in model.graph.initializers.items():
        value.metadata_props["pkg.torch.export.graph_signature.InputSpec.kind"] = "PARAMETER"
        value.metadata_props["pkg.torch.onnx.original_node_name"] = f"p_{name}"
    for node in _nodes(model):
        if node.name not in skip:
            node.metadata_props.update(node_metadata(node.name or node.op_type))
    return model


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[tuple[str, list[int]]],
    outputs: list[tuple[str, list[int]]],
    initializers: list[onnx.TensorProto] = (),  # type: ignore[assignment]
    functions: list[onnx.FunctionProto] = (),  # type: ignore[assignment]
    values: list[tuple[str, list[int]]] = (),  # type: ignore[assignment]
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "main_graph",
        [helper.make_tensor_value_info(n, F, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, F, s) for n, s in outputs],
        list(initializers),
        value_info=[helper.make_tensor_value_info(n, F, s) for n, s in values],
    )
    imports = [helper.make_opsetid("", 18)]
    if functions:
        imports.append(helper.make_opsetid("local", 1))
    model = helper.make_model(graph, opset_imports=imports, functions=list(functions))
    model.ir_version = 10
    onnx.checker.check_model(model, full_check=True)
    return model


def _tensor(name: str, array: np.ndarray) -> onnx.TensorProto:
    return onnx.numpy_helper.from_array(array.astype(np.float32), name)


def _by_name(model: ir.Model) -> dict[str, ir.Node]:
    return {node.name: node for node in _nodes(model) if node.name}


def _by_op(model: ir.Model) -> dict[str, ir.Node]:
    """The nodes by op type (of a model where each op type occurs once)."""
    nodes = list(_nodes(model))
    by_op = {node.op_type: node for node in nodes}
    assert len(by_op) == len(nodes)
    return by_op


def _snapshot(model: ir.Model) -> dict[str, dict[str, str]]:
    return {name: dict(node.metadata_props) for name, node in _by_name(model).items()}


def assert_kept(model: ir.Model, before: dict[str, dict[str, str]]) -> None:
    """Nodes that are still there (by name) keep their metadata; the model's, the main
    graph's and the graph inputs' stay; every graph output has its kind."""
    for name, node in _by_name(model).items():
        if name in before:
            assert dict(node.metadata_props) == before[name], name
    assert model.metadata_props == MODEL_METADATA
    assert model.graph.metadata_props == GRAPH_METADATA
    for value in model.graph.inputs:
        assert value.metadata_props == INPUT, value.name
    for value in model.graph.outputs:
        assert OUTPUT.items() <= value.metadata_props.items(), value.name


def _run(
    model: ir.Model, transform: Callable[[ir.Model], object], replaced: tuple[str, ...] = ()
) -> ir.Model:
    """``transform`` on ``model``, checking what :func:`assert_kept` says (the nodes named
    in ``replaced`` stand for new ones of the same name)."""
    before = {k: v for k, v in _snapshot(model).items() if k not in replaced}
    transform(model)
    assert_kept(model, before)
    onnx.checker.check_model(ir.serde.serialize_model(model), full_check=True)
    return model


# The rule ------------------------------------------------------------------------------


def test_each_key_comes_from_the_first_source_having_it_and_the_target_keeps_its_own():
    first = ir.Node("", "Relu", [], metadata_props={"a": "first", "b": "first"})
    second = ir.Node("", "Relu", [], metadata_props={"a": "second", "c": "second"})
    target = ir.Node("", "Relu", [], metadata_props={"b": "own"})
    carry_metadata(target, first, None, second)
    assert target.metadata_props == {"a": "first", "b": "own", "c": "second"}
    assert first.metadata_props == {"a": "first", "b": "first"}  # sources untouched


def test_a_folded_tensor_records_the_sorted_names_it_was_computed_from():
    value = ir.Value(name="folded")
    record_folded_from(value, [ir.Value(name="w_b"), None, ir.Value(), ir.Value(name="w_a")])
    assert value.metadata_props == {FOLDED_FROM: "['w_a', 'w_b']"}
    unnamed = ir.Value(name="from_nothing")
    record_folded_from(unnamed, [None])
    assert FOLDED_FROM not in unnamed.metadata_props


# Constant folding ----------------------------------------------------------------------


def test_folding_gives_the_constant_the_folded_nodes_metadata():
    nodes = [
        helper.make_node("Add", ["c", "c"], ["c2"], name="add"),
        helper.make_node("Mul", ["x", "c2"], ["y"], name="mul"),
        helper.make_node("Neg", ["c"], ["z"], name="neg"),  # a graph output, folded
    ]
    proto = _model(nodes, [("x", [3])], [("y", [3]), ("z", [3])], [_tensor("c", np.arange(3.0))])
    model = _run(annotated(proto), optimizer.fold_constants)
    ops = {node.op_type: node for node in model.graph}
    assert set(ops) == {"Mul", "Constant"}
    assert ops["Constant"].metadata_props == node_metadata("neg")
    assert ops["Constant"].outputs[0].name == "z"
    assert ops["Constant"].outputs[0].metadata_props == {**OUTPUT, FOLDED_FROM: "['c']"}
    assert ops["Mul"].metadata_props == node_metadata("mul")
    folded = ops["Mul"].inputs[1]
    assert folded is not None and folded.is_initializer()
    assert folded.metadata_props == {FOLDED_FROM: "['c']"}
    kept = model.graph.initializers["c"]  # still read by nothing: removal is not folding
    assert kept.metadata_props["pkg.torch.onnx.original_node_name"] == "p_c"


def test_folding_in_a_function_body_makes_constants_with_the_nodes_metadata():
    body = [
        helper.make_node("Constant", [], ["one"], name="one", value_float=1.0),
        helper.make_node("Add", ["one", "one"], ["two"], name="two"),
        helper.make_node("Mul", ["a", "two"], ["b"], name="scale"),
    ]
    function = helper.make_function(
        "local", "double", ["a"], ["b"], body, [helper.make_opsetid("", 18)]
    )
    call = helper.make_node("double", ["x"], ["y"], domain="local", name="call")
    model = annotated(_model([call], [("x", [3])], [("y", [3])], functions=[function]))
    _run(model, optimizer.fold_constants)
    body_nodes = list(model.functions["local", "double", ""])
    assert [n.op_type for n in body_nodes] == ["Constant", "Constant", "Mul"]
    assert body_nodes[1].metadata_props == node_metadata("two")


# Fusion --------------------------------------------------------------------------------


def _conv_bn(bn_output_is_graph_output: bool) -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    weights = [
        _tensor("w", rng.standard_normal((4, 3, 3, 3))),
        _tensor("scale", rng.random(4) + 0.5),
        _tensor("bias", rng.standard_normal(4)),
        _tensor("mean", rng.standard_normal(4)),
        _tensor("var", rng.random(4) + 0.5),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "scale", "bias", "mean", "var"], ["n"]),
    ]
    nodes[1].name = "bn"
    output = "n"
    if not bn_output_is_graph_output:
        nodes.append(helper.make_node("Relu", ["n"], ["y"], name="relu"))
        output = "y"
    return _model(nodes, [("x", [1, 3, 8, 8])], [(output, [1, 4, 8, 8])], weights)


@pytest.mark.parametrize("bn_output_is_graph_output", [False, True])
def test_a_conv_fused_with_batch_norm_carries_the_batch_norm_then_the_conv(
    bn_output_is_graph_output: bool,
):
    model = annotated(_conv_bn(bn_output_is_graph_output))
    conv = next(n for n in model.graph if n.op_type == "Conv")
    conv.metadata_props["only.on.conv"] = "conv"
    _run(
        model, RewritePass([fuse_batchnorm_into_conv_rule]), replaced=("conv",)
    )  # the fused Conv has the Conv's name
    (fused,) = (n for n in model.graph if n.op_type == "Conv")
    assert fused.metadata_props == {**node_metadata("bn"), "only.on.conv": "conv"}
    for value in fused.inputs[1:]:
        assert value is not None
        assert value.metadata_props == {FOLDED_FROM: "['bias', 'mean', 'scale', 'var', 'w']"}


def test_merged_transposes_and_unsqueezes_keep_the_outer_nodes_metadata():
    nodes = [
        helper.make_node("Transpose", ["x"], ["t1"], name="inner_t", perm=[1, 0, 2]),
        helper.make_node("Transpose", ["t1"], ["t2"], name="outer_t", perm=[0, 2, 1]),
        helper.make_node("Constant", [], ["a0"], name="a0", value_ints=[0]),
        helper.make_node("Unsqueeze", ["t2", "a0"], ["u1"], name="inner_u"),
        helper.make_node("Constant", [], ["a1"], name="a1", value_ints=[4]),
        helper.make_node("Unsqueeze", ["u1", "a1"], ["y"], name="outer_u"),
    ]
    model = annotated(_model(nodes, [("x", [2, 3, 4])], [("y", [1, 3, 4, 2, 1])]))
    model.graph.node(0).metadata_props["only.on.inner"] = "inner"
    optimizer.fold_constants(model)  # the axes' Constants get their values
    merges = RewritePass([transpose_transpose_rule, unsqueeze_unsqueeze_rule])
    _run(model, merges, replaced=("outer_t", "outer_u"))
    by_op = {n.op_type: n for n in model.graph if n.name not in ("a0", "a1")}
    assert by_op["Transpose"].metadata_props == {
        **node_metadata("outer_t"),
        "only.on.inner": "inner",
    }
    assert by_op["Unsqueeze"].metadata_props == node_metadata("outer_u")
    axes = by_op["Unsqueeze"].inputs[1]
    assert axes is not None and axes.producer() is by_op["Constant"]
    assert by_op["Constant"].metadata_props == node_metadata("outer_u")
    assert axes.metadata_props == {FOLDED_FROM: "['a0', 'a1']"}


# Clean-up ------------------------------------------------------------------------------


def test_common_subexpressions_keep_the_survivors_metadata():
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="first"),
        helper.make_node("Relu", ["x"], ["b"], name="second"),
        helper.make_node("Add", ["a", "b"], ["y"], name="add"),
        helper.make_node("Relu", ["x"], ["z"], name="third"),  # a graph output too
    ]
    values = [("a", [3]), ("b", [3])]
    model = annotated(_model(nodes, [("x", [3])], [("y", [3]), ("z", [3])], values=values))
    _run(model, CommonSubexpressionPass())
    names = [n.name for n in model.graph]
    assert names == ["first", "add"]
    assert model.graph.outputs[1].name == "z"
    assert model.graph.outputs[1].producer() is model.graph.node(0)


def test_common_subexpressions_give_an_output_identity_the_merged_nodes_metadata():
    nodes = [
        helper.make_node("Relu", ["x"], ["y"], name="first"),
        helper.make_node("Relu", ["x"], ["z"], name="second"),
    ]
    model = annotated(_model(nodes, [("x", [3])], [("y", [3]), ("z", [3])]))
    _run(model, CommonSubexpressionPass())
    identity = model.graph.outputs[1].producer()
    assert identity is not None and identity.op_type == "Identity"
    assert identity.metadata_props == node_metadata("second")


@pytest.mark.parametrize(
    ("removed", "transform"),
    [
        (helper.make_node("Identity", ["r"], ["y"], name="copy"), IdentityRemovalPass()),
        (helper.make_node("Transpose", ["r"], ["y"], name="copy", perm=[0]), NoOpRemovalPass()),
    ],
    ids=["identity", "no-op"],
)
def test_a_bypassed_node_leaves_its_graph_outputs_kind_to_the_value_taking_its_place(
    removed: onnx.NodeProto, transform: ir.passes.PassBase
):
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"), removed]
    model = annotated(_model(nodes, [("x", [3])], [("y", [3])]))
    _run(model, transform)
    (relu,) = model.graph
    assert relu.outputs[0].name == "y" and relu.outputs[0].is_graph_output()
    assert relu.metadata_props == node_metadata("relu")


# Inlining ------------------------------------------------------------------------------


def _function_model() -> onnx.ModelProto:
    then = helper.make_graph(
        [helper.make_node("Neg", ["a"], ["then_out"], name="in_branch")],
        "then",
        [],
        [helper.make_tensor_value_info("then_out", F, [3])],
    )
    other = helper.make_graph(
        [helper.make_node("Abs", ["a"], ["else_out"], name="in_other_branch")],
        "else",
        [],
        [helper.make_tensor_value_info("else_out", F, [3])],
    )
    body = [
        helper.make_node("Relu", ["a"], ["r"], name="body_relu"),
        helper.make_node("ReduceSum", ["r"], ["s"], name="body_sum", keepdims=0),
        helper.make_node("Cast", ["s"], ["cond"], name="body_cast", to=TensorProto.BOOL),
        helper.make_node(
            "If", ["cond"], ["b"], name="body_if", then_branch=then, else_branch=other
        ),
    ]
    function = helper.make_function(
        "local", "block", ["a"], ["b", "a"], body, [helper.make_opsetid("", 18)]
    )
    call = helper.make_node("block", ["x"], ["y", "copy"], domain="local", name="call")
    return _model([call], [("x", [3])], [("y", [3]), ("copy", [3])], functions=[function])


def test_inlined_nodes_keep_their_own_metadata_and_gain_the_call_sites():
    proto = _function_model()
    model = annotated(proto, skip=("body_cast", "in_branch", "in_other_branch"))
    by_name = _by_name(model)
    by_name["body_relu"].metadata_props["only.in.body"] = "body"
    del by_name["body_sum"].metadata_props["pkg.torch.onnx.stack_trace"]
    _run(model, optimizer.inline)
    call = node_metadata("call")
    after = _by_op(model)  # the copies are renamed (the function's names are taken)
    assert after["Relu"].metadata_props == {**node_metadata("body_relu"), "only.in.body": "body"}
    assert after["ReduceSum"].metadata_props == {
        **node_metadata("body_sum"),
        "pkg.torch.onnx.stack_trace": call["pkg.torch.onnx.stack_trace"],
    }
    # Nodes without any (in the body, in its subgraphs) take the call site's.
    assert after["Cast"].metadata_props == call
    assert after["Neg"].metadata_props == call
    assert after["Abs"].metadata_props == call
    # The function returns its input as a graph output: an Identity stands for the call.
    identity = model.graph.outputs[1].producer()
    assert identity is not None and identity.op_type == "Identity"
    assert identity.metadata_props == call


def test_inlining_keeps_the_metadata_of_values_and_subgraphs_it_copies():
    proto = _function_model()
    model = annotated(proto)
    function = model.functions["local", "block", ""]
    function.graph.node(0).outputs[0].metadata_props["value.key"] = "relu output"
    branch = function.graph.node(3).attributes["then_branch"].as_graph()
    branch.metadata_props["graph.key"] = "then"
    _run(model, optimizer.inline)
    relu = _by_op(model)["Relu"]
    assert relu.outputs[0].metadata_props == {"value.key": "relu output"}
    if_node = next(n for n in model.graph if n.op_type == "If")
    assert if_node.attributes["then_branch"].as_graph().metadata_props == {"graph.key": "then"}


# The whole optimizer -------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [lambda: resnet_like(0.125, image=16), lambda: transformer_block(dim=16, heads=2, seq=4)],
    ids=["resnet", "transformer"],
)
@pytest.mark.parametrize("as_proto", [False, True])
def test_optimize_leaves_every_node_with_its_sources_metadata(
    make: Callable[[], onnx.ModelProto], as_proto: bool
):
    model = annotated(make())
    before = _snapshot(model)
    initializers = {k: dict(v.metadata_props) for k, v in model.graph.initializers.items()}
    if as_proto:
        optimized = ir.serde.deserialize_model(optimizer.optimize(ir.serde.serialize_model(model)))
    else:
        optimized = optimizer.optimize(model)
    assert_kept(optimized, before)
    nodes = list(_nodes(optimized))
    assert nodes
    for node in nodes:
        assert all(key in node.metadata_props for key in TORCH_KEYS), node
    for name, value in optimized.graph.initializers.items():
        if name in initializers:
            assert value.metadata_props == initializers[name], name


# Version conversion ----------------------------------------------------------------------


def test_convert_version_keeps_the_metadata():
    """GridSample changed (mode names) at opset 20: the converter's adapter changes the node
    in place, so it and every other node, value and graph keep their metadata."""
    nodes = [
        helper.make_node("GridSample", ["x", "grid"], ["g"], name="sample"),
        helper.make_node("Relu", ["g"], ["y"], name="relu"),
    ]
    grid = _tensor("grid", np.zeros((1, 2, 2, 2)))
    proto = _model(nodes, [("x", [1, 1, 4, 4])], [("y", [1, 1, 2, 2])], [grid])
    model = annotated(proto)
    before = _snapshot(model)
    converted = torch_2_5.convert_version(model, 20)
    assert converted is model and converted.opset_imports[""] == 20
    assert _snapshot(converted) == before
    assert_kept(converted, before)
    assert (
        converted.graph.initializers["grid"].metadata_props["pkg.torch.onnx.original_node_name"]
        == "p_grid"
    )


def test_metadata_is_put_back_by_name_within_each_subgraph():
    """Subgraphs repeat names (onnx does not forbid it across sibling branches): each
    node gets the metadata of the node of its name in the same place."""
    proto = _function_model()
    source = annotated(proto)
    optimizer.inline(source)
    branches = next(n for n in source.graph if n.op_type == "If").attributes
    for attr, label in (("then_branch", "then"), ("else_branch", "else")):
        node = branches[attr].as_graph().node(0)
        node.name = "same"
        node.metadata_props["branch"] = label
    target = ir.serde.deserialize_model(ir.serde.serialize_model(source))
    for node in _nodes(target):
        node.metadata_props.clear()
    target.graph.metadata_props.clear()
    copy_metadata_by_name(source, target)
    assert _snapshot(target) == _snapshot(source)
    if_node = next(n for n in target.graph if n.op_type == "If")
    for attr, label in (("then_branch", "then"), ("else_branch", "else")):
        assert if_node.attributes[attr].as_graph().node(0).metadata_props["branch"] == label
    assert target.graph.metadata_props == GRAPH_METADATA
