"""State shared while compiling one script function: its source, opsets and callees."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from onnxscript.converter.errors import SourceText
from onnxscript.converter.scope import PythonScope
from onnxscript.converter.symbols import AttrRef
from onnxscript.ir.graph import Function


@dataclass
class FunctionContext:
    """Per-function compilation state (one per ``@script`` decoration).

    ``default_version`` is the ai.onnx opset used for nodes the converter adds on its own
    (operators, indexing); it is imported only if such a node is emitted.
    """

    source: SourceText
    scope: PythonScope
    attr_params: dict[str, AttrRef]
    default_version: int
    default_version_source: str
    local_names: frozenset[str]
    opset_imports: dict[str, int] = field(default_factory=dict)
    opset_origin: dict[str, ast.AST | None] = field(default_factory=dict)
    callees: list[Function] = field(default_factory=list)

    def default_opset_version(self) -> int:
        self.use_opset("", self.default_version, None)
        return self.default_version

    def use_opset(self, domain: str, version: int, node: ast.AST | None) -> None:
        """Record that the function uses ``domain`` at ``version``; versions must agree."""
        known = self.opset_imports.get(domain)
        if known is None:
            self.opset_imports[domain] = version
            self.opset_origin[domain] = node
            return
        if known != version:
            label = domain or "ai.onnx"
            raise self.source.error(
                node,
                f"the function uses {label} opset {version} here but opset {known} elsewhere",
                "use one opset version per domain in a function (for example import "
                "`opset18 as op` once and use `op` everywhere)",
            )

    def add_callee(self, fn: Function) -> None:
        if all(c is not fn for c in self.callees):
            self.callees.append(fn)
