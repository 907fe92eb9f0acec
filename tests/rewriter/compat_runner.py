"""Runs rewriter snippets and prints a summary of each result as JSON: imported by the
compatibility test (our package) and run as a script by onnxscript 0.7.2's Python.

Standalone on purpose: it imports only onnx and onnxscript, so the same file describes
the graphs both packages make. A snippet defines ``run()``, returning a ModelProto, an
``onnx_ir`` Model or a JSON-able value; the summary of a model is canonical up to node
order and value names: its nodes' (domain, op type, attributes) and each graph output
written as an expression over the graph's inputs and constants.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any

import onnx
import onnx.numpy_helper


def summarize_model(model: onnx.ModelProto) -> dict[str, Any]:
    """What two rewritten models must share: ops, structure, opsets, functions."""
    return {
        "ops": sorted(_node_key(n) for n in model.graph.node),
        "node_count": len(model.graph.node),
        "outputs": [o.name for o in model.graph.output],
        "graph": _expressions(model.graph),
        "opsets": sorted([i.domain or "", i.version] for i in model.opset_import),
        "functions": {
            f"{f.domain}::{f.name}": sorted(_node_key(n) for n in f.node) for f in model.functions
        },
    }


def _node_key(node: onnx.NodeProto) -> str:
    attrs = ",".join(f"{a.name}={_attr_value(a)}" for a in sorted(node.attribute, key=_name))
    domain = "" if node.domain == "ai.onnx" else node.domain
    return f"{domain}::{node.op_type}[{attrs}]/{len(node.input)}->{len(node.output)}"


def _name(attr: onnx.AttributeProto) -> str:
    return attr.name


def _attr_value(attr: onnx.AttributeProto) -> str:
    value = onnx.helper.get_attribute_value(attr)
    if isinstance(value, onnx.TensorProto):
        return _tensor_text(value)
    if isinstance(value, onnx.GraphProto):
        return json.dumps(_expressions(value))
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        return "[" + ",".join(f"{v:.6g}" if isinstance(v, float) else str(v) for v in value) + "]"
    return str(value)


def _tensor_text(tensor: onnx.TensorProto) -> str:
    array = onnx.numpy_helper.to_array(tensor)
    values = [round(float(v), 5) for v in array.ravel()[:8]]
    return f"{array.dtype}{list(array.shape)}{values}"


def _expressions(graph: onnx.GraphProto) -> list[str]:
    """Each output of ``graph`` as an expression (inputs by name, initializers by value)."""
    producers = {out: (node, i) for node in graph.node for i, out in enumerate(node.output)}
    constants = {t.name: _tensor_text(t) for t in graph.initializer}
    memo: dict[str, str] = {}

    def text(name: str) -> str:
        if name == "":
            return "None"
        if name in memo:
            return memo[name]
        if name in constants:
            result = f"const({constants[name]})"
        elif name in producers:
            node, index = producers[name]
            args = ",".join(text(i) for i in node.input)
            result = f"{_node_key(node)}({args})#{index}"
        else:
            result = f"${name}"
        memo[name] = result
        return result

    return [text(o.name) for o in graph.output]


def summarize(result: Any) -> Any:
    if isinstance(result, onnx.ModelProto):
        return {"model": summarize_model(result)}
    if type(result).__name__ == "Model" and hasattr(result, "graph"):
        import onnx_ir as ir

        return {"ir_model": summarize_model(ir.serde.serialize_model(result))}
    return {"value": result}


def run_snippet(source: str) -> Any:
    """The summary of what the snippet's ``run()`` returns, or the error it raised."""
    namespace: dict[str, Any] = {"__name__": "snippet"}
    try:
        exec(compile(source, "<snippet>", "exec"), namespace)
        return summarize(namespace["run"]())
    except Exception as error:  # the error is the observation
        last = traceback.extract_tb(error.__traceback__)[-1]
        return {"error": f"{type(error).__name__}: {error}", "at": f"{last.name}"}


def main() -> None:
    snippets: dict[str, str] = json.loads(sys.stdin.read())
    print(json.dumps({name: run_snippet(source) for name, source in snippets.items()}))


if __name__ == "__main__":
    main()
