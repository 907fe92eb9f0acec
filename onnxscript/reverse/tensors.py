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
    1: "np.float32",
    2: "np.uint8",
    3: "np.int8",
    4: "np.uint16",
    5: "np.int16",
    6: "np.int32",
    7: "np.int64",
    9: "np.bool_",
    10: "np.float16",
    11: "np.float64",
    12: "np.uint32",
    13: "np.uint64",
    14: "np.complex64",
    15: "np.complex128",
}


def _np_float(value: float, kind: type[np.floating[Any]]) -> str:
    if math.isfinite(value):
        text = str(kind(value))
        return text if any(c in text for c in ".en") else text + ".0"
    if math.isnan(value):
        return "np.nan"
    return "np.inf" if value > 0 else "-np.inf"


def _formatter(code: int) -> Callable[[Any], str]:
    if code == 1:
        return lambda v: _np_float(v, np.float32)
    if code == 10:
        return lambda v: _np_float(v, np.float16)
    if code == 11:
        return lambda v: _np_float(v, np.float64) if not math.isfinite(v) else repr(float(v))
    if code == 9:
        return lambda v: "True" if v else "False"
    if code in (14, 15):
        part = np.float32 if code == 14 else np.float64

        def fmt_complex(v: complex) -> str:
            return f"complex({_np_float(v.real, part)}, {_np_float(v.imag, part)})"

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
            self.imports.names.add("model_tensor")
            return f"model_tensor({string(self.tensor_file)}, {string(file_key)})"
        inline = count <= self.inline_limit
        text, needs_module = self._literal(tensor, inline)
        if inline and not needs_module:
            return text
        return self._module_constant(value_name or "tensor", text)

    def proto_expression(self, tensor: onnx.TensorProto) -> str:
        """An expression whose value is ``tensor`` as an ``onnx.TensorProto`` (for use at
        module level, inside other ``onnx.helper`` calls)."""
        text, _ = self._literal(tensor, inline=False)
        if text.startswith("np."):
            self.imports.modules.add("onnx")
            return f"onnx.numpy_helper.from_array({text})"
        return text

    def _module_constant(self, value_name: str, text: str) -> str:
        name = self.names.take(
            value_name.upper() if value_name.islower() else value_name, default="T"
        )
        self.module_lines.append(f"{name} = {text}")
        return name

    def _external(self, tensor: onnx.TensorProto) -> str:
        info = {entry.key: entry.value for entry in tensor.external_data}
        self.imports.names.add("external_tensor")
        args = [
            string(tensor.name),
            str(tensor.data_type),
            str(list(tensor.dims)),
            string(info.get("location", "")),
        ]
        for key in ("offset", "length"):
            if key in info and info[key].isdigit():
                args.append(f"{key}={int(info[key])}")
        if "checksum" in info:
            args.append(f"checksum={string(info['checksum'])}")
        return f"external_tensor({', '.join(args)})"

    def _literal(self, tensor: onnx.TensorProto, inline: bool) -> tuple[str, bool]:
        """(expression, whether it must live at module level)."""
        code = tensor.data_type
        dims = list(tensor.dims)
        array = onnx.numpy_helper.to_array(tensor)
        indent = ""
        if code in _NUMPY_NAMES:
            self.imports.modules.add("np")
            dtype = _NUMPY_NAMES[code]
            fmt = _formatter(code)
            flat = array.reshape(-1).tolist()
            items = [fmt(v) for v in flat]
            return self._array_text(items, dims, f"dtype={dtype}", inline, indent), False
        if code == onnx.TensorProto.STRING:
            self.imports.modules.add("np")
            flat = array.reshape(-1).tolist()
            raw = [v if isinstance(v, bytes) else str(v).encode("utf-8") for v in flat]
            try:
                items = [string(v.decode("utf-8")) for v in raw]
            except UnicodeDecodeError:
                self.imports.modules.add("onnx")
                values = _wrapped([repr(v) for v in raw], indent)
                text = f"onnx.helper.make_tensor('', onnx.TensorProto.STRING, {dims}, {values})"
                return text, True
            return self._array_text(items, dims, "dtype=object", inline, indent), False
        return self._other(tensor, array, dims, inline, indent)

    def _array_text(
        self, items: list[str], dims: list[int], dtype: str, inline: bool, indent: str
    ) -> str:
        if not dims:
            return f"np.array({items[0]}, {dtype})"
        if not items:
            return f"np.empty({tuple(dims)!r}, {dtype})"
        if inline or len(dims) == 1:
            body = _nested(items, dims) if inline else _wrapped(items, indent)
            return f"np.array({body}, {dtype})"
        shape = ", ".join(str(d) for d in dims)
        return f"np.array({_wrapped(items, indent)}, {dtype}).reshape({shape})"

    def _other(
        self,
        tensor: onnx.TensorProto,
        array: np.ndarray,
        dims: list[int],
        inline: bool,
        indent: str,
    ) -> tuple[str, bool]:
        """Element types numpy lacks: values through ``make_tensor`` when exact, else bytes."""
        self.imports.modules.add("onnx")
        code = tensor.data_type
        type_name = dtypes.NAMES.get(code) if code else "UNDEFINED"
        dtype = f"onnx.TensorProto.{type_name}" if type_name else str(code)
        original = onnx.numpy_helper.to_array(tensor)
        try:
            values = array.astype(np.float64).reshape(-1).tolist()
            candidate = onnx.helper.make_tensor("", code, dims, values)
            same = onnx.numpy_helper.to_array(candidate).tobytes() == original.tobytes()
        except Exception:
            same = False
        if same:
            items = [python_float(v) for v in values]
            return f"onnx.helper.make_tensor('', {dtype}, {dims}, {_wrapped(items, indent)})", False
        raw = onnx.numpy_helper.from_array(original).raw_data
        return f"onnx.helper.make_tensor('', {dtype}, {dims}, {raw!r}, raw=True)", True


def sparse_expression(sparse: onnx.SparseTensorProto, writer: TensorWriter, name: str) -> str:
    """A module-level constant rebuilding a sparse tensor; its name is returned."""
    writer.imports.modules.add("onnx")
    values = writer.proto_expression(sparse.values)
    indices = writer.proto_expression(sparse.indices)
    text = f"onnx.helper.make_sparse_tensor({values}, {indices}, {list(sparse.dims)})"
    return writer._module_constant(name + "_sparse", text)
