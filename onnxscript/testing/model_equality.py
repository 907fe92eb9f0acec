"""Whether two models compute the same: both run (onnxruntime, or ``onnx.reference``) on the
same inputs, given or random, and their outputs compared within a tolerance. What a
rewrite's test asserts about the model before and after it (0.7.2's
``onnxscript.rewriter.testing``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
import onnx_ir as ir

from onnxscript import runtime
from onnxscript.testing.values import first_mismatch

_ORT_ENABLE_ALL = 99
"""``onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL`` (not imported: onnxruntime loads
only when a model runs)."""


def _proto(model: onnx.ModelProto | ir.Model) -> onnx.ModelProto:
    return model if isinstance(model, onnx.ModelProto) else ir.to_proto(model)


def _shape(value_type: onnx.TypeProto) -> tuple[int, ...]:
    """The shape of a random input: its known dims, 0 for a symbolic or unknown dim (as
    0.7.2 reads ``dim_value``); an input of unknown rank gets one element."""
    tensor = value_type.tensor_type
    if not tensor.HasField("shape"):
        return (1,)
    return tuple(d.dim_value if d.HasField("dim_value") else 0 for d in tensor.shape.dim)


def generate_random_inputs(model: onnx.ModelProto | ir.Model) -> dict[str, Any]:
    """A random array for each graph input without an initializer, by name: floats from a
    standard normal distribution, integers in ``[0, 10)``, booleans; symbolic dims 0."""
    proto = _proto(model)
    initialized = {init.name for init in proto.graph.initializer}
    rng = np.random.default_rng()
    feeds: dict[str, Any] = {}
    for graph_input in proto.graph.input:
        if graph_input.name in initialized:
            continue
        elem_type = graph_input.type.tensor_type.elem_type
        if not graph_input.type.HasField("tensor_type") or elem_type in (
            onnx.TensorProto.UNDEFINED,
            onnx.TensorProto.STRING,
        ):
            raise ValueError(
                f"random inputs are made for tensors of numbers; {graph_input.name!r} "
                f"is {onnx.helper.printable_type(graph_input.type)}"
            )
        dtype = onnx.helper.tensor_dtype_to_np_dtype(elem_type)
        shape = _shape(graph_input.type)
        if dtype == np.bool_:
            feeds[graph_input.name] = rng.random(shape) < 0.5
        elif np.issubdtype(dtype, np.integer):
            feeds[graph_input.name] = rng.integers(0, 10, shape).astype(dtype)
        else:
            feeds[graph_input.name] = rng.standard_normal(shape).astype(dtype)
    return feeds


def _run(
    model: onnx.ModelProto, feeds: Mapping[str, Any], level: Any, use_reference: bool
) -> list[Any]:
    if use_reference:
        import onnx.reference

        return list(onnx.reference.ReferenceEvaluator(model).run(None, dict(feeds)))
    import onnxruntime

    options = runtime.session_options()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel(level)
    return list(runtime.session(model, options).run(None, dict(feeds)))


def assert_numerically_equal(
    original_model_proto: onnx.ModelProto | ir.Model,
    rewritten_model_proto: onnx.ModelProto | ir.Model,
    args: Sequence[Any] | Mapping[str, Any] | None = None,
    ort_optimization_level: Any = _ORT_ENABLE_ALL,
    rtol: float = 1,
    atol: float = 1e-3,
    use_reference: bool = False,
) -> None:
    """Raise ``AssertionError`` unless both models give the same outputs, within
    ``|original - rewritten| <= atol + rtol * |rewritten|`` (0.7.2's defaults: ``rtol=1``,
    ``atol=1e-3``) on ``args``: values of the graph inputs in order, or by name, or
    :func:`generate_random_inputs` of the original model when None. Run by onnxruntime
    at ``ort_optimization_level``, or by ``onnx.reference`` with ``use_reference``."""
    original, rewritten = _proto(original_model_proto), _proto(rewritten_model_proto)
    if args is None:
        feeds: Mapping[str, Any] = generate_random_inputs(original)
    elif isinstance(args, Mapping):
        feeds = args
    else:
        names = [i.name for i in original.graph.input]
        feeds = dict(zip(names, args))
    expected = _run(original, feeds, ort_optimization_level, use_reference)
    actual = _run(rewritten, feeds, ort_optimization_level, use_reference)
    found = first_mismatch(expected, actual, rtol, atol, names=("original", "rewritten"))
    if found is not None:
        raise AssertionError(f"the rewritten model computes otherwise: {found}")


__all__ = ["assert_numerically_equal", "generate_random_inputs"]
