"""Helpers for the reverse-translation tests."""

from __future__ import annotations

import ast
from typing import Any, NamedTuple

import onnx
import onnx.helper as oh

from onnxscript.reverse import exec_script, proto2python
from onnxscript.reverse.roundtrip import check, compile_source

FLOAT = onnx.TensorProto.FLOAT
INT64 = onnx.TensorProto.INT64
BOOL = onnx.TensorProto.BOOL


def script_model(source: str, name: str, **kwargs: Any) -> onnx.ModelProto:
    """Compile script ``source`` given as text and return ``name``'s model."""
    model = exec_script(source)[name].to_model_proto(**kwargs)
    assert isinstance(model, onnx.ModelProto)
    return model


class Translation(NamedTuple):
    """A translation that round-trips: its source and what the source compiles to."""

    source: str
    compiled: onnx.ModelProto | onnx.FunctionProto


def assert_roundtrip(
    proto: onnx.ModelProto | onnx.FunctionProto,
    *,
    isomorphic: bool = True,
    fixpoint: bool = True,
    run: bool = True,
    **options: Any,
) -> Translation:
    """Translate, compile back and check structure, fixpoint and results; return the
    source and the compiled model (or function)."""
    source = proto2python(proto, **options)
    ast.parse(source)
    result = check(proto, source, run=run, **options)
    assert not result.error, f"{result.error}\n{source}"
    if isomorphic:
        assert not result.differences, f"{result.differences}\n{source}"
    if fixpoint:
        assert result.fixpoint, source
    if run and isinstance(proto, onnx.ModelProto):
        assert result.results == "same", f"{result.results}\n{source}"
    return Translation(source, result.compiled)


def compiled(source: str) -> onnx.ModelProto:
    model = compile_source(source)
    assert isinstance(model, onnx.ModelProto)
    return model


def make_model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    initializers: list[onnx.TensorProto] | None = None,
    opset: int = 18,
    name: str = "main",
    functions: list[onnx.FunctionProto] | None = None,
    extra_opsets: dict[str, int] | None = None,
    **kwargs: Any,
) -> onnx.ModelProto:
    graph = oh.make_graph(nodes, name, inputs, outputs, initializer=initializers or [])
    imports = [oh.make_opsetid("", opset)]
    imports += [oh.make_opsetid(d, v) for d, v in (extra_opsets or {}).items()]
    model = oh.make_model(
        graph,
        opset_imports=imports,
        functions=functions or [],
        ir_version=kwargs.pop("ir_version", 8),
        **kwargs,
    )
    return model


def function_proto(
    domain: str,
    name: str,
    nodes: list[onnx.NodeProto],
    attributes: list[str] | None = None,
    opsets: dict[str, int] | None = None,
) -> onnx.FunctionProto:
    """The function ``name(x) -> y`` of ``domain`` that ``nodes`` compute; it imports ai.onnx
    18 and ``opsets``."""
    imports = [oh.make_opsetid("", 18)]
    imports += [oh.make_opsetid(d, v) for d, v in (opsets or {}).items()]
    return oh.make_function(
        domain, name, ["x"], ["y"], nodes, opset_imports=imports, attributes=attributes or []
    )


def calling_model(
    fn: onnx.FunctionProto, *more: onnx.FunctionProto, **attributes: Any
) -> onnx.ModelProto:
    """The model ``x: FLOAT[2] -> y: FLOAT[2]`` that calls ``fn`` once (with
    ``attributes``) and defines ``fn`` and the functions ``more``."""
    return make_model(
        [oh.make_node(fn.name, ["x"], ["y"], domain=fn.domain, **attributes)],
        [vi("x", FLOAT, [2])],
        [vi("y", FLOAT, [2])],
        functions=[fn, *more],
        extra_opsets={fn.domain: 1},
    )


def vi(name: str, elem: int = FLOAT, shape: list[Any] | None = None) -> onnx.ValueInfoProto:
    return oh.make_tensor_value_info(name, elem, shape)
