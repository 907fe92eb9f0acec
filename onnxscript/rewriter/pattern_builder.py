"""Pattern functions: ``def pat(op, x, y): return op.Add(op.MatMul(x, y), ...)`` run once
with ``op`` an :class:`OpsetPatternBuilder` and each other parameter a pattern variable,
giving a :class:`~onnxscript.rewriter.pattern_graph.GraphPattern`."""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from onnxscript.rewriter.pattern_graph import (
    CURRENT_OPSET,
    GraphPattern,
    NodeOutputPattern,
    NodePattern,
    PrefixPattern,
    StringPattern,
    ValuePattern,
    to_attr_pattern,
    to_string_pattern,
)


class OpPatternBuilder:
    """``op.Add``: called with the op's inputs and attributes, it makes a node pattern.

    Keywords with a leading underscore control matching: ``_domain``, ``_version``
    (ignored: any version matches), ``_outputs`` (a count or a list of names binding the
    outputs), ``_allow_other_attributes`` (default True), ``_allow_other_inputs``
    (default False), ``_check`` (a node checker)."""

    def __init__(self, opset: OpsetPatternBuilder, op_type: str | StringPattern) -> None:
        self._opset = opset
        self._op = to_string_pattern(op_type)

    def __call__(
        self,
        *inputs: Any,
        _domain: str | StringPattern | None = None,
        _version: int | None = None,
        _outputs: int | Sequence[str | None] = 1,
        _allow_other_attributes: bool | None = None,
        _allow_other_inputs: bool | None = None,
        _check: Callable[..., Any] | None = None,
        **attributes: Any,
    ) -> Any:
        domain = to_string_pattern(_domain) if _domain is not None else self._opset.domain
        outputs: list[str | None] = (
            [None] * _outputs if isinstance(_outputs, int) else list(_outputs)
        )
        node = NodePattern(
            domain,
            self._op,
            inputs,
            {name: to_attr_pattern(value) for name, value in attributes.items()},
            outputs,
            allow_other_attributes=True
            if _allow_other_attributes is None
            else _allow_other_attributes,
            allow_other_inputs=bool(_allow_other_inputs),
            check=_check,
        )
        if self._opset.nodes is not None:
            self._opset.nodes.append(node)
        if len(node.outputs) == 1:
            return node.outputs[0]
        return tuple(node.outputs)


class OpsetPatternBuilder:
    """The ``op`` of a pattern function: ``op.Relu(x)`` is a pattern of a Relu node in
    this builder's domain; ``op.domain`` that domain (a string pattern)."""

    def __init__(self, domain: str | StringPattern, record: bool = False) -> None:
        self._domain = to_string_pattern(domain)
        self.nodes: list[NodePattern] | None = [] if record else None
        """The node patterns made, in order, when ``record``."""

    @property
    def domain(self) -> StringPattern:
        return self._domain

    def __getattr__(self, op_type: str) -> OpPatternBuilder:
        if op_type.startswith("__"):
            raise AttributeError(op_type)
        return OpPatternBuilder(self, op_type)

    def submodule(self, name: str) -> OpPatternBuilder:
        """A pattern of a call of a model-local function whose name starts with ``name``
        (torch names a module's function after its class and then its instance:
        ``submodule("torch_nn_modules_linear_Linear")`` matches every Linear), as 0.7."""
        return OpPatternBuilder(self, PrefixPattern(name))


onnxop = OpsetPatternBuilder("")
msft_op = OpsetPatternBuilder("com.microsoft")
torch_module_op = OpsetPatternBuilder(PrefixPattern("pkg.torch"))
"""Calls of the functions torch.onnx makes of modules (domains ``pkg.torch...``)."""


@contextlib.contextmanager
def pattern_builder(builder: OpsetPatternBuilder) -> Iterator[None]:
    """Within the block, ``x + y`` (and the other operators) of value patterns build
    nodes with ``builder`` (its domain; recorded when it records)."""
    token = CURRENT_OPSET.set(builder)
    try:
        yield
    finally:
        CURRENT_OPSET.reset(token)


def trace_pattern(function: Callable[..., Any]) -> GraphPattern:
    """The pattern ``function`` builds: its first parameter gets the pattern builder, the
    others (positional or keyword, not ``*args``/``**kwargs``) a variable each."""
    names = _value_parameters(function)
    variables = [ValuePattern(name) for name in names]
    builder = OpsetPatternBuilder("")
    with pattern_builder(builder):
        result = function(builder, *variables)
    outputs = list(result) if isinstance(result, (tuple, list)) else [result]
    for output in outputs:
        if not isinstance(output, NodeOutputPattern):
            where = getattr(function, "__qualname__", repr(function))
            raise TypeError(
                f"the pattern function {where} must return values computed by op calls "
                f"of its builder, got {output!r}"
            )
    return GraphPattern(variables, outputs)


def _value_parameters(function: Callable[..., Any]) -> list[str]:
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    parameters = [p for p in inspect.signature(function).parameters.values() if p.kind in kinds]
    if not parameters:
        where = getattr(function, "__qualname__", repr(function))
        raise TypeError(f"the pattern function {where} must take the op builder first")
    return [p.name for p in parameters[1:]]


__all__ = [
    "OpPatternBuilder",
    "OpsetPatternBuilder",
    "msft_op",
    "onnxop",
    "pattern_builder",
    "torch_module_op",
    "trace_pattern",
]
