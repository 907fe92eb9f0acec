"""What the construct modules may ask of the translator they are given.

The construct modules (``calls``, ``control_flow``, ``optional_values``, ``presence``,
``target``, ``input_defaults``) are written as functions of the translator, acting as its
methods. They type it with these protocols instead of importing the translator classes
(``expressions.ExpressionTranslator``, ``statements.FunctionTranslator``), which import
them to dispatch: so imports point one way, from the dispatching modules to the
constructs, and the protocols sit below both.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

from onnxscript.analysis.liveness import Liveness
from onnxscript.converter.context import FunctionContext
from onnxscript.converter.graph_emitter import GraphEmitter
from onnxscript.converter.symbols import Sym
from onnxscript.errors import ScriptError
from onnxscript.program.graph import Graph, Value

K = TypeVar("K")


class Translator(Protocol):
    """Translates expressions into the current graph (``builder``) and environment (``env``)."""

    ctx: FunctionContext
    builder: GraphEmitter
    env: dict[str, Sym]
    int_like: set[Value]
    optional_inputs: set[Value]
    unwrapped: dict[tuple[GraphEmitter, Value], Value]

    # -- variables and scopes
    def set_var(self, name: str, sym: Sym) -> None: ...
    def end_names(self, names: set[str]) -> None: ...
    def scope(self) -> AbstractContextManager[set[str]]: ...
    def lookup(self, name: str, node: ast.AST) -> Sym: ...
    def find_in_scope(
        self, cache: Mapping[tuple[GraphEmitter, K], Value], key: K
    ) -> Value | None: ...

    # -- errors and locations
    def error(self, node: ast.AST | None, message: str, hint: str = "") -> ScriptError: ...
    def locate(self, node: ast.AST) -> None: ...
    def text(self, node: ast.AST) -> str: ...

    # -- translation
    def expr(
        self, node: ast.expr, n_outputs: int | None = None, hints: Sequence[str] = ()
    ) -> Sym: ...
    def to_tensor(
        self, sym: Sym, node: ast.AST, like: Value | None = None, dtype: int | None = None
    ) -> Value: ...
    def graph_attribute(self, sym: Sym, node: ast.AST) -> Graph: ...
    def callee_kind(self, sym: Sym) -> str: ...

    # -- types and compile-time values
    def require_same_dtype(
        self, node: ast.AST, first: int | None, second: int | None, message: str, hint: str
    ) -> None: ...
    def truth(self, value: Any, node: ast.AST) -> bool: ...
    def known_present(self, value: Value) -> bool: ...
    def is_int_like(self, sym: Sym) -> bool: ...
    def is_python_int(self, sym: Sym) -> bool: ...
    def retype_int_like(
        self, value: Value, dtype: int | None = None, like: Value | None = None
    ) -> Value: ...


class BlockTranslator(Translator, Protocol):
    """Also translates statements: what control flow and nested graph functions need."""

    liveness: Liveness
    returned: list[tuple[Sym, ast.expr]] | None
    return_node: ast.Return | None
    declared_returns: dict[str, int]

    def block(self, stmts: Sequence[ast.stmt]) -> None: ...
    def assign_target(self, target: ast.expr, sym: Sym, node: ast.AST) -> None: ...


__all__ = ["BlockTranslator", "Translator"]
