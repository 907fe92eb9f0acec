"""Eager-mode overhead per op, against onnxruntime sessions created once and run repeatedly.

Run it with a Python that has our package's dependencies (see README):
``python bench/eager.py``.

For each case the same computation runs two ways in the same process, on the same inputs:

* **eager**: our eager call (``op.Add(a, b)`` on numpy arrays, on ``Tensor`` objects, the
  ``+`` operator on ``Tensor`` objects, and a 15-op GELU script function called on a numpy
  array);
* **floor**: onnxruntime ``InferenceSession.run`` on sessions created once before timing
  (one single-node session per op, each fed the previous one's outputs for GELU), with
  onnxruntime's default session options and with thread spinning off (as the eager
  evaluator runs them); the faster of the two is the floor. This is the least any op-by-op
  eager mode built on onnxruntime's Python API can cost.

Each figure is the best of several repetitions of many calls, in microseconds per call (and
per op for GELU). The ratio is eager / floor; the target is at most 3x per op. The whole
GELU model in one session is printed too, for scale (it is not an op-by-op floor).

``--baseline`` also times onnxscript 0.7.2's eager ``Add``, in the virtual environment with
onnxscript 0.7.2 and the same onnxruntime that ``bench/support.py`` makes on first use. ``--quick`` runs fewer repetitions. Nothing here asserts on timings.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnx.helper
import onnxruntime as ort

BENCH_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH_DIR.parent), str(BENCH_DIR)]

from support import best_time, ensure_baseline_venv  # noqa: E402

from onnxscript import DOUBLE, FLOAT, script  # noqa: E402
from onnxscript import opset18 as op  # noqa: E402
from onnxscript.evaluator import Tensor  # noqa: E402

C_0044715 = np.array(0.044715, dtype=np.float64)
C_SQRT_2_OVER_PI = np.array(np.sqrt(2.0 / np.pi), dtype=np.float64)
C_LO = np.array(-20.0, dtype=np.float64)
C_HI = np.array(20.0, dtype=np.float64)
C_ONE = np.array(1.0, dtype=np.float64)
C_HALF = np.array(0.5, dtype=np.float64)


@script()
def gelu15(x: FLOAT[...]) -> FLOAT[...]:
    """GELU (tanh form) computed in double precision, NaN-preserving: 15 ops."""
    xd = op.Cast(x, to=DOUBLE.dtype)
    x2 = op.Mul(xd, xd)
    x3 = op.Mul(x2, xd)
    cubic = op.Mul(x3, C_0044715)
    inner = op.Add(xd, cubic)
    scaled = op.Mul(inner, C_SQRT_2_OVER_PI)
    clipped = op.Clip(scaled, C_LO, C_HI)
    t = op.Tanh(clipped)
    one_plus = op.Add(t, C_ONE)
    half_x = op.Mul(xd, C_HALF)
    yd = op.Mul(half_x, one_plus)
    y = op.Cast(yd, to=FLOAT.dtype)
    nan = op.IsNaN(x)
    y2 = op.Where(nan, x, y)
    return op.Identity(y2)


GELU_STEPS: list[tuple[str, list[str], dict[str, Any], str]] = [
    # (op, input names, attributes, output name): the same 15 ops, for the floor.
    ("Cast", ["x"], {"to": onnx.TensorProto.DOUBLE}, "xd"),
    ("Mul", ["xd", "xd"], {}, "x2"),
    ("Mul", ["x2", "xd"], {}, "x3"),
    ("Mul", ["x3", "c0044715"], {}, "cubic"),
    ("Add", ["xd", "cubic"], {}, "inner"),
    ("Mul", ["inner", "sqrt2pi"], {}, "scaled"),
    ("Clip", ["scaled", "lo", "hi"], {}, "clipped"),
    ("Tanh", ["clipped"], {}, "t"),
    ("Add", ["t", "one"], {}, "one_plus"),
    ("Mul", ["xd", "half"], {}, "half_x"),
    ("Mul", ["half_x", "one_plus"], {}, "yd"),
    ("Cast", ["yd"], {"to": onnx.TensorProto.FLOAT}, "y"),
    ("IsNaN", ["x"], {}, "nan"),
    ("Where", ["nan", "x", "y"], {}, "y2"),
    ("Identity", ["y2"], {}, "out"),
]


def _session(
    op_type: str, inputs: list[np.ndarray], attrs: dict[str, Any], spinning: bool = True
) -> Any:
    names = [f"i{k}" for k in range(len(inputs))]
    infos = [
        onnx.helper.make_tensor_value_info(
            n, onnx.helper.np_dtype_to_tensor_dtype(a.dtype), [None] * a.ndim
        )
        for n, a in zip(names, inputs, strict=True)
    ]
    node = onnx.helper.make_node(op_type, names, ["out"], **attrs)
    graph = onnx.helper.make_graph([node], "g", infos, [onnx.ValueInfoProto(name="out")])
    model = onnx.helper.make_model(
        graph, opset_imports=[onnx.helper.make_opsetid("", 18)], ir_version=10
    )
    options = ort.SessionOptions()
    options.log_severity_level = 3
    if not spinning:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    return session, names


def _floors(make: Callable[[bool], Callable[[], Any]], number: int, repeat: int) -> float:
    """The floor: the faster of onnxruntime's default session options and sessions whose
    threads do not spin (what the eager evaluator uses)."""
    return min(best_time(make(spinning), number, repeat) for spinning in (True, False))


def add_cases(shape: tuple[int, ...], number: int, repeat: int) -> list[tuple[str, float, float]]:
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(shape).astype(np.float32)

    def make(spinning: bool) -> Callable[[], Any]:
        session, names = _session("Add", [a, b], {}, spinning)
        feeds = dict(zip(names, [a, b], strict=True))
        return lambda: session.run(None, feeds)

    floor = _floors(make, number, repeat)
    ta, tb = Tensor(a), Tensor(b)
    np.testing.assert_allclose(op.Add(a, b), a + b, rtol=1e-6)
    label = "x".join(map(str, shape))
    return [
        (f"op.Add(a, b), numpy [{label}]", best_time(lambda: op.Add(a, b), number, repeat), floor),
        (
            f"op.Add(a, b), Tensor [{label}]",
            best_time(lambda: op.Add(ta, tb), number, repeat),
            floor,
        ),
        (f"a + b, Tensor [{label}]", best_time(lambda: ta + tb, number, repeat), floor),
    ]


def gelu_case(shape: tuple[int, ...], number: int, repeat: int) -> tuple[str, float, float, float]:
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(np.float32)
    values: dict[str, np.ndarray] = {
        "x": x, "c0044715": C_0044715, "sqrt2pi": C_SQRT_2_OVER_PI, "lo": C_LO, "hi": C_HI,
        "one": C_ONE, "half": C_HALF,
    }  # fmt: skip

    def make(spinning: bool) -> Callable[[], Any]:
        plan = []
        for op_type, ins, attrs, out in GELU_STEPS:
            session, names = _session(op_type, [values[i] for i in ins], attrs, spinning)
            feeds = dict(zip(names, [values[i] for i in ins], strict=True))
            values[out] = session.run(None, feeds)[0]
            plan.append((session.run, names, ins, out))

        def floor_run() -> np.ndarray:
            env = dict(values)
            for run, names, ins, out in plan:
                env[out] = run(None, {n: env[i] for n, i in zip(names, ins, strict=True)})[0]
            return env["out"]

        return floor_run

    eager_out = gelu15(x)
    np.testing.assert_allclose(eager_out, make(True)(), rtol=1e-6)
    model = gelu15.to_model_proto()
    whole = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    whole_name = whole.get_inputs()[0].name
    np.testing.assert_allclose(whole.run(None, {whole_name: x})[0], eager_out, rtol=1e-6)
    eager = best_time(lambda: gelu15(x), number, repeat)
    floor = _floors(make, number, repeat)
    whole_time = best_time(lambda: whole.run(None, {whole_name: x}), number, repeat)
    label = "x".join(map(str, shape))
    return f"gelu15(x) [{label}], 15 ops", eager, floor, whole_time


BASELINE_SNIPPET = """
import time, numpy as np
from onnxscript import opset18 as op
a = np.ones({shape}, np.float32); b = np.ones({shape}, np.float32)
op.Add(a, b)
best = 1e9
for _ in range(3):
    t0 = time.perf_counter()
    for _ in range({number}):
        op.Add(a, b)
    best = min(best, (time.perf_counter() - t0) / {number})
print(best)
"""


def baseline_add(shape: tuple[int, ...], number: int) -> float | None:
    try:
        python = ensure_baseline_venv()
    except RuntimeError as exc:
        print(f"  could not install onnxscript 0.7.2: {str(exc).strip()[-300:]}")
        return None
    code = BASELINE_SNIPPET.format(shape=shape, number=number)
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, cwd="/")
    if out.returncode != 0:
        print(f"  (onnxscript 0.7.2 failed: {out.stderr.strip().splitlines()[-1:]})")
        return None
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--baseline", action="store_true", help="also time onnxscript 0.7.2")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else 7
    scale = 0.2 if args.quick else 1.0

    print(f"onnxruntime {ort.__version__}, onnx {onnx.__version__}, numpy {np.__version__}, "
          f"Python {sys.version.split()[0]}")  # fmt: skip
    print(f"{'case':44s} {'eager us':>10s} {'floor us':>10s} {'ratio':>7s}")
    rows = [
        *add_cases((4,), int(20000 * scale), repeat),
        *add_cases((256, 256), int(3000 * scale), repeat),
    ]
    for name, eager, floor in rows:
        print(f"{name:44s} {eager * 1e6:10.2f} {floor * 1e6:10.2f} {eager / floor:6.2f}x")
    for shape, number in (((4,), 2000), ((256, 256), 300)):
        name, eager, floor, whole = gelu_case(shape, int(number * scale), repeat)
        print(
            f"{name:44s} {eager * 1e6:10.2f} {floor * 1e6:10.2f} {eager / floor:6.2f}x"
            f"   per op: {eager / 15 * 1e6:.2f} vs {floor / 15 * 1e6:.2f} us;"
            f" whole model in one session: {whole * 1e6:.2f} us"
        )
    if args.baseline:
        for shape, number in (((4,), 300), ((256, 256), 100)):
            base = baseline_add(shape, number)
            if base is None:
                break
            label = "x".join(map(str, shape))
            ours = next(e for n, e, _ in rows if n == f"op.Add(a, b), numpy [{label}]")
            floor = next(f for n, _, f in rows if n == f"op.Add(a, b), numpy [{label}]")
            print(
                f"onnxscript 0.7.2 op.Add [{label}]: {base * 1e6:.1f} us "
                f"({base / floor:.0f}x the floor; ours is {base / ours:.0f}x faster)"
            )


if __name__ == "__main__":
    main()
