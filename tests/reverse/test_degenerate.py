"""Protos no script can express are refused with a TranslationError naming the problem,
instead of a translation that does not compile."""

from __future__ import annotations

import onnx
import onnx.helper as oh
import pytest

from onnxscript.reverse import TranslationError, proto2python
from tests.reverse.common import FLOAT, vi


def _model(nodes, functions=(), version=18, local=False):
    imports = [oh.make_opsetid("", version)] + ([oh.make_opsetid("local", 1)] if local else [])
    graph = oh.make_graph(nodes, "g", [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])])
    return oh.make_model(graph, opset_imports=imports, functions=list(functions))


def _local(name, calls):
    imports = [oh.make_opsetid("", 18), oh.make_opsetid("local", 1)]
    node = oh.make_node(calls, ["a"], ["b"], domain="local")
    return oh.make_function("local", name, ["a"], ["b"], [node], imports)


def _twice_alpha():
    node = oh.make_node("LeakyRelu", ["x"], ["y"], alpha=0.1)
    node.attribute.append(oh.make_attribute("alpha", 0.2))
    return _model([node])


def _graph_attribute_on_relu():
    branch = oh.make_graph([], "b", [], [vi("x", FLOAT, [2])])
    return _model([oh.make_node("Relu", ["x"], ["y"], body=branch)])


def _function_attribute_on_relu():
    """A function passes its attribute parameter to Relu, which has no attribute."""
    node = oh.make_node("Relu", ["a"], ["b"])
    node.attribute.append(oh.make_attribute_ref("alpha", onnx.AttributeProto.FLOAT))
    imports = [oh.make_opsetid("", 18)]
    fn = oh.make_function("local", "f", ["a"], ["b"], [node], imports, ["alpha"])
    call = oh.make_node("f", ["x"], ["y"], domain="local", alpha=0.5)
    return _model([call], [fn], local=True)


CASES = {
    "no graph": (lambda: onnx.ModelProto(ir_version=8), "has no graph"),
    "opset version 0": (
        lambda: _model([oh.make_node("Relu", ["x"], ["y"])], version=0),
        "version 0",
    ),
    "an omitted required input": (
        lambda: _model([oh.make_node("Relu", ["x"], ["t"]), oh.make_node("Add", ["t", ""], ["y"])]),
        "Add omits a required input",
    ),
    "an attribute given twice": (_twice_alpha, "attribute 'alpha' twice"),
    # Nothing the model says may be dropped: an attribute its op does not have is refused.
    "an attribute of an op without attributes": (
        lambda: _model([oh.make_node("Relu", ["x"], ["y"], x=1)]),
        "^Relu has no attribute 'x'$",
    ),
    "an attribute the op does not declare": (
        lambda: _model([oh.make_node("LeakyRelu", ["x"], ["y"], alpha=0.1, beta=2.0)]),
        "^LeakyRelu has no attribute 'beta'$",
    ),
    "a graph attribute of an op without attributes": (
        _graph_attribute_on_relu,
        "^Relu has no attribute 'body'$",
    ),
    "a function's attribute passed to an op without attributes": (
        _function_attribute_on_relu,
        "^Relu has no attribute 'alpha'$",
    ),
    "an attribute the op had in an older version": (
        lambda: _model([oh.make_node("Clip", ["x"], ["y"], min=0.0)], version=18),
        "^Clip has no attribute 'min'$",
    ),
    "local functions in a cycle": (
        lambda: _model(
            [oh.make_node("f1", ["x"], ["y"], domain="local")],
            [_local("f1", "f2"), _local("f2", "f1")],
            local=True,
        ),
        "a cycle",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_degenerate_proto_is_a_translation_error(name):
    make, expected = CASES[name]
    with pytest.raises(TranslationError, match=expected):
        proto2python(make())


def test_omitted_optional_inputs_still_translate():
    clip = oh.make_node("Clip", ["x", "", "hi"], ["y"])
    hi = oh.make_node("Constant", [], ["hi"], value=oh.make_tensor("v", FLOAT, [], [1.0]))
    assert "op.Clip(" in proto2python(_model([hi, clip]))


def test_declared_attributes_of_standard_ops_still_translate():
    node = oh.make_node("LeakyRelu", ["x"], ["y"], alpha=0.25)
    assert "op.LeakyRelu(x, alpha=0.25)" in proto2python(_model([node]))


def test_any_attribute_of_another_domain_is_kept():
    node = oh.make_node("Op", ["x"], ["y"], domain="local", anything=3)
    assert "local.Op(x, anything=3)" in proto2python(_model([node], local=True))
