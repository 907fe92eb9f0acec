"""Converting a model's ai.onnx nodes between opsets, in place, step by step.

Every ai.onnx node of the main graph, of every subgraph and of every model-local function
takes the steps between the version it was written for (its own ``version`` when set,
else its graph's opset import) and the target, one adapter per step; nodes an adapter
creates take the remaining steps too. Element types are then checked against the target
schema: a node that took a step, by its recorded types; going down, every node of the
graph, by its types recorded or inferred (a value whose type is unknown where the older
schema takes fewer types is refused), and by the rules its op states besides types
(``Mod`` of floats needs ``fmod=1``). The opset imports change last.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import onnx.helper
import onnx_ir as ir

from onnxscript.ir_utils.names import names_in
from onnxscript.unique_names import UniqueNames
from onnxscript.version_converter import fallback as onnx_fallback
from onnxscript.version_converter._context import Rewrite, VersionConversionError
from onnxscript.version_converter._types import (
    Types,
    inferred_types,
    parameter_types,
    rule_errors,
    type_errors,
    unknown_type_errors,
)
from onnxscript.version_converter._versions import FIRST_OPSET, newest, next_step, versions
from onnxscript.version_converter.registry import WITHOUT_ADAPTER, lookup


@dataclasses.dataclass
class _Job:
    """One conversion: the target opset, the model's fresh names, the fallback choice."""

    target: int
    names: UniqueNames
    fallback: bool
    changed: bool = False
    in_function: bool = False
    seeds: Types = dataclasses.field(default_factory=dict)
    """Types of function parameters, from the calls."""
    types: Types = dataclasses.field(default_factory=dict)
    """The types of the values of the graph being converted that record none, inferred
    at its opset before any node is converted (the adapters read them)."""
    checked: Types = dataclasses.field(default_factory=dict)
    """The types the last check going down inferred."""

    def convert(self, graph: ir.Graph | ir.Function, opset: int) -> None:
        """Every ai.onnx node of ``graph`` (subgraphs included) written for ``opset``;
        going down, the converted graph's types are checked (:meth:`check_down`)."""
        self.in_function = isinstance(graph, ir.Function)
        self.types = inferred_types(graph, opset, self.seeds)
        sources: dict[ir.Node, int] = {}
        for node in list(ir.traversal.RecursiveGraphIterator(graph)):
            if node.domain == "" and node.graph is not None:
                sources[node] = node.version if node.version is not None else opset
                self._node(node, sources[node])
        if any(source > self.target for source in sources.values()):
            self.check_down(graph, sources)

    def check_down(self, graph: ir.Graph | ir.Function, sources: dict[ir.Node, int]) -> None:
        """Every ai.onnx node of ``graph`` at the target opset: its element types,
        recorded or inferred, allowed by the target schema, none unknown where the
        schema it was converted from takes more types, and its op's other rules kept."""
        types = inferred_types(graph, self.target, self.seeds)
        self.checked = types
        for node in ir.traversal.RecursiveGraphIterator(graph):
            if node.domain not in ("", "ai.onnx"):
                continue
            problems = type_errors(node, self.target, types) + rule_errors(node, types)
            source = sources.get(node)
            if source is not None and source > self.target:
                problems += unknown_type_errors(node, self.target, source, types)
            if problems:
                name = node.name or "<unnamed>"
                raise VersionConversionError(
                    f"{node.op_type} node {name!r} at opset {self.target}: " + "; ".join(problems)
                )

    def convert_one(self, node: ir.Node, opset: int) -> None:
        """One node (and the nodes built for it) written for ``opset``."""
        self._node(node, opset)

    def _node(self, node: ir.Node, opset: int) -> None:
        pending = [(node, opset, False)]
        while pending:
            current, here, touched = pending.pop()
            planned = next_step(current.op_type, here, self.target)
            if planned is None:
                self._finish(current, touched)
                continue
            key, after = planned
            adapter = lookup(key)
            if adapter is None:
                self._fall_back(current, here, self._uncovered(current, here, key))
                continue
            rewrite = Rewrite(current, key, after, self.names, self.in_function, self.types)
            adapter.apply(rewrite)
            self.changed = True
            if current.graph is not None:
                pending.append((current, after, True))
            pending += [(n, after, True) for n in rewrite.created if n.graph is not None]

    def _finish(self, node: ir.Node, touched: bool) -> None:
        if node.version is not None:
            node.version = None
            self.changed = True
        problems = type_errors(node, self.target) if touched else []
        if problems:
            name = node.name or "<unnamed>"
            raise VersionConversionError(
                f"{node.op_type} node {name!r} at opset {self.target}: " + "; ".join(problems)
            )

    def _uncovered(self, node: ir.Node, opset: int, key: tuple[str, int, int]) -> Exception:
        reason = WITHOUT_ADAPTER.get(key, "no adapter for this step")
        reason += " (fallback=True hands such nodes to onnx's version converter)"
        if key[2] == key[1] - 1 and key[1] == versions(key[0])[0]:
            reason = f"{key[0]} does not exist before opset {key[1]}"
        name = node.name or "<unnamed>"
        return VersionConversionError(
            f"{node.op_type} node {name!r} cannot be converted from opset {opset} to "
            f"{self.target}: step {key[1]} -> {key[2]}: {reason}"
        )

    def _fall_back(self, node: ir.Node, opset: int, error: Exception) -> None:
        if not self.fallback:
            raise error
        try:
            onnx_fallback.convert_node(node, opset, self.target, self.names)
        except Exception as failure:  # onnx's converter raises RuntimeError and others
            message = f"{error}; onnx's version converter failed too: {failure}"
            raise VersionConversionError(message) from failure
        self.changed = True


def _uses_ai_onnx(graph: ir.Graph | ir.Function) -> bool:
    return any(n.domain == "" for n in ir.traversal.RecursiveGraphIterator(graph))


class ConvertVersionPass(ir.passes.InPlacePass):
    """Convert the model's ai.onnx ops to opset ``target_version`` in place (up or down);
    ``fallback=True`` hands the nodes of steps no adapter covers to onnx's version
    converter (a node an adapter refuses, e.g. an attribute-to-be that is not a constant,
    is an error either way)."""

    def __init__(self, target_version: int, fallback: bool = False) -> None:
        super().__init__()
        self.target_version = target_version
        self.fallback = fallback

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        target = self.target_version
        if not FIRST_OPSET <= target <= newest():
            raise VersionConversionError(
                f"opset {target} is outside what the converter knows ({FIRST_OPSET} to "
                f"{newest()}, the newest of the installed onnx)"
            )
        job = _Job(target, UniqueNames(names_in(model)), self.fallback)
        source = _version(model.opset_imports) or target
        job.convert(model.graph, source)
        job.seeds = parameter_types(model, {**job.types, **job.checked})
        for function in model.functions.values():
            job.convert(function, _version(function.opset_imports) or source)
        changed = job.changed | _set_imports(model, target)
        return ir.passes.PassResult(model, changed)


def _version(imports: Mapping[str, int]) -> int | None:
    """The ai.onnx version of opset imports (spelled "" or "ai.onnx")."""
    return imports.get("", imports.get("ai.onnx"))


def _set_version(
    imports: dict[str, int], graph: ir.Graph | ir.Function, target: int, always: bool = False
) -> bool:
    """Set the ai.onnx import to ``target`` where there is one or the graph uses ai.onnx
    (or ``always``: a model imports ai.onnx even when its graph has no node, else
    onnxruntime refuses it)."""
    if not always and _version(imports) is None and not _uses_ai_onnx(graph):
        return False
    key = "ai.onnx" if "ai.onnx" in imports else ""
    changed = imports.get(key) != target
    imports[key] = target
    return changed


def _set_imports(model: ir.Model, target: int) -> bool:
    changed = _set_version(model.opset_imports, model.graph, target, always=True)
    for function in model.functions.values():
        changed |= _set_version(function.opset_imports, function, target)
    opsets = [onnx.helper.make_opsetid("", target)]
    needed = onnx.helper.find_min_ir_version_for(opsets, ignore_unknown=True)
    if model.ir_version < needed:
        model.ir_version = needed
        changed = True
    return changed


def convert_node(node: ir.Node, opset: int, target: int) -> list[ir.Value] | None:
    """Convert one ai.onnx ``node`` of a graph, written for ``opset``, to opset ``target`` in
    place, with the adapters (no fallback): the nodes an adapter builds go into the node's
    graph. Returns the values that compute the node's outputs afterwards (its own outputs
    when it was changed in place), or ``None`` when its op means the same at ``target``.
    Raises :class:`VersionConversionError` when a step cannot be taken."""
    graph = node.graph
    if graph is None:
        raise ValueError(f"{node.op_type} node {node.name!r} is in no graph to convert it in")
    if node.domain != "" or next_step(node.op_type, opset, target) is None:
        return None
    names = UniqueNames(_graph_names(graph))
    # the outputs are tracked as extra graph outputs, which adapters that replace a
    # node's outputs move to the values taking their place
    count = len(node.outputs)
    graph.outputs.extend(node.outputs)
    try:
        _Job(target, names, fallback=False).convert_one(node, opset)
        results = list(graph.outputs[-count:]) if count else []
    finally:
        if count:
            del graph.outputs[-count:]
    return results


def _graph_names(graph: ir.Graph) -> list[str]:
    """The names of a graph's values and nodes (subgraphs included)."""
    names = [v.name for v in [*graph.inputs, *graph.outputs, *graph.initializers.values()]]
    for node in ir.traversal.RecursiveGraphIterator(graph):
        names.append(node.name)
        names.extend(v.name for v in node.outputs)
    return [name for name in names if name]


def convert_version(model: ir.Model, target_version: int, fallback: bool = False) -> None:
    """Convert ``model`` (an ``onnx_ir`` model) to ai.onnx opset ``target_version`` in place.

    Raises :class:`VersionConversionError` naming the node, op and versions when a node
    cannot be converted (and ``fallback`` is off, or onnx's converter fails too); the
    nodes converted before it stay converted.
    """
    ConvertVersionPass(target_version, fallback)(model)


__all__ = ["ConvertVersionPass", "convert_node", "convert_version"]
