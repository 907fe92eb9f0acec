"""Eager values as op inputs: arrays as they are, Tensors unwrapped, lists of arrays as
sequences, and Python literals as arrays of the element type the language rules give them
(the schema's fixed type, else the type of an input sharing the type variable, else the
literal's default)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from onnxscript.dtypes import onnx_dtype
from onnxscript.errors import InputTypeError
from onnxscript.evaluator.tensor import AttrTensor, Tensor, TensorSequence, describe
from onnxscript.language.binding import Signature, literal_input_type
from onnxscript.language.literals import cast_array, literal_array, native_byte_order


def _is_sequence_value(value: Any) -> bool:
    """A list that stands for an ONNX sequence (rather than a tensor literal): one returned
    by an op, or a list of arrays or Tensors."""
    if isinstance(value, TensorSequence):
        return True
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(v, (np.ndarray, TensorSequence))
            or (isinstance(v, Tensor) and not isinstance(v, AttrTensor))
            for v in value
        )
    )


def _sequence(value: Any, where: str) -> TensorSequence:
    items = [_element(v, where) for v in value]
    elem_type = getattr(value, "elem_type", None)
    if elem_type is None and items and isinstance(items[0], np.ndarray):
        elem_type = onnx_dtype(items[0].dtype)
    return TensorSequence(items, elem_type)


def _as_onnx_holds(array: np.ndarray, where: str) -> np.ndarray:
    """A user's array as ONNX holds it: native byte order (the same numbers), and strings
    of an object array as str (bytes decoded as UTF-8, which ONNX strings are)."""
    array = native_byte_order(array)
    if array.dtype == object and any(isinstance(item, bytes) for item in array.flat):
        try:
            decoded = [i.decode("utf-8") if isinstance(i, bytes) else i for i in array.flat]
        except UnicodeDecodeError as exc:
            raise InputTypeError(f"{where}: bytes that are not UTF-8 text ({exc})") from None
        return np.array(decoded, dtype=object).reshape(array.shape)
    return array


def _element(value: Any, where: str) -> Any:
    if isinstance(value, Tensor):
        return value.value
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, np.generic):
        return np.asarray(value)
    if isinstance(value, list):
        return [_element(v, where) for v in value]
    return literal_array(value, None, where)


def literal_to_array(value: Any, dtype: int | None, where: str) -> np.ndarray:
    """A literal, an attribute parameter, or a list mixing tensors and literals, as an array
    of element type ``dtype`` (the converter's ``to_tensor`` for non-tensor values)."""
    if isinstance(value, AttrTensor):
        return value.value if dtype is None else cast_array(value.value, dtype)
    if isinstance(value, (list, tuple)) and any(
        isinstance(v, (Tensor, np.ndarray, np.generic)) for v in value
    ):
        anchor = next(
            (v for v in value if isinstance(v, (np.ndarray, np.generic))
             or (isinstance(v, Tensor) and not isinstance(v, AttrTensor))),
            None,
        )  # fmt: skip
        target = dtype
        if target is None and anchor is not None:
            target = onnx_dtype(
                np.asarray(anchor.value if isinstance(anchor, Tensor) else anchor).dtype
            )
        parts = []
        for v in value:
            if isinstance(v, (list, tuple)):
                raise TypeError(f"{where}: nested lists of tensors cannot be used as tensors")
            if isinstance(v, Tensor) and not isinstance(v, AttrTensor):
                parts.append(v.value.reshape(-1))
            elif isinstance(v, (np.ndarray, np.generic)):
                parts.append(np.asarray(v).reshape(-1))
            else:
                parts.append(literal_to_array(v, target, where).reshape(-1))
        if len({p.dtype for p in parts}) > 1:
            raise TypeError(
                f"{where}: the items of {describe(value)} have different element types "
                f"({', '.join(sorted(str(p.dtype) for p in parts))}); cast them to one type"
            )
        return np.concatenate(parts)
    return literal_array(value, dtype, where)


def convert_op_inputs(
    name: str, sig: Signature, sequence_slots: Sequence[bool], values: Sequence[Any]
) -> list[Any]:
    """Bound input values as arrays (sequences as lists of arrays, ``None`` kept).
    ``sequence_slots`` tells which formal inputs take only sequences."""
    arrays: list[Any] = [None] * len(values)
    pending = []
    n_formal = len(sequence_slots)
    for slot, value in enumerate(values):
        if value is None:
            continue
        if isinstance(value, Tensor) and not isinstance(value, AttrTensor):
            arrays[slot] = value.value
        elif isinstance(value, np.ndarray):
            arrays[slot] = _as_onnx_holds(value, f"{name}() input {slot}")
        elif isinstance(value, np.generic):
            arrays[slot] = np.asarray(value)
        elif isinstance(value, (list, tuple)) and (
            (n_formal and sequence_slots[min(slot, n_formal - 1)])
            or (_is_sequence_value(value) and _may_be_sequence(sig, slot))
        ):
            arrays[slot] = _sequence(value, f"{name}() sequence input")
        else:
            pending.append(slot)
    for slot in pending:
        concrete, partners = literal_input_type(sig, slot)
        dtype = concrete
        if dtype is None:
            for partner in partners:
                other = arrays[partner] if partner < len(arrays) else None
                if isinstance(other, np.ndarray) and partner not in pending:
                    dtype = onnx_dtype(other.dtype)
                    break
        where = f"{name}(): input {_input_name(sig, slot)!r}"
        arrays[slot] = literal_to_array(values[slot], dtype, where)
    return arrays


def _may_be_sequence(sig: Signature, slot: int) -> bool:
    """Whether input ``slot`` accepts a sequence (free-form ops accept anything)."""
    if sig.free_form or not sig.inputs:
        return True
    type_var = sig.input_type_var(slot)
    allowed = sig.type_constraints.get(type_var, (type_var,))
    return any(t.startswith(("seq(", "optional(seq(")) for t in allowed)


def _input_name(sig: Signature, slot: int) -> str:
    inputs = sig.inputs
    if not inputs:
        return str(slot)
    return inputs[min(slot, len(inputs) - 1)].name
