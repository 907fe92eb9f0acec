"""Optional inputs of a model: typed ``optional(T)`` and read through ``OptionalGetElement``.

A tensor parameter defaulted to ``None`` is an input its caller may omit. In a
``FunctionProto`` that is ONNX's own convention: the caller passes a tensor or the empty
name, and ``OptionalHasElement`` (opset 18+) tells which. A model's graph input cannot be
omitted that way: onnxruntime refuses a run that leaves a tensor input out ("Required inputs
are missing"), and a ``None`` fed for one is a hole that any kernel reading it fails on.
So in a model such an input is a graph input of type ``optional(T)``: onnxruntime then
accepts it left out, fed ``None`` (both an empty optional) or fed an array (a present one).
``OptionalHasElement`` reads it as it is; every other node that reads it reads
``OptionalGetElement(input)`` instead, computed in the same (sub)graph just before the
first such node, so it runs only where the body reads the input (under a presence test, an
absent input is never unwrapped). This needs ai.onnx opset 15 and IR version 8; below that
the input stays a plain tensor input.
"""

from __future__ import annotations

from collections.abc import Collection

import onnx
import onnx.helper

from onnxscript.proto_graphs import nested_graphs, subgraphs
from onnxscript.unique_names import first_free
from onnxscript.value_types import OptionalTypeSpec, TypeSpec

MIN_OPSET = 15
"""The first ai.onnx opset with ``OptionalGetElement`` / ``OptionalHasElement``."""
MIN_IR_VERSION = 8
"""The first IR version with optional types."""
_READS_OPTIONAL = frozenset({"OptionalHasElement", "OptionalGetElement"})


def expressible(opset: int, ir_version: int) -> bool:
    """Whether a model with this ai.onnx opset and IR version can have optional inputs."""
    return opset >= MIN_OPSET and ir_version >= MIN_IR_VERSION


def model_input_type(t: TypeSpec | None) -> TypeSpec | None:
    """The model-input type of an optional input whose tensor (or sequence) type is ``t``."""
    if t is None or isinstance(t, OptionalTypeSpec):
        return t
    return OptionalTypeSpec(t)


def _names(graph: onnx.GraphProto, found: set[str]) -> set[str]:
    """Every value name used in ``graph`` and its subgraphs."""
    for sub in nested_graphs(graph):
        found.update(v.name for v in sub.input)
        found.update(v.name for v in sub.output)
        found.update(t.name for t in sub.initializer)
        for node in sub.node:
            found.update(node.input)
            found.update(node.output)
    return found


class _Unwrapper:
    """Rewrites reads of optional inputs, graph by graph, with fresh names."""

    def __init__(self, names: Collection[str], taken: set[str]) -> None:
        self.names = names
        self.taken = taken

    def fresh(self, base: str) -> str:
        """``base_value``, else ``base_value1``, ``base_value2``...; taken from now on."""
        name = first_free(f"{base}_value", self.taken, separator="")
        self.taken.add(name)
        return name

    def graph(self, graph: onnx.GraphProto) -> None:
        unwrapped: dict[str, str] = {}
        nodes: list[onnx.NodeProto] = []
        for node in graph.node:
            for sub in subgraphs(node):
                self.graph(sub)
            if node.domain in ("", "ai.onnx") and node.op_type in _READS_OPTIONAL:
                nodes.append(node)
                continue
            for i, name in enumerate(node.input):
                if name not in self.names:
                    continue
                if name not in unwrapped:
                    unwrapped[name] = self.fresh(name)
                    nodes.append(
                        onnx.helper.make_node("OptionalGetElement", [name], [unwrapped[name]])
                    )
                node.input[i] = unwrapped[name]
            nodes.append(node)
        if unwrapped:
            del graph.node[:]
            graph.node.extend(nodes)


def read_optional_inputs(graph: onnx.GraphProto, names: Collection[str]) -> None:
    """Make every node of ``graph`` (a model's main graph, with its subgraphs) other than
    ``OptionalHasElement``/``OptionalGetElement`` read the optional inputs ``names``
    through ``OptionalGetElement``."""
    if names:
        _Unwrapper(set(names), _names(graph, set())).graph(graph)
