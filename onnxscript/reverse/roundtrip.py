"""Check a translation: compile the emitted script back and compare it with the original.

Unlike the translation itself, this module runs the script compiler (through the public
``onnxscript`` API that the emitted source imports) and onnxruntime.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx

from onnxscript.reverse.loading import exec_script
from onnxscript.testing.isomorphism import differences
from onnxscript.testing.values import first_mismatch, run_model


@dataclass
class RoundTrip:
    """What compiling a translation back gave."""

    compiled: onnx.ModelProto | onnx.FunctionProto | None = None
    error: str = ""
    differences: list[str] = field(default_factory=list)
    fixpoint: bool = False
    results: str = ""  # "same", "different: ...", or why they were not compared

    @property
    def ok(self) -> bool:
        return (
            not self.error
            and not self.differences
            and self.fixpoint
            and not self.results.startswith("different")
        )

    def report(self) -> str:
        if self.error:
            return f"round trip failed: {self.error}"
        lines = [
            "structurally equal up to renaming: " + ("yes" if not self.differences else "no"),
            *(f"  - {d}" for d in self.differences[:20]),
            f"translating the compiled model again gives the same text: "
            f"{'yes' if self.fixpoint else 'no'}",
        ]
        if self.results:
            lines.append(f"results on random inputs: {self.results}")
        return "\n".join(lines)


def compile_source(source: str) -> onnx.ModelProto | onnx.FunctionProto:
    """Run translated source and compile what it defines: the model of ``make_model()``,
    or else the last function's ``FunctionProto``."""
    namespace = exec_script(source)
    make_model = namespace.get("make_model")
    if callable(make_model):
        model = make_model()
        assert isinstance(model, onnx.ModelProto)
        return model
    from onnxscript.values import OnnxFunction

    functions = [v for v in namespace.values() if isinstance(v, OnnxFunction)]
    if not functions:
        raise ValueError("the source defines no script function")
    proto = functions[-1].to_function_proto()
    assert isinstance(proto, onnx.FunctionProto)
    return proto


def check(
    original: onnx.ModelProto | onnx.FunctionProto, source: str, run: bool = True, **options: Any
) -> RoundTrip:
    """Compile ``source`` (the translation of ``original`` with ``options``) back, compare
    structures, translate again for the fixpoint and, for models, compare results on
    random inputs with onnxruntime (when ``run``)."""
    from onnxscript.reverse import proto2python

    result = RoundTrip()
    try:
        compiled = compile_source(source)
    except Exception as exc:
        result.error = f"{type(exc).__name__}: {exc}"
        return result
    result.compiled = compiled
    result.differences = differences(original, compiled, canonical=True)
    try:
        result.fixpoint = proto2python(compiled, **options) == source
    except Exception as exc:
        result.error = f"translating the compiled model failed: {type(exc).__name__}: {exc}"
        return result
    if run and isinstance(original, onnx.ModelProto) and isinstance(compiled, onnx.ModelProto):
        result.results = compare_results(original, compiled)
    return result


MAX_INPUT_ELEMENTS = 10_000_000
"""The most elements the random inputs of one model may hold together (40 MB of FLOAT):
a tiny model may declare an input of any size."""


def random_inputs(model: onnx.ModelProto, seed: int = 0) -> list[np.ndarray] | str:
    """Random tensors for the model's inputs (symbolic dimensions become 2), or why there
    are none: an input is not a tensor of a numpy element type with a known shape, or they
    would hold more than :data:`MAX_INPUT_ELEMENTS`."""
    specs = []
    for info in model.graph.input:
        t = info.type
        if t.WhichOneof("value") != "tensor_type" or not t.tensor_type.HasField("shape"):
            return "an input is not a tensor with a known shape"
        try:
            dtype = onnx.helper.tensor_dtype_to_np_dtype(t.tensor_type.elem_type)
        except Exception:
            return "an input is not a tensor with a known shape"
        shape = [d.dim_value if d.HasField("dim_value") else 2 for d in t.tensor_type.shape.dim]
        specs.append((np.dtype(dtype), shape))
    total = sum(math.prod(shape) for _, shape in specs)
    if total > MAX_INPUT_ELEMENTS:
        return f"the inputs would hold {total} elements, over the limit of {MAX_INPUT_ELEMENTS}"
    rng = np.random.default_rng(seed)
    values = []
    for dtype, shape in specs:
        if dtype.kind == "f":
            values.append(rng.standard_normal(shape).astype(dtype))
        elif dtype.kind in "iu":
            values.append(rng.integers(0, 3, shape).astype(dtype))
        elif dtype.kind == "b":
            values.append(rng.integers(0, 2, shape).astype(bool))
        else:
            return "an input is not a tensor with a known shape"
    return values


def compare_results(original: onnx.ModelProto, compiled: onnx.ModelProto) -> str:
    """Run both models with onnxruntime on the same random inputs."""
    inputs = random_inputs(original)
    if isinstance(inputs, str):
        return f"not compared ({inputs})"
    try:
        expected = run_model(original, inputs)
    except Exception as exc:
        return f"not compared (onnxruntime cannot run the original: {type(exc).__name__})"
    try:
        actual = run_model(compiled, inputs)
    except Exception as exc:
        return f"different: onnxruntime cannot run the compiled model: {exc}"
    found = first_mismatch(actual, expected, names=("compiled", "original"))
    return "same" if found is None else f"different: {found}"
