"""State shared while compiling one script function: its source, opsets and callees."""

from __future__ import annotations

import ast
from collections.abc import Callable

from onnxscript.converter.scope import PythonScope
from onnxscript.converter.symbols import AttrRef
from onnxscript.program.graph import Function
from onnxscript.source import SourceText


class FunctionContext:
    """Per-function compilation state (one per ``@script`` decoration).

    The default ai.onnx opset is used for nodes the converter adds on its own (operators,
    indexing); ``resolve_default`` finds it, from the opsets imported so far, the first time
    such a node is emitted (it may scan the module's globals), and it is imported only
    then. (It takes the imports as an argument rather than reading this context, so that no
    reference cycle keeps the function's AST alive after compilation.)
    """

    __slots__ = (
        "_default_version",
        "attr_params",
        "callees",
        "local_names",
        "opset_imports",
        "opset_origin",
        "resolve_default",
        "scope",
        "source",
    )

    def __init__(
        self,
        source: SourceText,
        scope: PythonScope,
        attr_params: dict[str, AttrRef],
        resolve_default: Callable[[dict[str, int]], int],
        local_names: frozenset[str],
    ) -> None:
        self.source = source
        self.scope = scope
        self.attr_params = attr_params
        self.resolve_default = resolve_default
        self.local_names = local_names
        self.opset_imports: dict[str, int] = {}
        self.opset_origin: dict[str, ast.AST | None] = {}
        self.callees: list[Function] = []
        self._default_version: int | None = None

    def default_opset_version(self) -> int:
        version = self._default_version
        if version is None:
            version = self._default_version = self.resolve_default(self.opset_imports)
            self.use_opset("", version, None)
        return version

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
        if fn not in self.callees:  # functions compare by identity
            self.callees.append(fn)
