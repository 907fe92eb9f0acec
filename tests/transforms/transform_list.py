"""The graph transformations under differential test, each a function from a ``ModelProto``
to a ``ModelProto``.

This module imports only onnx, onnx_ir and whichever ``onnxscript`` the interpreter finds,
so that ``tools/transforms_heldout.py`` runs the very same calls through onnxscript 0.7.2 in
its own environment. Every transform works on a copy: the input proto is never changed.

A transform's name is its key everywhere (the tables, the expected failures, the held-out
comparison). ``convert_version`` is one transform per target: ``convert_version:17``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import onnx
import onnx_ir as ir

FIRST_OPSET = 7
"""The lowest opset the corpus and the version conversions use."""

LAST_OPSET = 28
"""The highest (onnx 1.23's newest)."""

CONVERT = "convert_version:"


@dataclass(frozen=True)
class Transform:
    """One transformation: ``apply`` maps a model to the transformed model."""

    name: str
    apply: Callable[[onnx.ModelProto], onnx.ModelProto]
    contrib: bool = False
    """The result may hold onnxruntime's contrib ops (checked by onnxruntime loading it,
    not by onnx.checker)."""
    fuses: bool = False
    """It replaces subgraphs by fused ops that compute in another order (float outputs
    compared with a looser tolerance)."""


def _on_ir(step: Callable[[ir.Model], object]) -> Callable[[onnx.ModelProto], onnx.ModelProto]:
    """A transform of an ``ir.Model`` (in place, or returning the model) as one of protos."""

    def apply(proto: onnx.ModelProto) -> onnx.ModelProto:
        model = ir.serde.deserialize_model(proto)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = step(model)
        if isinstance(result, tuple):  # optimize_for_ort: (model, counts)
            result = result[0]
        if isinstance(result, ir.Model):
            model = result
        return ir.serde.serialize_model(model)

    return apply


def _on_proto(step: Callable[[onnx.ModelProto], onnx.ModelProto]) -> Callable[..., onnx.ModelProto]:
    def apply(proto: onnx.ModelProto) -> onnx.ModelProto:
        copy = onnx.ModelProto()
        copy.CopyFrom(proto)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return step(copy)

    return apply


def _optimize(proto: onnx.ModelProto) -> onnx.ModelProto:
    from onnxscript import optimizer

    return optimizer.optimize(proto)


def _optimize_ir(model: ir.Model) -> None:
    from onnxscript import optimizer

    optimizer.optimize_ir(model)


def _fold_constants(model: ir.Model) -> None:
    from onnxscript import optimizer

    optimizer.fold_constants(model)


def _rewrite(proto: onnx.ModelProto) -> onnx.ModelProto:
    from onnxscript import rewriter

    return rewriter.rewrite(proto)


def _onnx_fuse(model: ir.Model) -> None:
    from onnxscript.rewriter import onnx_fusions

    onnx_fusions.fuse(model)


def _optimize_for_ort(model: ir.Model) -> object:
    from onnxscript.rewriter import ort_fusions

    return ort_fusions.optimize_for_ort(model)


def _inline(model: ir.Model) -> None:
    from onnxscript import optimizer

    optimizer.inline(model)


def _remove_unused(model: ir.Model) -> None:
    from onnxscript import optimizer

    optimizer.remove_unused_nodes(model)
    optimizer.remove_unused_functions(model)


def _convert_to(target: int) -> Callable[[onnx.ModelProto], onnx.ModelProto]:
    def step(model: ir.Model) -> None:
        from onnxscript import version_converter

        version_converter.convert_version(model, target)

    return _on_ir(step)


TRANSFORMS: dict[str, Transform] = {
    t.name: t
    for t in (
        Transform("optimize", _on_proto(_optimize)),
        Transform("optimize_ir", _on_ir(_optimize_ir)),
        Transform("fold_constants", _on_ir(_fold_constants)),
        Transform("rewrite", _on_proto(_rewrite)),
        Transform("onnx_fusions.fuse", _on_ir(_onnx_fuse), fuses=True),
        Transform("optimize_for_ort", _on_ir(_optimize_for_ort), contrib=True, fuses=True),
        Transform("inline", _on_ir(_inline)),
        Transform("remove_unused", _on_ir(_remove_unused)),
    )
}
"""The transforms other than the version conversions, by name."""


def transform(name: str) -> Transform:
    """The transform called ``name`` (``convert_version:<target>`` for a conversion)."""
    if name.startswith(CONVERT):
        return Transform(name, _convert_to(int(name[len(CONVERT) :])))
    return TRANSFORMS[name]


def model_opset(proto: onnx.ModelProto) -> int | None:
    """The default domain's opset of the model (None when it imports none)."""
    for entry in proto.opset_import:
        if entry.domain in ("", "ai.onnx"):
            return entry.version
    return None


def conversion_targets(proto: onnx.ModelProto, key: int, full: bool) -> list[str]:
    """The ``convert_version`` transforms of a model: one opset up and one down, and (in
    full mode) one further target each way chosen from ``key`` (a seed), all within
    FIRST_OPSET..LAST_OPSET."""
    source = model_opset(proto)
    if source is None:
        return []
    targets = {source - 1, source + 1}
    if full:
        if source + 2 <= LAST_OPSET:
            targets.add(source + 2 + key % (LAST_OPSET - source - 1))
        if source - 2 >= FIRST_OPSET:
            targets.add(FIRST_OPSET + key % (source - 1 - FIRST_OPSET))
    return [f"{CONVERT}{t}" for t in sorted(targets) if FIRST_OPSET <= t <= LAST_OPSET]


__all__ = [
    "CONVERT",
    "FIRST_OPSET",
    "LAST_OPSET",
    "TRANSFORMS",
    "Transform",
    "conversion_targets",
    "model_opset",
    "transform",
]
