"""``Parameter``: a weight of a module, an ``onnx_ir.Value`` that becomes an initializer.

A parameter is passed to ops like any value (``op.MatMul(x, self.weight)``). When its
module is called, the parameter is registered as an initializer of the root graph, named
by the module scope and its own name (``layer1.weight``); a later call reuses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import onnx_ir as ir

from onnxscript.nn.state import StateDictError, fitted

if TYPE_CHECKING:
    from onnxscript.builder.protocol import Recorder


class Parameter(ir.Value):
    """A tensor of ``shape`` and ``dtype`` (float32 unless ``data`` says otherwise).

    ``name`` defaults to the attribute name it is assigned to in a module; ``data`` (an
    ``onnx_ir`` tensor, numpy array or torch tensor) is its value, also settable later
    with ``Module.load_state_dict``. A parameter without data becomes an initializer
    without a value (onnx_ir leaves it out when serializing).
    """

    def __init__(
        self,
        shape: Sequence[int],
        dtype: ir.DataType | None = None,
        name: str | None = None,
        data: object | None = None,
    ) -> None:
        dims = [int(d) for d in shape]
        tensor = None
        if data is not None:
            tensor = fitted(data, name or "data", ir.Shape(dims), dtype)
            dtype = tensor.dtype
        super().__init__(
            name=name,
            shape=ir.Shape(dims),
            type=ir.TensorType(dtype if dtype is not None else ir.DataType.FLOAT),
            const_value=tensor,
        )
        self._realized = False

    def __repr__(self) -> str:
        dims = list(self.shape.dims) if self.shape is not None else None
        dtype = self.dtype.name if self.dtype is not None else None
        return f"Parameter(shape={dims}, dtype={dtype}, name={self.name!r})"

    @property
    def data(self) -> ir.TensorProtocol | None:
        """The parameter's value (its ``const_value``), or None."""
        return self.const_value

    def set_data(self, value: object, key: str = "") -> None:
        """Give the parameter a value of its shape (cast to its element type)."""
        tensor = fitted(value, key or self.name or "parameter", self.shape, self.dtype)
        if self.name is not None:
            tensor.name = self.name
        self.const_value = tensor

    def realize(self, builder: Recorder) -> Parameter:
        """Register the parameter as an initializer of ``builder``'s root graph, named
        with the current module scope (done once; later calls return it as it is)."""
        if not self._realized:
            if self.name is None:
                raise StateDictError(
                    "a Parameter used outside a module needs a name: Parameter(shape, name=...)"
                )
            builder.register_initializer(self)
            self._realized = True
        return self

    _realize = realize  # onnxscript 0.7's name


__all__ = ["Parameter"]
