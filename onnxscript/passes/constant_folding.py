"""Constant folding: nodes whose inputs are all constants are computed once, their outputs
become initializers (Constant nodes inside functions and for graph outputs; in the forms
the model's IR version and opset allow, :mod:`onnxscript.ir_utils.initializers`: a result
no allowed form can hold is not folded), and the node is removed. A CastLike
whose second input's element type is known becomes a Cast to that type first (so a
constant cast this way folds to a constant of the target type).

Before a node is computed, its partial evaluators (:mod:`onnxscript.passes.partial_evaluation`,
extensible with ``registry.register``) may replace it knowing only part of its inputs: a
Cast to its input's own type becomes an Identity, the known part of a shape a constant,
an If with a constant condition its branch, ..."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import onnx_ir as ir

from onnxscript.inference import InferenceError
from onnxscript.inference.evaluate import evaluate_node
from onnxscript.inference.infer import infer_node
from onnxscript.ir_utils.graphs import subgraphs
from onnxscript.ir_utils.initializers import (
    add_initializer,
    constant_form,
    constant_node,
    made_constant,
)
from onnxscript.ir_utils.metadata import carry_metadata, record_folded_from
from onnxscript.ir_utils.names import free_node_names
from onnxscript.ir_utils.node_recorder import NodeRecorder
from onnxscript.ir_utils.value_facts import basic_constant_propagation
from onnxscript.passes.partial_evaluation import OptimizerState, Replacement, registry

DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT = 8192
"""Inputs larger than this (elements) are not folded, unless ``should_fold`` says so."""

DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT = 262144
"""Results larger than this (elements) are not kept, unless ``should_fold`` says so."""

ShouldFold = Callable[[ir.Node], "bool | None"]
"""Per node: True folds it whatever its size, False never folds it, None leaves it to the
size limits."""


def _default_should_fold(node: ir.Node) -> bool | None:
    return None


@dataclass
class _Limits:
    input_size: int
    output_size: int
    should_fold: ShouldFold
    infer: bool
    opsets: dict[str, int]
    state: OptimizerState
    ir_version: int = 10


class FoldConstantsPass(ir.passes.InPlacePass):
    """Fold every node of the model's graphs (subgraphs included) whose inputs are
    constants and that onnx defines deterministically, within the size limits."""

    def __init__(
        self,
        *,
        shape_inference: bool = True,
        input_size_limit: int = DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT,
        output_size_limit: int = DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT,
        should_fold: ShouldFold = _default_should_fold,
    ) -> None:
        """``shape_inference``: give values without a shape one, node by node, as folding
        goes (so that Shape computations fold)."""
        super().__init__()
        self.limits = _Limits(
            input_size_limit, output_size_limit, should_fold, shape_inference, {}, OptimizerState()
        )

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        self.limits.opsets = dict(model.opset_imports)
        self.limits.state = OptimizerState()
        self.limits.ir_version = model.ir_version
        version = model.opset_imports.get("", 1)
        modified = _fold_graph(model.graph, model.graph, version, self.limits)
        for function in model.functions.values():
            fversion = function.opset_imports.get("", version)
            modified |= _fold_graph(function, None, fversion, self.limits)
        return ir.passes.PassResult(model, modified)


def _fold_graph(
    graph: ir.Graph | ir.Function, main: ir.Graph | None, version: int, limits: _Limits
) -> bool:
    """Fold what can be folded in ``graph`` (constants go to ``main``'s initializers, or
    become Constant nodes when there is no main graph: in functions)."""
    modified = False
    for node in list(graph):
        for sub in subgraphs(node):
            modified |= _fold_graph(sub, main, version, limits)
        if node.op_type == "Constant":
            basic_constant_propagation([node])
            continue
        if limits.infer:
            _infer(node, version)
        cast = _cast_like_as_cast(graph, node)
        if cast is not None:
            node = cast
            modified = True
        if limits.should_fold(node) is not False and _partially_evaluate(
            graph, main, node, version, limits
        ):
            modified = True
            continue
        results = _evaluate(node, version, limits)
        if results is not None and _placeable(node, results, main, version, limits):
            _replace(graph, main, node, results, version, limits.ir_version)
            modified = True
    return modified


def _form(
    value: ir.Value, dtype: ir.DataType, main: ir.Graph | None, version: int, limits: _Limits
) -> str | None:
    """The form a constant replacing ``value`` takes (see ``ir_utils.initializers``)."""
    initializer = main is not None and not value.is_graph_output()
    return constant_form(limits.ir_version, version, dtype, initializer=initializer)


def _placeable(
    node: ir.Node,
    results: list[ir.TensorProtocol],
    main: ir.Graph | None,
    version: int,
    limits: _Limits,
) -> bool:
    """Whether every result of ``node`` has a form the model allows."""
    return all(
        _form(old, tensor.dtype, main, version, limits) is not None
        for old, tensor in zip(node.outputs, results)
    )


def _partially_evaluate(
    graph: ir.Graph | ir.Function,
    main: ir.Graph | None,
    node: ir.Node,
    version: int,
    limits: _Limits,
) -> bool:
    """Replace ``node`` by what its first partial evaluator giving a replacement gives;
    whether it did."""
    domain = "" if node.domain == "ai.onnx" else node.domain
    op_version = version if domain == "" else limits.opsets.get(domain, 1)
    for evaluate in registry.lookup_evaluators(domain, node.op_type, op_version):
        recorder = NodeRecorder()
        found = evaluate(node, recorder, limits.state)
        if found is None:
            continue
        if isinstance(found, Replacement):
            outputs, nodes = list(found.new_outputs), list(found.new_nodes)
        else:
            outputs = [found] if isinstance(found, ir.Value) else list(found)
            nodes = list(recorder.nodes)
        if not _constants_placeable(node, outputs, nodes, main, version, limits):
            continue
        if _substitute(graph, node, outputs, nodes):
            if main is not None:
                _lift_constants(graph, main, nodes, version, limits)
            return True
    return False


def _constants_placeable(
    node: ir.Node,
    outputs: list[ir.Value],
    nodes: list[ir.Node],
    main: ir.Graph | None,
    version: int,
    limits: _Limits,
) -> bool:
    """Whether every Constant among ``nodes`` (made by a partial evaluator) has a form the
    model allows where it goes: a graph output when it replaces one."""
    becomes_output = {id(new) for old, new in zip(node.outputs, outputs) if old.is_graph_output()}
    for made in nodes:
        tensor = made_constant(made)
        if tensor is None:
            continue
        value = made.outputs[0]
        initializer = main is not None and id(value) not in becomes_output
        if constant_form(limits.ir_version, version, tensor.dtype, initializer=initializer) is None:
            return False
    return True


def _lift_constants(
    graph: ir.Graph | ir.Function,
    main: ir.Graph,
    nodes: list[ir.Node],
    version: int,
    limits: _Limits,
) -> None:
    """The Constant nodes among ``nodes`` as initializers of ``main`` (as folded results
    are), except those making a graph output and those the model keeps as nodes."""
    for constant in nodes:
        if constant.op_type != "Constant" or constant.graph is not graph:
            continue
        value = constant.outputs[0]
        tensor = value.const_value
        if tensor is None or _form(value, tensor.dtype, main, version, limits) != "initializer":
            continue
        name = value.name
        value.name = None
        lifted = add_initializer(main, name or "folded", tensor, ir_version=limits.ir_version)
        carry_metadata(lifted, value)
        value.replace_all_uses_with(lifted)
        graph.remove(constant, safe=True)


def _substitute(
    graph: ir.Graph | ir.Function, node: ir.Node, outputs: list[ir.Value], nodes: list[ir.Node]
) -> bool:
    """Put ``nodes`` before ``node`` and ``outputs`` in place of its outputs (graph outputs
    keep their names); False, changing nothing, when an output left without a replacement
    is used."""
    rest = node.outputs[len(outputs) :]
    if len(outputs) > len(node.outputs) or any(v.uses() or v.is_graph_output() for v in rest):
        return False
    for made_node in nodes:
        carry_metadata(made_node, node)
    free_node_names(graph, nodes)  # a branch's nodes come named by the branch's count
    graph.insert_before(node, nodes)
    basic_constant_propagation(nodes)
    made = {id(v) for n in nodes for v in n.outputs}
    for old, new in zip(node.outputs, outputs):
        if old.is_graph_output() and id(new) not in made:
            carry = ir.Node("", "Identity", [new])
            carry_metadata(carry, node)
            graph.insert_before(node, carry)
            new = carry.outputs[0]
        if new.type is None:
            new.type = old.type
        if new.shape is None:
            new.shape = old.shape
        name, was_output = old.name, old.is_graph_output()
        old.replace_all_uses_with(new, replace_graph_outputs=True)
        if was_output or (id(new) in made and not new.name):
            old.name = None
            new.name = name
    graph.remove(node, safe=True)
    return True


def _cast_like_as_cast(graph: ir.Graph | ir.Function, node: ir.Node) -> ir.Node | None:
    """The Cast that replaced ``node`` when it is a CastLike whose second input has a known
    element type (metadata carried, its output keeping the name), else None."""
    if node.op_type != "CastLike" or node.domain not in ("", "ai.onnx"):
        return None
    if len(node.inputs) != 2 or node.inputs[0] is None or node.inputs[1] is None:
        return None
    target = node.inputs[1].dtype
    if target is None or target == ir.DataType.UNDEFINED:
        return None
    attributes = [ir.AttrInt64("to", target.value)]
    saturate = node.attributes.get("saturate")
    if saturate is not None and not saturate.is_ref():
        attributes.append(ir.AttrInt64("saturate", saturate.as_int()))
    cast = ir.Node(node.domain, "Cast", [node.inputs[0]], attributes)
    carry_metadata(cast, node)
    graph.insert_before(node, cast)
    old, new = node.outputs[0], cast.outputs[0]
    name, old.name = old.name, None
    new.type = ir.TensorType(target)
    new.shape = old.shape if old.shape is not None else node.inputs[0].shape
    carry_metadata(new, old)
    old.replace_all_uses_with(new, replace_graph_outputs=True)
    new.name = name
    node_name = node.name
    graph.remove(node, safe=True)
    cast.name = node_name
    return cast


def _infer(node: ir.Node, version: int) -> None:
    if all(o.type is not None and o.shape is not None for o in node.outputs):
        return
    # The optimizer leaves an inconsistent node as it is; the checker reports it.
    with contextlib.suppress(InferenceError):
        infer_node(node, version)


def _evaluate(node: ir.Node, version: int, limits: _Limits) -> list[ir.TensorProtocol] | None:
    decision = limits.should_fold(node)
    if decision is False:
        return None
    big = 2**62 if decision else None
    return evaluate_node(
        node,
        version,
        input_size_limit=big or limits.input_size,
        output_size_limit=big or limits.output_size,
    )


def _replace(
    graph: ir.Graph | ir.Function,
    main: ir.Graph | None,
    node: ir.Node,
    results: list[ir.TensorProtocol],
    version: int,
    ir_version: int,
) -> None:
    """``node``'s outputs replaced by ``results``, each in the form the model allows
    (:func:`_placeable` said there is one)."""
    for old, tensor in zip(node.outputs, results):
        initializer = main is not None and not old.is_graph_output()
        form = constant_form(ir_version, version, tensor.dtype, initializer=initializer)
        name = old.name
        old.name = None
        if form == "node" or main is None:
            constant = constant_node(tensor, name)
            constant.name = name
            carry_metadata(constant, node)
            free_node_names(graph, [constant])  # another node may have its value's name
            graph.insert_before(node, constant)
            new = constant.outputs[0]
        else:
            new = add_initializer(main, name or "folded", tensor, ir_version=ir_version)
        record_folded_from(new, node.inputs)
        if old.is_graph_output():
            carry_metadata(new, old)
        old.replace_all_uses_with(new, replace_graph_outputs=True)
    graph.remove(node, safe=True)


def fold_constants_ir(
    model: ir.Model,
    *,
    onnx_shape_inference: bool = True,
    input_size_limit: int = DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT,
    output_size_limit: int = DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT,
    should_fold: ShouldFold = _default_should_fold,
) -> ir.passes.PassResult:
    """Fold constants of ``model`` in place. Values without a known shape get one from
    ``onnxscript.inference`` node by node as folding goes (onnx's inference for ops
    without a rule there), which lets Shape computations fold; ``onnx_shape_inference=
    False`` skips that."""
    folding = FoldConstantsPass(
        input_size_limit=input_size_limit,
        output_size_limit=output_size_limit,
        should_fold=should_fold,
        shape_inference=onnx_shape_inference,
    )
    return folding(model)


__all__ = [
    "DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT",
    "DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT",
    "FoldConstantsPass",
    "ShouldFold",
    "basic_constant_propagation",
    "fold_constants_ir",
]
