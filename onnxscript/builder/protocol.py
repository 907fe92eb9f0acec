"""What the builder's helper modules (calls, op builders, subgraphs) need of a
``GraphBuilder``: a protocol in a leaf module, so that they import no ``GraphBuilder``
and ``graph_builder`` can import them (imports point down, no module cycle)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import onnx_ir as ir

from onnxscript.builder.naming import Names
from onnxscript.language import binding

Outputs = int | Sequence[str | ir.Value] | None
"""``_outputs=``: how many outputs, or their names, or the values to use as outputs."""


class Recorder(Protocol):
    """A builder recording nodes into :attr:`graph` (see ``GraphBuilder``)."""

    infer_shapes: bool

    @property
    def graph(self) -> ir.Graph: ...

    @property
    def names(self) -> Names: ...

    @property
    def root(self) -> Recorder:
        """The builder of the outermost graph."""

    @property
    def functions(self) -> dict[tuple[str, str, str], ir.Function]: ...

    @property
    def op(self) -> Any:
        """The ``OpBuilder`` of the default domain."""

    def record(
        self,
        op_type: str,
        domain: str,
        version: int | None,
        args: Sequence[Any],
        kwargs: Mapping[str, Any],
        outputs: Outputs,
        node_name: str | None = None,
        *,
        signature: binding.Signature | None = None,
        all_outputs: bool = True,
    ) -> tuple[ir.Value, ...]: ...

    def as_input(
        self, sig: binding.Signature, slot: int, value: Any, values: Sequence[Any], op: str
    ) -> ir.Value | None: ...

    def add_node(self, node: ir.Node) -> ir.Node: ...

    def add_output(self, value: ir.Value, name: str | None = None) -> ir.Value: ...

    def initializer(self, tensor: ir.TensorProtocol, name: str | None = None) -> ir.Value: ...

    def register_initializer(self, value: ir.Value, *, qualify: bool = True) -> ir.Value: ...

    def use_opset(self, domain: str, version: int | None) -> int: ...

    def child(self, graph: ir.Graph) -> Recorder: ...

    def call(self, function: Any, *args: Any, _outputs: Outputs = None, **kwargs: Any) -> Any: ...

    def call_inline(
        self,
        function: Any,
        *args: Any,
        _outputs: Sequence[str] | None = None,
        _prefix: str = "",
        **kwargs: Any,
    ) -> Any: ...

    def module(
        self, module: str, class_name: str = ""
    ) -> contextlib.AbstractContextManager[Any]: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: object) -> None: ...


__all__ = ["Outputs", "Recorder"]
