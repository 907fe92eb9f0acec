"""What an adapter works with: the node being converted and helpers to rewrite it.

An adapter is a function of a :class:`Rewrite`. It changes the node in place (attributes,
inputs, op type) or builds new nodes around it; new nodes are inserted into the node's
graph, named uniquely in the model and given the node's ``metadata_props``. Constants an
adapter creates are ``Constant`` nodes (the same in a main graph, a subgraph or a function
body, where initializers cannot be).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

import numpy as np
import onnx_ir as ir

from onnxscript.errors import OnnxScriptError
from onnxscript.ir_utils import value_facts
from onnxscript.unique_names import UniqueNames
from onnxscript.version_converter._versions import Key


class VersionConversionError(OnnxScriptError, ValueError, RuntimeError):
    """A node cannot be converted to the requested opset. Also a ``RuntimeError``, the
    base of onnxscript 0.7's ``VersionConverterError``, which code written for it catches."""


@dataclasses.dataclass
class Rewrite:
    """One step of one node: ``key`` is (op_type, from_version, to_version); ``opset`` is
    the opset the node and the nodes built for it stand at after the step."""

    node: ir.Node
    key: Key
    opset: int
    names: UniqueNames
    in_function: bool = False
    """Whether the node is in a function body (which cannot hold initializers)."""
    types: Mapping[ir.Value, ir.TypeProtocol] = dataclasses.field(default_factory=dict)
    """Types of values that record none, inferred before the conversion (the driver's)."""
    created: list[ir.Node] = dataclasses.field(default_factory=list)
    _cursor: ir.Node | None = None

    # -- reading -------------------------------------------------------------------------

    def fail(self, reason: str) -> NoReturn:
        """Stop: the node cannot take this step."""
        op, source, target = self.key
        name = self.node.name or "<unnamed>"
        raise VersionConversionError(
            f"{op} node {name!r} cannot be converted from version {source} to {target}: {reason}"
        )

    def attr(self, name: str, default: Any = None) -> Any:
        """An attribute's Python value (str for strings, list for repeated fields)."""
        attr = self.node.attributes.get(name)
        if attr is None:
            return default
        if attr.is_ref():
            self.fail(f"attribute {name!r} refers to a function attribute")
        value = attr.value
        if isinstance(value, Sequence) and not isinstance(value, str):
            return list(value)
        return value

    def input(self, index: int) -> ir.Value | None:
        inputs = self.node.inputs
        return inputs[index] if index < len(inputs) else None

    def constant(self, index: int) -> np.ndarray | None:
        """Input ``index``'s contents when it is a constant (``ir_utils.value_facts``: not
        a graph input's initializer; at most ``READ_LIMIT`` elements), else None."""
        return value_facts.constant_array(self.input(index))

    def required_constant(self, index: int, what: str) -> np.ndarray:
        """Input ``index``'s contents; fails unless it is a constant."""
        array = self.constant(index)
        if array is None:
            self.fail(f"{what} (input {index}) must be a constant or an initializer")
        return array

    def rank(self, value: ir.Value | None) -> int | None:
        return value_facts.rank(value)

    def required_rank(self, value: ir.Value | None, why: str) -> int:
        rank = self.rank(value)
        if rank is None:
            self.fail(f"the rank of {_label(value)} is unknown ({why})")
        return rank

    def dims(self, value: ir.Value | None) -> list[int | None] | None:
        """The value's dimensions (``None`` for symbolic ones), if its rank is known."""
        found = value_facts.dims(value)
        return None if found is None else [d if isinstance(d, int) else None for d in found]

    def dtype(self, value: ir.Value | None) -> ir.DataType | None:
        """The value's element type: recorded, else inferred before the conversion."""
        if value is None:
            return None
        if value.dtype is not None:
            return value.dtype
        inferred = self.types.get(value)
        return inferred.dtype if isinstance(inferred, ir.TensorType) else None

    def required_dtype(self, value: ir.Value | None) -> ir.DataType:
        dtype = self.dtype(value)
        if dtype is None:
            self.fail(f"the element type of {_label(value)} is unknown")
        return dtype

    # -- changing the node ---------------------------------------------------------------

    def set_attr(self, name: str, value: Any) -> None:
        self.node.attributes[name] = ir.convenience.convert_attribute(name, value)

    def drop_attr(self, *names: str) -> None:
        for name in names:
            self.node.attributes.pop(name, None)

    def set_input(self, index: int, value: ir.Value | None) -> None:
        """Set input ``index`` (the inputs grow as needed; trailing empty ones go)."""
        if index >= len(self.node.inputs):
            self.node.resize_inputs(index + 1)
        previous = self.node.inputs[index]
        self.node.replace_input_with(index, value)
        if previous is not value:
            _discard_if_unused(previous)
        self.trim_inputs()

    def trim_inputs(self) -> None:
        inputs = self.node.inputs
        size = len(inputs)
        while size and inputs[size - 1] is None:
            size -= 1
        self.node.resize_inputs(size)

    def drop_input(self, index: int) -> None:
        """Input ``index`` omitted (a Constant node left without readers goes too)."""
        if index < len(self.node.inputs):
            value = self.node.inputs[index]
            self.node.replace_input_with(index, None)
            _discard_if_unused(value)
        self.trim_inputs()

    # -- building nodes ------------------------------------------------------------------

    def op(
        self,
        op_type: str,
        inputs: Sequence[ir.Value | None],
        attributes: Mapping[str, Any] | None = None,
        *,
        outputs: int = 1,
        after: bool = False,
    ) -> Sequence[ir.Value]:
        """A new ai.onnx node before the node (or after it, and after the nodes already
        put after it, when ``after``); returns its outputs."""
        base = self.node.name or self.node.op_type
        node = ir.node(
            op_type,
            inputs,
            {k: v for k, v in (attributes or {}).items() if v is not None},
            num_outputs=outputs,
            name=self.names.claim(f"{base}/{op_type}"),
            metadata_props=dict(self.node.metadata_props),
        )
        for value in node.outputs:
            value.name = self.names.claim(f"{base}_{op_type.lower()}")
        graph = self.node.graph
        assert graph is not None
        if after:
            graph.insert_after(self._cursor or self.node, node)
            self._cursor = node
        else:
            graph.insert_before(self.node, node)
        self.created.append(node)
        return node.outputs

    def adopt(self, nodes: Sequence[ir.Node], initializers: Sequence[ir.Value] = ()) -> None:
        """Put ``nodes`` (built elsewhere, in order) before the node, named and given its
        metadata as :meth:`op` does; ``initializers`` become the graph's."""
        graph = self.node.graph
        assert graph is not None
        base = self.node.name or self.node.op_type
        for value in initializers:
            if self.in_function:
                self.fail("an adapter's initializer cannot go into a function body")
            value.name = self.names.claim(value.name or f"{base}_constant")
            graph.register_initializer(value)
        for node in nodes:
            node.name = self.names.claim(f"{base}/{node.op_type}")
            for key, text in self.node.metadata_props.items():
                node.metadata_props.setdefault(key, text)
            for output in node.outputs:
                output.name = self.names.claim(output.name or f"{base}_{node.op_type.lower()}")
            graph.insert_before(self.node, node)
            self.created.append(node)

    def op1(
        self,
        op_type: str,
        inputs: Sequence[ir.Value | None],
        attributes: Mapping[str, Any] | None = None,
        *,
        after: bool = False,
    ) -> ir.Value:
        """:meth:`op` for a one-output op."""
        return self.op(op_type, inputs, attributes, after=after)[0]

    def const(self, array: Any, dtype: Any = None) -> ir.Value:
        """A Constant node holding ``array`` (converted to ``dtype`` when given)."""
        if isinstance(dtype, ir.DataType):
            dtype = dtype.numpy()
        data = np.asarray(array, dtype=dtype)
        if self.opset < 9 and data.dtype.kind != "f":
            return self._initializer(data)
        value = self.op1("Constant", [], {"value": ir.tensor(data)})
        value.dtype = ir.DataType.from_numpy(data.dtype)
        value.shape = ir.Shape(data.shape)
        return value

    def _initializer(self, data: np.ndarray) -> ir.Value:
        """Before opset 9 a Constant holds floating-point tensors only: others become
        initializers (which a function body cannot have)."""
        graph = self.node.graph
        if graph is None or self.in_function:
            self.fail(f"a {data.dtype} constant needs opset 9 inside a function")
        base = self.node.name or self.node.op_type
        value = ir.Value(
            name=self.names.claim(f"{base}_constant"),
            type=ir.TensorType(ir.DataType.from_numpy(data.dtype)),
            shape=ir.Shape(data.shape),
            const_value=ir.tensor(data),
        )
        graph.register_initializer(value)
        return value

    def through(self, index: int, build: Callable[[ir.Value], ir.Value]) -> None:
        """Pass output ``index`` through ``build`` (nodes made with ``after=True``): its
        readers, and the graph output it may be, then read ``build``'s result, which takes
        the output's name and, unless ``build`` set them, its type and shape."""
        output = self.node.outputs[index]
        readers = list(output.uses())
        result = build(output)
        self._take_over(output, result, readers)

    def replace_output(self, index: int, result: ir.Value) -> None:
        """Output ``index``'s readers (and graph output) read ``result`` (built before the
        node) instead; the output is left unused."""
        output = self.node.outputs[index]
        self._take_over(output, result, list(output.uses()))

    def replace_outputs(self, results: Sequence[ir.Value]) -> None:
        """The node's outputs are computed by ``results`` (built with :meth:`op`, before
        the node); the node goes."""
        for output, result in zip(self.node.outputs, results):
            self._take_over(output, result, list(output.uses()))
        graph = self.node.graph
        assert graph is not None
        graph.remove(self.node, safe=True)

    def _take_over(
        self, old: ir.Value, new: ir.Value, readers: Sequence[tuple[ir.Node, int]]
    ) -> None:
        for user, position in readers:
            user.replace_input_with(position, new)
        graph = self.node.graph
        assert graph is not None
        for position, output in enumerate(graph.outputs):
            if output is old:
                graph.outputs[position] = new
        if new.type is None:
            new.type = old.type
        if new.shape is None and old.shape is not None:
            new.shape = old.shape.copy()
        old.shape = None  # what the node computes now may be shaped differently
        carry_metadata(new, old)
        name = old.name
        old.name = self.names.claim(f"{name or 'value'}_before")
        new.name = name


def carry_metadata(target: ir.Value | ir.Node, source: ir.Value | ir.Node) -> None:
    """``source``'s metadata keys that ``target`` lacks (the rule of
    ``onnxscript.ir_utils.metadata``: a value taking an output's place gains its keys)."""
    for key, value in source.metadata_props.items():
        target.metadata_props.setdefault(key, value)


def _discard_if_unused(value: ir.Value | None) -> None:
    producer = None if value is None else value.producer()
    if value is None or producer is None or producer.graph is None:
        return
    constant = producer.op_type == "Constant" and producer.domain == ""
    if constant and not value.uses() and not value.is_graph_output():
        producer.graph.remove(producer, safe=True)


def _label(value: ir.Value | None) -> str:
    return "an omitted input" if value is None else repr(value.name)


Adapt = Callable[[Rewrite], None]


@dataclasses.dataclass(frozen=True)
class Adapter:
    """How a node takes one step, and a one-line summary for the documentation."""

    apply: Adapt
    summary: str


def nothing(rewrite: Rewrite) -> None:
    """The node means the same after the step (its types are checked at the end)."""


__all__ = [
    "Adapt",
    "Adapter",
    "Rewrite",
    "VersionConversionError",
    "carry_metadata",
    "nothing",
]
