"""Model-local functions called from subgraphs (If branches, Loop and Scan bodies, nested,
in function bodies): every optimizer pass must see those calls. Each model is checked
with the full onnx checker and run in onnxruntime before and after, on inputs that take
both branches."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript import optimizer
from tests.helpers import run_unoptimized

F = TensorProto.FLOAT
LOCAL = "local"
IMPORTS = [helper.make_opsetid("", 18), helper.make_opsetid(LOCAL, 1)]
FEEDS = [np.array([1.0, 2.0, 0.5], np.float32), np.array([-1.0, -3.0, 0.5], np.float32)]
"""Inputs with a positive and a negative sum: the then and the else branch."""


def _function(
    name: str, inputs: list[str], outputs: list[str], nodes: list[onnx.NodeProto]
) -> onnx.FunctionProto:
    return helper.make_function(LOCAL, name, inputs, outputs, nodes, IMPORTS)


def _call(name: str, inputs: list[str], outputs: list[str]) -> onnx.NodeProto:
    return helper.make_node(name, inputs, outputs, domain=LOCAL)


def _graph(
    name: str, nodes: list[onnx.NodeProto], inputs: list[str], outputs: list[str]
) -> onnx.GraphProto:
    """A subgraph over float values of unknown shape."""
    ins = [helper.make_tensor_value_info(n, F, None) for n in inputs]
    outs = [helper.make_tensor_value_info(n, F, None) for n in outputs]
    return helper.make_graph(nodes, name, ins, outs)


def _loop_body(
    name: str, nodes: list[onnx.NodeProto], carried: str, result: str
) -> onnx.GraphProto:
    """A Loop body: iteration number ``i``, condition ``keep`` (passed on), the carried
    float value ``carried`` and its next value ``result`` (computed by ``nodes``)."""
    keep = helper.make_node("Identity", ["keep"], ["keep_out"])
    ins = [
        helper.make_tensor_value_info("i", TensorProto.INT64, []),
        helper.make_tensor_value_info("keep", TensorProto.BOOL, []),
        helper.make_tensor_value_info(carried, F, None),
    ]
    outs = [
        helper.make_tensor_value_info("keep_out", TensorProto.BOOL, []),
        helper.make_tensor_value_info(result, F, None),
    ]
    return helper.make_graph([keep, *nodes], name, ins, outs)


def _if(
    condition: str,
    then: list[onnx.NodeProto],
    then_out: str,
    other: list[onnx.NodeProto],
    other_out: str,
    out: str,
) -> onnx.NodeProto:
    return helper.make_node(
        "If",
        [condition],
        [out],
        then_branch=_graph(f"then_{out}", then, [], [then_out]),
        else_branch=_graph(f"else_{out}", other, [], [other_out]),
    )


def _positive(value: str, out: str) -> list[onnx.NodeProto]:
    """``out = sum(value) > 0``."""
    return [
        helper.make_node("ReduceSum", [value], [f"{out}_sum"], keepdims=0),
        helper.make_node("Greater", [f"{out}_sum", "zero"], [out]),
    ]


def _model(
    nodes: list[onnx.NodeProto],
    functions: list[onnx.FunctionProto],
    outputs: dict[str, list[int]] | None = None,
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "main",
        [helper.make_tensor_value_info("x", F, [3])],
        [helper.make_tensor_value_info(o, F, s) for o, s in (outputs or {"y": [3]}).items()],
        [
            helper.make_tensor("zero", F, [], [0.0]),
            helper.make_tensor("trips", TensorProto.INT64, [], [3]),
            helper.make_tensor("yes", TensorProto.BOOL, [], [True]),
        ],
    )
    model = helper.make_model(graph, opset_imports=IMPORTS, functions=functions)
    model.ir_version = 10
    onnx.checker.check_model(model, full_check=True)
    return model


def _double() -> onnx.FunctionProto:
    return _function("double", ["v"], ["w"], [helper.make_node("Add", ["v", "v"], ["w"])])


def _shift() -> onnx.FunctionProto:
    """``w = v - 1`` with a constant the folder sees, and an Identity."""
    nodes = [
        helper.make_node("Constant", [], ["one"], value_float=1.0),
        helper.make_node("Identity", ["v"], ["same"]),
        helper.make_node("Sub", ["same", "one"], ["w"]),
    ]
    return _function("shift", ["v"], ["w"], nodes)


def _unused() -> onnx.FunctionProto:
    return _function("unused", ["v"], ["w"], [helper.make_node("Neg", ["v"], ["w"])])


def _loop(body_nodes: list[onnx.NodeProto], result: str, out: str) -> onnx.NodeProto:
    """``out``: a Loop of three rounds over ``x`` (carried as ``acc``)."""
    body = _loop_body("loop_body", body_nodes, "acc", result)
    return helper.make_node("Loop", ["trips", "yes", "x"], [out], body=body)


def call_in_if_branch() -> onnx.ModelProto:
    """A function called only in an If branch of the main graph."""
    nodes = [
        *_positive("x", "c"),
        _if(
            "c",
            [_call("double", ["x"], ["t"])],
            "t",
            [helper.make_node("Neg", ["x"], ["e"])],
            "e",
            "y",
        ),
    ]
    return _model(nodes, [_double(), _unused()])


def call_in_loop_body() -> onnx.ModelProto:
    """A function called only in a Loop body."""
    body = [_call("shift", ["acc"], ["next"])]
    return _model([_loop(body, "next", "y")], [_shift(), _unused()])


def if_in_loop_body() -> onnx.ModelProto:
    """A Loop whose body holds an If whose branches call functions."""
    body = [
        *_positive("acc", "p"),
        _if(
            "p",
            [_call("shift", ["acc"], ["s"])],
            "s",
            [_call("double", ["acc"], ["d"])],
            "d",
            "next",
        ),
    ]
    return _model([_loop(body, "next", "y")], [_shift(), _double(), _unused()])


def function_calling_function() -> onnx.ModelProto:
    """An If branch calls a function that calls two others."""
    outer = _function(
        "outer", ["v"], ["w"], [_call("double", ["v"], ["a"]), _call("shift", ["a"], ["w"])]
    )
    nodes = [
        *_positive("x", "c"),
        _if(
            "c",
            [_call("outer", ["x"], ["t"])],
            "t",
            [helper.make_node("Neg", ["x"], ["e"])],
            "e",
            "y",
        ),
    ]
    return _model(nodes, [outer, _double(), _shift(), _unused()])


def call_in_function_subgraph() -> onnx.ModelProto:
    """The main graph calls a function whose If branch and Loop body call functions."""
    loop_body = _loop_body("loop_in_function", [_call("double", ["acc"], ["next"])], "acc", "next")
    yes = helper.make_tensor("yes", TensorProto.BOOL, [], [True])
    body = [
        helper.make_node("Constant", [], ["zero"], value_float=0.0),
        helper.make_node("Constant", [], ["trips"], value_int=2),
        helper.make_node("Constant", [], ["yes"], value=yes),
        *_positive("v", "c"),
        _if(
            "c",
            [_call("shift", ["v"], ["t"])],
            "t",
            [helper.make_node("Neg", ["v"], ["e"])],
            "e",
            "chosen",
        ),
        helper.make_node("Loop", ["trips", "yes", "chosen"], ["w"], body=loop_body),
    ]
    wrapper = _function("wrapper", ["v"], ["w"], body)
    return _model([_call("wrapper", ["x"], ["y"])], [wrapper, _double(), _shift(), _unused()])


def call_in_scan_body() -> onnx.ModelProto:
    """A Scan body calls a function on each element."""
    body = _graph(
        "scan_body",
        [
            _call("double", ["item"], ["doubled"]),
            helper.make_node("Add", ["total", "doubled"], ["total_out"]),
        ],
        ["total", "item"],
        ["total_out", "doubled"],
    )
    scan = helper.make_node("Scan", ["zero", "x"], ["y", "each"], body=body, num_scan_inputs=1)
    return _model([scan], [_double(), _unused()], outputs={"y": [], "each": [3]})


MODELS = [
    call_in_if_branch,
    call_in_loop_body,
    if_in_loop_body,
    function_calling_function,
    call_in_function_subgraph,
    call_in_scan_body,
]

Transform = Callable[[onnx.ModelProto], onnx.ModelProto]


def _inline(model: onnx.ModelProto) -> onnx.ModelProto:
    return optimizer.on_ir(model, optimizer.inline)


TRANSFORMS: dict[str, Transform] = {
    "optimize": optimizer.optimize,
    "optimize_without_inlining": lambda m: optimizer.optimize(m, inline=False),
    "inline": _inline,
    "remove_unused_functions": optimizer.remove_unused_functions,
    "fold_constants": optimizer.fold_constants,
    "eliminate_common_subexpressions": optimizer.eliminate_common_subexpressions,
    "remove_unused_nodes": optimizer.remove_unused_nodes,
    "remove_identity": optimizer.remove_identity,
}


def _run(model: onnx.ModelProto, x: np.ndarray) -> list[np.ndarray]:
    return run_unoptimized(model, {"x": x})


def _assert_same(before: onnx.ModelProto, after: onnx.ModelProto) -> None:
    onnx.checker.check_model(after, full_check=True)
    for x in FEEDS:
        for expected, got in zip(_run(before, x), _run(after, x), strict=True):
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def _nodes(model: onnx.ModelProto) -> list[onnx.NodeProto]:
    """Every node of the model: main graph, function bodies, subgraphs."""
    found: list[onnx.NodeProto] = []

    def visit(nodes: list[onnx.NodeProto]) -> None:
        for node in nodes:
            found.append(node)
            for attr in node.attribute:
                for graph in [attr.g] if attr.HasField("g") else list(attr.graphs):
                    visit(list(graph.node))

    visit(list(model.graph.node))
    for function in model.functions:
        visit(list(function.node))
    return found


@pytest.mark.parametrize("transform", TRANSFORMS, ids=str)
@pytest.mark.parametrize("make", MODELS, ids=lambda f: f.__name__)
def test_every_pass_keeps_calls_in_subgraphs_working(
    make: Callable[[], onnx.ModelProto], transform: str
) -> None:
    model = make()
    _assert_same(model, TRANSFORMS[transform](model))


@pytest.mark.parametrize("make", MODELS, ids=lambda f: f.__name__)
def test_inlining_reaches_every_call(make: Callable[[], onnx.ModelProto]) -> None:
    model = make()
    for inlined in (_inline(model), optimizer.optimize(model)):
        assert not inlined.functions
        assert all(node.domain != LOCAL for node in _nodes(inlined))
    assert LOCAL not in {o.domain for o in optimizer.optimize(model).opset_import}


@pytest.mark.parametrize("make", MODELS, ids=lambda f: f.__name__)
def test_unused_function_removal_sees_calls_in_subgraphs(
    make: Callable[[], onnx.ModelProto],
) -> None:
    model = make()
    kept = optimizer.remove_unused_functions(model)
    assert {f.name for f in kept.functions} == {f.name for f in model.functions} - {"unused"}
    kept = optimizer.optimize(model, inline=False)
    called = {n.op_type for n in _nodes(kept) if n.domain == LOCAL}
    assert called and {f.name for f in kept.functions} == called


def test_inlining_names_do_not_shadow_outer_names() -> None:
    """The body's names (``w``, ``a``) are taken in the main graph and in a branch; the
    copies get others (ONNX forbids a subgraph to reuse an outer name)."""
    outer = _function(
        "outer",
        ["v"],
        ["w"],
        [helper.make_node("Neg", ["v"], ["a"]), helper.make_node("Abs", ["a"], ["w"])],
    )
    nodes = [
        _call("outer", ["x"], ["b"]),
        helper.make_node("Relu", ["b"], ["a"]),
        *_positive("x", "c"),
        _if(
            "c",
            [helper.make_node("Neg", ["a"], ["w"])],
            "w",
            [_call("outer", ["a"], ["e"])],
            "e",
            "y",
        ),
    ]
    model = _model(nodes, [outer])
    inlined = _inline(model)
    _assert_same(model, inlined)
    names = [o for n in _nodes(inlined) for o in n.output]
    assert len(names) == len(set(names))


def test_inlining_ignores_versions_of_local_function_domains() -> None:
    """torch.onnx writes the version of its function domain as it likes (20 in the model,
    1 in a function): that is no reason not to inline."""
    model = if_in_loop_body()
    for opset in model.opset_import:
        if opset.domain == LOCAL:
            opset.version = 20
    _assert_same(model, _inline(model))


def test_inlining_refuses_recursion_and_mismatched_onnx_versions() -> None:
    loop = _function("loop", ["v"], ["w"], [_call("loop", ["v"], ["w"])])
    as_ir = ir.serde.deserialize_model(
        helper.make_model(
            helper.make_graph(
                [_call("loop", ["x"], ["y"])],
                "main",
                [helper.make_tensor_value_info("x", F, [3])],
                [helper.make_tensor_value_info("y", F, [3])],
            ),
            opset_imports=IMPORTS,
            functions=[loop],
        )
    )
    with pytest.raises(ValueError, match="recursive"):
        optimizer.inline(as_ir)
    old = helper.make_function(
        LOCAL,
        "old",
        ["v"],
        ["w"],
        [helper.make_node("Neg", ["v"], ["w"])],
        [helper.make_opsetid("", 13)],
    )
    as_ir = ir.serde.deserialize_model(_model([_call("old", ["x"], ["y"])], [old]))
    with pytest.raises(ValueError, match="version 13"):
        optimizer.inline(as_ir)


def test_inlining_a_pass_through_output_of_a_branch_adds_an_identity() -> None:
    """A function returning its input, called in a branch on an outer value: the branch
    must still compute its output (onnxruntime rejects an outer value returned as is)."""
    same = _function("same", ["v"], ["w"], [helper.make_node("Identity", ["v"], ["w"])])
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        *_positive("x", "c"),
        _if(
            "c",
            [_call("same", ["r"], ["t"])],
            "t",
            [helper.make_node("Neg", ["r"], ["e"])],
            "e",
            "y",
        ),
    ]
    model = _model(nodes, [same])
    for transform in TRANSFORMS.values():
        _assert_same(model, transform(model))


def test_identity_removal_keeps_outputs_computed_in_their_graph() -> None:
    """A branch returning an outer value through an Identity keeps it; a main-graph output
    that is an Identity of another output keeps both names."""
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Identity", ["r"], ["copy"]),
        *_positive("x", "c"),
        _if(
            "c",
            [helper.make_node("Identity", ["r"], ["t"])],
            "t",
            [helper.make_node("Neg", ["r"], ["e"])],
            "e",
            "y",
        ),
    ]
    model = _model(nodes, [], outputs={"y": [3], "r": [3], "copy": [3]})
    for transform in (optimizer.remove_identity, optimizer.optimize):
        cleaned = transform(model)
        assert [o.name for o in cleaned.graph.output] == ["y", "r", "copy"]
        _assert_same(model, cleaned)


def test_identity_removal_inside_branches() -> None:
    nodes = [
        *_positive("x", "c"),
        _if(
            "c",
            [helper.make_node("Neg", ["x"], ["n"]), helper.make_node("Identity", ["n"], ["t"])],
            "t",
            [helper.make_node("Identity", ["x"], ["i"]), helper.make_node("Abs", ["i"], ["e"])],
            "e",
            "y",
        ),
    ]
    model = _model(nodes, [])
    cleaned = optimizer.remove_identity(model)
    assert "Identity" not in {n.op_type for n in _nodes(cleaned)}
    _assert_same(model, cleaned)


def test_common_subexpressions_in_branches_and_functions() -> None:
    """Repeats inside a branch and a function body are computed once; two calls of a
    function are merged unless it uses a random op."""
    twice = _function(
        "twice",
        ["v"],
        ["w"],
        [
            helper.make_node("Neg", ["v"], ["a"]),
            helper.make_node("Neg", ["v"], ["b"]),
            helper.make_node("Add", ["a", "b"], ["w"]),
        ],
    )
    noise = _function(
        "noise",
        ["v"],
        ["w"],
        [
            helper.make_node("RandomUniformLike", ["v"], ["r"]),
            helper.make_node("Add", ["v", "r"], ["w"]),
        ],
    )
    indirect = _function("indirect", ["v"], ["w"], [_call("noise", ["v"], ["w"])])
    then = [
        _call("twice", ["x"], ["p"]),
        _call("twice", ["x"], ["q"]),
        helper.make_node("Abs", ["p"], ["pa"]),
        helper.make_node("Abs", ["q"], ["qa"]),
        helper.make_node("Add", ["pa", "qa"], ["t"]),
    ]
    nodes = [
        *_positive("x", "c"),
        _if("c", then, "t", [helper.make_node("Neg", ["x"], ["e"])], "e", "y"),
        _call("indirect", ["x"], ["n1"]),
        _call("indirect", ["x"], ["n2"]),
        helper.make_node("Sub", ["n1", "n2"], ["d"]),
    ]
    model = _model(nodes, [twice, noise, indirect], outputs={"y": [3], "d": [3]})
    merged = optimizer.eliminate_common_subexpressions(model)
    onnx.checker.check_model(merged, full_check=True)
    branch = next(a.g for a in merged.graph.node[2].attribute if a.name == "then_branch")
    assert [n.op_type for n in branch.node] == ["twice", "Abs", "Add"]
    body = next(f for f in merged.functions if f.name == "twice")
    assert [n.op_type for n in body.node] == ["Neg", "Add"]
    assert [n.op_type for n in merged.graph.node].count("indirect") == 2
    x = FEEDS[0]
    got, expected = _run(merged, x), _run(model, x)
    np.testing.assert_allclose(got[0], expected[0], rtol=1e-6)
    assert np.all(got[1] != 0)  # two draws, not one


def test_folding_inside_branches_of_a_function_body() -> None:
    """A constant computation in a function's branch (on a constant of the body) folds to
    a Constant node of that branch."""
    then = [
        helper.make_node("Mul", ["k", "k"], ["kk"]),
        helper.make_node("Mul", ["v", "kk"], ["t"]),
    ]
    body = [
        helper.make_node("Constant", [], ["zero"], value_float=0.0),
        helper.make_node("Constant", [], ["k"], value_float=2.0),
        *_positive("v", "c"),
        _if("c", then, "t", [helper.make_node("Neg", ["v"], ["e"])], "e", "w"),
    ]
    scaled = _function("scaled", ["v"], ["w"], body)
    nodes = [
        *_positive("x", "p"),
        _if("p", [_call("scaled", ["x"], ["s"])], "s", [_call("scaled", ["x"], ["n"])], "n", "y"),
    ]
    model = _model(nodes, [scaled])
    folded = optimizer.fold_constants(model)
    branch = next(a.g for a in folded.functions[0].node[-1].attribute if a.name == "then_branch")
    assert [n.op_type for n in branch.node] == ["Constant", "Mul"]
    _assert_same(model, folded)
