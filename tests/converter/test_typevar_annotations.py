"""``@script()`` parameters and returns annotated with a ``TypeVar`` (constrained, bound,
unconstrained), ``Optional[T]``, ``Sequence[T]`` and ``Union``s of tensor types: they
compile to inputs and outputs without a type, which is what onnxscript 0.7.2 records for
them (measured black-box: ``to_function_proto()`` and ``to_model_proto()`` of the same
functions); given types at ``to_model_proto``, one function serves each allowed type; eager
calls take what 0.7.2's take."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional, TypeVar, Union

import numpy as np
import onnx
import pytest

from onnxscript import DOUBLE, FLOAT, INT64, script, testing
from onnxscript import opset18 as op
from onnxscript.onnx_types import TensorType
from tests.helpers import checked_model, run_model

TF = TypeVar("TF", FLOAT, DOUBLE)
TB = TypeVar("TB", bound=FLOAT)
TAll = TypeVar("TAll", bound=TensorType)
TU = TypeVar("TU")


@script()
def constrained(x: TF, y: TF) -> TF:
    return op.Add(x, y)


@script()
def bound(x: TB, y: TB) -> TB:
    return op.Mul(x, y)


@script()
def bound_any(x: TAll) -> TAll:
    return op.Identity(x)


@script()
def unconstrained(x: TU, y: TU) -> TU:
    return op.Sub(x, y)


@script()
def optional_t(x: TF, y: Optional[TF] = None) -> TF:  # 0.7 spelling
    return op.Identity(x) if y is None else op.Add(x, y)


@script()
def sequence_t(xs: Sequence[TF]) -> TF:
    return op.SequenceAt(xs, 0)


@script()
def union(x: Union[FLOAT, DOUBLE], y: FLOAT | DOUBLE) -> Union[FLOAT, DOUBLE]:
    return op.Add(x, y)


@script()
def mixed(x: TF, n: INT64["N"], a: int = 1) -> TF:
    return op.Add(x, op.CastLike(op.Size(n), x))


def _type_of(value: onnx.ValueInfoProto) -> str | None:
    return onnx.helper.printable_type(value.type) if value.type.ByteSize() else None


def _input_types(model: onnx.ModelProto) -> dict[str, str | None]:
    return {i.name: _type_of(i) for i in model.graph.input}


def _untyped_model(fn) -> onnx.ModelProto:
    with pytest.warns(Warning, match="has no type"):
        return fn.to_model_proto()


# What 0.7.2's to_model_proto() gives for the same functions: no type for a TypeVar,
# Union, Optional[T] or Sequence[T] input or output; a tensor type annotation stays typed.
RECORDED = {
    constrained: ({"x": None, "y": None}, [None]),
    bound: ({"x": None, "y": None}, [None]),
    bound_any: ({"x": None}, [None]),
    unconstrained: ({"x": None, "y": None}, [None]),
    optional_t: ({"x": None, "y": None}, [None]),
    sequence_t: ({"xs": None}, [None]),
    union: ({"x": None, "y": None}, [None]),
    mixed: ({"x": None, "n": "INT64, N"}, [None]),
}


@pytest.mark.parametrize("fn", list(RECORDED), ids=lambda f: f.name)
def test_compiled_types_are_those_072_records(fn):
    inputs, outputs = RECORDED[fn]
    model = _untyped_model(fn)
    assert _input_types(model) == inputs
    assert [_type_of(o) for o in model.graph.output] == outputs
    proto = fn.to_function_proto()
    assert list(proto.input) == list(inputs)
    typed = {v.name for v in proto.value_info}
    assert not typed & {name for name, t in inputs.items() if t is None}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_one_typevar_function_serves_each_allowed_type(dtype):
    t = FLOAT if dtype == np.float32 else DOUBLE
    x = np.array([1.5, -2.0], dtype)
    y = np.array([0.25, 4.0], dtype)
    for fn, expected in ((constrained, x + y), (bound, x * y), (unconstrained, x - y)):
        if fn is bound and dtype == np.float64:
            continue  # bound=FLOAT allows FLOAT only
        model = checked_model(fn, input_types=[t["N"], t["N"]], output_types=[t["N"]])
        (got,) = run_model(model, x, y)
        assert got.dtype == dtype
        np.testing.assert_allclose(got, expected)
        np.testing.assert_allclose(fn(x, y), expected)  # eagerly, the same


def test_union_optional_and_mixed_run_compiled_and_eagerly():
    x = np.array([1.0, 2.0], np.float64)
    model = checked_model(union, input_types=[DOUBLE["N"]] * 2, output_types=[DOUBLE["N"]])
    np.testing.assert_allclose(run_model(model, x, x)[0], 2 * x)
    np.testing.assert_allclose(union(x, x), 2 * x)

    np.testing.assert_allclose(optional_t(x), x)
    np.testing.assert_allclose(optional_t(x, x), 2 * x)
    model = checked_model(optional_t, input_types=[DOUBLE["N"]] * 2, output_types=[DOUBLE["N"]])
    np.testing.assert_allclose(run_model(model, x, x)[0], 2 * x)

    n = np.array([7, 8, 9], np.int64)
    model = checked_model(mixed, input_types=[DOUBLE["N"], None], output_types=[DOUBLE["N"]])
    np.testing.assert_allclose(run_model(model, x, n)[0], x + 3)
    np.testing.assert_allclose(mixed(x, n), x + 3)


def test_sequence_of_typevar_takes_a_list_eagerly_and_compiled():
    items = [np.array([1.0, 2.0], np.float32), np.array([3.0], np.float32)]
    np.testing.assert_allclose(sequence_t(items), items[0])
    seq = onnx.helper.make_sequence_type_proto(
        onnx.helper.make_tensor_type_proto(onnx.TensorProto.FLOAT, ["N"])
    )
    model = checked_model(sequence_t, input_types=[seq], output_types=[FLOAT["N"]])
    np.testing.assert_allclose(testing.run_model(model, [items])[0], items[0])


def test_eager_calls_take_what_072_takes():
    # 0.7.2 checks no element type against a TypeVar: an INT64 pair runs through
    # constrained (TF = FLOAT | DOUBLE), as does a bound=FLOAT one.
    i = np.array([1, 2], np.int64)
    np.testing.assert_array_equal(constrained(i, i), 2 * i)
    np.testing.assert_array_equal(bound(i, i), i * i)
    np.testing.assert_array_equal(bound_any(i), i)
