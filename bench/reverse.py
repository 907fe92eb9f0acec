"""Benchmark of the reverse translator: ``proto2python`` time per node.

Generates models of about 1,000 and 10,000 nodes (counting the nodes of nested graphs) and
translates each several times (best time): arithmetic chains with ``If`` nodes (branches of
three nodes) and ``Loop`` nodes (bodies of five nodes) in three mixes:

* ``mixed`` (the target): one control-flow node in about 30 nodes;
* ``dense``: one control-flow node in about 20 nodes (a quarter of the nodes are nested);
* ``straight``: no control flow.

Targets, on the mixed models: at most 5 us per node, and linear (the per-node time of the
large model within 1.5x of the small one's). The other mixes are reported for reference.
The 10,000-node mixed model is then compiled back from its translation, checked to be
structurally equal to the original and run with onnxruntime against the original.

    python bench/reverse.py            # prints the figures; exit code 1 if a target is missed
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import onnx
import onnx.helper as oh

BENCH_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH_DIR.parent), str(BENCH_DIR)]

from support import best_time  # noqa: E402

from onnxscript.reverse import proto2python  # noqa: E402
from onnxscript.reverse.roundtrip import compare_results, compile_source  # noqa: E402
from onnxscript.testing.isomorphism import differences  # noqa: E402

FLOAT = onnx.TensorProto.FLOAT
TARGET_US = 5.0


def _count(nodes: list[onnx.NodeProto]) -> int:
    total = 0
    for node in nodes:
        total += 1
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                total += _count(list(attr.g.node))
    return total


def _chain(p: str, x: str, length: int) -> tuple[list[onnx.NodeProto], str]:
    """``length`` arithmetic nodes from ``x``; returns them and the last value."""
    ops = ["Add", "Mul", "Sub", "Relu", "Tanh", "Sigmoid", "Abs"]
    nodes = []
    for i in range(length):
        op = ops[i % len(ops)]
        inputs = [x, "one"] if op in ("Add", "Mul", "Sub") else [x]
        nodes.append(oh.make_node(op, inputs, [f"{p}c{i}"]))
        x = f"{p}c{i}"
    return nodes, x


def _block(p: str, x: str, kind: str, extra: int) -> tuple[list[onnx.NodeProto], str]:
    """Eight arithmetic nodes, an If (kind "if", two branches of three nodes) or a Loop
    ("loop", a body of five nodes), four more nodes, then ``extra`` arithmetic nodes.
    Kind "none" is arithmetic only. Returns the nodes and the block's result."""
    if kind == "none":
        return _chain(p, x, 19 + extra)
    nodes = [
        oh.make_node("Add", [x, "one"], [p + "a"]),
        oh.make_node("Mul", [p + "a", x], [p + "m"]),
        oh.make_node("Relu", [p + "m"], [p + "r"]),
        oh.make_node("Sub", [p + "r", "one"], [p + "s"]),
        oh.make_node("Tanh", [p + "s"], [p + "t"]),
        oh.make_node("Mul", [p + "t", p + "a"], [p + "t2"]),
        oh.make_node("Add", [p + "t2", x], [p + "t3"]),
        oh.make_node("Sigmoid", [p + "t3"], [p + "t4"]),
        *_control_flow(p, kind),
    ]
    more, last = _chain(p + "x", p + "out", extra)
    return nodes + more, last


def _control_flow(p: str, kind: str) -> list[onnx.NodeProto]:
    nodes: list[onnx.NodeProto] = []
    if kind == "if":
        nodes.append(oh.make_node("ReduceSum", [p + "t4"], [p + "sum"], keepdims=0))
        nodes.append(oh.make_node("Greater", [p + "sum", "one"], [p + "c"]))
        then_g = oh.make_graph(
            [
                oh.make_node("Neg", [p + "t4"], [p + "tn"]),
                oh.make_node("Add", [p + "tn", "one"], [p + "ta"]),
                oh.make_node("Mul", [p + "ta", p + "t"], [p + "tv"]),
            ],
            p + "then",
            [],
            [oh.make_tensor_value_info(p + "tv", FLOAT, None)],
        )
        else_g = oh.make_graph(
            [
                oh.make_node("Abs", [p + "t4"], [p + "ea"]),
                oh.make_node("Mul", [p + "ea", p + "t"], [p + "em"]),
                oh.make_node("Sub", [p + "em", "one"], [p + "ev"]),
            ],
            p + "else",
            [],
            [oh.make_tensor_value_info(p + "ev", FLOAT, None)],
        )
        nodes.append(
            oh.make_node("If", [p + "c"], [p + "cf"], then_branch=then_g, else_branch=else_g)
        )
    else:
        body = oh.make_graph(
            [
                oh.make_node("Identity", [p + "cin"], [p + "cout"]),
                oh.make_node("Add", [p + "y", p + "t"], [p + "y1"]),
                oh.make_node("Mul", [p + "y1", "one"], [p + "y2"]),
                oh.make_node("Sub", [p + "y2", p + "t4"], [p + "y3"]),
                oh.make_node("Sigmoid", [p + "y3"], [p + "yo"]),
            ],
            p + "body",
            [
                oh.make_tensor_value_info(p + "it", onnx.TensorProto.INT64, []),
                oh.make_tensor_value_info(p + "cin", onnx.TensorProto.BOOL, []),
                oh.make_tensor_value_info(p + "y", FLOAT, None),
            ],
            [
                oh.make_tensor_value_info(p + "cout", onnx.TensorProto.BOOL, []),
                oh.make_tensor_value_info(p + "yo", FLOAT, None),
            ],
        )
        nodes.append(oh.make_node("Loop", ["n", "", p + "t4"], [p + "cf"], body=body))
    nodes += [
        oh.make_node("Add", [p + "cf", p + "t4"], [p + "o1"]),
        oh.make_node("Div", [p + "o1", "one"], [p + "o2"]),
        oh.make_node("Abs", [p + "o2"], [p + "o3"]),
        oh.make_node("Add", [p + "o3", p + "a"], [p + "out"]),
    ]
    return nodes


MIXES = {"mixed": ("if", "loop", 10), "dense": ("if", "loop", 0), "straight": ("none", "none", 0)}


def make_model(target: int, mix: str = "mixed") -> onnx.ModelProto:
    """A model of at least ``target`` nodes (nested ones included) of the given mix."""
    first, second, extra = MIXES[mix]
    nodes: list[onnx.NodeProto] = [
        oh.make_node("Constant", [], ["one"], value=oh.make_tensor("", FLOAT, [], [1.0])),
        oh.make_node(
            "Constant", [], ["n"], value=oh.make_tensor("", onnx.TensorProto.INT64, [], [2])
        ),
    ]
    x = "x"
    b = 0
    count = len(nodes)
    while count < target:
        block, x = _block(f"b{b}_", x, first if b % 2 == 0 else second, extra)
        nodes.extend(block)
        count += _count(block)
        b += 1
    graph = oh.make_graph(
        nodes,
        "bench",
        [oh.make_tensor_value_info("x", FLOAT, [4])],
        [oh.make_tensor_value_info(x, FLOAT, [4])],
    )
    return oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)], ir_version=8)


def main() -> int:
    ok = True
    round_trip_model, round_trip_nodes = None, 0
    for mix in MIXES:
        per_node = {}
        for target in (1_000, 10_000):
            model = make_model(target, mix)
            n = _count(list(model.graph.node))
            if (mix, target) == ("mixed", 10_000):
                round_trip_model, round_trip_nodes = model, n
            seconds = best_time(lambda m=model: proto2python(m), 1, 9 if target < 5_000 else 5)
            per_node[n] = seconds / n * 1e6
            goal = f" (target <= {TARGET_US} us/node)" if mix == "mixed" else ""
            print(
                f"{mix:8s} {n:6d} nodes: {seconds * 1e3:7.1f} ms, {per_node[n]:.2f} us/node{goal}"
            )
            if mix == "mixed":
                ok &= per_node[n] <= TARGET_US
        small, large = sorted(per_node)
        ratio = per_node[large] / per_node[small]
        goal = " (target <= 1.5x)" if mix == "mixed" else ""
        print(f"{mix:8s} linearity: per node, {large} nodes take {ratio:.2f}x {small} nodes{goal}")
        if mix == "mixed":
            ok &= ratio <= 1.5
    assert round_trip_model is not None
    start = time.perf_counter()
    source = proto2python(round_trip_model)
    compiled = compile_source(source)
    seconds = time.perf_counter() - start
    assert isinstance(compiled, onnx.ModelProto)
    diffs = differences(round_trip_model, compiled, canonical=True)
    results = compare_results(round_trip_model, compiled)
    print(
        f"round trip of the mixed {round_trip_nodes}-node model: translate + compile "
        f"{seconds:.2f} s, {len(source.splitlines())} lines, structurally equal: {not diffs}, "
        f"results on random inputs: {results}"
    )
    ok &= not diffs and results == "same"
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
