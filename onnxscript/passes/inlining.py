"""The inlining pass: calls of model-local functions replaced by the functions' bodies
wherever they are: in the main graph, in subgraphs (If branches, Loop and Scan bodies) at
any depth, and in the bodies of functions that stay."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import onnx_ir as ir

from onnxscript.ir_utils.graphs import can_become_output, subgraphs
from onnxscript.ir_utils.metadata import carry_metadata, carry_to_nested
from onnxscript.ir_utils.names import names_in
from onnxscript.passes.call_expansion import expand_call
from onnxscript.unique_names import UniqueNames

_Key = ir.OperatorIdentifier


class InlineFunctionsPass(ir.passes.InPlacePass):
    """Inline the model-local functions ``criteria`` chooses (all by default): every call,
    wherever it is, also the calls their own bodies make; then those functions go."""

    def __init__(self, criteria: Callable[[ir.Function], bool] | None = None) -> None:
        super().__init__()
        self.criteria = criteria

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        chosen = {
            key
            for key, function in model.functions.items()
            if self.criteria is None or self.criteria(function)
        }
        if not chosen:
            return ir.passes.PassResult(model, modified=False)
        inliner = _Inliner(model, chosen)
        inliner.graph(model.graph, model.opset_imports)
        for key, function in model.functions.items():
            if key not in chosen:
                inliner.graph(function.graph, function.opset_imports)
        for key in chosen:
            del model.functions[key]
        return ir.passes.PassResult(model, modified=True)


class _Inliner:
    """Inlines the ``chosen`` functions of ``model``, giving what it copies names no other
    value or node of the model has (ONNX forbids a subgraph to reuse an outer name)."""

    def __init__(self, model: ir.Model, chosen: set[_Key]) -> None:
        self.functions = model.functions
        self.chosen = chosen
        self.names = UniqueNames(names_in(model))
        self.expanding: list[_Key] = []

    def graph(self, graph: ir.Graph, imports: dict[str, int]) -> None:
        """Inline the calls in ``graph`` (whose opset imports are ``imports``)."""
        self.nodes(graph, list(graph), imports)

    def nodes(self, graph: ir.Graph, nodes: Iterable[ir.Node], imports: dict[str, int]) -> None:
        """Inline the calls among ``nodes`` of ``graph`` and in their subgraphs."""
        for node in nodes:
            if node.op_identifier() in self.chosen:
                self.expand(graph, node, imports)
                continue
            for sub in subgraphs(node):
                self.graph(sub, imports)

    def expand(self, graph: ir.Graph, call: ir.Node, imports: dict[str, int]) -> None:
        """Replace ``call`` by a copy of its function's body, then inline in the copy."""
        key = call.op_identifier()
        if key in self.expanding:
            cycle = " -> ".join(_label(k) for k in [*self.expanding, key])
            raise ValueError(f"cannot inline recursive functions: {cycle}")
        function = self.functions[key]
        _merge_imports(imports, function, self.functions.keys())
        if len(call.inputs) > len(function.inputs):
            raise ValueError(f"{_label(key)} takes {len(function.inputs)} inputs, called with more")
        body, results = expand_call(function, call.inputs, call.attributes, prefix="")
        # The copies keep the body's metadata; what they lack comes from the call site
        # (the exporter wrote it on the call: where in the source the call stands).
        carry_to_nested(body, call)
        for node in body:
            self._rename(node)
        graph.insert_before(call, body)
        self._replace_outputs(graph, call, results)
        graph.remove(call, safe=True)
        self.expanding.append(key)
        try:
            self.nodes(graph, body, imports)
        finally:
            self.expanding.pop()

    def _replace_outputs(
        self, graph: ir.Graph, call: ir.Node, results: list[ir.Value | None]
    ) -> None:
        for old, new in zip(call.outputs, results):
            if new is None:
                if old.uses() or old.is_graph_output():
                    raise ValueError(f"{call.op_type}: an output stands for an omitted input")
                continue
            if old.is_graph_output() and not can_become_output(new, graph):
                # An input of the call, or another output: the graph output needs a value
                # of its own, computed in the graph.
                identity = ir.Node("", "Identity", [new], name=self.names.claim("Identity"))
                carry_metadata(identity, call)
                graph.insert_before(call, identity)
                new = identity.outputs[0]
                new.type, new.shape = old.type, old.shape
            if old.is_graph_output():
                name, old.name = old.name, None
                new.name = name
                carry_metadata(new, old)
            _keep_known(new, old)
            old.replace_all_uses_with(new, replace_graph_outputs=True)

    def _rename(self, node: ir.Node) -> None:
        node.name = self.names.claim(node.name or node.op_type)
        for value in node.outputs:
            value.name = self.names.claim(value.name or "value")
        for sub in subgraphs(node):
            for value in [*sub.inputs, *sub.initializers.values()]:
                value.name = self.names.claim(value.name or "value")
            for inner in sub:
                self._rename(inner)


def _keep_known(new: ir.Value, old: ir.Value) -> None:
    """What the call site knew about an output and the body did not."""
    if new.type is None:
        new.type = old.type
    if new.shape is None and old.shape is not None:
        new.shape = old.shape.copy()


def _merge_imports(imports: dict[str, int], function: ir.Function, local: Iterable[_Key]) -> None:
    """Add the function's opset imports to those of the graph it is inlined into. The
    versions of model-local function domains mean nothing (exporters write any); for other
    domains the body's ops must mean what they meant in the function."""
    local_domains = {domain for domain, _, _ in local}
    used = {node.domain for node in ir.traversal.RecursiveGraphIterator(function)}
    for domain, version in function.opset_imports.items():
        if domain not in imports:
            imports[domain] = version
        elif imports[domain] != version and domain in used and domain not in local_domains:
            raise ValueError(
                f"cannot inline {_label(function.identifier())}: it imports {domain or 'ai.onnx'}"
                f" version {version}, the graph it is called from version {imports[domain]}"
            )


def _label(key: _Key) -> str:
    domain, name, overload = key
    return f"{domain}::{name}" + (f":{overload}" if overload else "")


def inline(model: ir.Model) -> None:
    """Replace every call of a model-local function by the function's body (nested calls
    and calls in subgraphs too), then drop the functions: "a model without functions".
    In place."""
    InlineFunctionsPass()(model)


__all__ = ["InlineFunctionsPass", "inline"]
