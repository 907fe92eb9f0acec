"""What ``to_model_proto()`` says about a model that onnx.checker would reject.

The checker requires a type and a shape on every input and output of a model's graph.
Scripts may leave them open (an unannotated parameter, ``FLOAT[...]``: any rank), which is
right for a function but not for a model, so the model is still returned (its types can be
completed afterwards) together with an :class:`~onnxscript.errors.IncompleteModelWarning`
naming what is missing and the option that fills it in. Running the checker itself here
would load onnx's whole schema registry on the first call (milliseconds), so only this
structural rule is checked; type errors in nodes are refused when the script compiles.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable

import onnx

from onnxscript.errors import IncompleteModelWarning


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


def warn_if_incomplete(model: onnx.ModelProto, stacklevel: int = 3) -> None:
    """An :class:`IncompleteModelWarning` when a graph input or output lacks a type or a
    shape, naming each and the ``to_model_proto`` option that completes it."""
    inputs = _problems(model.graph.input, "input")
    outputs = _problems(model.graph.output, "output")
    if not inputs and not outputs:
        return
    fixes = []
    if inputs:
        fixes.append('annotate the parameters (x: FLOAT["N", 4]) or pass input_types=[...]')
    if outputs:
        fixes.append("annotate the return type or pass output_types=[...]")
    fixes.append('io_types=FLOAT["N"] types every input and output left without a type')
    warnings.warn(
        f"to_model_proto(): {'; '.join(inputs + outputs)}, so onnx.checker rejects the "
        f"model; {'; '.join(fixes)}",
        IncompleteModelWarning,
        stacklevel=stacklevel,
    )
