"""``op.Gelu(x, approximate="tanh")``: a real node made and recorded (inserted later by
whoever called the building function: a rewrite rule once its replacement function returns,
the constant folder once a partial evaluator does)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx_ir as ir


class NodeRecorder:
    """Records the nodes made by ``op.X(...)`` calls: the ``op`` of a rewrite rule's
    replacement function and of the constant folder's partial evaluators.

    ``op.OpType(*inputs, _domain="", _version=None, _outputs=1, **attributes)``: inputs
    are values, None (an omitted input) or numbers / arrays (made Constants);
    ``_outputs`` is a count or a list of output names, ``_name`` the node's name;
    attributes take Python values, tensors, graphs or the ``ir.Attr`` a pattern bound
    (renamed to the keyword). ``nodes``, ``initializers`` and ``used_opsets`` are what it
    recorded (0.7.2's ``TapeBuilder``)."""

    def __init__(self) -> None:
        self.nodes: list[ir.Node] = []
        self.initializers: list[ir.Value] = []
        self.used_opsets: set[tuple[str, int | None]] = set()

    def _add_node(self, node: ir.Node) -> None:
        self.nodes.append(node)

    def _add_initializer(self, value: ir.Value) -> None:
        self.initializers.append(value)

    def _record_opset(self, domain: str, version: int | None) -> None:
        self.used_opsets.add((domain, version))

    def __getattr__(self, op_type: str) -> Any:
        if op_type.startswith("_"):
            raise AttributeError(op_type)

        def make(*inputs: Any, **kwargs: Any) -> Any:
            return self.op_multi_out(op_type, inputs, **kwargs)

        return make

    def op(self, op_type: str, *inputs: Any, **kwargs: Any) -> Any:
        """``op.op("BiasGelu", x, b, _domain="com.microsoft")``: an op named by a string
        (as 0.7's replacement builder allows), otherwise like ``op.BiasGelu(x, b, ...)``."""
        return self.op_multi_out(op_type, inputs, **kwargs)

    def op_multi_out(
        self,
        op_type: str,
        inputs: Sequence[Any],
        *,
        _domain: str = "",
        _version: int | None = None,
        _outputs: int | Sequence[str] = 1,
        _name: str | None = None,
        **attributes: Any,
    ) -> Any:
        domain = "" if _domain == "ai.onnx" else _domain
        values = [self._input(x) for x in inputs]
        count = _outputs if isinstance(_outputs, int) else len(_outputs)
        attrs = _attributes(attributes)
        node = ir.Node(
            domain, op_type, values, attrs, num_outputs=count, version=_version, name=_name
        )
        if not isinstance(_outputs, int):
            for value, name in zip(node.outputs, _outputs):
                value.name = name or None
        self._add_node(node)
        self._record_opset(domain, _version)
        return node.outputs[0] if count == 1 else tuple(node.outputs)

    def initializer(self, tensor: ir.TensorProtocol, name: str | None = None) -> ir.Value:
        """A new constant of the graph (an initializer of the main graph; a Constant node
        inside functions and subgraphs), named ``name`` or else the tensor's name (one of
        them is required, as in 0.7.2; a name the graph has already gets a suffix)."""
        if not (name or tensor.name):
            raise ValueError("an initializer needs a name (give name=... or a named tensor)")
        value = ir.Value(name=name or tensor.name, const_value=tensor)
        value.type = ir.TensorType(tensor.dtype)
        value.shape = ir.Shape(tensor.shape.numpy())
        self._add_initializer(value)
        return value

    def _input(self, x: Any) -> ir.Value | None:
        if x is None or isinstance(x, ir.Value):
            return x
        if isinstance(x, (bool, int, float, np.ndarray, np.generic, list)):
            array = np.asarray(x)
            if array.dtype == np.float64 and not isinstance(x, np.ndarray):
                array = array.astype(np.float32)
            out = self.op_multi_out("Constant", [], value=ir.tensor(array))
            assert isinstance(out, ir.Value)
            return out
        if isinstance(x, ir.TensorProtocol):
            out = self.op_multi_out("Constant", [], value=x)
            assert isinstance(out, ir.Value)
            return out
        raise TypeError(f"a replacement op's input must be a value or None, got {x!r}")


def _attributes(attributes: dict[str, Any]) -> list[ir.Attr]:
    result = []
    for name, value in attributes.items():
        if value is None:
            continue
        if isinstance(value, ir.Attr):
            result.append(_renamed(value, name))
        else:
            result.append(ir.convenience.convert_attribute(name, value))
    return result


def _renamed(attr: ir.Attr, name: str) -> ir.Attr:
    if attr.name == name:
        return attr
    if attr.is_ref():
        return ir.RefAttr(name, attr.ref_attr_name, attr.type)  # type: ignore[arg-type]
    return ir.Attr(name, attr.type, attr.value)


__all__ = ["NodeRecorder"]
