"""Rewriter benchmark: a set of 13 tutorial-style rules applied with
``onnxscript.rewriter.rewrite`` to a synthetic graph of about 20,000 nodes, ours against
onnxscript 0.7.2 (the torch baseline environment of ``bench/support.py``).

The graph chains ``--blocks`` blocks of 25 nodes (an erf-GELU, Relu-Relu,
Transpose-Transpose, x*1, x+0, Neg-Neg, Cast-Cast, Sigmoid*x, Dropout, a scaled MatMul and
nodes no rule matches). Each package rewrites the same file in its own subprocess: the
model is deserialized to an ``onnx_ir`` Model outside the timing, then the rule set is
applied (best of ``--repeat``, after one warm-up). Printed: nodes before and after (ours,
0.7.2), seconds (ours, 0.7.2) and their ratio. Nothing is asserted on timings.

Usage: ``python bench/rewriter.py [--blocks 800] [--repeat 3] [--no-baseline]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))

from support import BASELINE_VERSION, ensure_torch_baseline, run_json  # noqa: E402

WIDTH = 16


def _block(i: int, x: str) -> list[onnx.NodeProto]:
    """25 nodes from ``x`` to ``b{i}_out``, every rule of RULES matching once."""
    n = f"b{i}_"
    make = helper.make_node
    return [
        make("Add", [x, "w"], [n + "s"]),
        make("Div", [n + "s", "sqrt2"], [n + "d"]),
        make("Erf", [n + "d"], [n + "e"]),
        make("Add", [n + "e", "one"], [n + "p"]),
        make("Mul", [n + "s", n + "p"], [n + "m"]),
        make("Mul", ["half", n + "m"], [n + "g"]),
        make("Relu", [n + "g"], [n + "r1"]),
        make("Relu", [n + "r1"], [n + "r2"]),
        make("Transpose", [n + "r2"], [n + "t1"], perm=[1, 0]),
        make("Transpose", [n + "t1"], [n + "t2"], perm=[1, 0]),
        make("Mul", [n + "t2", "one"], [n + "x1"]),
        make("Add", [n + "x1", "zero"], [n + "x0"]),
        make("Neg", [n + "x0"], [n + "n1"]),
        make("Neg", [n + "n1"], [n + "n2"]),
        make("Cast", [n + "n2"], [n + "c1"], to=TensorProto.DOUBLE),
        make("Cast", [n + "c1"], [n + "c2"], to=TensorProto.FLOAT),
        make("Sigmoid", [n + "c2"], [n + "sg"]),
        make("Mul", [n + "c2", n + "sg"], [n + "sw"]),
        make("Dropout", [n + "sw"], [n + "dr"]),
        make("MatMul", [n + "dr", "wm"], [n + "mm"]),
        make("Mul", [n + "mm", "half"], [n + "sc"]),
        make("Relu", [n + "sc"], [n + "sr"]),
        make("Tanh", [n + "sr"], [n + "th"]),
        make("Exp", [n + "th"], [n + "ex"]),
        make("Sub", [n + "ex", "w"], [n + "out"]),
    ]


def make_model(blocks: int) -> onnx.ModelProto:
    nodes: list[onnx.NodeProto] = []
    x = "x"
    for i in range(blocks):
        nodes.extend(_block(i, x))
        x = f"b{i}_out"
    rng = np.random.default_rng(0)
    scalars = {"one": 1.0, "zero": 0.0, "half": 0.5, "sqrt2": 1.4142135}
    inits = [numpy_helper.from_array(np.array(v, np.float32), k) for k, v in scalars.items()]
    inits.append(numpy_helper.from_array(rng.standard_normal((1, WIDTH)).astype(np.float32), "w"))
    wm = rng.standard_normal((WIDTH, WIDTH)).astype(np.float32)
    inits.append(numpy_helper.from_array(wm, "wm"))
    shape = [WIDTH, WIDTH]
    graph = helper.make_graph(
        nodes,
        "chain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, shape)],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


RULES = r"""
import math
from onnxscript.rewriter import pattern

def erf_gelu(op, x):
    return 0.5 * (x * (op.Erf(x / math.sqrt(2)) + 1.0))

def relu_relu(op, x):
    return op.Relu(op.Relu(x))

def transposes(op, x, p1, p2):
    return op.Transpose(op.Transpose(x, perm=p1), perm=p2)

def composed(op, x, p1, p2):
    a, b = p1.as_ints(), p2.as_ints()
    perm = [a[i] for i in b]
    return op.Identity(x) if perm == list(range(len(perm))) else op.Transpose(x, perm=perm)

def scaled_matmul(op, x, w, s):
    xy = op.MatMul(x, w)
    return op.Relu(pattern.OrValue([op.Mul(xy, s), op.Div(xy, s)], tag_var="kind", tag_values=["Mul", "Div"]))

def scaled_matmul_replacement(op, x, w, s, kind):
    return op.ScaledMatMulRelu(x, w, s, kind=kind, _domain="bench")

def reshape_matmul(op, a, b, sa, sb, sc):
    return op.Reshape(op.MatMul(op.Reshape(a, sa), op.Reshape(b, sb)), sc)

def same_shape(context, a, sc, **_):
    return a.shape is not None and sc.const_value is not None

def make_rules():
    R = pattern.RewriteRule
    rules = [
        R(erf_gelu, lambda op, x: op.Gelu(x, _domain="com.microsoft")),
        R(relu_relu, lambda op, x: op.Relu(x)),
        R(transposes, composed),
        R(lambda op, x: op.Mul(x, 1.0), lambda op, x: op.Identity(x)),
        R(lambda op, x: op.Add(x, 0.0), lambda op, x: op.Identity(x)),
        R(lambda op, x: op.Neg(op.Neg(x)), lambda op, x: op.Identity(x)),
        R(lambda op, x: op.Cast(op.Cast(x, to=11), to=1), lambda op, x: op.Identity(x)),
        R(lambda op, x: op.Mul(x, op.Sigmoid(x)), lambda op, x: op.Swish(x, _domain="bench")),
        R(lambda op, x: op.Dropout(x, _allow_other_inputs=True), lambda op, x: op.Identity(x)),
        R(scaled_matmul, scaled_matmul_replacement),
        R(reshape_matmul, lambda op, a, b, **_: op.MatMul(a, b), same_shape),
        R(lambda op, x: op.Split(x, _outputs=2), lambda op, x: op.Halves(x, _domain="bench", _outputs=2)),
        R(lambda op, x, w: op.Conv(x, w, _allow_other_inputs=True), lambda op, x, w: op.FastConv(x, w, _domain="bench")),
    ]
    return pattern.RewriteRuleSet(rules, commute=True)
"""

SCRIPT = (
    RULES
    + r"""
import json, sys, time
import onnx
import onnxscript.rewriter
from onnxscript import ir

source, repeat = sys.argv[1], int(sys.argv[2])
proto = onnx.load(source)
rules = make_rules()
best = float("inf")
for _ in range(repeat + 1):  # the first run warms up
    model = ir.serde.deserialize_model(proto)
    start = time.perf_counter()
    onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=rules)
    best = min(best, time.perf_counter() - start) if _ else float("inf")
print(json.dumps({"seconds": best, "before": len(proto.graph.node), "after": len(model.graph),
                  "ops": sorted({n.op_type for n in model.graph})}))
"""
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=800)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args()
    baseline = None if args.no_baseline else str(ensure_torch_baseline())
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "chain.onnx"
        onnx.save(make_model(args.blocks), source)
        command = ["-c", SCRIPT, str(source), str(args.repeat)]
        ours = run_json([sys.executable, *command], cwd=REPO_ROOT)
        print(f"nodes before {int(ours['before'])}, after: ours {int(ours['after'])}", end="")
        if baseline is None:
            print(f"\nours {ours['seconds']:.3f} s  ops after: {' '.join(ours['ops'])}")
            return
        theirs = run_json([baseline, *command], cwd=tmp)
        print(f", {BASELINE_VERSION} {int(theirs['after'])}")
        ratio = ours["seconds"] / theirs["seconds"]
        print(
            f"ours {ours['seconds']:.3f} s  {BASELINE_VERSION} {theirs['seconds']:.3f} s  "
            f"ratio {ratio:.2f}"
        )
        print(
            f"ops after: ours {' '.join(ours['ops'])}; {BASELINE_VERSION} {' '.join(theirs['ops'])}"
        )


if __name__ == "__main__":
    main()
