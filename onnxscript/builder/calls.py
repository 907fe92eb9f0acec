"""Functions called from a builder: as one node (``call``) or copied in (``call_inline``).

Script functions (``@script()``) and ``onnx_ir`` functions can be either; traced
functions (and plain Python callables) always run their body on the builder's values,
because their body depends on Python-side facts of each call.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import onnx_ir as ir

from onnxscript.builder import nodes
from onnxscript.builder.diagnostics import op_error
from onnxscript.builder.protocol import Outputs, Recorder
from onnxscript.inference import InferenceError
from onnxscript.inference.infer import infer_node
from onnxscript.ir_utils import value_facts
from onnxscript.ir_utils.graphs import subgraphs
from onnxscript.language import binding
from onnxscript.language.callables import FunctionRef


def call_function(
    builder: Recorder,
    function: Any,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    outputs: Outputs,
) -> Any:
    """One node calling ``function``, which is added to ``builder.functions``."""
    if _is_traced(function):
        return _run_body(builder, function, args, kwargs, "")
    ir_function, sig = _resolve(builder, function)
    count: Outputs = outputs if outputs is not None else len(ir_function.outputs)
    results = builder.record(
        ir_function.name, ir_function.domain, None, args, kwargs, count, signature=sig
    )
    for out, dtype in zip(results, _output_dtypes(function, ir_function)):
        if out.dtype is None and dtype is not None:
            out.dtype = dtype
    node = results[0].producer() if results else None
    if builder.infer_shapes and node is not None:
        _infer_call(builder, ir_function, node, function)
    return results[0] if len(results) == 1 else results


def inline_function(
    builder: Recorder,
    function: Any,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    outputs: Sequence[str] | None,
    prefix: str,
) -> Any:
    """``function``'s body copied into the graph; its outputs (named ``outputs``)."""
    if _is_traced(function):
        return _run_body(builder, function, args, kwargs, prefix)
    from onnxscript.passes.call_expansion import expand_call

    ir_function, sig = _resolve(builder, function, register=False)
    bound = binding.bind(sig, args, kwargs)
    inputs = [
        builder.as_input(sig, i, v, bound.inputs, ir_function.name)
        for i, v in enumerate(bound.inputs)
    ]
    attrs = {name: nodes.attribute(sig, name, v) for name, v in bound.attributes.items()}
    names = builder.names
    scope = names.value_prefix + (f"{prefix}." if prefix else "")
    node_scope = names.node_prefix + (f"{prefix}/" if prefix else "")
    body, results = expand_call(ir_function, inputs, attrs, prefix=scope)
    for node in body:
        _fresh_names(node, builder, node_scope)
        builder.add_node(node)
    copied = {id(v) for node in body for v in node.outputs}
    for result, name in zip(results, outputs or ()):
        if result is not None and id(result) in copied:
            names.used.discard(result.name or "")
            result.name = names.claim(names.value_prefix + name)
    return results[0] if len(results) == 1 else tuple(results)


def _fresh_names(node: ir.Node, builder: Recorder, scope: str) -> None:
    """Make the names a copied node defines unique in the graph (subgraphs included): its
    outputs keep their names when free, and the node is named like a recorded one."""
    names = builder.names
    node.name = f"{scope}{node.op_type}_node_{names.next_id()}"
    for value in node.outputs:
        value.name = names.fresh(value.name or node.op_type)
    for graph in subgraphs(node):
        for value in graph.inputs:
            value.name = names.fresh(value.name or "input")
        for inner in graph:
            _fresh_names(inner, builder, scope)


_Facts = tuple["ir.TypeProtocol | None", "ir.Shape | None"]
_InferKey = tuple[object, ...]
_inferred: weakref.WeakKeyDictionary[Any, dict[_InferKey, list[_Facts]]] = (
    weakref.WeakKeyDictionary()
)
"""Per called function (the script function; each builder gets its own copy of the
body), the output facts inferred for a call's input facts: calls of one function on
inputs alike (the common case: a layer called per block) infer it once. Kept only while
the function lives; a compiled function does not change."""


def _infer_call(builder: Recorder, function: ir.Function, node: ir.Node, owner: Any) -> None:
    """Types and shapes of a function call's outputs, by inferring a scratch copy of the
    body on stand-ins for the call's inputs (the graph is not touched); remembered per
    function and input facts (calls with constant inputs are inferred each time)."""
    key = _infer_key(builder, node)
    if key is None:
        found = _infer_body(builder, function, node)
    else:
        cache = _inferred.setdefault(owner, {})
        if key not in cache:
            cache[key] = _infer_body(builder, function, node)
        found = cache[key]
    for out, (type_, shape) in zip(node.outputs, found):
        if out.type is None and type_ is not None:
            out.type = type_
        if out.shape is None and shape is not None:
            out.shape = ir.Shape(list(shape))


def _infer_key(builder: Recorder, node: ir.Node) -> _InferKey | None:
    """What the inference of a call depends on, hashable; None when an input is a
    constant (its value may decide shapes)."""
    parts: list[object] = [builder.op.version]
    for value in node.inputs:
        if value is None:
            parts.append(None)
            continue
        if value_facts.constant_tensor(value) is not None:
            return None
        dims = None if value.shape is None else tuple(_dim(d) for d in value.shape)
        parts.append((value.type, dims))
    for name, attr in sorted(node.attributes.items()):
        parts.append((name, repr(attr.value)))
    return tuple(parts)


def _dim(dim: object) -> object:
    return dim if isinstance(dim, int) else ("sym", getattr(dim, "value", None))


def _infer_body(builder: Recorder, function: ir.Function, node: ir.Node) -> list[_Facts]:
    from onnxscript.passes.call_expansion import expand_call

    stand_ins = [
        None
        if v is None
        else ir.Value(name=v.name, type=v.type, shape=v.shape, const_value=v.const_value)
        for v in node.inputs
    ]
    body, outs = expand_call(function, stand_ins, dict(node.attributes), prefix="")
    version = function.opset_imports.get("", builder.op.version)
    try:
        for inner in body:
            infer_node(inner, version)
    except InferenceError as error:
        builder.graph.remove(node, safe=False)
        raise op_error(
            node.op_type, node.domain, f"in its body: {error}", list(node.inputs)
        ) from None
    return [(None, None) if out is None else (out.type, out.shape) for out in outs]


def _output_dtypes(function: Any, ir_function: ir.Function) -> list[ir.DataType | None]:
    """Element types of the function's outputs: a script function's declared ones."""
    if not isinstance(function, FunctionRef):
        return [v.dtype for v in ir_function.outputs]
    found: list[ir.DataType | None] = []
    for value in function.function_ir.graph.outputs:
        dtype = value.dtype
        if dtype is None and value.declared_type is not None:
            dtype = getattr(value.declared_type, "dtype", None)
        found.append(ir.DataType(dtype) if dtype else None)
    return found


def _is_traced(function: Any) -> bool:
    return bool(getattr(function, "traceable", False)) or (
        callable(function) and not isinstance(function, (FunctionRef, ir.Function))
    )


def _run_body(
    builder: Recorder,
    function: Any,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    prefix: str,
) -> Any:
    body = getattr(function, "function", function)
    with builder:
        if not prefix:
            return body(*args, **kwargs)
        with builder.module(prefix):
            return body(*args, **kwargs)


def _resolve(
    builder: Recorder, function: Any, register: bool = True
) -> tuple[ir.Function, binding.Signature]:
    """The function as ``ir.Function`` and its calling convention; with ``register``, it
    and the functions it calls are added to the builder's functions."""
    if isinstance(function, ir.Function):
        if register:
            _register(builder, function, 1)
        return function, binding.free_form(function.name)
    if not isinstance(function, FunctionRef):
        raise TypeError(
            f"expected a script function (@script()), a traced function or an "
            f"ir.Function, got {type(function).__name__}"
        )
    from onnxscript.program.lowering import lower_function, lowered_function

    key = (function.domain, function.name, "")
    ir_function = builder.functions.get(key)
    if ir_function is None:
        # An inlined function is only read: the compiled function's IR, lowered once. A
        # registered one is the builder's own (models and passes change their functions):
        # lowered anew, which is cheaper than cloning.
        program = function.function_ir
        ir_function = lower_function(program) if register else lowered_function(program)
    for callee in function.function_ir.transitive_callees():
        callee_key = (callee.domain, callee.name, "")
        if callee_key not in builder.functions:
            version = function.function_ir.opset_imports.get(callee.domain, 1)
            _register(builder, lower_function(callee), version)
    if register:
        _register(builder, ir_function, function.version)
    return ir_function, function.call_signature


def _register(builder: Recorder, function: ir.Function, version: int) -> None:
    builder.functions[(function.domain, function.name, function.overload)] = function
    builder.use_opset(function.domain, version)


__all__ = ["call_function", "inline_function"]
