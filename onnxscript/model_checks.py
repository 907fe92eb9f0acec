"""``to_model_proto()`` never returns a model that onnx.checker rejects without saying so.

The checker requires a type and a shape on every input and output of a model's graph.
Scripts may leave them open (an unannotated parameter, ``FLOAT[...]``: any rank), which is
right for a function but not for a model: such a model is still returned (its types can be
completed afterwards) with a :class:`~onnxscript.errors.ModelCheckWarning` naming what is
missing and the option that fills it in. Otherwise the model goes through
``onnx.checker.check_model(full_check=True)`` (strict type and shape inference), and what it
rejects (a shape that contradicts an annotation, say) is reported by the same warning.
Element types the op schemas refuse are already refused when the script compiles.

The first check in a process loads onnx's schema registry (about 10 ms); later ones cost
tens of microseconds for a small model.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable

import onnx
import onnx.checker
import onnx.shape_inference

from onnxscript.errors import ModelCheckWarning


def _missing(info: onnx.ValueInfoProto) -> str | None:
    kind = info.type.WhichOneof("value")
    if kind is None:
        return "no type"
    if kind == "tensor_type":
        tensor = info.type.tensor_type
        if not tensor.elem_type:
            return "no element type"
        if not tensor.HasField("shape"):
            return "no shape (any rank)"
    return None


def _problems(infos: Iterable[onnx.ValueInfoProto], what: str) -> list[str]:
    found = []
    for info in infos:
        missing = _missing(info)
        if missing is not None:
            found.append(f"{what} {info.name!r} has {missing}")
    return found


def _incomplete_io(model: onnx.ModelProto) -> str | None:
    inputs = _problems(model.graph.input, "input")
    outputs = _problems(model.graph.output, "output")
    if not inputs and not outputs:
        return None
    fixes = []
    if inputs:
        fixes.append('annotate the parameters (x: FLOAT["N", 4]) or pass input_types=[...]')
    if outputs:
        fixes.append("annotate the return type or pass output_types=[...]")
    fixes.append('io_types=FLOAT["N"] types every input and output left without a type')
    return (
        f"to_model_proto(): {'; '.join(inputs + outputs)}, so onnx.checker rejects the "
        f"model; {'; '.join(fixes)}"
    )


def _checker_message(model: onnx.ModelProto) -> str | None:
    if model.ByteSize() > onnx.checker.MAXIMUM_PROTOBUF:  # larger ones only as files
        return None
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as exc:  # ValidationError, InferenceError, ValueError (bad enums), ...
        detail = str(exc).strip().splitlines()
        if detail and _EXTERNAL_FILE_MISSING in detail[0]:
            # A tensor with external data whose file is not there yet (the model is about
            # to be saved next to it): nothing wrong with the model itself.
            return None
        return f"to_model_proto(): onnx.checker rejects the model: {' '.join(detail[:3])}"
    return None


_EXTERNAL_FILE_MISSING = "should be stored in"
"""onnx.checker's words when a tensor's external data file does not exist (yet)."""


def warn_if_rejected(model: onnx.ModelProto, stacklevel: int = 3) -> None:
    """A :class:`ModelCheckWarning` when onnx.checker (full) rejects ``model``: naming the
    inputs and outputs left without a type or shape and the option that completes them,
    else giving the checker's message."""
    message = _incomplete_io(model) or _checker_message(model)
    if message is not None:
        warnings.warn(message, ModelCheckWarning, stacklevel=stacklevel)
