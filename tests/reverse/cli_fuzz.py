"""Malformed models for the command-line fuzz test, and the runner that feeds them to it.

The models start as valid ones (a sample of onnx's backend node tests and a few built here
with initializers, functions and control flow) and get one or two faults each: corrupted or
truncated bytes, element types and dims that do not exist, names that are empty, clash or
hold Python syntax, op types and domains that no schema has, attributes of the wrong kind,
opset versions out of range, values nobody defines.

``python -m tests.reverse.cli_fuzz DIR`` runs ``onnxscript.cli.main`` on every ``*.onnx``
file of DIR in this one process (a crash of a native library shows as a missing result)
and writes one JSON line per file to stdout: exit code, stderr, and whether the printed
script compiled.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as onh

FLOAT = onnx.TensorProto.FLOAT


def _with_initializers() -> onnx.ModelProto:
    weight = onh.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "fc.weight")
    bias = onh.from_array(np.zeros(3, dtype=np.float32), "bias")
    nodes = [
        oh.make_node("MatMul", ["x", "fc.weight"], ["y"]),
        oh.make_node("Add", ["y", "bias"], ["z"]),
    ]
    graph = oh.make_graph(
        nodes,
        "g",
        [oh.make_tensor_value_info("x", FLOAT, [1, 2])],
        [oh.make_tensor_value_info("z", FLOAT, [1, 3])],
        initializer=[weight, bias],
    )
    return oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)])


def _with_function() -> onnx.ModelProto:
    body = [oh.make_node("Mul", ["a", "a"], ["sq"]), oh.make_node("Relu", ["sq"], ["out"])]
    function = oh.make_function(
        "lib", "square_relu", ["a"], ["out"], body, [oh.make_opsetid("", 18)]
    )
    graph = oh.make_graph(
        [oh.make_node("square_relu", ["x"], ["y"], domain="lib")],
        "g",
        [oh.make_tensor_value_info("x", FLOAT, [3])],
        [oh.make_tensor_value_info("y", FLOAT, [3])],
    )
    return oh.make_model(
        graph,
        opset_imports=[oh.make_opsetid("", 18), oh.make_opsetid("lib", 1)],
        functions=[function],
    )


def _with_if() -> onnx.ModelProto:
    def branch(op_type: str, name: str) -> onnx.GraphProto:
        return oh.make_graph(
            [oh.make_node(op_type, ["x"], [name])],
            name,
            [],
            [oh.make_tensor_value_info(name, FLOAT, [2])],
        )

    node = oh.make_node(
        "If", ["c"], ["y"], then_branch=branch("Relu", "t"), else_branch=branch("Neg", "e")
    )
    graph = oh.make_graph(
        [node],
        "g",
        [
            oh.make_tensor_value_info("c", onnx.TensorProto.BOOL, []),
            oh.make_tensor_value_info("x", FLOAT, [2]),
        ],
        [oh.make_tensor_value_info("y", FLOAT, [2])],
    )
    return oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)])


def base_models(node_test_models: list[onnx.ModelProto]) -> list[onnx.ModelProto]:
    return [_with_initializers(), _with_function(), _with_if(), *node_test_models]


# -- faults ---------------------------------------------------------------------------------

NASTY_NAMES = ("", "a b", "x'); import os #", "\n", "fc.weight", "Ｒｅｌｕ", "ﬁlter", "op", "1x")


def _corrupt_bytes(model: onnx.ModelProto, rng: random.Random) -> bytes:
    data = bytearray(model.SerializeToString())
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def _truncate(model: onnx.ModelProto, rng: random.Random) -> bytes:
    data = model.SerializeToString()
    return data[: rng.randrange(len(data))]


def _all_value_infos(model: onnx.ModelProto) -> list[onnx.ValueInfoProto]:
    return [*model.graph.input, *model.graph.output, *model.graph.value_info]


def _all_nodes(model: onnx.ModelProto) -> list[onnx.NodeProto]:
    nodes = list(model.graph.node)
    for fn in model.functions:
        nodes.extend(fn.node)
    return nodes


def _element_type(model: onnx.ModelProto, rng: random.Random) -> None:
    infos = _all_value_infos(model)
    if infos:
        rng.choice(infos).type.tensor_type.elem_type = rng.choice((0, 8, 99, 14, 25, -3))
    for tensor in model.graph.initializer:
        tensor.data_type = rng.choice((0, 8, 99, 16))


def _dims(model: onnx.ModelProto, rng: random.Random) -> None:
    for info in _all_value_infos(model):
        dims = info.type.tensor_type.shape.dim
        if dims:
            rng.choice(dims).dim_value = rng.choice((-1, 0, 2**62, 20000))
    for tensor in model.graph.initializer:
        if tensor.dims:
            tensor.dims[0] = rng.choice((-1, 0, 2**40))


def _names(model: onnx.ModelProto, rng: random.Random) -> None:
    nodes = _all_nodes(model)
    name = rng.choice(NASTY_NAMES)
    if nodes and rng.random() < 0.5:
        node = rng.choice(nodes)
        if node.output:
            node.output[0] = name
        elif node.input:
            node.input[0] = name
    elif model.graph.input:
        model.graph.input[0].name = name


def _op_type(model: onnx.ModelProto, rng: random.Random) -> None:
    nodes = _all_nodes(model)
    if nodes:
        node = rng.choice(nodes)
        choice = rng.random()
        if choice < 0.4:
            node.op_type = rng.choice(("NoSuchOp", "Ｒｅｌｕ", "", "def", "import os"))
        elif choice < 0.7:
            node.domain = rng.choice(("com.unknown", "a b", "ai.onnx.ml"))
        else:
            node.input.append(rng.choice(("undefined_value", "")))


def _attribute(model: onnx.ModelProto, rng: random.Random) -> None:
    attrs = [a for n in _all_nodes(model) for a in n.attribute]
    if attrs:
        attr = rng.choice(attrs)
        choice = rng.random()
        if choice < 0.4:
            attr.type = rng.choice((1, 2, 3, 4, 5, 13))
        elif choice < 0.7:
            attr.name = rng.choice(NASTY_NAMES)
        else:
            attr.ref_attr_name = "missing"
    elif _all_nodes(model):
        node = rng.choice(_all_nodes(model))
        node.attribute.append(oh.make_attribute(rng.choice(NASTY_NAMES) or "x", 1))


def _opset(model: onnx.ModelProto, rng: random.Random) -> None:
    if model.opset_import:
        model.opset_import[0].version = rng.choice((0, -1, 1, 10**6))
    model.ir_version = rng.choice((model.ir_version, 0, 1, 99))


def _strings(model: onnx.ModelProto, rng: random.Random) -> None:
    model.doc_string = '"""\nimport os\n'
    model.graph.doc_string = "\\'''\x00"
    tensor = onnx.TensorProto(name="s", data_type=onnx.TensorProto.STRING, dims=[1])
    tensor.string_data.append(rng.choice((b"\xff\xfe", b"ok", b"\x00")))
    model.graph.initializer.append(tensor)
    if model.graph.output:
        model.graph.output[0].name = "s"


def _drop(model: onnx.ModelProto, rng: random.Random) -> None:
    choice = rng.random()
    if choice < 0.3 and model.graph.node:
        del model.graph.node[rng.randrange(len(model.graph.node))]
    elif choice < 0.6 and model.graph.output:
        model.graph.output[0].ClearField("type")
    else:
        model.graph.ClearField("input")


STRUCTURED: dict[str, Callable[[onnx.ModelProto, random.Random], None]] = {
    "element type": _element_type,
    "dims": _dims,
    "names": _names,
    "op type": _op_type,
    "attribute": _attribute,
    "opset": _opset,
    "strings": _strings,
    "drop": _drop,
}
RAW: dict[str, Callable[[onnx.ModelProto, random.Random], bytes]] = {
    "corrupt bytes": _corrupt_bytes,
    "truncated": _truncate,
}


def malformed(model: onnx.ModelProto, case: int) -> tuple[str, bytes]:
    """Fault number ``case`` applied to a copy of ``model``: (what was done, file bytes)."""
    rng = random.Random(case)
    if rng.random() < 0.2:
        kind = rng.choice(sorted(RAW))
        return kind, RAW[kind](model, rng)
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    kinds = rng.sample(sorted(STRUCTURED), rng.choice((1, 2)))
    for kind in kinds:
        STRUCTURED[kind](copy, rng)
    return "+".join(kinds), copy.SerializeToString()


# -- the runner -----------------------------------------------------------------------------


def _compiles(source: str) -> str:
    """``ok``, or the exception type a printed script raised when run and compiled."""
    from onnxscript.reverse.roundtrip import compile_source

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile_source(source)
    except Exception as exc:
        return type(exc).__name__
    return "ok"


def run_one(path: Path, check: bool) -> dict[str, object]:
    from onnxscript import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(path), *(["--check"] if check else [])])
    result: dict[str, object] = {"file": path.name, "code": code, "stderr": err.getvalue()}
    if code == 0 and not check:
        result["compiles"] = _compiles(out.getvalue())
    return result


def main(argv: list[str]) -> int:
    folder = Path(argv[0])
    check = "--check" in argv[1:]
    for path in sorted(folder.glob("*.onnx")):
        print(json.dumps(run_one(path, check)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
