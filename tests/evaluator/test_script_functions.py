"""Script functions called eagerly give what their compiled models give.

Each function is compiled (full onnx checker), run with onnxruntime, and called eagerly on
the same inputs; ``assert_eager_matches_compiled`` compares count, element type, shape and
values of the outputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript import BOOL, DOUBLE, FLOAT, INT32, INT64, graph, script
from onnxscript import opset18 as op
from onnxscript.evaluator import Tensor
from onnxscript.testing import assert_eager_matches_compiled

rng = np.random.default_rng(0)
X = rng.standard_normal((3, 4)).astype(np.float32)
Y = rng.standard_normal((3, 4)).astype(np.float32)
INTS_I = np.array([-7, -3, 0, 4, 9], dtype=np.int64)
INTS_J = np.array([2, -2, 3, -4, 5], dtype=np.int64)
B1 = np.array([True, False, True, False])
B2 = np.array([True, True, False, False])


def test_arithmetic_on_floats_and_python_numbers():
    @script()
    def f(x: FLOAT[3, 4], y: FLOAT[3, 4]) -> FLOAT[3, 4]:
        a = 2 * x + y / 3 - 1.5
        b = -(a**2) + x @ op.Transpose(y) @ x
        return b % 2.0 + (x // y)

    assert_eager_matches_compiled(f, X, Y, rtol=1e-4, atol=1e-4)


def test_integer_division_modulo_and_truncating_div():
    @script()
    def f(i: INT64[5], j: INT64[5]) -> tuple[INT64[5], INT64[5], INT64[5]]:
        return i // j, i % j, i / j

    _, (floor, mod, div) = assert_eager_matches_compiled(f, INTS_I, INTS_J)
    np.testing.assert_array_equal(floor, INTS_I // INTS_J)  # Python's floor division
    np.testing.assert_array_equal(mod, INTS_I % INTS_J)  # the sign of the divisor, as in Python
    np.testing.assert_array_equal(
        div, np.trunc(INTS_I / INTS_J).astype(np.int64)
    )  # ONNX Div truncates


def test_bitwise_operators_by_element_type():
    @script()
    def ints(i: INT64[5], j: INT64[5]) -> tuple[INT64[5], INT64[5], INT64[5], INT64[5]]:
        return i & j, i | j, i ^ j, ~i

    @script()
    def bools(a: BOOL[4], b: BOOL[4]) -> tuple[BOOL[4], BOOL[4], BOOL[4], BOOL[4]]:
        return a & b, a | b, a ^ b, ~a

    assert_eager_matches_compiled(ints, INTS_I, INTS_J)
    _, out = assert_eager_matches_compiled(bools, B1, B2)
    np.testing.assert_array_equal(out[3], ~B1)


def test_comparisons_and_boolean_operators():
    @script()
    def f(x: FLOAT[3, 4], y: FLOAT[3, 4]) -> tuple[BOOL[3, 4], BOOL[3, 4], BOOL[3, 4]]:
        both = x > 0 and y > 0
        either = x > 0 or y < 0 or x == y
        neither = not (x > 0) and not (y > 0)
        return both, either, neither

    _, (both, either, _) = assert_eager_matches_compiled(f, X, Y)
    np.testing.assert_array_equal(both, (X > 0) & (Y > 0))
    np.testing.assert_array_equal(either, (X > 0) | (Y < 0))


def test_not_equal_and_chained_comparison():
    @script()
    def f(x: FLOAT[3, 4], y: FLOAT[3, 4]) -> tuple[BOOL[3, 4], BOOL[3, 4]]:
        return x != y, -1.0 < x <= y

    _, (ne, chain) = assert_eager_matches_compiled(f, X, Y)
    np.testing.assert_array_equal(chain, (X > -1.0) & (X <= Y))


def test_python_constants_fold_boolean_operators():
    flag = True

    @script()
    def f(x: FLOAT[3, 4]) -> BOOL[3, 4]:
        return (x > 0 and flag) or False

    assert_eager_matches_compiled(f, X)


def test_slicing_and_indexing():
    @script()
    def f(
        x: FLOAT[3, 4], i: INT64
    ) -> tuple[FLOAT[2, 2], FLOAT[4], FLOAT[3], FLOAT[3], FLOAT[1, 3, 4]]:
        return x[1:3, ::2], x[-1], x[:, i], x[..., 0], x[None]

    for i in (0, 2, -1):
        assert_eager_matches_compiled(f, X, np.array(i))


def test_negative_steps_and_tensor_bounds():
    @script()
    def f(x: FLOAT[3, 4], n: INT64) -> tuple[FLOAT[3, 4], FLOAT[2, 4], FLOAT[3, 2]]:
        return x[::-1, ::-1], x[n:], x[:, n : n + 2]

    assert_eager_matches_compiled(f, X, np.array(1))


def test_several_tensor_indices_gather_one_axis_after_the_other():
    @script()
    def f(x: FLOAT[3, 4], rows: INT64[2], cols: INT64[2]) -> FLOAT[2, 2]:
        return x[rows, cols]

    rows, cols = np.array([0, 2]), np.array([1, 3])
    (eager,), _ = assert_eager_matches_compiled(f, X, rows, cols)
    np.testing.assert_array_equal(eager, X[rows][:, cols])  # not numpy's X[rows, cols]


def test_if_on_a_tensor_condition_and_loops():
    @script()
    def f(x: FLOAT[3, 4], n: INT64) -> FLOAT[3, 4]:
        total = x
        for i in range(n):
            if op.ReduceSum(total) > 10.0:
                break
            if i % 2 == 0:
                continue
            total = total + i
        k = n
        while k > 0:
            total = total * 1.5
            k = k - 1
        return total

    for n in (0, 1, 4, 9):
        assert_eager_matches_compiled(f, X, np.array(n))


def test_return_inside_loop_and_branches():
    @script()
    def f(x: FLOAT[3, 4], limit: FLOAT) -> FLOAT[3, 4]:
        y = x
        for i in range(10):
            y = y + 1.0
            if op.ReduceMax(y) > limit:
                return y * 2.0
        if op.ReduceMin(y) > 0.0:
            return y
        return -y

    for limit in (0.0, 5.0, 100.0):
        assert_eager_matches_compiled(f, X, np.float32(limit))


def test_loop_index_takes_the_type_of_the_tensor_it_meets():
    @script()
    def f(x: FLOAT[3, 4], n: INT64) -> tuple[FLOAT[3, 4], INT64]:
        total = x
        count = n - n
        for i in range(n):
            total = total + i * 0.5 + i
            count = count + i
        return total, count

    assert_eager_matches_compiled(f, X, np.array(5))


def test_calls_to_other_script_functions_and_multi_output_ops():
    @script()
    def top2(x: FLOAT[3, 4]) -> tuple[FLOAT[3, 2], INT64[3, 2]]:
        values, indices = op.TopK(x, [2])
        return values, indices

    @script()
    def caller(x: FLOAT[3, 4]) -> tuple[FLOAT[3, 2], INT64[3, 2], FLOAT[1, 3, 2]]:
        v, i = top2(x)
        pooled = op.MaxPool(op.Unsqueeze(x, [0]), kernel_shape=[3])
        return v, i, v + op.ReduceMean(pooled)

    assert_eager_matches_compiled(caller, X)


def test_optional_input_by_keyword_in_a_script():
    @script()
    def f(x: FLOAT[1, 1, 2, 2]) -> FLOAT[1, 1, 4, 4]:
        return op.Resize(x, sizes=[1, 1, 4, 4], mode="nearest")

    assert_eager_matches_compiled(f, np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))


def test_attribute_parameters_as_attributes_and_as_tensors():
    @script()
    def f(x: FLOAT[3, 4], alpha: float = 0.5, n: int = 3, flag: bool = True) -> FLOAT[3, 4]:
        y = op.LeakyRelu(x, alpha=alpha) * alpha
        if flag:
            y = y + op.Cast(n / 2, to=FLOAT.dtype)  # INT64 division, as compiled
        if alpha != 1:
            y = y - 1
        return y

    assert_eager_matches_compiled(f, X)
    assert_eager_matches_compiled(f, X, alpha=2.0, n=5, flag=False)
    assert_eager_matches_compiled(f, X, 1.0, 7)  # attributes by position


def test_list_attribute_parameter_used_as_a_tensor():
    @script()
    def f(x: FLOAT[3, 4], axes: list[int] = [0, 1]) -> FLOAT:  # noqa: B006
        return op.ReduceSum(x, axes, keepdims=0)

    assert_eager_matches_compiled(f, X)


def test_python_scalars_and_lists_as_function_inputs():
    @script()
    def f(a: FLOAT, b: DOUBLE[2], c: INT64[3]) -> tuple[FLOAT, DOUBLE[2], INT64[3]]:
        return a * 2, b + 1, c

    assert_eager_matches_compiled(f, 1.5, [1.0, 2.0], np.array([1, 2, 3]))
    eager = f(3, [0.5, 0.25], np.array([1, 2, 3]))
    assert eager[0].dtype == np.float32 and eager[1].dtype == np.float64


def test_scan_and_sequence_map_with_graph_bodies():
    @script()
    def f(x: FLOAT[3, 4], scale: FLOAT) -> tuple[FLOAT[4], FLOAT[3, 4], FLOAT]:
        @graph()
        def body(state: FLOAT[4], row: FLOAT[4]):
            new = state + row * scale
            return new, new

        final, steps = op.Scan(
            op.ReduceSum(x, [0], keepdims=0) * 0.0, x, body=body, num_scan_inputs=1
        )
        return final, steps, op.ReduceSum(final, keepdims=0)

    assert_eager_matches_compiled(f, X, np.float32(2.0))


def test_tensor_in_tensor_out_and_numpy_in_numpy_out():
    @script()
    def f(x: FLOAT[3, 4]) -> FLOAT[3, 4]:
        return op.Relu(x) + 1

    assert isinstance(f(X), np.ndarray)
    result = f(Tensor(X))
    assert isinstance(result, Tensor)
    np.testing.assert_array_equal(result.numpy(), np.maximum(X, 0) + 1)


def test_int32_literals_and_casts():
    @script()
    def f(i: INT32[5]) -> tuple[INT32[5], FLOAT[5], BOOL[5]]:
        return i * 3 - 1, op.Cast(i, to=FLOAT.dtype) / 2, i >= 0

    assert_eager_matches_compiled(f, np.array([-2, -1, 0, 1, 2], dtype=np.int32))


@pytest.mark.parametrize("evaluator_name", ["onnxruntime", "reference"])
def test_same_results_with_either_evaluator(evaluator_name):
    from onnxscript.evaluator import OnnxRuntimeEvaluator, ReferenceEvaluator, default_as

    @script()
    def f(x: FLOAT[3, 4], n: INT64) -> FLOAT[3, 4]:
        y = x
        for i in range(n):
            y = op.Tanh(y) + x[0] * i
        return y

    evaluator = OnnxRuntimeEvaluator() if evaluator_name == "onnxruntime" else ReferenceEvaluator()
    with default_as(evaluator):
        assert_eager_matches_compiled(f, X, np.array(3), rtol=1e-5, atol=1e-5)
    assert evaluator.cache_size() > 0


def test_attributes_by_position_and_python_scalars_as_inputs():
    @script()
    def add_with_alpha(this, other, alpha: float = 1.0):
        return op.Add(this, op.Mul(other, alpha))

    assert add_with_alpha(1.0, 2.0, 3.0) == 7
    assert add_with_alpha(1.0, 2.0) == 3
    assert add_with_alpha(other=2.0, this=1.0, alpha=0.5) == 2


def test_python_int_attribute_as_a_loop_count():
    @script()
    def sumprod(x: FLOAT[4], N: int) -> tuple[FLOAT[4], FLOAT[4]]:
        total = op.Identity(x)
        product = op.Identity(x)
        for i in range(N):
            total = total + x
            product = product * x
        return total, product

    x = np.array([1.0, 2.0, 3.0, -1.0], dtype=np.float32)
    total, product = sumprod(x, 3)
    np.testing.assert_array_equal(total, 4 * x)
    np.testing.assert_array_equal(product, x**4)
    assert_eager_matches_compiled(sumprod, x, N=3)
