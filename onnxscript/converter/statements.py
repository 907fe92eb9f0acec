"""Translation of statements: assignments, expression statements, ``del``, ``return``.

Control flow (``if``, loops, nested graph functions) is in ``control_flow``.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Sequence
from typing import Any

from onnxscript.analysis.liveness import Liveness
from onnxscript.converter import control_flow
from onnxscript.converter.context import FunctionContext
from onnxscript.converter.expressions import ExpressionTranslator
from onnxscript.converter.graph_emitter import GraphEmitter
from onnxscript.converter.symbols import Const, NestedGraph, Sym, SymTuple
from onnxscript.onnx_types import is_tensor_type
from onnxscript.program.graph import Graph, Value
from onnxscript.values import graph as graph_decorator

_UNSUPPORTED_STATEMENTS = {
    "Try": "exceptions do not exist in ONNX; remove the try/except",
    "Raise": "exceptions do not exist in ONNX; validate inputs before calling the model",
    "Assert": "assertions do not exist in ONNX; check values in eager mode instead",
    "With": "context managers are not supported in scripts",
    "Import": "import modules at the top of the file, outside the script",
    "ImportFrom": "import modules at the top of the file, outside the script",
    "Global": "scripts cannot modify globals",
    "Nonlocal": "scripts cannot modify enclosing variables",
    "ClassDef": "define classes outside the script",
    "AsyncFor": "scripts are not asynchronous",
    "AsyncWith": "scripts are not asynchronous",
    "AsyncFunctionDef": "scripts are not asynchronous",
    "Match": "use if/elif/else",
}

_IGNORED_CALLS = (builtins.print, builtins.breakpoint)


class FunctionTranslator(ExpressionTranslator):
    """Translates a function body, statement by statement, into the current graph."""

    def __init__(self, ctx: FunctionContext, builder: GraphEmitter, liveness: Liveness) -> None:
        super().__init__(ctx, builder)
        self.liveness = liveness
        self.returned: list[tuple[Sym, ast.expr]] | None = None
        self.return_node: ast.Return | None = None
        self.declared_returns: dict[str, int] = {}

    def block(self, stmts: Sequence[ast.stmt]) -> None:
        for stmt in stmts:
            self.stmt(stmt)

    def stmt(self, stmt: ast.stmt) -> None:
        self.builder.origin = stmt
        method = _STMT_METHODS.get(type(stmt))
        if method is not None:
            method(self, stmt)
            return
        kind = type(stmt).__name__
        if kind in ("Break", "Continue"):
            raise self.error(stmt, f"`{kind.lower()}` outside of a loop")
        raise self.error(
            stmt,
            f"unsupported Python statement ({kind}): {self.text(stmt).splitlines()[0]}",
            _UNSUPPORTED_STATEMENTS.get(kind, "see docs/language.md for the supported subset"),
        )

    # -- assignment -----------------------------------------------------------------------

    def _name_new_value(self, sym: Sym, name: str, first_node: int) -> None:
        """Give a value computed by this statement the variable's name as its hint."""
        if not isinstance(sym, Value):
            return
        # A value made by this statement was produced by one of the nodes added since.
        if len(self.builder.graph.nodes) > first_node and self.builder.produces(sym):
            sym.hint = name

    def assign_target(self, target: ast.expr, sym: Sym, node: ast.AST) -> None:
        if isinstance(target, ast.Name):
            self.set_var(target.id, sym)
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in target.elts):
                raise self.error(target, "starred assignment targets are not supported")
            items: tuple[Sym, ...]
            if isinstance(sym, SymTuple):
                items = sym.items
            elif isinstance(sym, Const) and isinstance(sym.value, (tuple, list)):
                items = tuple(Const(v) for v in sym.value)
            else:
                raise self.error(
                    node,
                    f"cannot unpack {self.text(node)} into {len(target.elts)} variables",
                    "the right-hand side must be a tuple or a multi-output op call",
                )
            if len(items) != len(target.elts):
                raise self.error(
                    node,
                    f"cannot unpack {len(items)} values into {len(target.elts)} variables",
                )
            for elt, item in zip(target.elts, items):
                self.assign_target(elt, item, node)
            return
        if isinstance(target, ast.Subscript):
            raise self.error(
                target,
                "assignment to an element or slice is not supported: tensors are immutable",
                "compute a new tensor, e.g. with op.ScatterND or op.Where",
            )
        raise self.error(target, f"cannot assign to {self.text(target)}")

    def _target_hints(self, target: ast.expr) -> tuple[int | None, list[str]]:
        if isinstance(target, ast.Name):
            return None, [target.id]
        if isinstance(target, (ast.Tuple, ast.List)) and all(
            isinstance(e, ast.Name) for e in target.elts
        ):
            return len(target.elts), [e.id for e in target.elts]  # type: ignore[attr-defined]
        return None, []

    def stmt_Assign(self, stmt: ast.Assign) -> None:
        first = len(self.builder.graph.nodes)
        n_outputs, hints = self._target_hints(stmt.targets[0])
        if len(stmt.targets) > 1:
            n_outputs, hints = None, []
        sym = self.expr(stmt.value, n_outputs=n_outputs, hints=hints)
        if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            self._name_new_value(sym, stmt.targets[0].id, first)
        for target in stmt.targets:
            self.assign_target(target, sym, stmt.value)

    def stmt_AnnAssign(self, stmt: ast.AnnAssign) -> None:
        if stmt.value is None:
            raise self.error(
                stmt, "a variable annotation needs a value", "write `x: FLOAT[3] = ...`"
            )
        if not isinstance(stmt.target, ast.Name):
            raise self.error(stmt.target, f"cannot assign to {self.text(stmt.target)}")
        first = len(self.builder.graph.nodes)
        name = stmt.target.id
        sym = self.expr(stmt.value, hints=[name])
        self._name_new_value(sym, name, first)
        annotation = self.expr(stmt.annotation)
        if not (isinstance(annotation, Const) and is_tensor_type(annotation.value)):
            raise self.error(
                stmt.annotation,
                f"local variables can only be annotated with tensor types, not {self.text(stmt.annotation)}",
            )
        value = self.to_tensor(sym, stmt.value)
        spec = annotation.value.type_spec()
        self.check_declared_dtype(value, spec.dtype, stmt.value, "its annotation")
        if any(out is value for out in self.builder.graph.inputs):
            value = self.builder.emit1("Identity", value, hint=name)
        value.declared_type = spec
        self.builder.graph.value_infos.append(value)
        self.set_var(name, value)

    def stmt_AugAssign(self, stmt: ast.AugAssign) -> None:
        if not isinstance(stmt.target, ast.Name):
            raise self.error(
                stmt.target,
                "augmented assignment is only supported on variables",
                "tensors are immutable; compute a new tensor",
            )
        first = len(self.builder.graph.nodes)
        load = ast.copy_location(ast.Name(id=stmt.target.id, ctx=ast.Load()), stmt.target)
        binop = ast.copy_location(ast.BinOp(left=load, op=stmt.op, right=stmt.value), stmt)
        sym = self.expr_BinOp(binop)
        self._name_new_value(sym, stmt.target.id, first)
        self.set_var(stmt.target.id, sym)

    # -- other simple statements -----------------------------------------------------------

    def stmt_Expr(self, stmt: ast.Expr) -> None:
        value = stmt.value
        if isinstance(value, ast.Constant):
            return  # a string used as a comment
        if isinstance(value, ast.Call):
            callee = self.expr(value.func)
            if isinstance(callee, Const) and any(callee.value is f for f in _IGNORED_CALLS):
                return  # print()/breakpoint() help in eager mode and do nothing in a graph
        self.expr(value)

    def stmt_Pass(self, stmt: ast.Pass) -> None:
        return

    def stmt_Delete(self, stmt: ast.Delete) -> None:
        for target in stmt.targets:
            if not isinstance(target, ast.Name):
                raise self.error(target, "only variables can be deleted")
            name = target.id
            if name in self.env:
                self.del_var(name)
            elif name in self.ctx.attr_params and name not in self.deleted_attrs:
                self.deleted_attrs.add(name)  # `del` only ends the name's scope
            else:
                raise self.error(target, f"Unbound name: {name}")

    def stmt_Return(self, stmt: ast.Return) -> None:
        if stmt.value is None:
            raise self.error(stmt, "`return` without a value", "a script must return tensors")
        if self.returned is not None:
            raise self.error(stmt, "unreachable `return`")
        value = stmt.value
        elts = value.elts if isinstance(value, ast.Tuple) else [value]
        results: list[tuple[Sym, ast.expr]] = []
        for elt in elts:
            first = len(self.builder.graph.nodes)
            sym = self.expr(elt)
            if isinstance(sym, SymTuple) and len(elts) == 1:
                results.extend((item, elt) for item in sym.items)
                continue
            if not isinstance(elt, ast.Name):
                self._name_new_value(sym, "return_val", first)
            results.append((sym, elt))
        self.returned = results
        self.return_node = stmt

    # -- control flow and nested functions -----------------------------------------------

    def stmt_If(self, stmt: ast.If) -> None:
        control_flow.translate_if(self, stmt)

    def stmt_For(self, stmt: ast.For) -> None:
        control_flow.translate_for(self, stmt)

    def stmt_While(self, stmt: ast.While) -> None:
        control_flow.translate_while(self, stmt)

    def graph_attribute(self, sym: Sym, node: ast.AST) -> Graph:
        """The graph of a nested function passed as a graph attribute, compiled here."""
        return control_flow.nested_graph(self, sym, node)

    def stmt_FunctionDef(self, stmt: ast.FunctionDef) -> None:
        for dec in stmt.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            sym = self.expr(target)
            if not (isinstance(sym, Const) and sym.value is graph_decorator):
                raise self.error(
                    dec,
                    "a function defined inside a script can only be decorated with @graph()",
                )
            if not isinstance(dec, ast.Call):
                raise self.error(dec, "write @graph() with parentheses")
        self.set_var(stmt.name, NestedGraph(stmt))


_STMT_METHODS: dict[type, Callable[[FunctionTranslator, Any], None]] = {
    getattr(ast, name[len("stmt_") :]): method
    for name, method in vars(FunctionTranslator).items()
    if name.startswith("stmt_")
}
"""Statement kind -> translating method (a static dispatch table)."""
