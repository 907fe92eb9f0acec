"""Each optimizer pass alone, on small graphs that show what it must do and must not do;
every result is checker-clean and computes what the input did."""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir
import pytest
from hypothesis import given
from hypothesis import strategies as st
from onnx import TensorProto, helper

from onnxscript import optimizer
from onnxscript.passes.call_expansion import expand_call
from tests.helpers import assert_same_results, assert_transform_keeps_results, fuzz_settings

F = TensorProto.FLOAT


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[tuple[str, list[int]]],
    outputs: list[tuple[str, list[int]]],
    initializers: list[onnx.TensorProto] = (),  # type: ignore[assignment]
    functions: list[onnx.FunctionProto] = (),  # type: ignore[assignment]
    opsets: dict[str, int] | None = None,
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(n, F, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, F, s) for n, s in outputs],
        list(initializers),
    )
    imports = [helper.make_opsetid(d, v) for d, v in (opsets or {"": 18}).items()]
    model = helper.make_model(graph, opset_imports=imports, functions=list(functions))
    model.ir_version = 10
    onnx.checker.check_model(model, full_check=True)
    return model


def _ops(model: onnx.ModelProto) -> list[str]:
    return [n.op_type for n in model.graph.node]


def _const(name: str, values: list[float], dims: list[int] | None = None) -> onnx.TensorProto:
    return helper.make_tensor(name, F, dims if dims is not None else [len(values)], values)


def test_folding_computes_constant_subgraphs_and_static_shapes():
    nodes = [
        helper.make_node("Add", ["c", "c"], ["c2"]),
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Reshape", ["x", "s"], ["r"]),
        helper.make_node("Mul", ["r", "c2"], ["y"]),
    ]
    model = _model(nodes, [("x", [2, 3])], [("y", [2, 3])], [_const("c", [1, 2, 3])])
    folded = optimizer.fold_constants(model)
    # Reshape to the shape x has: an Identity (as 0.7.2's partial evaluator of Reshape).
    assert _ops(folded) == ["Identity", "Mul"]
    assert {"c2"} <= {t.name for t in folded.graph.initializer}
    assert_same_results(model, folded)


def test_folding_keeps_a_folded_graph_output_as_its_name():
    nodes = [helper.make_node("Add", ["c", "c"], ["y"]), helper.make_node("Relu", ["x"], ["z"])]
    model = _model(nodes, [("x", [3])], [("y", [3]), ("z", [3])], [_const("c", [1, -2, 3])])
    folded = optimizer.fold_constants(model)
    assert [o.name for o in folded.graph.output] == ["y", "z"]
    assert _ops(folded) == ["Constant", "Relu"]
    assert_same_results(model, folded)


def test_folding_respects_size_limits_and_should_fold():
    big = _const("big", [1.0] * 100)
    model = _model([helper.make_node("Neg", ["big"], ["y"])], [], [("y", [100])], [big])
    assert _ops(optimizer.fold_constants(model, input_size_limit=10)) == ["Neg"]
    assert _ops(optimizer.fold_constants(model)) == ["Constant"]
    never = optimizer.fold_constants(model, should_fold=lambda node: False)
    assert _ops(never) == ["Neg"]
    forced = optimizer.fold_constants(model, input_size_limit=10, should_fold=lambda n: True)
    assert _ops(forced) == ["Constant"]


def test_folding_leaves_random_ops_and_graph_inputs_alone():
    nodes = [
        helper.make_node("RandomUniformLike", ["c"], ["r"]),
        helper.make_node("Add", ["r", "x"], ["y"]),
        helper.make_node("Neg", ["overridable"], ["z"]),
    ]
    model = _model(
        nodes,
        [("x", [2]), ("overridable", [2])],
        [("y", [2]), ("z", [2])],
        [_const("c", [1, 2]), _const("overridable", [5, 6])],
    )
    assert _ops(optimizer.fold_constants(model)) == ["RandomUniformLike", "Add", "Neg"]


def test_folding_inside_subgraphs_and_functions():
    branch = helper.make_graph(
        [helper.make_node("Add", ["c", "c"], ["b1"]), helper.make_node("Mul", ["b1", "x"], ["b2"])],
        "branch",
        [],
        [helper.make_tensor_value_info("b2", F, [2])],
    )
    function = helper.make_function(
        "local",
        "scaled",
        ["v"],
        ["w"],
        [
            helper.make_node("Constant", [], ["k"], value_float=2.0),
            helper.make_node("Add", ["k", "k"], ["k2"]),
            helper.make_node("Mul", ["v", "k2"], ["w"]),
        ],
        [helper.make_opsetid("", 18)],
    )
    nodes = [
        helper.make_node("ReduceMax", ["x"], ["m"], keepdims=0),
        helper.make_node("Greater", ["m", "zero"], ["flag"]),  # known at run time only
        helper.make_node("If", ["flag"], ["i"], then_branch=branch, else_branch=branch),
        helper.make_node("scaled", ["i"], ["y"], domain="local"),
    ]
    model = _model(
        nodes,
        [("x", [2])],
        [("y", [2])],
        [_const("c", [1, 2]), _const("zero", [0.0], [])],
        [function],
        {"": 18, "local": 1},
    )
    folded = optimizer.fold_constants(model)
    if_node = next(n for n in folded.graph.node if n.op_type == "If")
    then = next(a.g for a in if_node.attribute if a.name == "then_branch")
    assert [n.op_type for n in then.node] == ["Mul"]
    assert [n.op_type for n in folded.functions[0].node] == ["Constant", "Constant", "Mul"]
    assert_same_results(model, folded)


@pytest.mark.parametrize("flag", [True, False])
def test_folding_takes_the_branch_of_a_constant_condition(flag: bool):
    # As 0.7.2's If partial evaluator: the branch's nodes replace the If.
    then_branch = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["a"])],
        "then",
        [],
        [helper.make_tensor_value_info("a", F, [2])],
    )
    else_branch = helper.make_graph(
        [helper.make_node("Abs", ["x"], ["b"])],
        "else",
        [],
        [helper.make_tensor_value_info("b", F, [2])],
    )
    nodes = [
        helper.make_node("If", ["flag"], ["y"], then_branch=then_branch, else_branch=else_branch)
    ]
    flag_tensor = helper.make_tensor("flag", TensorProto.BOOL, [], [flag])
    model = _model(nodes, [("x", [2])], [("y", [2])], [flag_tensor])
    folded = optimizer.fold_constants(model)
    assert _ops(folded) == ["Neg" if flag else "Abs"]
    assert [o.name for o in folded.graph.output] == ["y"]
    onnx.checker.check_model(folded, full_check=True)
    assert_same_results(model, folded)


def test_identity_removal():
    nodes = [
        helper.make_node("Identity", ["x"], ["a"]),
        helper.make_node("Relu", ["a"], ["b"]),
        helper.make_node("Identity", ["b"], ["y"]),
        helper.make_node("Identity", ["x"], ["passthrough"]),
    ]
    model = _model(nodes, [("x", [3])], [("y", [3]), ("passthrough", [3])])
    cleaned = optimizer.remove_identity(model)
    assert _ops(cleaned) == ["Relu", "Identity"]  # input -> output needs its Identity
    assert [o.name for o in cleaned.graph.output] == ["y", "passthrough"]
    assert_same_results(model, cleaned)


def test_common_subexpressions_are_computed_once():
    nodes = [
        helper.make_node("Relu", ["x"], ["a"]),
        helper.make_node("Relu", ["x"], ["b"]),
        helper.make_node("RandomNormalLike", ["x"], ["r1"]),
        helper.make_node("RandomNormalLike", ["x"], ["r2"]),
        helper.make_node("Add", ["a", "b"], ["y"]),
        helper.make_node("Sub", ["r1", "r2"], ["z"]),
    ]
    model = _model(nodes, [("x", [3])], [("y", [3]), ("z", [3])])
    cleaned = optimizer.eliminate_common_subexpressions(model)
    assert _ops(cleaned).count("Relu") == 1
    assert _ops(cleaned).count("RandomNormalLike") == 2


def test_repeated_graph_outputs_get_identities_of_distinct_node_names():
    """Two repeated Shapes that are graph outputs of an unnamed node's result: each kept
    output is an Identity, and onnxruntime refuses two nodes of one name."""
    nodes = [
        helper.make_node("Relu", ["x"], ["y"]),
        helper.make_node("Shape", ["y"], ["s1"]),
        helper.make_node("Shape", ["y"], ["s2"]),
        helper.make_node("Shape", ["x"], ["t1"]),
        helper.make_node("Shape", ["x"], ["t2"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", F, ["N"])],
        [
            helper.make_tensor_value_info("y", F, ["N"]),
            *(
                helper.make_tensor_value_info(n, TensorProto.INT64, [1])
                for n in ("s1", "s2", "t1", "t2")
            ),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 10
    cleaned = optimizer.eliminate_common_subexpressions(model)
    names = [n.name for n in cleaned.graph.node if n.name]
    assert len(names) == len(set(names)) and _ops(cleaned).count("Identity") == 2
    assert_transform_keeps_results(model, cleaned, {"x": np.ones(3, np.float32)})


def test_unused_nodes_and_functions_are_removed():
    unused_fn = helper.make_function(
        "local",
        "unused",
        ["v"],
        ["w"],
        [helper.make_node("Neg", ["v"], ["w"])],
        [helper.make_opsetid("", 18)],
    )
    nodes = [helper.make_node("Neg", ["x"], ["dead"]), helper.make_node("Relu", ["x"], ["y"])]
    model = _model(
        nodes, [("x", [3])], [("y", [3])], [_const("spare", [1])], [unused_fn], {"": 18, "local": 1}
    )
    cleaned = optimizer.remove_unused_functions(optimizer.remove_unused_nodes(model))
    assert _ops(cleaned) == ["Relu"]
    assert not cleaned.graph.initializer and not cleaned.functions
    assert_same_results(model, cleaned)


def _attr_function() -> onnx.FunctionProto:
    scale = helper.make_attribute_ref(
        "value_float", onnx.AttributeProto.FLOAT, ref_attr_name="scale"
    )
    constant = helper.make_node("Constant", [], ["s"])
    constant.attribute.append(scale)
    inner = helper.make_node("double", ["v"], ["d"], domain="local")
    return helper.make_function(
        "local",
        "scaled",
        ["v"],
        ["w"],
        [constant, inner, helper.make_node("Mul", ["d", "s"], ["w"])],
        [helper.make_opsetid("", 18), helper.make_opsetid("local", 1)],
        attributes=["scale"],
    )


def _double() -> onnx.FunctionProto:
    return helper.make_function(
        "local",
        "double",
        ["v"],
        ["w"],
        [helper.make_node("Add", ["v", "v"], ["w"])],
        [helper.make_opsetid("", 18)],
    )


def test_inlining_makes_a_model_without_functions():
    nodes = [
        helper.make_node("scaled", ["x"], ["a"], domain="local", scale=3.0),
        helper.make_node("scaled", ["a"], ["y"], domain="local", scale=0.5),
    ]
    model = _model(
        nodes, [("x", [2])], [("y", [2])], [], [_attr_function(), _double()], {"": 18, "local": 1}
    )
    as_ir = ir.serde.deserialize_model(model)
    optimizer.inline(as_ir)
    inlined = ir.serde.serialize_model(as_ir)
    assert not inlined.functions
    assert sorted(set(_ops(inlined))) == ["Add", "Constant", "Mul"]
    assert_same_results(model, inlined)


def test_expand_call_wires_inputs_and_resolves_attributes():
    function = ir.serde.deserialize_function(_attr_function())
    x = ir.Value(name="x")
    nodes, outputs = expand_call(
        function, [x], {"scale": ir.AttrFloat32("scale", 4.0)}, prefix="p."
    )
    assert [n.op_type for n in nodes] == ["Constant", "double", "Mul"]
    assert nodes[0].attributes["value_float"].value == 4.0
    assert nodes[1].inputs[0] is x and outputs[0] is nodes[2].outputs[0]
    assert all((v.name or "").startswith("p.") for n in nodes for v in n.outputs)
    dropped, _ = expand_call(function, [x], {}, prefix="")
    assert "value_float" not in dropped[0].attributes  # no value and no default: dropped


def test_batch_norm_folds_into_conv_and_transposes_merge():
    rng = np.random.default_rng(0)

    def tensor(name: str, *shape: int, positive: bool = False) -> onnx.TensorProto:
        data = rng.standard_normal(shape).astype(np.float32)
        data = np.abs(data) + 0.5 if positive else data
        return helper.make_tensor(name, F, shape, data.ravel())

    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "g", "beta", "m", "v"], ["n"], epsilon=1e-3),
        helper.make_node("Transpose", ["n"], ["t1"], perm=[0, 2, 3, 1]),
        helper.make_node("Transpose", ["t1"], ["t2"], perm=[0, 3, 1, 2]),  # cancels t1
        helper.make_node("Transpose", ["t2"], ["t3"], perm=[0, 1, 3, 2]),
        helper.make_node("Transpose", ["t3"], ["y"], perm=[1, 0, 2, 3]),
    ]
    weights = [
        tensor("w", 4, 3, 3, 3),
        tensor("b", 4),
        tensor("g", 4, positive=True),
        tensor("beta", 4),
        tensor("m", 4),
        tensor("v", 4, positive=True),
    ]
    model = _model(nodes, [("x", [1, 3, 5, 6])], [("y", [4, 1, 6, 5])], weights)
    fused = optimizer.optimize(model)
    assert _ops(fused) == ["Conv", "Transpose"]
    assert list(fused.graph.node[1].attribute[0].ints) == [1, 0, 3, 2]
    assert_same_results(model, fused)


_UNARY = ["Relu", "Neg", "Abs", "Sigmoid", "Identity"]


@fuzz_settings(40)
@given(
    st.lists(
        st.tuples(st.sampled_from([*_UNARY, "Add", "Mul", "AddConst"]), st.integers(0, 50)),
        min_size=1,
        max_size=12,
    )
)
def test_optimize_random_programs_with_repeats_and_identities(steps: list[tuple[str, int]]):
    values, nodes = ["x"], []
    for index, (op, pick) in enumerate(steps):
        a, b = values[pick % len(values)], values[(pick // 3) % len(values)]
        out = f"v{index}"
        if op == "AddConst":
            nodes.append(helper.make_node("Add", ["c", "c"], [f"cc{index}"]))
            nodes.append(helper.make_node("Add", [a, f"cc{index}"], [out]))
        elif op in _UNARY:
            nodes.append(helper.make_node(op, [a], [out]))
        else:
            nodes.append(helper.make_node(op, [a, b], [out]))
        values.append(out)
    nodes.append(helper.make_node("Identity", [values[-1]], ["y"]))
    model = _model(nodes, [("x", [4])], [("y", [4])], [_const("c", [0.5] * 4)])
    optimized = optimizer.optimize(model)
    assert len(optimized.graph.node) <= len(model.graph.node)
    assert "Identity" not in _ops(optimized) or values[-1] == "x"
    assert_same_results(model, optimized)


@pytest.mark.parametrize(
    ("rank", "first", "second"),
    [(1, [1], [2]), (2, [0, -1], [1]), (3, [-1], [0, 2]), (2, [2], [-1, 0]), (1, [0], [0])],
)
def test_unsqueezes_in_a_row_merge_into_one(rank: int, first: list[int], second: list[int]):
    """``Unsqueeze(Unsqueeze(x, a1), a2)`` becomes one Unsqueeze giving the same result."""
    import onnxruntime

    shape = [2, 3, 4][:rank]
    nodes = [
        helper.make_node("Unsqueeze", ["x", "a1"], ["u"]),
        helper.make_node("Unsqueeze", ["u", "a2"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [
            helper.make_tensor("a1", TensorProto.INT64, [len(first)], first),
            helper.make_tensor("a2", TensorProto.INT64, [len(second)], second),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    optimized = optimizer.optimize(model)
    assert [n.op_type for n in optimized.graph.node] == ["Unsqueeze"]
    onnx.checker.check_model(optimized, full_check=True)
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    runs = [
        onnxruntime.InferenceSession(m.SerializeToString()).run(None, {"x": x})[0]
        for m in (model, optimized)
    ]
    np.testing.assert_array_equal(runs[0], runs[1])
