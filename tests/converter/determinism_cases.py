"""Functions covering every construct, compiled by the determinism test in subprocesses."""

from __future__ import annotations

from onnxscript import FLOAT, INT64, Opset, graph, script
from onnxscript import opset18 as op

lib = Opset("lib.domain", 1)


@script(lib)
def helper(x: FLOAT["N"], alpha: float = 0.5, k: int = 2) -> FLOAT["N"]:
    return op.LeakyRelu(x, alpha=alpha) * k


@script()
def everything(x: FLOAT["N"], n: INT64, m: INT64) -> tuple[FLOAT["N"], FLOAT["N"]]:
    """Docstring."""
    a, b, c = x + 1, x * 2, helper(x)
    total = a
    for i in range(n):
        for j in range(m):
            if op.ReduceSum(total) > 100:
                break
            total = total + b * op.Cast(j, to=FLOAT.dtype)
            if j == 3:
                continue
            c = c - 1
        if op.ReduceSum(total) > 1000:
            return total, c
    k = n
    while k > 0 and op.ReduceMax(c) < 50:
        c = c + op.Cast(k, to=FLOAT.dtype)
        k = k - 1

    @graph()
    def body(state: FLOAT["N"], row: FLOAT["N"]):
        s = state + row * a
        return s, s

    stacked = op.Unsqueeze(x, [0])
    final, rows = op.Scan(c, stacked, body=body, num_scan_inputs=1)
    y = final if op.ReduceSum(final) > 0 else -final
    return y[1:], op.Concat(a[:1], b[::-1][:0], c[..., :1], axis=0)


FUNCTIONS = [helper, everything]
