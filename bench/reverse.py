"""Benchmark of the reverse translator: ``proto2python`` time per node.

Generates models of about 1,000 and 10,000 nodes (counting the nodes of nested graphs) made
of straight-line arithmetic, ``If`` nodes with small branches and ``Loop`` nodes with small
bodies, translates each several times and prints the best time per node. Target: at most
5 us per node, and linear (the per-node time of the large model within 1.5x of the small
one's). The 10,000-node model is then compiled back from its translation, checked to be
structurally equal to the original and run with onnxruntime against the original.

    python bench/reverse.py            # prints the figures; exit code 1 if a target is missed
"""

from __future__ import annotations

import sys
import time

import numpy as np
import onnx
import onnx.helper as oh
import onnxruntime as ort

from onnxscript.reverse import exec_script, proto2python
from onnxscript.reverse.isomorphism import differences

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


def _block(p: str, x: str, kind: str) -> list[onnx.NodeProto]:
    """About 20 nodes: straight-line arithmetic around an If (kind "if") or a Loop."""
    nodes = [
        oh.make_node("Add", [x, "one"], [p + "a"]),
        oh.make_node("Mul", [p + "a", x], [p + "m"]),
        oh.make_node("Relu", [p + "m"], [p + "r"]),
        oh.make_node("Sub", [p + "r", "one"], [p + "s"]),
        oh.make_node("Tanh", [p + "s"], [p + "t"]),
        oh.make_node("Mul", [p + "t", p + "a"], [p + "t2"]),
        oh.make_node("Add", [p + "t2", x], [p + "t3"]),
        oh.make_node("Sigmoid", [p + "t3"], [p + "t4"]),
    ]
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


def make_model(blocks: int) -> onnx.ModelProto:
    """``blocks`` blocks of about 20 nodes (counting nested ones), each with an If or a
    Loop: one node in 20 is control flow and a quarter of the nodes are in nested graphs."""
    nodes: list[onnx.NodeProto] = [
        oh.make_node("Constant", [], ["one"], value=oh.make_tensor("", FLOAT, [], [1.0])),
        oh.make_node(
            "Constant", [], ["n"], value=oh.make_tensor("", onnx.TensorProto.INT64, [], [2])
        ),
    ]
    x = "x"
    for b in range(blocks):
        nodes.extend(_block(f"b{b}_", x, "if" if b % 2 == 0 else "loop"))
        x = f"b{b}_out"
    graph = oh.make_graph(
        nodes,
        "bench",
        [oh.make_tensor_value_info("x", FLOAT, [4])],
        [oh.make_tensor_value_info(x, FLOAT, [4])],
    )
    return oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)], ir_version=8)


def best_time(model: onnx.ModelProto, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        proto2python(model)
        best = min(best, time.perf_counter() - start)
    return best


def _run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return np.asarray(session.run(None, {session.get_inputs()[0].name: x})[0])


def main() -> int:
    ok = True
    per_node = {}
    models = {}
    for blocks in (52, 513):  # about 1,000 and 10,000 nodes
        model = make_model(blocks)
        n = _count(list(model.graph.node))
        models[n] = model
        seconds = best_time(model, 9 if blocks < 100 else 5)
        per_node[n] = seconds / n * 1e6
        print(
            f"{n:6d} nodes: {seconds * 1e3:8.1f} ms, {per_node[n]:.2f} us/node "
            f"(target <= {TARGET_US} us/node)"
        )
        ok &= per_node[n] <= TARGET_US
    small, large = sorted(per_node)
    ratio = per_node[large] / per_node[small]
    print(
        f"linearity: per-node time at {large} nodes is {ratio:.2f}x that at {small} "
        f"(target <= 1.5x)"
    )
    ok &= ratio <= 1.5
    model = models[large]
    start = time.perf_counter()
    source = proto2python(model)
    compiled = exec_script(source)["make_model"]()
    seconds = time.perf_counter() - start
    diffs = differences(model, compiled)
    x = np.linspace(-1, 1, 4).astype(np.float32)
    expected, actual = _run(model, x), _run(compiled, x)
    same = np.allclose(actual, expected, rtol=1e-5, atol=1e-6, equal_nan=True)
    print(
        f"round trip of {large} nodes: translate + compile {seconds:.2f} s, "
        f"{len(source.splitlines())} lines, structurally equal: {not diffs}, "
        f"same results: {same}"
    )
    ok &= not diffs and same
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
