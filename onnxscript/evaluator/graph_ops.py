"""Ops with graph attributes given as Python functions (``@graph()`` bodies), run eagerly.

In a script, ``op.Scan(..., body=body)`` passes a nested function that the converter
compiles into a graph. Eagerly, the body is simply called, as the ONNX semantics of
``If``, ``Loop``, ``Scan`` and ``SequenceMap`` describe, with each iteration's values as
:class:`Tensor` objects; the body reads enclosing variables like any Python closure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from onnxscript.evaluator.tensor import Tensor, TensorSequence

if TYPE_CHECKING:
    from onnxscript.evaluator.protocol import OpRef


def _outputs(result: Any) -> list[np.ndarray | list[np.ndarray]]:
    items = list(result) if isinstance(result, tuple) else [result]
    out: list[Any] = []
    for item in items:
        if isinstance(item, list):
            out.append(TensorSequence([_array(v) for v in item], getattr(item, "elem_type", None)))
        else:
            out.append(_array(item))
    return out


def _array(value: Any) -> np.ndarray:
    if isinstance(value, Tensor):
        return value.value
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    from onnxscript.evaluator.inputs import literal_to_array

    return literal_to_array(value, None, "graph body output")


def _wrap(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, list):
        return TensorSequence([Tensor(v) for v in value], getattr(value, "elem_type", None))
    return Tensor(value)


def _stack(parts: list[np.ndarray], axis: int = 0) -> np.ndarray:
    return np.stack(parts, axis=axis)


def _run_if(inputs: Sequence[Any], bodies: Mapping[str, Callable[..., Any]]) -> list[Any]:
    cond = inputs[0]
    branch = bodies["then_branch" if bool(np.asarray(cond).reshape(-1)[0]) else "else_branch"]
    return _outputs(branch())


def _run_loop(inputs: Sequence[Any], body: Callable[..., Any]) -> list[Any]:
    trip = inputs[0] if inputs else None
    cond = inputs[1] if len(inputs) > 1 else None
    carried = list(inputs[2:])
    limit = int(np.asarray(trip).reshape(())) if trip is not None else None
    keep = bool(np.asarray(cond).reshape(())) if cond is not None else True
    scans: list[list[np.ndarray]] = []
    i = 0
    while keep and (limit is None or i < limit):
        result = _outputs(
            body(Tensor(np.array(i, dtype=np.int64)), Tensor(np.array(keep)), *map(_wrap, carried))
        )
        keep = bool(np.asarray(result[0]).reshape(()))
        carried = result[1 : 1 + len(carried)]
        extra = result[1 + len(carried) :]
        if not scans:
            scans = [[] for _ in extra]
        for store, value in zip(scans, extra, strict=False):
            store.append(value)  # type: ignore[arg-type]
        i += 1
    return [*carried, *[_stack(s) for s in scans]]


def _run_scan(
    inputs: Sequence[Any], attrs: Mapping[str, Any], body: Callable[..., Any]
) -> list[Any]:
    n_scan = int(attrs["num_scan_inputs"])
    states = list(inputs[: len(inputs) - n_scan])
    scanned = list(inputs[len(inputs) - n_scan :])
    in_axes = list(attrs.get("scan_input_axes") or [0] * n_scan)
    in_dirs = list(attrs.get("scan_input_directions") or [0] * n_scan)
    scanned = [np.moveaxis(x, a, 0) for x, a in zip(scanned, in_axes, strict=False)]
    scanned = [x[::-1] if d else x for x, d in zip(scanned, in_dirs, strict=False)]
    length = scanned[0].shape[0] if scanned else 0
    outs: list[list[np.ndarray]] = []
    for t in range(length):
        result = _outputs(body(*map(_wrap, states), *(Tensor(x[t]) for x in scanned)))
        states = result[: len(states)]
        extra = result[len(states) :]
        if not outs:
            outs = [[] for _ in extra]
        for store, value in zip(outs, extra, strict=False):
            store.append(value)  # type: ignore[arg-type]
    n_out = len(outs)
    out_axes = list(attrs.get("scan_output_axes") or [0] * n_out)
    out_dirs = list(attrs.get("scan_output_directions") or [0] * n_out)
    stacked = []
    for store, axis, direction in zip(outs, out_axes, out_dirs, strict=False):
        parts = store[::-1] if direction else store
        stacked.append(np.moveaxis(_stack(parts), 0, axis))
    return [*states, *stacked]


def _run_scan_8(
    inputs: Sequence[Any], attrs: Mapping[str, Any], body: Callable[..., Any]
) -> list[Any]:
    """Scan-8: a leading batch axis, an optional ``sequence_lens`` first input, and the
    ``directions`` attribute; each batch entry is scanned on its own."""
    lens = inputs[0] if inputs else None
    rest = list(inputs[1:])
    n_scan = int(attrs["num_scan_inputs"])
    n_state = len(rest) - n_scan
    batch = np.asarray(rest[0]).shape[0] if rest else 0
    per_batch: list[list[Any]] = []
    directions = attrs.get("directions")
    for b in range(batch):
        states = [np.asarray(x)[b] for x in rest[:n_state]]
        scanned = [np.asarray(x)[b] for x in rest[n_state:]]
        if lens is not None:
            length = int(np.asarray(lens)[b])
            scanned = [x[:length] for x in scanned]
        sub_attrs = {"num_scan_inputs": n_scan, "scan_input_directions": directions}
        per_batch.append(_run_scan([*states, *scanned], sub_attrs, body))
    if not per_batch:
        return []
    return [np.stack([np.asarray(r[i]) for r in per_batch]) for i in range(len(per_batch[0]))]


def _run_sequence_map(inputs: Sequence[Any], body: Callable[..., Any]) -> list[Any]:
    sequence = inputs[0]
    extra = inputs[1:]
    results: list[TensorSequence] = []
    for i, item in enumerate(sequence):
        args = [Tensor(item)]
        for e in extra:
            args.append(Tensor(e[i]) if isinstance(e, list) else Tensor(e))
        outs = _outputs(body(*args))
        if not results:
            results = [TensorSequence() for _ in outs]
        for store, value in zip(results, outs, strict=False):
            store.append(value)
    return results


def run_with_python_bodies(
    op: OpRef,
    inputs: Sequence[Any],
    attrs: Mapping[str, Any],
    bodies: Mapping[str, Callable[..., Any]],
    n_outputs: int | None,
) -> list[Any]:
    """Run ``If``/``Loop``/``Scan``/``SequenceMap`` whose graph attributes are Python
    functions. The outputs are arrays (sequences as lists of arrays)."""
    name = op.name if op.domain == "" else ""
    if name == "If":
        outputs = _run_if(inputs, bodies)
    elif name == "Loop":
        outputs = _run_loop(inputs, bodies["body"])
    elif name == "Scan" and op.version < 9:
        outputs = _run_scan_8(inputs, attrs, bodies["body"])
    elif name == "Scan":
        outputs = _run_scan(inputs, attrs, bodies["body"])
    elif name == "SequenceMap":
        outputs = _run_sequence_map(inputs, bodies["body"])
    else:
        raise TypeError(
            f"{op.name}(): a Python function was given for graph attribute(s) "
            f"{', '.join(bodies)}, but eager mode only runs Python bodies of If, Loop, Scan "
            "and SequenceMap; pass an onnx.GraphProto instead"
        )
    if n_outputs is not None and n_outputs != len(outputs):
        raise TypeError(
            f"{op.name}() produced {len(outputs)} output(s), but {n_outputs} were requested"
        )
    return outputs
