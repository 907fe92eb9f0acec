"""``OpBuilder``: ``op.Add(x, y)`` records an ``Add`` node through its ``GraphBuilder``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import onnx_ir as ir

from onnxscript.builder.protocol import Outputs, Recorder


class OpBuilder:
    """The ops of one domain and version, recorded into a builder's graph.

    ``op.X(*inputs, **attributes)`` records op ``X``; keywords ``_outputs`` (count, names
    or values), ``_domain``/``_version`` (another domain for this call) and ``_name`` (the
    node's name) steer the call. One output gives a value, several a tuple.

    Without ``_outputs`` the node gets the outputs its schema requires (at least one), as
    onnxscript 0.7's builder: ``op.LayerNormalization(x, w)`` is one value, ``op.TopK(x,
    k)`` two, ``op.Split(x, num_outputs=3)`` three.
    """

    def __init__(self, builder: Recorder, domain: str, version: int) -> None:
        self._builder = builder
        self._domain = domain
        self._version = version
        self._callers: dict[str, Callable[..., Any]] = {}

    @property
    def builder(self) -> Recorder:
        """The ``GraphBuilder`` this op builder records into."""
        return self._builder

    @property
    def domain(self) -> str:
        return self._domain

    @property
    def version(self) -> int:
        return self._version

    @property
    def functions(self) -> dict[tuple[str, str, str], ir.Function]:
        return self._builder.functions

    def __repr__(self) -> str:
        return f"OpBuilder({self._domain!r}, {self._version})"

    def __onnx_opset__(self) -> tuple[str, int]:
        """The (domain, version) this builder records: the opset it stands for in
        ``@script(default_opset=op)`` and in ``op.X`` calls of a script defined in
        builder code."""
        return self._domain, self._version

    def __getattr__(self, op_type: str) -> Callable[..., Any]:
        if op_type.startswith("_"):
            raise AttributeError(op_type)
        caller = self._callers.get(op_type)
        if caller is None:
            caller = self._callers[op_type] = self._caller(op_type)
        return caller

    def _caller(self, op_type: str) -> Callable[..., Any]:
        record = self._builder.record
        domain, version = self._domain, self._version

        def call(*args: Any, **kwargs: Any) -> Any:
            if not kwargs:
                results = record(op_type, domain, version, args, kwargs, None, all_outputs=False)
                return results[0] if len(results) == 1 else results
            outputs: Outputs = kwargs.pop("_outputs", None)
            name = kwargs.pop("_name", None)
            call_domain = kwargs.pop("_domain", domain)
            call_version = kwargs.pop("_version", version if call_domain == domain else None)
            results = record(
                op_type, call_domain, call_version, args, kwargs, outputs, name, all_outputs=False
            )
            return results[0] if len(results) == 1 else results

        call.__name__ = call.__qualname__ = op_type
        return call

    def initializer(self, tensor: ir.TensorProtocol, name: str | None = None) -> ir.Value:
        return self._builder.initializer(tensor, name)

    def call(self, function: Any, *args: Any, _outputs: Outputs = None, **kwargs: Any) -> Any:
        """``builder.call``: the function as one node, added to the model's functions."""
        return self._builder.call(function, *args, _outputs=_outputs, **kwargs)

    def call_inline(
        self,
        function: Any,
        *args: Any,
        _outputs: Sequence[str] | None = None,
        _prefix: str = "",
        **kwargs: Any,
    ) -> Any:
        """``builder.call_inline``: the function's body copied into the graph."""
        return self._builder.call_inline(
            function, *args, _outputs=_outputs, _prefix=_prefix, **kwargs
        )


__all__ = ["OpBuilder"]
