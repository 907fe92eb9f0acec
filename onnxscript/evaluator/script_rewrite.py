"""Running a script function eagerly: its own Python code, rewritten where Python and the
compiled model would disagree.

The function's source (captured when it was decorated) is parsed, a few constructs are
rewritten, and the result is compiled with the original file name and line numbers. The
new code object gets the original function's globals and closure cells, so names resolve
exactly as in the original, tracebacks and ``breakpoint()`` show the user's lines, and
debuggers stop at breakpoints set in the user's file.

What is rewritten (everything else runs as plain Python: ``if``, ``for``, ``while``,
``break``, ``continue``, ``return``, ``print``, conditional expressions, ...):

* every call ``f(...)`` becomes ``rt.callee(f, n)(...)``: ops and script functions called
  from a script always return :class:`Tensor` values, and ``a, b = op.X(...)`` asks the
  op for exactly two outputs (``n``), as the converter does for tuple assignment; any
  other callable is returned as is, so it is called from the user's own frame;
* ``a and b``, ``a or b``, ``not a`` and chained comparisons ``a < b < c`` follow the
  compiled rules (element-wise ``And``/``Or``/``Not`` on BOOL tensors, Python values fold);
* ``x[...]`` becomes ``rt.indexable(x, kinds)[...]``, which lowers to the converter's
  ``Slice``/``Gather``/``Unsqueeze`` when ``x`` is a tensor, reading the index
  syntactically as the converter does (``kinds``); other values are indexed by Python;
* ``for i in range(...)`` yields INT64 scalar tensors that act like Python ints, as the
  compiled loop index does;
* ``x += y`` becomes ``x = x + y`` (tensors are immutable; no in-place numpy update).
"""

from __future__ import annotations

import ast
import inspect
import sys
import types
import typing
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from onnxscript.errors import AttributeValueError, InputTypeError
from onnxscript.evaluator import script_runtime
from onnxscript.evaluator.inputs import literal_to_array
from onnxscript.evaluator.tensor import AttrTensor, IndexTensor, Tensor, TensorSequence
from onnxscript.evaluator.typecheck import check_function_input
from onnxscript.language.annotations import ANY_TENSOR, type_choice
from onnxscript.language.attributes import AT, coerce
from onnxscript.language.indexing import kind_of_node
from onnxscript.language.literals import cast_array
from onnxscript.language.operators import AST_COMPARE
from onnxscript.source import parse_lines
from onnxscript.value_types import SequenceTypeSpec

if TYPE_CHECKING:
    from onnxscript.evaluator.protocol import FunctionRef

RT = "_onnxscript_eager_rt_"
_FACTORY = "_onnxscript_eager_factory_"


def _rt(name: str, anchor: ast.AST) -> ast.expr:
    node = ast.Attribute(value=ast.Name(id=RT, ctx=ast.Load()), attr=name, ctx=ast.Load())
    return ast.copy_location(node, anchor)


def _is_rt_call(node: ast.AST, name: str | None = None) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == RT
        and (name is None or node.func.attr == name)
    )


class _Rewriter(ast.NodeTransformer):
    """Applies the rewrites listed in the module docstring, bottom-up."""

    def _call(self, name: str, args: list[ast.expr], anchor: ast.AST,
              keywords: list[ast.keyword] | None = None) -> ast.expr:  # fmt: skip
        call = ast.Call(func=_rt(name, anchor), args=args, keywords=keywords or [])
        return ast.copy_location(call, anchor)

    def _const(self, value: Any, anchor: ast.AST) -> ast.expr:
        return ast.copy_location(ast.Constant(value=value), anchor)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        if _is_rt_call(node):
            return node
        node.func = self._call("callee", [node.func, self._const(None, node)], node.func)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        """Operands only (operators run as written); a left-nested chain ``a + b + ...`` in
        a loop, so that long sums do not exhaust Python's stack."""
        chain = [node]
        while isinstance(chain[-1].left, ast.BinOp):
            chain.append(chain[-1].left)
        chain[-1].left = self.visit(chain[-1].left)
        for binop in reversed(chain):
            binop.right = self.visit(binop.right)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        self.generic_visit(node)
        name = "bool_and" if isinstance(node.op, ast.And) else "bool_or"
        return self._call(name, list(node.values), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return self._call("not_", [node.operand], node)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        if len(node.ops) == 1:
            return node
        symbols = tuple(AST_COMPARE[type(op)] for op in node.ops)
        return self._call(
            "compare_chain", [self._const(symbols, node), node.left, *node.comparators], node
        )

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            return node
        index = node.slice
        elts = list(index.elts) if isinstance(index, ast.Tuple) else [index]
        kinds = ("(" if isinstance(index, ast.Tuple) else "") + "".join(map(kind_of_node, elts))
        node.value = self._call("indexable", [node.value, self._const(kinds, node)], node.value)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
        if not isinstance(node.target, ast.Name):
            self.generic_visit(node)
            return node
        load = ast.copy_location(ast.Name(id=node.target.id, ctx=ast.Load()), node.target)
        value = ast.copy_location(ast.BinOp(left=load, op=node.op, right=node.value), node)
        store = ast.copy_location(ast.Name(id=node.target.id, ctx=ast.Store()), node.target)
        assign = ast.copy_location(ast.Assign(targets=[store], value=value), node)
        self.generic_visit(assign)
        return assign

    def visit_Assign(self, node: ast.Assign) -> ast.stmt:
        self.generic_visit(node)
        target = node.targets[0]
        callee = node.value.func if isinstance(node.value, ast.Call) else None
        if (
            len(node.targets) == 1
            and isinstance(target, (ast.Tuple, ast.List))
            and all(isinstance(e, ast.Name) for e in target.elts)
            and callee is not None
            and _is_rt_call(callee, "callee")
        ):
            assert isinstance(callee, ast.Call)
            callee.args[1] = self._const(len(target.elts), callee.args[1])
        return node

    def visit_For(self, node: ast.For) -> ast.stmt:
        self.generic_visit(node)
        callee = node.iter.func if isinstance(node.iter, ast.Call) else None
        if callee is not None and _is_rt_call(callee, "callee"):
            assert isinstance(callee, ast.Call) and isinstance(callee.func, ast.Attribute)
            callee.func.attr = "loop_callee"
            callee.args = callee.args[:1]
        return node


def _parse(source: str, first_line: int, filename: str) -> ast.FunctionDef:
    """The ``def`` in ``source`` with absolute line numbers (source starts at ``first_line``)."""
    fdef, indented = parse_lines([source], filename)
    ast.increment_lineno(fdef, first_line - (2 if indented else 1))
    if not isinstance(fdef, ast.FunctionDef):
        raise TypeError(f"cannot find the function definition in {filename}:{first_line}")
    return fdef


def _source_of(py_fn: Any, captured: str) -> tuple[str, int]:
    """The function's source text (decorators included) and its first line number.

    ``captured`` is the text the converter read when the function was decorated; without
    it the text is read again through ``inspect``.
    """
    code = py_fn.__code__
    if captured:
        return captured, int(code.co_firstlineno)
    lines, start = inspect.getsourcelines(py_fn)
    return "".join(lines), max(int(start), 1)


def rewritten_function(py_fn: Any, captured_source: str = "") -> Callable[..., Any]:
    """``py_fn`` rewritten for eager execution, sharing its globals and closure cells."""
    code = py_fn.__code__
    filename = code.co_filename
    source, first_line = _source_of(py_fn, captured_source)
    fdef = _parse(source, first_line, filename)
    fdef.decorator_list = []
    fdef = _Rewriter().visit(fdef)
    freevars = list(code.co_freevars)
    factory_args = ast.arguments(
        posonlyargs=[],
        args=[ast.arg(arg=name) for name in [*freevars, RT]],
        vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[],
    )  # fmt: skip
    extra: dict[str, Any] = {"type_params": []} if sys.version_info >= (3, 12) else {}
    factory = ast.FunctionDef(
        name=_FACTORY,
        args=factory_args,
        body=[fdef, ast.Return(value=ast.Name(id=fdef.name, ctx=ast.Load()))],
        decorator_list=[],
        returns=None,
        **extra,
    )
    ast.copy_location(factory, fdef)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    compiled = compile(module, filename, "exec", dont_inherit=True)
    factory_code = _nested_code(compiled, _FACTORY)
    inner = _nested_code(factory_code, fdef.name)
    cells = dict(zip(code.co_freevars, py_fn.__closure__ or (), strict=False))
    closure = []
    for name in inner.co_freevars:
        if name == RT:
            closure.append(types.CellType(script_runtime))
        else:
            closure.append(cells[name])
    function = types.FunctionType(
        inner, py_fn.__globals__, py_fn.__name__, py_fn.__defaults__, tuple(closure)
    )
    function.__kwdefaults__ = py_fn.__kwdefaults__
    function.__qualname__ = py_fn.__qualname__
    function.__doc__ = py_fn.__doc__
    function.__module__ = py_fn.__module__
    return function


def _nested_code(code: types.CodeType, name: str) -> types.CodeType:
    for const in code.co_consts:
        if isinstance(const, types.CodeType) and const.co_name == name:
            return const
    raise RuntimeError(f"internal error: no code object {name!r} in {code.co_name}")


# -- calling conventions of the eager function ----------------------------------------------


def _attribute_base_type(annotation: Any) -> type | None:
    """``bool``/``int``/``float``/``str`` for an attribute annotation (lists: the item type)."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if annotation in (bool, int, float, str):
        return typing.cast(type, annotation)
    for arg in args:
        found = _attribute_base_type(arg)
        if found is not None:
            return found
    return None


def _sequence_of_any(annotation: Any) -> SequenceTypeSpec | None:
    """A sequence of any tensors for an input annotated with sequences of no one type
    (``Sequence[T]``, ``Sequence[FLOAT | INT64]``): a list given for it is a sequence."""
    choice = type_choice(annotation) if annotation is not None else None
    if choice is None or not all(isinstance(t, SequenceTypeSpec) for t in choice.types):
        return None
    return SequenceTypeSpec(ANY_TENSOR)


_KIND_TYPES: dict[int, type] = {
    AT.INT: int, AT.INTS: int, AT.FLOAT: float, AT.FLOATS: float, AT.STRING: str, AT.STRINGS: str,
}  # fmt: skip


class EagerFunction:
    """A script function prepared for eager calls: the rewritten Python function, and how
    to turn call arguments into its parameters and its return value into outputs."""

    def __init__(self, fn: FunctionRef) -> None:
        self.name = fn.name
        self.signature = fn.call_signature
        self.function = rewritten_function(fn.function, fn.source)
        self.param_names = frozenset(p.name for p in self.signature.params)
        graph = fn.function_ir.graph
        try:
            annotations = inspect.get_annotations(fn.function, eval_str=True)
        except Exception:
            annotations = {}
        self.input_types = [
            getattr(v, "declared_type", None) or _sequence_of_any(annotations.get(v.name or ""))
            for v in graph.inputs
        ]
        self.n_outputs = len(graph.outputs)
        self.output_dtypes = [
            getattr(getattr(v, "declared_type", None), "dtype", None) for v in graph.outputs
        ]
        self.attr_types: dict[str, type] = {}
        for p in self.signature.attributes:
            base = _attribute_base_type(annotations.get(p.name))
            self.attr_types[p.name] = base or _KIND_TYPES.get(p.attr_kind, int)

    def _input(self, slot: int, param: str, value: Any, check_shape: bool = True) -> Any:
        declared = self.input_types[slot] if slot < len(self.input_types) else None
        elem = getattr(declared, "elem", None)
        if elem is not None:  # a sequence input: a list that knows its element type
            if isinstance(value, (list, tuple)):
                elem_type = getattr(elem, "dtype", None)
                items = [self._input_element(param, v, elem_type) for v in value]
                return TensorSequence(items, elem_type or getattr(value, "elem_type", None))
            return value
        dtype = getattr(declared, "dtype", None)
        shape = getattr(declared, "shape", None) if check_shape else None
        if isinstance(value, Tensor) and not isinstance(value, AttrTensor):
            check_function_input(self.name, param, value.value, dtype, shape)
            return value
        if isinstance(value, (np.ndarray, np.generic)):
            array = np.asarray(value)
            check_function_input(self.name, param, array, dtype, shape)
            return Tensor(array)
        if isinstance(value, AttrTensor):
            return Tensor(value.value if not dtype else cast_array(value.value, dtype))
        try:
            array = literal_to_array(value, dtype or None, f"{self.name}(): input {param!r}")
        except TypeError as exc:
            raise InputTypeError(str(exc)) from None
        check_function_input(self.name, param, array, dtype, shape)
        return Tensor(array)

    def _input_element(self, param: str, value: Any, dtype: int | None) -> Tensor:
        if isinstance(value, Tensor):
            return value
        if isinstance(value, (np.ndarray, np.generic)):
            return Tensor(np.asarray(value))
        return Tensor(literal_to_array(value, dtype or None, f"{self.name}(): input {param!r}"))

    def _attribute(self, name: str, kind: int, value: Any) -> Any:
        if isinstance(value, AttrTensor):
            value = value.attr_value
        elif isinstance(value, Tensor):
            value = value.value
        if value is None:
            return None
        try:
            coerced = coerce(value, kind)
        except AttributeValueError as exc:
            raise TypeError(f"{self.name}(): attribute {name!r}: {exc}") from None
        return AttrTensor(coerced, self.attr_types[name])

    def prepare_arguments(
        self, inputs: Sequence[Any], attributes: dict[str, Any], check_shapes: bool = True
    ) -> list[Any]:
        """Positional arguments for the rewritten function, in parameter order. Element
        types are always checked; shapes only when ``check_shapes`` (a top-level call:
        ONNX checks the shapes of a model's inputs, not of a function's)."""
        values: list[Any] = []
        slot = 0
        for p in self.signature.params:
            if p.is_input:
                value = inputs[slot] if slot < len(inputs) else None
                if value is None and p.has_default:  # a tensor default, made at compile time
                    values.append(self._input(slot, p.name, p.default, check_shape=False))
                else:
                    values.append(
                        None if value is None else self._input(slot, p.name, value, check_shapes)
                    )
                slot += 1
            elif p.name in attributes:
                values.append(self._attribute(p.name, p.attr_kind, attributes[p.name]))
            elif p.has_default:
                values.append(self._attribute(p.name, p.attr_kind, p.default))
            else:
                values.append(None)
        return values

    def finish(self, result: Any, wrapped: bool) -> Any:
        """The function's outputs as arrays (or Tensors when ``wrapped``)."""
        items = list(result) if isinstance(result, tuple) else [result]
        for i, item in enumerate(items):
            # A loop index stands for a Python int: it takes the declared output type.
            declared = self.output_dtypes[i] if i < len(self.output_dtypes) else None
            if isinstance(item, IndexTensor) and declared:
                items[i] = Tensor(cast_array(item.value, declared))
        outputs = [_output(v, wrapped) for v in items]
        if len(outputs) == 1:
            return outputs[0]
        return tuple(outputs)


def _output(value: Any, wrapped: bool) -> Any:
    if value is None:  # an optional output that is empty (as onnxruntime gives it)
        return None
    if isinstance(value, list):
        return [_output(v, wrapped) for v in value]
    if isinstance(value, Tensor):
        array = value.value
    elif isinstance(value, (np.ndarray, np.generic)):
        array = np.asarray(value)
    else:
        array = literal_to_array(value, None, "return value")
    return Tensor(array) if wrapped else array


def eager_function(fn: FunctionRef) -> EagerFunction:
    """The eager form of ``fn``, prepared on first use and kept on the function object."""
    impl: EagerFunction | None = fn.__dict__.get("_eager_function")
    if impl is None:
        impl = EagerFunction(fn)
        fn.__dict__["_eager_function"] = impl
    return impl
