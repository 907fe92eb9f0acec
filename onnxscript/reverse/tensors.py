"""Python expressions that rebuild ONNX tensors exactly.

Where a tensor goes depends on its size:

* small tensors (at most ``inline_limit`` elements) are written where they are used, as
  ``np.array([...], dtype=np.float32)``;
* larger ones become module-level constants defined above the functions;
* tensors with more than ``large_limit`` elements are read back from the model file at
  compile time with :func:`onnxscript.reverse.runtime.model_tensor` when the translator
  knows that file (otherwise they are module-level constants too);
* tensors stored as external data keep pointing at their file through
  :func:`onnxscript.reverse.runtime.external_tensor`.

Element types numpy has are written as numpy arrays; the others (bfloat16, float8, int4,
...) through ``onnx.helper.make_tensor``, with their values when that reproduces the same
bits and with the raw bytes otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
import onnx.helper
import onnx.numpy_helper

from onnxscript import dtypes
from onnxscript.reverse.identifiers import NameAllocator
from onnxscript.reverse.literals import python_float, string
from onnxscript.reverse.types import Imports

_NUMPY_NAMES: dict[int, str] = {
    1: "float32",
    2: "uint8",
    3: "int8",
    4: "uint16",
    5: "int16",
    6: "int32",
    7: "int64",
    9: "bool_",
    10: "float16",
    11: "float64",
    12: "uint32",
    13: "uint64",
    14: "complex64",
    15: "complex128",
}


# The external-data keys onnx defines, in the order of external_tensor's parameters.
_EXTERNAL_KEYS = ("location", "offset", "length", "checksum", "basepath")


def _plain_number(text: str) -> bool:
    """Whether ``text`` is what ``str(int(text))`` gives back (no sign, spaces or zeros)."""
    return text.isascii() and text.isdigit() and str(int(text)) == text


def _np_float(value: float, kind: type[np.floating[Any]], np_name: str) -> str:
    if math.isfinite(value):
        text = str(kind(value))
        return text if any(c in text for c in ".en") else text + ".0"
    if math.isnan(value):
        return f"{np_name}.nan"
    return f"{np_name}.inf" if value > 0 else f"-{np_name}.inf"


def _formatter(code: int, np_name: str) -> Callable[[Any], str]:
    """Python text for one element of a tensor of element type ``code`` (numpy imported
    as ``np_name``)."""
    if code == 1:
        return lambda v: _np_float(v, np.float32, np_name)
    if code == 10:
        return lambda v: _np_float(v, np.float16, np_name)
    if code == 11:
        return lambda v: (
            _np_float(v, np.float64, np_name) if not math.isfinite(v) else repr(float(v))
        )
    if code == 9:
        return lambda v: "True" if v else "False"
    if code in (14, 15):
        part = np.float32 if code == 14 else np.float64

        def fmt_complex(v: complex) -> str:
            real, imag = _np_float(v.real, part, np_name), _np_float(v.imag, part, np_name)
            return f"complex({real}, {imag})"

        return fmt_complex
    return lambda v: str(int(v))


def _nested(items: Sequence[str], shape: Sequence[int]) -> str:
    if len(shape) == 1:
        return "[" + ", ".join(items) + "]"
    step = len(items) // shape[0] if shape[0] else 0
    return (
        "["
        + ", ".join(_nested(items[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0]))
        + "]"
    )


def _wrapped(items: Sequence[str], indent: str) -> str:
    """A flat list literal broken into lines of about 100 characters."""
    lines: list[str] = []
    line: list[str] = []
    width = 0
    for item in items:
        if line and width + len(item) > 96:
            lines.append(", ".join(line) + ",")
            line, width = [], 0
        line.append(item)
        width += len(item) + 2
    if line:
        lines.append(", ".join(line))
    if len(lines) == 1:
        return "[" + lines[0] + "]"
    inner = indent + "    "
    return "[\n" + "\n".join(inner + ln for ln in lines) + "\n" + indent + "]"


@dataclass
class TensorWriter:
    """Writes tensors as expressions, adding module-level definitions when needed."""

    names: NameAllocator
    imports: Imports
    inline_limit: int
    large_limit: int
    tensor_file: str | None
    module_lines: list[str] = field(default_factory=list)

    def expression(
        self, tensor: onnx.TensorProto, value_name: str = "", file_key: str | None = None
    ) -> str:
        """An expression for ``tensor`` that can be used inside a script.

        ``value_name`` names module-level constants; ``file_key`` is how
        :func:`model_tensor` finds the tensor in the model file.
        """
        if tensor.data_location == onnx.TensorProto.EXTERNAL:
            return self._external(tensor)
        count = math.prod(tensor.dims)
        if count > self.large_limit and self.tensor_file is not None and file_key is not None:
            helper = self.imports.name("model_tensor")
            return f"{helper}({string(self.tensor_file)}, {string(file_key)})"
        inline = count <= self.inline_limit
        text, needs_module = self._literal(tensor, inline)
        if inline and not needs_module:
            return text
        return self._module_constant(value_name or "tensor", text)

    def proto_expression(self, tensor: onnx.TensorProto) -> str:
        """An expression whose value is ``tensor`` as an ``onnx.TensorProto`` (for use at
        module level, inside other ``onnx.helper`` calls)."""
        text, _ = self._literal(tensor, inline=False)
        if text.startswith(self.imports.np + "."):
            return f"{self.imports.module('onnx')}.numpy_helper.from_array({text})"
        return text

    def _module_constant(self, value_name: str, text: str) -> str:
        name = self.names.take(
            value_name.upper() if value_name.islower() else value_name, default="T"
        )
        self.module_lines.append(f"{name} = {text}")
        return name

    def _external(self, tensor: onnx.TensorProto) -> str:
        """``external_tensor(...)`` with the tensor's ``external_data`` entries as they are:
        the known keys as arguments while they come in the order of its parameters, every
        entry from the first that does not (an unknown key, a value that is not a plain
        number for ``offset``/``length``, a repeated key) in ``extra=``."""
        helper = self.imports.name("external_tensor")
        entries = [(entry.key, entry.value) for entry in tensor.external_data]
        known: dict[str, str] = {}
        position = 0
        for key, value in entries:
            if key not in _EXTERNAL_KEYS[position:]:
                break
            if key in ("offset", "length") and not _plain_number(value):
                break
            known[key] = value
            position = _EXTERNAL_KEYS.index(key) + 1
        extra = entries[len(known) :]
        location = known.get("location")
        args = [
            string(tensor.name),
            str(tensor.data_type),
            str(list(tensor.dims)),
            string(location) if location is not None else "None",
        ]
        for key in _EXTERNAL_KEYS[1:]:
            if key in known:
                text = known[key] if key in ("offset", "length") else string(known[key])
                args.append(f"{key}={text}")
        if extra:
            pairs = ", ".join(f"({string(k)}, {string(v)})" for k, v in extra)
            args.append(f"extra=[{pairs}]")
        return f"{helper}({', '.join(args)})"

    def _literal(self, tensor: onnx.TensorProto, inline: bool) -> tuple[str, bool]:
        """(expression, whether it must live at module level)."""
        code = tensor.data_type
        dims = list(tensor.dims)
        indent = ""
        if code == onnx.TensorProto.STRING:
            return self._strings(list(tensor.string_data), dims, inline, indent)
        array = onnx.numpy_helper.to_array(tensor)
        if code in _NUMPY_NAMES:
            np_name = self.imports.module("np")
            dtype = f"{np_name}.{_NUMPY_NAMES[code]}"
            fmt = _formatter(code, np_name)
            flat = array.reshape(-1).tolist()
            items = [fmt(v) for v in flat]
            return self._array_text(items, dims, f"dtype={dtype}", inline, indent), False
        return self._other(tensor, array, dims, inline, indent)

    def _strings(
        self, raw: list[bytes], dims: list[int], inline: bool, indent: str
    ) -> tuple[str, bool]:
        """A STRING tensor from its elements as stored (bytes, read without decoding:
        onnx's ``to_array`` fails on bytes that are not UTF-8). UTF-8 text becomes an
        object array of ``str``; other bytes a module-level ``make_tensor`` call with
        ``bytes`` literals (scripts reject ``b"..."``; ``repr`` of bytes always reads back
        as the same bytes, whatever they hold)."""
        try:
            items = [string(v.decode("utf-8")) for v in raw]
        except UnicodeDecodeError:
            onnx_name = self.imports.module("onnx")
            values = _wrapped([repr(v) for v in raw], indent)
            text = (
                f"{onnx_name}.helper.make_tensor('', {onnx_name}.TensorProto.STRING, "
                f"{dims}, {values})"
            )
            return text, True
        self.imports.module("np")
        return self._array_text(items, dims, "dtype=object", inline, indent), False

    def _array_text(
        self, items: list[str], dims: list[int], dtype: str, inline: bool, indent: str
    ) -> str:
        np_name = self.imports.np
        if not dims:
            return f"{np_name}.array({items[0]}, {dtype})"
        if not items:
            return f"{np_name}.empty({tuple(dims)!r}, {dtype})"
        if inline or len(dims) == 1:
            body = _nested(items, dims) if inline else _wrapped(items, indent)
            return f"{np_name}.array({body}, {dtype})"
        shape = ", ".join(str(d) for d in dims)
        return f"{np_name}.array({_wrapped(items, indent)}, {dtype}).reshape({shape})"

    def _other(
        self,
        tensor: onnx.TensorProto,
        array: np.ndarray,
        dims: list[int],
        inline: bool,
        indent: str,
    ) -> tuple[str, bool]:
        """Element types numpy lacks: values through ``make_tensor`` when exact, else bytes."""
        onnx_name = self.imports.module("onnx")
        code = tensor.data_type
        type_name = dtypes.NAMES.get(code) if code else "UNDEFINED"
        dtype = f"{onnx_name}.TensorProto.{type_name}" if type_name else str(code)
        original = onnx.numpy_helper.to_array(tensor)
        try:
            values = array.astype(np.float64).reshape(-1).tolist()
            candidate = onnx.helper.make_tensor("", code, dims, values)
            same = onnx.numpy_helper.to_array(candidate).tobytes() == original.tobytes()
        except Exception:
            same = False
        if same:
            items = [python_float(v) for v in values]
            text = f"{onnx_name}.helper.make_tensor('', {dtype}, {dims}, {_wrapped(items, indent)})"
            return text, False
        raw = onnx.numpy_helper.from_array(original).raw_data
        return f"{onnx_name}.helper.make_tensor('', {dtype}, {dims}, {raw!r}, raw=True)", True


def sparse_expression(sparse: onnx.SparseTensorProto, writer: TensorWriter, name: str) -> str:
    """A module-level constant rebuilding a sparse tensor; its name is returned."""
    onnx_name = writer.imports.module("onnx")
    values = writer.proto_expression(sparse.values)
    indices = writer.proto_expression(sparse.indices)
    text = f"{onnx_name}.helper.make_sparse_tensor({values}, {indices}, {list(sparse.dims)})"
    return writer._module_constant(name + "_sparse", text)
