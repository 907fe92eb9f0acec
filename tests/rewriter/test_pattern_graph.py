"""The pattern IR and the pattern builder: what pattern functions build."""

from __future__ import annotations

import pytest

from onnxscript.rewriter import pattern
from onnxscript.rewriter.pattern_builder import trace_pattern
from onnxscript.rewriter.pattern_graph import (
    AttrConstantPattern,
    AttrPattern,
    NodeOutputPattern,
    to_attr_pattern,
    to_value_pattern,
)


def test_pattern_function_traces_nodes_inputs_and_outputs():
    def pat(op, x, y):
        return op.Add(op.MatMul(x, y), 1.0)

    graph = trace_pattern(pat)
    assert [v.name for v in graph.inputs] == ["x", "y"]
    assert [n.op.exact() for n in graph.nodes] == ["MatMul", "Add"]
    assert graph.root.op.exact() == "Add"
    add_inputs = graph.root.inputs
    assert isinstance(add_inputs[0], NodeOutputPattern)
    assert isinstance(add_inputs[1], pattern.Constant) and add_inputs[1].value == 1.0


def test_python_operators_build_onnx_ops():
    graph = trace_pattern(lambda op, x: (x * 2.0 + x) / x - x)
    assert [n.op.exact() for n in graph.nodes] == ["Mul", "Add", "Div", "Sub"]


def test_underscore_options_reach_the_node_pattern():
    def pat(op, x):
        return op.Conv(x, _domain="custom", _allow_other_inputs=True, _allow_other_attributes=False)

    node = trace_pattern(pat).root
    assert node.domain.exact() == "custom"
    assert node.allow_other_inputs and not node.allow_other_attributes


def test_outputs_option_gives_one_value_per_output_named_or_not():
    graph = trace_pattern(lambda op, x: op.Split(x, _outputs=["a", None]))
    assert [o.name for o in graph.outputs] == ["a", None]
    assert len(trace_pattern(lambda op, x: op.TopK(x, 3, _outputs=2)).outputs) == 2


def test_argument_kinds():
    assert to_value_pattern(None) is None
    assert isinstance(to_value_pattern(2), pattern.Constant)
    assert to_value_pattern([1, 2]).value == [1, 2]  # type: ignore[union-attr]
    assert to_value_pattern("v").name == "v"  # type: ignore[union-attr]
    checked = to_value_pattern(lambda ctx, v: True)
    assert checked is not None and checked.check_method is not None
    with pytest.raises(TypeError, match="bool"):
        to_value_pattern(True)
    with pytest.raises(TypeError, match="cannot use"):
        to_value_pattern(object())


def test_attribute_kinds():
    assert isinstance(to_attr_pattern(3), AttrConstantPattern)
    bound = to_attr_pattern(pattern.ValuePattern("perm"))
    assert type(bound) is AttrPattern and bound.name == "perm"
    assert to_attr_pattern(pattern.AttrVar("p", can_match_none=True)).can_match_none
    assert to_attr_pattern(pattern.Constant(2.0)).value == 2.0  # type: ignore[attr-defined]


def test_or_value_checks_its_tags():
    with pytest.raises(ValueError, match="at least one"):
        pattern.OrValue([])
    with pytest.raises(ValueError, match="one entry per"):
        pattern.OrValue(["a", "b"], tag_var="t", tag_values=[1])
    assert pattern.OrValue(["a", "b"], tag_var="t").tag(1) == 1


def test_pattern_must_return_op_results():
    with pytest.raises(TypeError, match="must return values computed by op calls"):
        trace_pattern(lambda op, x: x)
    with pytest.raises(TypeError, match="must take the op builder first"):
        trace_pattern(lambda: None)


def test_single_root_means_every_node_leads_to_the_first_output():
    assert trace_pattern(lambda op, x: op.Relu(op.Neg(x))).has_single_root
    two = trace_pattern(lambda op, x, a, b: (op.MatMul(x, a), op.MatMul(x, b)))
    assert not two.has_single_root
