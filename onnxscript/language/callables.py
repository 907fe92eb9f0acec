"""The callables of the script language as every part of onnxscript sees them: an op of an
opset (:class:`OpRef`), a script function (:class:`FunctionRef`) and a nested function used
as a graph attribute (:class:`GraphBody`).

``values.Op``, ``values.OnnxFunction`` and ``values.GraphFunction`` derive from these. The
converter compiles calls of them, and evaluators receive them (``evaluator.protocol``);
evaluators that emit ops of their own make plain ``OpRef`` objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from onnxscript import schemas
from onnxscript.language import binding

if TYPE_CHECKING:
    import onnx.defs

    from onnxscript.language.binding import Signature
    from onnxscript.program.graph import Function


_UNKNOWN: Any = object()


class OpRef:
    """An operator: domain, name, the opset version it is called at, its schema (``None``
    for ops of custom domains) and its calling convention. ``values.Op`` (what
    ``opset18.Add`` is) derives from this.

    The ``onnx.defs.OpSchema`` is fetched on first use of ``op_schema``: compiling needs
    only ``call_signature``, which comes from the schema index (``onnxscript.schemas``).
    """

    def __init__(
        self, domain: str, name: str, version: int, schema: onnx.defs.OpSchema | None = _UNKNOWN
    ) -> None:
        self.domain = domain
        self.name = name
        self.version = version
        self._schema = schema
        self._call_signature: Signature | None = None

    @property
    def op_schema(self) -> onnx.defs.OpSchema | None:
        """The op's ``onnx.defs.OpSchema`` (``None`` for custom-domain ops)."""
        if self._schema is _UNKNOWN:
            self._schema = (
                schemas.get_schema(self.domain, self.name, self.version)
                if schemas.has_schemas(self.domain)
                else None
            )
        return self._schema

    @property
    def schema(self) -> onnx.defs.OpSchema | None:
        """The same as ``op_schema``."""
        return self.op_schema

    @property
    def call_signature(self) -> Signature:
        """How call arguments map onto this op's inputs and attributes."""
        if self._call_signature is None:
            facts = (
                schemas.op_facts(self.domain, self.name, self.version)
                if schemas.has_schemas(self.domain)
                else None
            )
            self._call_signature = (
                binding.from_facts(facts) if facts is not None else binding.free_form(self.name)
            )
        return self._call_signature

    def __repr__(self) -> str:
        return f"OpRef({self.domain!r}, {self.name!r}, {self.version})"


class FunctionRef:
    """Base class of script functions (``values.OnnxFunction`` and
    ``values.TracedOnnxFunction`` derive from it): ``name``, ``domain``, ``version``,
    ``call_signature``, ``function`` (the Python function), ``source``, ``function_ir``
    (the compiled program) and ``traceable`` (calls run the Python body)."""

    name: str
    domain: str
    version: int
    call_signature: Signature
    function: Callable[..., Any]
    function_ir: Function
    source: str
    traceable: bool = False


class GraphBody:
    """Base class of nested functions marked ``@graph()`` (graph-valued attributes such as a
    ``Scan`` body); eagerly they run as Python functions."""
