"""Round-trip fidelity: what a model says beyond its computation comes back too.

Initializers (names, order, values, input defaults, unread ones), a ``while`` condition
without an added ``Reshape``, function and attribute names that clash with the module's own
names, type denotations, external-data entries, and names that NFKC normalization changes.
Each model is built with onnx.helper, translated, executed, compiled back with
``make_model()`` and compared (strictly where the script can say everything).
"""

from __future__ import annotations

import ast
import warnings

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as nh
import onnx.reference
import pytest

from onnxscript import cli
from onnxscript.errors import ModelCheckWarning, TranslationError
from onnxscript.reverse import exec_script, proto2python
from onnxscript.testing import run_model
from onnxscript.testing.isomorphism import differences
from tests.reverse.common import (
    BOOL,
    FLOAT,
    assert_roundtrip,
    calling_model,
    compiled,
    make_model,
    vi,
)


def _exact_roundtrip(
    model: onnx.ModelProto, strict: bool = True, **options: object
) -> tuple[str, onnx.ModelProto]:
    """Translate, compile back, require a model onnx.checker accepts and the canonical round
    trip (structure, fixpoint, same results); ``strict``: also strictly equal up to value
    names (not for nested graphs, whose value types scripts do not declare)."""
    source, back = assert_roundtrip(model, **options)
    assert isinstance(back, onnx.ModelProto)
    onnx.checker.check_model(back, full_check=True)
    if strict:
        assert differences(model, back) == [], source
    return source, back


def _tensor(name: str, shape: list[int], start: float = 0.0) -> onnx.TensorProto:
    size = int(np.prod(shape))
    return nh.from_array(np.arange(start, start + size, dtype=np.float32).reshape(shape), name)


def _weights_model() -> onnx.ModelProto:
    """``y = (x @ fc.weight + b) * scale`` (``scale`` read in an If branch), with ``b`` an
    input whose default is an initializer and an initializer nothing reads."""
    then_g = oh.make_graph(
        [oh.make_node("Mul", ["h", "scale"], ["t"])], "then", [], [vi("t", FLOAT, [2, 5])]
    )
    else_g = oh.make_graph(
        [oh.make_node("Neg", ["h"], ["e"])], "else", [], [vi("e", FLOAT, [2, 5])]
    )
    nodes = [
        oh.make_node("MatMul", ["x", "fc.weight"], ["m"]),
        oh.make_node("Add", ["m", "b"], ["h"]),
        oh.make_node("ReduceSum", ["h"], ["s"], keepdims=0),
        oh.make_node("Greater", ["s", "zero"], ["c"]),
        oh.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g),
    ]
    initializers = [
        _tensor("fc.weight", [4, 5]),  # above the inline limit: a module constant
        _tensor("b", [5], 1.0),
        _tensor("unused", [3]),
        _tensor("scale", [5], 2.0),
        nh.from_array(np.array(0.0, np.float32), "zero"),
    ]
    return make_model(
        nodes, [vi("x", FLOAT, [2, 4]), vi("b", FLOAT, [5])], [vi("y", FLOAT, [2, 5])], initializers
    )


def test_initializers_keep_their_names_order_and_values():
    model = _weights_model()
    source, back = _exact_roundtrip(model, strict=False)
    assert "fc_weight = op.Constant(value=FC_WEIGHT)" in source
    assert "unused = " not in source  # nothing reads it: make_model gives its value
    assert [t.name for t in back.graph.initializer] == [t.name for t in model.graph.initializer]
    for before, after in zip(model.graph.initializer, back.graph.initializer):
        np.testing.assert_array_equal(nh.to_array(after), nh.to_array(before))
    assert not [n for n in back.graph.node if n.op_type == "Constant"]
    # The input's default value is used when the input is not fed.
    x = np.ones((2, 4), np.float32)
    (y,) = onnx.reference.ReferenceEvaluator(back).run(None, {"x": x})
    expected = (x @ nh.to_array(model.graph.initializer[0]) + np.arange(1, 6)) * np.arange(2, 7)
    np.testing.assert_allclose(y, expected)


def test_the_comparison_tells_initializers_from_constants():
    """Compiled without ``initializers=``, the weights are Constant nodes: a difference."""
    model = _weights_model()
    namespace = exec_script(proto2python(model))
    plain = namespace["main"].to_model_proto(ir_version=8, opset_imports={"": 18})
    found = differences(model, plain, canonical=True)
    assert any("computed by an initializer vs ai.onnx.Constant" in d for d in found), found
    assert any("default FLOAT[5] [1.0, 2.0, 3.0, 4.0, 5.0] vs no default" in d for d in found)


def test_initializer_that_is_a_graph_output_and_a_sparse_initializer():
    values = nh.from_array(np.array([1.0, 2.0], np.float32), "sp")
    sparse = oh.make_sparse_tensor(values, nh.from_array(np.array([1, 4], np.int64)), [6])
    graph = oh.make_graph(
        [oh.make_node("Relu", ["x"], ["y"])],
        "main",
        [vi("x", FLOAT, [6])],
        [vi("y", FLOAT, [6]), vi("w", FLOAT, [2])],
        initializer=[nh.from_array(np.array([3.0, 4.0], np.float32), "w")],
        sparse_initializer=[sparse],
    )
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)], ir_version=8)
    source = proto2python(model)
    back = compiled(source)
    assert [o.name for o in back.graph.output] == ["y", "w"]
    assert [t.name for t in back.graph.initializer] == ["w"]
    assert [t.values.name for t in back.graph.sparse_initializer] == ["sp"]
    assert differences(model, back) == []
    assert proto2python(back) == source


def test_large_and_dotted_initializers_pass_the_cli_check(tmp_path, capsys):
    """Above the large limit the script reads the tensor back from the model file, by the
    initializer's own name: translating the compiled model again gives the same text."""
    nodes = [
        oh.make_node("MatMul", ["x", "fc.weight"], ["m"]),
        oh.make_node("Add", ["m", "fc.bias"], ["y"]),
    ]
    model = make_model(
        nodes,
        [vi("x", FLOAT, [2, 40])],
        [vi("y", FLOAT, [2, 30])],
        [_tensor("fc.weight", [40, 30]), _tensor("fc.bias", [30])],
    )
    path = str(tmp_path / "dense.onnx")
    onnx.save(model, path)
    assert cli.main([path, "--check"]) == 0
    out, err = capsys.readouterr()
    assert f'model_tensor("{path}", "fc.weight")' in out
    assert '"fc.weight": "fc_weight",' in out and '"fc.bias": "FC_BIAS"' not in out
    assert "structurally equal up to renaming: yes" in err
    assert "gives the same text: yes" in err
    assert "results on random inputs: same" in err


def test_large_constant_with_a_dotted_name_passes_the_cli_check(tmp_path, capsys):
    """A Constant node read back from the file keeps its name in the compiled model."""
    value = nh.from_array(np.ones(2000, np.float32))
    model = make_model(
        [
            oh.make_node("Constant", [], ["w.1"], value=value),
            oh.make_node("Add", ["x", "w.1"], ["y"]),
        ],
        [vi("x", FLOAT, [2000])],
        [vi("y", FLOAT, [2000])],
    )
    path = str(tmp_path / "constant.onnx")
    onnx.save(model, path)
    assert cli.main([path, "--check"]) == 0
    out, err = capsys.readouterr()
    assert 'rename_values(model, {"w_1": "w.1"})' in out
    assert "gives the same text: yes" in err


def test_skip_initializers_still_makes_them_inputs():
    source = proto2python(_weights_model(), skip_initializers=True)
    assert "initializers=" not in source
    assert "def main(x: FLOAT[2, 4], b: FLOAT[5], fc_weight: FLOAT[4, 5]," in source


def test_inline_const_keeps_initializers_as_statements():
    model = make_model(
        [oh.make_node("Add", ["x", "w"], ["y"])],
        [vi("x", FLOAT, [2])],
        [vi("y", FLOAT, [2])],
        [nh.from_array(np.array([1.0, 2.0], np.float32), "w")],
    )
    source, _ = _exact_roundtrip(model, inline_const=True)
    assert "w = op.Constant(value=np.array([1.0, 2.0], dtype=np.float32))" in source


def test_while_on_a_scalar_condition_adds_no_reshape():
    body = oh.make_graph(
        [
            oh.make_node("Add", ["v", "v"], ["v2"]),
            oh.make_node("ReduceSum", ["v2"], ["total"], keepdims=0),
            oh.make_node("Less", ["total", "limit"], ["go"]),
        ],
        "body",
        [vi("i", onnx.TensorProto.INT64, []), vi("c", BOOL, []), vi("v", FLOAT, None)],
        [vi("go", BOOL, []), vi("v2", FLOAT, None)],
    )
    model = make_model(
        [oh.make_node("Loop", ["", "run", "x"], ["y"], body=body)],
        [vi("x", FLOAT, [3]), vi("run", BOOL, []), vi("limit", FLOAT, [])],
        [vi("y", FLOAT, [3])],
    )
    source, back = assert_roundtrip(model)
    assert "while run:" in source
    assert [n.op_type for n in back.graph.node] == ["Loop"]


def _clashing_function() -> onnx.FunctionProto:
    """A function named ``graph`` with attributes ``np`` and ``op``; its body needs the
    module's ``np`` (a tensor constant), ``graph`` (a Scan body) and ``op`` (ai.onnx)."""
    scan_body = oh.make_graph(
        [oh.make_node("Neg", ["e"], ["n"])], "scan_body", [vi("e", FLOAT, [])], [vi("n", FLOAT, [])]
    )
    alpha = onnx.AttributeProto()
    alpha.name, alpha.ref_attr_name, alpha.type = "alpha", "np", onnx.AttributeProto.FLOAT
    axis = onnx.AttributeProto()
    axis.name, axis.ref_attr_name, axis.type = "axis", "op", onnx.AttributeProto.INT
    nodes = [
        oh.make_node("Constant", [], ["k"], value=_tensor("", [20])),
        oh.make_node("LeakyRelu", ["x"], ["r"]),
        oh.make_node("Scan", ["r"], ["s"], body=scan_body, num_scan_inputs=1),
        oh.make_node("Concat", ["s", "k"], ["y"]),
    ]
    nodes[1].attribute.append(alpha)
    nodes[3].attribute.append(axis)
    return oh.make_function(
        "my.dom", "graph", ["x"], ["y"], nodes, [oh.make_opsetid("", 18)], ["np", "op"]
    )


def test_function_and_attribute_names_are_kept():
    model = make_model(
        [oh.make_node("graph", ["x"], ["y"], domain="my.dom", np=0.5, op=0)],
        [vi("x", FLOAT, [2])],
        [vi("y", FLOAT, [22])],
        functions=[_clashing_function()],
        extra_opsets={"my.dom": 1},
    )
    source, back = _exact_roundtrip(model, strict=False)
    assert "import numpy as np_1" in source
    assert "from onnxscript import opset18 as op_1" in source
    assert "from onnxscript import FLOAT, Opset, graph as graph_1, script" in source
    assert "def graph(x, np: float, op: int):" in source
    assert "    @graph_1()" in source
    (fn,) = back.functions
    assert (fn.name, list(fn.attribute)) == ("graph", ["np", "op"])


def test_attribute_named_like_a_function_it_does_not_call():
    fn = oh.make_function(
        "d", "op", ["x"], ["y"], [oh.make_node("Relu", ["x"], ["y"])], [oh.make_opsetid("", 18)]
    )
    fn.attribute.append("op")
    source, back = _exact_roundtrip(calling_model(fn, op=1))
    assert "def op(x, op: int):" in source and "y = op(x, op=1)" in source
    assert [(f.name, list(f.attribute)) for f in back.functions] == [("op", ["op"])]


FUNCTION_NAMES = ["my-func", "pkg.Linear", "class", "make_model", "__x", 'a"); import os; ("']


def test_function_names_python_cannot_keep_are_given_back_with_named():
    fns = [
        oh.make_function(
            "d", n, ["x"], ["y"], [oh.make_node("Relu", ["x"], ["y"])], [oh.make_opsetid("", 18)]
        )
        for n in FUNCTION_NAMES
    ]
    nodes, x = [], "x"
    for i, name in enumerate(FUNCTION_NAMES):
        nodes.append(oh.make_node(name, [x], [f"y{i}"], domain="d"))
        x = f"y{i}"
    model = make_model(
        nodes, [vi("x", FLOAT, [2])], [vi(x, FLOAT, [2])], functions=fns, extra_opsets={"d": 1}
    )
    model.graph.name = "main graph"
    source, back = _exact_roundtrip(model)
    assert '@script(d)\n@named("my-func")\ndef my_func(x):' in source
    assert '@script()\n@named("main graph")\ndef main_graph(' in source
    imported = [
        a.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import) for a in n.names
    ]
    assert "os" not in imported  # the hostile name stays inside its string literal
    assert [f.name for f in back.functions] == FUNCTION_NAMES
    assert [n.op_type for n in back.graph.node] == FUNCTION_NAMES
    assert back.graph.name == "main graph"
    # A Python name asked for by function_name= is the compiled name too.
    chosen = proto2python(fns[0], function_name="relu_fn")
    assert "named" not in chosen and "def relu_fn(x):" in chosen


def _denoted(shape: list[int], dims: list[str | None]) -> onnx.TypeProto:
    t = oh.make_tensor_type_proto(FLOAT, shape)
    t.denotation = "TENSOR"
    for dim, text in zip(t.tensor_type.shape.dim, dims):
        if text is not None:
            dim.denotation = text
    return t


def test_type_and_dimension_denotations_are_kept():
    x_type = _denoted([1, 3], ["DATA_BATCH", "DATA_CHANNEL"])
    y_type = _denoted([1, 3], [None, "DATA_CHANNEL"])
    model = make_model(
        [oh.make_node("Relu", ["x"], ["y"])],
        [oh.make_value_info("x", x_type)],
        [oh.make_value_info("y", y_type)],
    )
    source, back = _exact_roundtrip(model)
    assert "with_denotations(" in source
    assert back.graph.input[0].type == x_type
    assert back.graph.output[0].type == y_type


EXTERNAL_ENTRIES = [
    [("location", "w.bin"), ("offset", "0"), ("length", "8"), ("sha", "abc"), ("x-y", "1")],
    [("offset", "0"), ("location", "w.bin")],  # out of order
    [("location", "w.bin"), ("offset", "007")],  # not a plain number
    [("location", "w.bin"), ("checksum", "c"), ("basepath", "/data")],
]


@pytest.mark.parametrize("entries", EXTERNAL_ENTRIES, ids=range(len(EXTERNAL_ENTRIES)))
def test_external_data_entries_are_kept_as_they_are(entries):
    tensor = onnx.TensorProto()
    tensor.name, tensor.data_type = "w", FLOAT
    tensor.dims.append(2)
    tensor.data_location = onnx.TensorProto.EXTERNAL
    for key, value in entries:
        entry = tensor.external_data.add()
        entry.key, entry.value = key, value
    model = make_model(
        [oh.make_node("Add", ["x", "w"], ["y"])],
        [vi("x", FLOAT, [2])],
        [vi("y", FLOAT, [2])],
        [tensor],
    )
    source = proto2python(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ModelCheckWarning)  # the data file does not exist
        back = compiled(source)
    (after,) = back.graph.initializer
    assert [(e.key, e.value) for e in after.external_data] == entries
    assert after.data_location == onnx.TensorProto.EXTERNAL
    assert proto2python(back) == source


def test_names_nfkc_changes_are_written_exactly_for_custom_ops():
    node = oh.make_node("Ｒｅｌｕ", ["x"], ["y"], domain="my.dom", **{"ﬁlter": 1})
    model = make_model(
        [node], [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])], extra_opsets={"my.dom": 1}
    )
    source = proto2python(model)
    assert 'my_dom["Ｒｅｌｕ"](x, **ATTRIBUTES)' in source
    back = compiled(source)
    assert (back.graph.node[0].op_type, back.graph.node[0].attribute[0].name) == (
        "Ｒｅｌｕ",
        "ﬁlter",
    )
    assert differences(model, back) == []


@pytest.mark.parametrize(
    ("node", "message"),
    [
        (oh.make_node("Ｒｅｌｕ", ["x"], ["y"]), r"op name 'Ｒｅｌｕ' is in no opset.*'Relu'"),
        (
            oh.make_node("LeakyRelu", ["x"], ["y"], **{"ﬁlter": 1}),
            r"attribute name 'ﬁlter' is in no opset.*'filter'",
        ),
    ],
    ids=["op", "attribute"],
)
def test_standard_names_nfkc_changes_are_refused(node, message):
    model = make_model([node], [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])])
    with pytest.raises(TranslationError, match=message):
        proto2python(model)


def test_function_attribute_nfkc_changes_is_refused():
    fn = oh.make_function(
        "d", "f", ["x"], ["y"], [oh.make_node("Relu", ["x"], ["y"])], [oh.make_opsetid("", 18)]
    )
    fn.attribute.append("ﬁlter")
    with pytest.raises(TranslationError, match=r"attribute parameter 'ﬁlter'.*'filter'"):
        proto2python(calling_model(fn, **{"ﬁlter": 1}))


def test_results_survive_the_round_trip():
    model = _weights_model()
    back = compiled(proto2python(model))
    x = np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32)
    b = np.ones(5, np.float32)
    np.testing.assert_allclose(run_model(back, [x, b])[0], run_model(model, [x, b])[0])


def _initializer_named_like_an_ssa_variant(initializer: str) -> onnx.ModelProto:
    """What optimize() leaves in a bloom/falcon export: a folded weight ``unsqueeze_1`` next
    to values ``unsqueeze`` and ``unsqueeze_4`` that could share a variable."""
    weight = nh.from_array(np.array([1.0, 2.0], np.float32), initializer)
    nodes = [
        oh.make_node("Relu", ["x"], ["unsqueeze"]),
        oh.make_node("Neg", ["unsqueeze"], ["unsqueeze_4"]),
        oh.make_node("Add", ["unsqueeze_4", initializer], ["y"]),
    ]
    return make_model(nodes, [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])], [weight])


@pytest.mark.parametrize("initializer", ["unsqueeze_1", "unsqueeze_2", "v1"])
@pytest.mark.parametrize("rename", [False, True])
def test_initializer_named_like_a_name_the_compiler_gives(initializer: str, rename: bool):
    """The compiler names the values of a variable ``x`` ``x``, ``x_1``, ...; ``initializers=``
    renames the initializer's variable after compiling, so that variable is named exactly
    like the initializer (or no compiled value could take the initializer's name)."""
    model = _initializer_named_like_an_ssa_variant(initializer)
    source, back = assert_roundtrip(model, rename=rename)
    assert [t.name for t in back.graph.initializer] == [initializer]
    if not rename:
        assert f"{initializer} = op.Constant(" in source
    if not rename and initializer.startswith("unsqueeze"):
        assert [n.output[0] for n in back.graph.node] == ["unsqueeze", "unsqueeze_4", "y"]
