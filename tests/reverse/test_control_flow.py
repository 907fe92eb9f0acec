"""Control flow comes back as if/elif/else, for, while and break, and compiles to the same
graph; anything else keeps the op call with nested @graph() functions."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
import pytest

from onnxscript.testing import run_model
from tests.reverse.common import (
    BOOL,
    FLOAT,
    INT64,
    assert_roundtrip,
    make_model,
    script_model,
    vi,
)

HEADER = "from onnxscript import script, graph, FLOAT, INT64, BOOL, opset18 as op\n"


def _script(body: str, name: str = "f") -> onnx.ModelProto:
    return script_model(HEADER + body, name)


# Scripts whose control flow comes back as the same statements: each round-trips (same
# graph, same text when translated again, same results) and its translation contains
# the given text (and not the absent text).
WRITTEN_BACK = [
    pytest.param(
        """
@script()
def f(x: FLOAT["N"], c: BOOL) -> FLOAT["N"]:
    if c:
        y = op.Neg(x)
    else:
        y = op.Abs(x)
    return y
""",
        ["    if c:\n        y = op.Neg(x)\n    else:\n        y = op.Abs(x)\n"],
        [],
        id="if_else_comes_back_as_if_else_with_one_variable",
    ),
    pytest.param(
        """
@script()
def f(x: FLOAT["N"], c: BOOL) -> FLOAT["N"]:
    x = op.Relu(x)
    if c:
        x = op.Neg(x)
        y = op.Abs(x)
    elif op.ReduceSum(x, keepdims=0) > op.Constant(value_float=1.0):
        y = op.Sigmoid(x)
    else:
        y = op.Exp(x)
    z = op.Add(x, y)
    return z
""",
        ["    x = op.Relu(x)\n    if c:\n        x = op.Neg(x)\n"],
        ["x_1", "y_1"],
        id="elif_and_ssa_variants_are_merged",
    ),
    pytest.param(
        """
@script()
def f(x: FLOAT["N"], a: BOOL, b: BOOL) -> FLOAT["N"]:
    if a:
        y = op.Neg(x)
    elif b:
        y = op.Abs(x)
    else:
        y = op.Exp(x)
    return y
""",
        ["    elif b:\n        y = op.Abs(x)\n    else:\n        y = op.Exp(x)\n"],
        [],
        id="pure_elif_chain",
    ),
    pytest.param(
        """
@script()
def f(x: FLOAT["N"], n: INT64) -> FLOAT["N"]:
    y = x
    z = op.Neg(x)
    for i in range(n):
        y = op.Add(y, z)
        z = op.Mul(z, x)
    w = op.Add(y, z)
    return w
""",
        ["for i in range(n):", "        y = op.Add(y, z)\n        z = op.Mul(z, x)\n"],
        [],
        id="for_loop_with_carried_values",
    ),
    pytest.param(
        """
@script()
def f(x: FLOAT["N"], n: INT64) -> FLOAT["N"]:
    y = x
    for i in range(n):
        y = op.Add(y, x)
        go = op.ReduceSum(y, keepdims=0) < op.Constant(value_float=10.0)
        if not go:
            break
    return y
""",
        ["        if not go:\n            break\n"],
        [],
        id="for_loop_with_break",
    ),
    pytest.param(
        """
@script()
def f(x: FLOAT["N"]) -> FLOAT["N"]:
    lim = op.Constant(value_float=100.0)
    go = op.ReduceSum(x, keepdims=0) < lim
    while go:
        x = op.Add(x, x)
        go = op.ReduceSum(x, keepdims=0) < lim
    y = op.Neg(x)
    return y
""",
        ["    while go:\n        x = op.Add(x, x)\n"],
        [],
        id="while_loop",
    ),
    pytest.param(
        """
@script()
def f(x: FLOAT["N"], n: INT64) -> FLOAT["N"]:
    acc = op.Identity(x)
    for i in range(n):
        if op.ReduceSum(acc, keepdims=0) > op.Cast(i, to=FLOAT):
            acc = op.Sub(acc, x)
        else:
            acc = op.Add(acc, x)
    out = op.Neg(acc)
    return out
""",
        [
            "for i in range(n):",
            "            acc = op.Sub(acc, x)\n        else:\n            acc = op.Add(acc, x)",
        ],
        [],
        id="loop_index_and_if_inside_loop",
    ),
    pytest.param(
        """
@script()
def f(x: FLOAT["N"], n: INT64, m: INT64) -> FLOAT["N"]:
    y = op.Identity(x)
    for i in range(n):
        for j in range(m):
            y = op.Add(y, x)
        y = op.Mul(y, x)
    return y
""",
        ["    for i in range(n):\n        for j in range(m):\n"],
        [],
        id="nested_loops",
    ),
    pytest.param(
        """
@script()
def f(x: FLOAT[4, 3]) -> FLOAT[3]:
    @graph()
    def body(s: FLOAT[3], row: FLOAT[3]):
        t = op.Add(s, row)
        u = op.Identity(t)
        return t, u
    init = op.Constant(value_float=0.0)
    zeros = op.Expand(init, op.Constant(value_ints=[3]))
    total, rows = op.Scan(zeros, x, body=body, num_scan_inputs=1)
    return total
""",
        [
            "@graph()\n    def body(s: FLOAT[3], row: FLOAT[3]):",
            "op.Scan(zeros, x, num_scan_inputs=1, body=body)",
        ],
        [],
        id="scan_is_a_nested_graph_function",
    ),
]


@pytest.mark.parametrize(("body", "present", "absent"), WRITTEN_BACK)
def test_script_control_flow_comes_back_as_written(body, present, absent):
    source = assert_roundtrip(_script(body)).source
    for text in present:
        assert text in source
    for text in absent:
        assert text not in source


def test_model_output_names_are_kept():
    model = _script("""
@script()
def f(x: FLOAT["N"], n: INT64) -> FLOAT["N"]:
    for i in range(n):
        x = op.Add(x, x)
    return x
""")
    (name,) = [o.name for o in model.graph.output]
    source, back = assert_roundtrip(model)
    assert (
        f"    {name} = x\n    for i in range(n):\n        {name} = op.Add({name}, {name})\n"
        in source
    )
    assert back.graph.output[0].name == name


def _pytorch_style_loop(cond_out_identity: bool = True) -> onnx.ModelProto:
    """A Loop as exporters write it: trip count, a constant-true condition and a body that
    passes the condition through."""
    body_nodes = [oh.make_node("Add", ["y_in", "x"], ["y_out"])]
    if cond_out_identity:
        body_nodes.insert(0, oh.make_node("Identity", ["cond_in"], ["cond_out"]))
    body = oh.make_graph(
        body_nodes,
        "body",
        [vi("it", INT64, []), vi("cond_in", BOOL, []), vi("y_in", FLOAT, [3])],
        [vi("cond_out" if cond_out_identity else "cond_in", BOOL, []), vi("y_out", FLOAT, [3])],
    )
    nodes = [
        oh.make_node("Constant", [], ["true"], value=oh.make_tensor("", BOOL, [], [True])),
        oh.make_node("Loop", ["n", "true", "x"], ["y"], body=body),
    ]
    return make_model(nodes, [vi("x", FLOAT, [3]), vi("n", INT64, [])], [vi("y", FLOAT, [3])])


@pytest.mark.parametrize("identity", [True, False])
def test_exported_for_loop_becomes_for_range(identity):
    model = _pytorch_style_loop(identity)
    source = assert_roundtrip(model, fixpoint=identity).source
    assert "for it in range(n):" in source
    assert "true" not in source  # the constant condition is implied by `for`
    assert "Loop" not in source


def _loop_model(
    body_nodes,
    body_inputs,
    body_outputs,
    loop_inputs,
    loop_outputs,
    pre=(),
    graph_inputs=None,
    graph_outputs=None,
):
    body = oh.make_graph(body_nodes, "body", body_inputs, body_outputs)
    nodes = [*pre, oh.make_node("Loop", loop_inputs, loop_outputs, body=body)]
    return make_model(
        nodes,
        graph_inputs or [vi("x", FLOAT, [3]), vi("n", INT64, [])],
        graph_outputs or [vi(loop_outputs[0], FLOAT, [3])],
    )


def test_loop_with_scan_outputs_stays_an_op_call():
    model = _loop_model(
        [
            oh.make_node("Identity", ["c"], ["c2"]),
            oh.make_node("Add", ["y", "x"], ["y2"]),
            oh.make_node("Identity", ["y2"], ["s"]),
        ],
        [vi("i", INT64, []), vi("c", BOOL, []), vi("y", FLOAT, [3])],
        [vi("c2", BOOL, []), vi("y2", FLOAT, [3]), vi("s", FLOAT, [3])],
        ["n", "", "x"],
        ["last", "all"],
        graph_outputs=[vi("last", FLOAT, [3]), vi("all", FLOAT, ["n", 3])],
    )
    source = assert_roundtrip(model).source
    assert "last, all = op.Loop(n, None, x, body=body)" in source
    assert "@graph()\n    def body(i: INT64, c: BOOL, y: FLOAT[3]):" in source


def test_loop_with_trip_count_and_condition_stays_an_op_call():
    model = _loop_model(
        [
            oh.make_node("Add", ["y", "x"], ["y2"]),
            oh.make_node("ReduceSum", ["y2"], ["s"], keepdims=0),
            oh.make_node("Less", ["s", "lim"], ["c2"]),
        ],
        [vi("i", INT64, []), vi("c", BOOL, []), vi("y", FLOAT, [3])],
        [vi("c2", BOOL, []), vi("y2", FLOAT, [3])],
        ["n", "c0", "x"],
        ["out"],
        pre=[oh.make_node("Constant", [], ["lim"], value=oh.make_tensor("", FLOAT, [], [50.0]))],
        graph_inputs=[vi("x", FLOAT, [3]), vi("n", INT64, []), vi("c0", BOOL, [])],
    )
    source, back = assert_roundtrip(model)
    assert "op.Loop(n, c0, x, body=body)" in source
    got = run_model(back, [np.ones(3, np.float32), np.array(5), np.array(False)])
    np.testing.assert_array_equal(got[0], np.ones(3, np.float32))  # zero iterations


def test_swapped_loop_values_use_a_parallel_assignment():
    model = _loop_model(
        [oh.make_node("Identity", ["c"], ["c2"]), oh.make_node("Neg", ["a"], ["na"])],
        [vi("i", INT64, []), vi("c", BOOL, []), vi("a", FLOAT, [3]), vi("b", FLOAT, [3])],
        [vi("c2", BOOL, []), vi("b", FLOAT, [3]), vi("na", FLOAT, [3])],
        ["n", "", "x", "x2"],
        ["ra", "rb"],
        pre=[oh.make_node("Relu", ["x"], ["x2"])],
        graph_outputs=[vi("ra", FLOAT, [3]), vi("rb", FLOAT, [3])],
    )
    source, back = assert_roundtrip(model, isomorphic=False, fixpoint=False)
    assert "for i in range(n):" in source
    x = np.array([1.0, -2.0, 3.0], np.float32)
    for k in range(4):
        expected = run_model(model, [x, np.array(k)])
        got = run_model(back, [x, np.array(k)])
        for e, g in zip(expected, got, strict=True):
            np.testing.assert_array_equal(g, e)


def _branch(name: str, nodes: list[onnx.NodeProto], outputs: list[str]) -> onnx.GraphProto:
    return oh.make_graph(nodes, name, [], [vi(o, FLOAT, [3]) for o in outputs])


def _if_model(
    then_nodes: list[onnx.NodeProto],
    then_outputs: list[str],
    else_nodes: list[onnx.NodeProto],
    else_outputs: list[str],
    outputs: list[str],
    returned: list[str] | None = None,
) -> onnx.ModelProto:
    """``outputs = If(c)`` with the given branches over ``x: FLOAT[3]`` and ``c: BOOL``;
    the model returns ``returned`` (all ``outputs`` by default), each a ``FLOAT[3]``."""
    node = oh.make_node(
        "If",
        ["c"],
        outputs,
        then_branch=_branch("then", then_nodes, then_outputs),
        else_branch=_branch("else", else_nodes, else_outputs),
    )
    return make_model(
        [node],
        [vi("x", FLOAT, [3]), vi("c", BOOL, [])],
        [vi(o, FLOAT, [3]) for o in (returned or outputs)],
    )


def test_if_outputs_computed_out_of_order_are_assigned_at_the_end():
    model = _if_model(
        [oh.make_node("Neg", ["x"], ["tb"]), oh.make_node("Abs", ["x"], ["ta"])],
        ["ta", "tb"],
        [oh.make_node("Exp", ["x"], ["ea"]), oh.make_node("Relu", ["x"], ["eb"])],
        ["ea", "eb"],
        ["a", "b"],
    )
    source = assert_roundtrip(model).source
    assert "    if c:\n        tb = op.Neg(x)\n        a = op.Abs(x)\n        b = tb\n" in source


def test_branch_returning_an_outer_value():
    model = _if_model([], ["x"], [oh.make_node("Neg", ["x"], ["e"])], ["e"], ["y"])
    # onnxruntime does not run a branch that returns an outer value directly; the compiled
    # model (which adds an Identity) runs.
    source, back = assert_roundtrip(model, fixpoint=False, run=False)
    assert "    if c:\n        y = x\n    else:\n        y = op.Neg(x)\n" in source
    x = np.array([1.0, -2.0, 3.0], np.float32)
    np.testing.assert_array_equal(run_model(back, [x, np.array(True)])[0], x)
    np.testing.assert_array_equal(run_model(back, [x, np.array(False)])[0], -x)


def test_if_with_unused_output_keeps_all_outputs():
    model = _if_model(
        [oh.make_node("Neg", ["x"], ["t1"]), oh.make_node("Abs", ["x"], ["t2"])],
        ["t1", "t2"],
        [oh.make_node("Exp", ["x"], ["e1"]), oh.make_node("Relu", ["x"], ["e2"])],
        ["e1", "e2"],
        ["y", "unused"],
        returned=["y"],
    )
    source = assert_roundtrip(model).source
    assert "    y, _ = op.If(c, then_branch=then, else_branch=else_)\n" in source


def test_single_output_if_as_op_call_uses_a_one_element_tuple():
    # The If's only output is unused (not a model output), so the If is not written as
    # `if c:` but as the op call, whose variadic result is a one-element tuple.
    if_node = oh.make_node(
        "If",
        ["c"],
        ["u"],
        then_branch=_branch("then", [oh.make_node("Neg", ["x"], ["t"])], ["t"]),
        else_branch=_branch("else", [oh.make_node("Abs", ["x"], ["e"])], ["e"]),
    )
    model = make_model(
        [if_node, oh.make_node("Relu", ["x"], ["y"])],
        [vi("x", FLOAT, [3]), vi("c", BOOL, [])],
        [vi("y", FLOAT, [3])],
    )
    source = assert_roundtrip(model).source
    assert "    (u,) = op.If(c, then_branch=then, else_branch=else_)\n" in source
    assert "if c:" not in source


def test_sequence_map_with_one_output():
    body = oh.make_graph(
        [oh.make_node("Neg", ["t"], ["u"])], "body", [vi("t", FLOAT, None)], [vi("u", FLOAT, None)]
    )
    seq = onnx.helper.make_tensor_sequence_value_info
    model = make_model(
        [oh.make_node("SequenceMap", ["s"], ["r"], body=body)],
        [seq("s", FLOAT, None)],
        [seq("r", FLOAT, None)],
        opset=18,
    )
    source, back = assert_roundtrip(model, run=False)
    assert "(r,) = op.SequenceMap(s, body=body)" in source
    got = run_model(back, [[np.ones(2, np.float32), np.zeros(3, np.float32)]])
    np.testing.assert_array_equal(got[0][0], -np.ones(2, np.float32))
