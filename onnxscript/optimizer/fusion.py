"""Fusions that leave fewer nodes: a BatchNormalization (inference form) that follows a
Conv whose weights are constants is folded into the Conv's weights and bias; two
Transposes in a row become one (none when they cancel), and so do two Unsqueezes."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.initializers import add_initializer
from onnxscript.ir_utils.metadata import carry_metadata, record_folded_from


def _is_constant(value: ir.Value | None) -> bool:
    """Whether ``value`` is a constant (tested without reading it)."""
    return value is not None and value.const_value is not None and not value.is_graph_input()


def _constant(value: ir.Value | None) -> np.ndarray | None:
    if value is None or value.const_value is None or value.is_graph_input():
        return None
    return value.const_value.numpy()


def _fusible(bn: ir.Node) -> ir.Node | None:
    """The Conv feeding ``bn`` when the pair can be fused, else None."""
    if bn.op_type != "BatchNormalization" or bn.domain or len(bn.outputs) != 1:
        return None
    training = bn.attributes.get("training_mode")
    if training is not None and training.value:
        return None
    source = bn.inputs[0]
    conv = source.producer() if source is not None else None
    if source is None or conv is None or conv.op_type != "Conv" or conv.domain:
        return None
    if conv.graph is not bn.graph or len(source.uses()) != 1 or source.is_graph_output():
        return None
    if len(conv.inputs) < 2:
        return None
    if not all(_is_constant(v) for v in (*bn.inputs[1:5], conv.inputs[1])):
        return None
    if len(conv.inputs) > 2 and conv.inputs[2] is not None and not _is_constant(conv.inputs[2]):
        return None
    return conv


def _fuse(graph: ir.Graph, main: ir.Graph, conv: ir.Node, bn: ir.Node) -> None:
    scale, bias, mean, var = (v.const_value.numpy() for v in bn.inputs[1:5])  # type: ignore[union-attr]
    weight = conv.inputs[1].const_value.numpy()  # type: ignore[union-attr]
    old_bias = _constant(conv.inputs[2]) if len(conv.inputs) > 2 else None
    epsilon = bn.attributes["epsilon"].value if "epsilon" in bn.attributes else 1e-5
    factor = scale / np.sqrt(var + epsilon)
    new_weight = (weight * factor.reshape(-1, *([1] * (weight.ndim - 1)))).astype(
        weight.dtype, copy=False
    )
    base = old_bias if old_bias is not None else np.zeros_like(mean)
    new_bias = ((base - mean) * factor + bias).astype(weight.dtype, copy=False)
    values = [
        add_initializer(main, f"{conv.name or 'conv'}_fused_{suffix}", ir.tensor(array))
        for suffix, array in (("weight", new_weight), ("bias", new_bias))
    ]
    for value in values:
        record_folded_from(value, [*conv.inputs[1:], *bn.inputs[1:5]])
    fused = ir.Node(
        "", "Conv", [conv.inputs[0], *values], list(conv.attributes.values()), name=conv.name
    )
    carry_metadata(fused, bn, conv)
    graph.insert_before(conv, fused)
    out = fused.outputs[0]
    out.type, out.shape = bn.outputs[0].type, bn.outputs[0].shape
    name = bn.outputs[0].name
    if bn.outputs[0].is_graph_output():
        carry_metadata(out, bn.outputs[0])
    bn.outputs[0].replace_all_uses_with(out, replace_graph_outputs=True)
    graph.remove([bn, conv], safe=True)
    out.name = name


def _fuse_graph(graph: ir.Graph, main: ir.Graph) -> bool:
    modified = False
    for node in list(graph):
        for attr in node.attributes.values():
            if attr.type == ir.AttributeType.GRAPH and not attr.is_ref():
                modified |= _fuse_graph(attr.as_graph(), main)
        conv = _fusible(node)
        if conv is not None:
            _fuse(graph, main, conv, node)
            modified = True
        elif node.op_type == "Transpose":
            modified |= _merge_transposes(graph, node)
        elif node.op_type == "Unsqueeze":
            modified |= _merge_unsqueezes(graph, node)
    return modified


def _merge_unsqueezes(graph: ir.Graph, node: ir.Node) -> bool:
    """``Unsqueeze(Unsqueeze(x, a1), a2)`` -> ``Unsqueeze(x, a)`` (a: the new dims' places
    in the final result), when the inner one has no other use and both axes are
    constants (the input form, opset 13 on)."""
    source = node.inputs[0]
    inner = source.producer() if source is not None else None
    if node.domain or source is None or inner is None or len(node.inputs) != 2:
        return False
    if inner.op_type != "Unsqueeze" or inner.domain or inner.graph is not graph:
        return False
    if len(inner.inputs) != 2 or len(source.uses()) != 1 or source.is_graph_output():
        return False
    x = inner.inputs[0]
    outer_axes, inner_axes = _constant(node.inputs[1]), _constant(inner.inputs[1])
    if x is None or x.shape is None or outer_axes is None or inner_axes is None:
        return False
    middle = len(x.shape) + inner_axes.size
    final = middle + outer_axes.size
    placed = sorted(int(a) % final for a in outer_axes.ravel())
    kept = [i for i in range(final) if i not in placed]  # where the middle's dims land
    axes = sorted([*placed, *(kept[int(a) % middle] for a in inner_axes.ravel())])
    constant = ir.Node(
        "", "Constant", [], [ir.AttrTensor("value", ir.tensor(np.array(axes, np.int64)))]
    )
    carry_metadata(constant, node, inner)
    record_folded_from(constant.outputs[0], [inner.inputs[1], node.inputs[1]])
    carry_metadata(node, inner)
    graph.insert_before(node, constant)
    node.replace_input_with(0, x)
    node.replace_input_with(1, constant.outputs[0])
    graph.remove(inner, safe=True)
    return True


def _merge_transposes(graph: ir.Graph, node: ir.Node) -> bool:
    """``Transpose(Transpose(x, p1), p2)`` -> ``Transpose(x, p1[p2])``, when the inner one
    has no other use and both perms are given."""
    source = node.inputs[0]
    inner = source.producer() if source is not None else None
    if node.op_type != "Transpose" or node.domain or source is None or inner is None:
        return False
    if inner.op_type != "Transpose" or inner.domain or inner.graph is not graph:
        return False
    if len(source.uses()) != 1 or source.is_graph_output():
        return False
    outer_perm, inner_perm = node.attributes.get("perm"), inner.attributes.get("perm")
    if outer_perm is None or inner_perm is None:
        return False
    perm = [inner_perm.value[i] for i in outer_perm.value]
    carry_metadata(node, inner)
    node.replace_input_with(0, inner.inputs[0])
    node.attributes["perm"] = ir.AttrInt64s("perm", perm)
    graph.remove(inner, safe=True)
    if perm == sorted(perm) and not node.outputs[0].is_graph_output():
        node.outputs[0].replace_all_uses_with(node.inputs[0])  # type: ignore[arg-type]
        graph.remove(node, safe=True)
    return True


class FusionPass(ir.passes.InPlacePass):
    """Fold inference-mode BatchNormalization into the Conv before it; merge Transposes."""

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        return ir.passes.PassResult(model, _fuse_graph(model.graph, model.graph))


__all__ = ["FusionPass"]
