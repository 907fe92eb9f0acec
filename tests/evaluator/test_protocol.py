"""The evaluator protocol: op calls and script-function calls reach the current evaluator
before any conversion of their arguments (``eval_op``/``eval``/``eval_function``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx.defs
import pytest

from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
from onnxscript.evaluator import (
    Evaluator,
    FunctionRef,
    OnnxRuntimeEvaluator,
    OpRef,
    Tensor,
    default_as,
    set_default,
)

X = np.array([[3.0, -1.0, 2.0]], dtype=np.float32)


class Recording(OnnxRuntimeEvaluator):
    """Records every call it receives, then runs it as the onnxruntime evaluator does."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str, tuple[Any, ...], dict[str, Any]]] = []

    def eval_op(self, op: OpRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        self.calls.append(("op", op.name, tuple(args), dict(kwargs)))
        return super().eval_op(op, args, kwargs)

    def eval_function(
        self, function: FunctionRef, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> Any:
        self.calls.append(("function", function.name, tuple(args), dict(kwargs)))
        return super().eval_function(function, args, kwargs)


@script()
def inner(x: FLOAT[1, 3], k: INT64[1]) -> FLOAT[1, 3]:
    values, indices = op.TopK(x, k)
    return op.Relu(x) + op.ReduceMax(values)


@script()
def outer(x: FLOAT[1, 3], scale: float = 2.0) -> FLOAT[1, 3]:
    return inner(x, np.array([2], dtype=np.int64)) * scale


def test_op_calls_reach_the_evaluator_with_their_arguments_as_given():
    recording = Recording()
    with default_as(recording):
        result = op.Add(X, 1)
    np.testing.assert_array_equal(result, X + 1)
    [(kind, name, args, kwargs)] = recording.calls
    assert (kind, name, kwargs) == ("op", "Add", {})
    assert args[0] is X and args[1] == 1 and type(args[1]) is int  # not yet an array


def test_script_functions_and_the_ops_inside_them_reach_the_evaluator():
    recording = Recording()
    with default_as(recording):
        result = outer(X, scale=3.0)
    expected = (np.maximum(X, 0) + 3.0) * 3.0
    np.testing.assert_allclose(result, expected)
    kinds = [(kind, name) for kind, name, _, _ in recording.calls]
    assert kinds[:2] == [("function", "outer"), ("function", "inner")]
    assert ("op", "TopK") in kinds and ("op", "Relu") in kinds and ("op", "Mul") in kinds
    # The outer call gets exactly what the caller passed.
    _, _, outer_args, outer_kwargs = recording.calls[0]
    assert outer_args[0] is X and outer_kwargs == {"scale": 3.0}
    # Inside a script running eagerly, values are Tensors and literals stay Python values.
    _, _, inner_args, _ = recording.calls[1]
    assert isinstance(inner_args[0], Tensor) and isinstance(inner_args[1], np.ndarray)
    # `values, indices = op.TopK(...)` asks for two outputs.
    topk = next(call for call in recording.calls if call[1] == "TopK")
    assert topk[3] == {"_outputs": 2}


class Symbol:
    """A value a tracer holds: not an array, not convertible to one."""

    def __init__(self, label: str) -> None:
        self.label = label


class Tracer(Evaluator):
    """Implements only ``eval(schema, ...)`` and ``eval_function``, like torch.onnx's."""

    def __init__(self) -> None:
        self.seen: list[tuple[onnx.defs.OpSchema, tuple[Any, ...], dict[str, Any]]] = []

    def eval(
        self, schema: onnx.defs.OpSchema, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> Any:
        self.seen.append((schema, tuple(args), dict(kwargs)))
        return Symbol(f"{schema.name}({', '.join(getattr(a, 'label', repr(a)) for a in args)})")

    def eval_function(
        self, function: FunctionRef, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> Any:
        return Symbol(f"{function.name}(...)")


def test_a_schema_evaluator_receives_symbolic_values_untouched():
    tracer = Tracer()
    x = Symbol("x")
    with default_as(tracer):
        y = op.Add(x, 2.5)
        z = op.Resize(y, None, None, np.array([1, 1, 4, 4]), mode="nearest")
        called = outer(z)
    schema, args, kwargs = tracer.seen[0]
    assert schema.name == "Add" and schema.since_version <= 18
    assert args == (x, 2.5) and args[0] is x
    assert tracer.seen[1][1][0] is y and tracer.seen[1][1][1] is None
    assert tracer.seen[1][2] == {"mode": "nearest"}
    assert (
        isinstance(z, Symbol) and z.label == "Resize(Add(x, 2.5), None, None, array([1, 1, 4, 4]))"
    )
    assert called.label == "outer(...)"


def test_custom_domain_ops_need_eval_op():
    from onnxscript import Opset

    custom = Opset("com.example", 1)
    with default_as(Tracer()), pytest.raises(TypeError, match="custom-domain op"):
        custom.Foo(Symbol("x"))


def test_any_object_with_eval_op_or_eval_can_be_the_evaluator():
    class Minimal:
        def eval_op(self, op: OpRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> str:
            return f"{op.domain or 'ai.onnx'}::{op.name}@{op.version}"

    with default_as(Minimal()):  # type: ignore[arg-type]
        assert op.Relu(X) == "ai.onnx::Relu@18"
        with pytest.raises(TypeError, match="cannot evaluate script functions"):
            outer(X)
    with pytest.raises(TypeError, match="expected an Evaluator"):
        set_default(object())  # type: ignore[arg-type]
