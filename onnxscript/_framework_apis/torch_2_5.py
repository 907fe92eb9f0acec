"""What torch.onnx 2.5 and later call (every later ``torch_2_X`` module re-exports it)."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from pathlib import Path

import onnx
import onnx.version_converter
import onnx_ir as ir

from onnxscript import optimizer
from onnxscript._framework_apis._external_data import check_with_onnx, save_with_external_data
from onnxscript.function_libs.torch_lib.registration import OpRecord, collect_ops
from onnxscript.optimizer.metadata import copy_metadata_by_name
from onnxscript.version_converter import upgrades_unchanged


def get_torchlib_ops() -> list[OpRecord]:
    """Every ATen overload the library implements: ``qualified_name``
    (``"aten::add.Tensor"``), ``function`` and ``is_complex``."""
    return collect_ops()


def optimize(model: ir.Model) -> ir.Model:
    """``onnxscript.optimizer.optimize`` on the exported model (in place; returned)."""
    return optimizer.optimize(model)


def convert_version(model: ir.Model, target_version: int) -> ir.Model:
    """The model at ai.onnx ``target_version``.

    When no op of the model or of its functions changes between its version and the
    target (the usual case: the exporter already wrote the newer ops it needed, e.g. a
    Gelu-20 node in an opset-18 model), only the opset imports change; otherwise onnx's
    version converter converts the main graph. That converter drops model-local
    functions (torch.cond, while_loop and scan bodies are ones), so the functions whose
    bodies change are inlined first and the others are kept, at the target version.
    """
    source = model.opset_imports.get("")
    if source == target_version:
        return model
    changing = _changing_functions(model, target_version)
    if not changing and _unchanged_between(model.graph, source or target_version, target_version):
        model.opset_imports[""] = target_version
        for function in model.functions.values():
            if "" in function.opset_imports:
                function.opset_imports[""] = target_version
        return model
    _inline_functions(model, changing)
    return _converted(model, target_version)


def _changing_functions(model: ir.Model, target: int) -> set[ir.OperatorIdentifier]:
    """The model-local functions that onnx's converter would have to convert: those with
    an op that changes before ``target``, and those that call one of them."""
    changing = {
        key
        for key, function in model.functions.items()
        if not _unchanged_between(function, function.opset_imports.get("", target), target)
    }
    grown = True
    while grown:
        grown = False
        for key, function in model.functions.items():
            if key not in changing and _calls(function, changing):
                changing.add(key)
                grown = True
    return changing


def _calls(function: ir.Function, keys: set[ir.OperatorIdentifier]) -> bool:
    """Whether ``function`` calls one of ``keys`` (in its subgraphs too)."""
    return any(n.op_identifier() in keys for n in ir.traversal.RecursiveGraphIterator(function))


def _inline_functions(model: ir.Model, keys: set[ir.OperatorIdentifier]) -> None:
    """Inline every call of the functions ``keys`` (in the main graph, subgraphs and the
    other functions); then those functions go."""
    if not keys:
        return
    optimizer.InlineFunctionsPass(criteria=lambda function: function.identifier() in keys)(model)


def _converted(model: ir.Model, target_version: int) -> ir.Model:
    """``model`` through onnx's version converter, its remaining functions (none of
    which changes) put back at ``target_version``, its metadata put back by name."""
    proto = ir.serde.serialize_model(model)
    functions = list(proto.functions)
    held = _hold_newer_ops(proto, model.opset_imports.get("", target_version))
    converted = onnx.version_converter.convert_version(proto, target_version)
    _release(converted, held)
    for function in functions:
        for opset in function.opset_import:
            if opset.domain in ("", "ai.onnx"):
                opset.version = target_version
    del converted.functions[:]
    converted.functions.extend(functions)
    result = ir.serde.deserialize_model(converted)
    # onnx's converter drops every metadata_props but keeps names: put them back.
    copy_metadata_by_name(model, result)
    return result


_HELD = "pkg.onnxscript.held"
"""A domain that hides nodes from onnx's version converter while it runs."""


def _all_nodes(graph: onnx.GraphProto) -> Iterator[onnx.NodeProto]:
    for node in graph.node:
        yield node
        for attr in node.attribute:
            if attr.HasField("g"):
                yield from _all_nodes(attr.g)
            for sub in attr.graphs:
                yield from _all_nodes(sub)


def _hold_newer_ops(proto: onnx.ModelProto, source: int) -> bool:
    """Hide ai.onnx nodes of ops that do not exist yet at ``source`` (an exporter wrote
    them at their own, newer version; the converter has no adapter for them)."""
    held = False
    for node in _all_nodes(proto.graph):
        if node.domain in ("", "ai.onnx") and _since(node.op_type, source) is None:
            node.domain = _HELD
            held = True
    if held:
        proto.opset_import.append(onnx.helper.make_opsetid(_HELD, 1))
    return held


def _release(proto: onnx.ModelProto, held: bool) -> None:
    if not held:
        return
    for node in _all_nodes(proto.graph):
        if node.domain == _HELD:
            node.domain = ""
    kept = [o for o in proto.opset_import if o.domain != _HELD]
    del proto.opset_import[:]
    proto.opset_import.extend(kept)


@functools.lru_cache(maxsize=4096)
def _since(op_type: str, version: int) -> int | None:
    try:
        return int(onnx.defs.get_schema(op_type, version, "").since_version)
    except onnx.defs.SchemaError:
        return None


def _unchanged_between(graph: ir.Graph | ir.Function, source: int, target: int) -> bool:
    """Whether every ai.onnx node of ``graph`` (subgraphs included) means the same at
    ``target`` as where it stands now (at ``source``, or at the version the node itself
    names): the op did not change in between, or changed only compatibly (new element
    types, attributes whose defaults keep the old meaning)."""
    for node in ir.traversal.RecursiveGraphIterator(graph):
        if node.domain not in ("", "ai.onnx"):
            continue
        at_target = _since(node.op_type, target)
        here = node.version if node.version is not None else source
        if at_target is None:
            return False
        if at_target != _since(node.op_type, here) and not upgrades_unchanged(
            node.op_type, here, target
        ):
            return False
    return True


def check_model(model: ir.Model) -> None:
    """onnx's full checker on the model. A model with large weights is checked by path
    with placeholder external data: its tensors are neither copied nor written."""
    check_with_onnx(model)


def save_model_with_external_data(
    model: ir.Model, model_path: str | os.PathLike[str], verbose: bool = False
) -> None:
    """Save the model with its tensors in ``<model file name>.data`` beside it, streamed
    from where they are (torch's memory, lazy tensors computed once), without a second
    copy in memory; the model is unchanged."""
    path = Path(model_path)
    save_with_external_data(model, path)
    if verbose:
        print(f"saved {path} with external data {path.name}.data")


__all__ = [
    "check_model",
    "convert_version",
    "get_torchlib_ops",
    "optimize",
    "save_model_with_external_data",
]
