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
