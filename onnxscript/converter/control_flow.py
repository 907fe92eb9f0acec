"""Control flow: ``if`` -> ``If``, ``for``/``while`` -> ``Loop``, nested functions -> graphs.

Bodies arrive structured (see ``normalize``): no jumps except a ``for`` loop's final
``if not c: break``, and ``while`` loops test a plain name. Which variables an ``If``
outputs and a ``Loop`` carries comes from the liveness analysis.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from onnxscript import dtypes
from onnxscript.analysis.liveness import Liveness, analyze, if_outputs, loop_carried
from onnxscript.analysis.names import all_identifiers, parameter_names, scan
from onnxscript.converter import optional_values, type_inference
from onnxscript.converter.graph_emitter import GraphEmitter
from onnxscript.converter.normalize import has_jump, normalize
from onnxscript.converter.scalar_values import is_scalar
from onnxscript.converter.symbols import AttrRef, Const, NestedGraph, Sym, SymTuple
from onnxscript.language.attributes import AT
from onnxscript.language.literals import INT64_MAX, INT64_MIN
from onnxscript.onnx_types import is_tensor_type
from onnxscript.program.graph import Attr, Graph, Value
from onnxscript.source import split_docstring
from onnxscript.unique_names import UniqueNames
from onnxscript.value_types import TensorTypeSpec, TypeSpec, element_type
from onnxscript.values import GraphFunction

if TYPE_CHECKING:
    from onnxscript.converter.translator import BlockTranslator, Translator

_SCALAR_INT64 = TensorTypeSpec(dtypes.INT64, ())
_SCALAR_BOOL = TensorTypeSpec(dtypes.BOOL, ())


@contextmanager
def _inside(t: Translator, builder: GraphEmitter) -> Iterator[None]:
    """Translate into ``builder``'s graph."""
    saved = t.builder
    t.builder = builder
    try:
        yield
    finally:
        t.builder = saved


def _child(t: Translator, name: str) -> GraphEmitter:
    return GraphEmitter(Graph(name), t.ctx, parent=t.builder)


def condition(t: Translator, sym: Sym, node: ast.AST) -> Value:
    """A BOOL tensor for an ``if``/``while`` condition (non-BOOL tensors are cast, like
    Python's truth test of a number)."""
    if isinstance(sym, AttrRef):
        value = t.to_tensor(sym, node)
    else:
        value = t.to_tensor(sym, node, dtype=dtypes.BOOL if isinstance(sym, Const) else None)
    dt = type_inference.known_dtype(value)
    if dt is not None and dt != dtypes.BOOL:
        value = t.builder.emit1("Cast", value, hint="cond", to=dtypes.BOOL)
    return value


def _output(builder: GraphEmitter, value: Value, taken: set[Value]) -> Value:
    """``value`` as an output of ``builder``'s graph: an ``Identity`` when the value is not
    computed by a node of this graph, or is already an output."""
    if not builder.produces(value) or value in taken:
        value = builder.emit1("Identity", value, hint=value.hint)
    taken.add(value)
    return value


def _unify(
    t: Translator,
    builders: Sequence[GraphEmitter],
    syms: Sequence[Sym],
    node: ast.AST,
    name: str,
) -> tuple[list[Value], int | None, Value | None]:
    """The values of one output in each branch, converted to one element type, with that
    type (if known) and a value of the enclosing graph that has it (if any).

    Python ints (int constants and loop indices) take the other branch's type."""
    dtype: int | None = None
    like: Value | None = None
    for sym in syms:
        if isinstance(sym, Value) and not t.is_int_like(sym):
            dt = type_inference.known_dtype(sym)
            if dt is not None and dtype is None:
                dtype = dt
            if like is None:
                like = _visible_partner(t, sym)
    if (
        dtype is None
        and like is None
        and any(isinstance(sym, Const) and isinstance(sym.value, float) for sym in syms)
    ):
        dtype = dtypes.FLOAT  # Python ints and floats on different paths: a float
    values = []
    for builder, sym in zip(builders, syms):
        if isinstance(sym, SymTuple):
            raise t.error(
                node,
                f"'{name}' holds several values (a multi-output call) in a branch",
                "unpack the call into separate variables, e.g. `a, b = op.TopK(...)`",
            )
        with _inside(t, builder):
            value = t.to_tensor(
                sym,
                node,
                dtype=dtype if not isinstance(sym, Value) else None,
                like=like if dtype is None and not isinstance(sym, Value) else None,
            )
            value = t.retype_int_like(value, dtype=dtype, like=like if dtype is None else None)
        t.require_same_dtype(
            node,
            dtype,
            type_inference.known_dtype(value),
            f"'{name}' is {{0}} on one path and {{1}} on another",
            "ONNX If branches must produce values of the same type; add a Cast",
        )
        values.append(value)
    return values, dtype, like


class _Merged(NamedTuple):
    """One output of an ``If``: its value in each branch, its type if known (else a value
    of the enclosing graph with the same type), whether it stands for a Python int."""

    values: list[Value]
    spec: TypeSpec | None
    partner: Value | None
    int_like: bool


def _if_output(
    t: Translator,
    builders: Sequence[GraphEmitter],
    syms: Sequence[Sym],
    node: ast.AST,
    name: str,
) -> _Merged:
    """The branches' values of the variable ``name`` merged into one ``If`` output (an
    optional one when a branch gives ``None``)."""
    optional = optional_values.optional_branches(t, builders, syms, node, name)
    if optional is not None:
        return _Merged(optional[0], optional[1], None, False)
    values, dtype, like = _unify(t, builders, syms, node, name)
    spec = element_type(dtype) if dtype is not None else None
    return _Merged(values, spec, like, all(t.is_python_int(s) for s in syms))


def _emit_if(
    t: Translator,
    cond: Value,
    builders: Sequence[GraphEmitter],
    branch_syms: Sequence[Sequence[Sym]],
    names: Sequence[str],
    node: ast.AST,
) -> list[Value]:
    per_branch: list[list[Value]] = [[] for _ in builders]
    merged = [
        _if_output(t, builders, [syms[i] for syms in branch_syms], node, name)
        for i, name in enumerate(names)
    ]
    for merge in merged:
        for k, value in enumerate(merge.values):
            per_branch[k].append(value)
    for builder, values in zip(builders, per_branch):
        taken: set[Value] = set()
        builder.graph.outputs = [_output(builder, v, taken) for v in values]
    t.locate(node)
    outputs = t.builder.emit(
        "If",
        [cond],
        [
            Attr("then_branch", AT.GRAPH, builders[0].graph),
            Attr("else_branch", AT.GRAPH, builders[1].graph),
        ],
        n_outputs=len(names),
        hints=list(names),
    )
    t.ctx.default_opset_version()
    for out, merge in zip(outputs, merged):
        if merge.spec is not None:
            out.type = merge.spec
        else:  # the branches agree on a type known only at run time
            out.type = None
            out.same_type_as = merge.partner
        if merge.int_like:
            t.int_like.add(out)
    return outputs


def _branches(
    t: BlockTranslator, stmt: ast.If, names: Sequence[str]
) -> tuple[list[GraphEmitter], list[list[Sym]]]:
    """Translate both branches, each into its own graph: the graphs, and per branch the
    values of ``names`` at its end. Names a branch deletes are unbound after the if."""
    builders = []
    branch_syms = []
    deleted: set[str] = set()
    for label, body in (("then_branch", stmt.body), ("else_branch", stmt.orelse)):
        builder = _child(t, label)
        syms = []
        with _inside(t, builder), t.scope() as ended:
            t.block(body)
            for name in names:
                sym = t.env.get(name)
                if sym is None:
                    other = "if" if label == "else_branch" else "else"
                    raise t.error(
                        stmt,
                        f"'{name}' is assigned in the {other} branch but has no value in the "
                        f"{'else' if label == 'else_branch' else 'if'} branch",
                        f"give '{name}' a value before the if, or assign it in both branches",
                    )
                syms.append(sym)
        deleted |= ended
        builders.append(builder)
        branch_syms.append(syms)
    t.end_names(deleted)
    return builders, branch_syms


def translate_if(t: BlockTranslator, stmt: ast.If) -> None:
    test = t.expr(stmt.test)
    if isinstance(test, Const):
        t.block(stmt.body if t.truth(test.value, stmt.test) else stmt.orelse)
        return
    cond = condition(t, test, stmt.test)
    names = if_outputs(stmt, t.liveness)
    builders, branch_syms = _branches(t, stmt, names)
    # A variable that is None on every branch stays the Python constant None.
    keep = []
    for i, name in enumerate(names):
        if all(optional_values.is_none(syms[i]) for syms in branch_syms):
            t.set_var(name, Const(None))
        else:
            keep.append(i)
    if not keep:
        return  # nothing computed in the branches is used afterwards
    names = [names[i] for i in keep]
    branch_syms = [[syms[i] for i in keep] for syms in branch_syms]
    outputs = _emit_if(t, cond, builders, branch_syms, names, stmt)
    for name, value in zip(names, outputs):
        t.set_var(name, value)


def conditional_expression(t: Translator, node: ast.IfExp, test: Sym) -> Value:
    """``a if c else b`` with a run-time condition: an ``If`` with one output."""
    cond = condition(t, test, node.test)
    builders = []
    syms = []
    for label, expr in (("then_branch", node.body), ("else_branch", node.orelse)):
        builder = _child(t, label)
        with _inside(t, builder):
            syms.append([t.expr(expr)])
        builders.append(builder)
    return _emit_if(t, cond, builders, syms, ["cond_value"], node)[0]


# -- loops --------------------------------------------------------------------------------


def _is_terminal_break(stmt: ast.stmt) -> str | None:
    """``if not NAME: break`` -> NAME."""
    if (
        isinstance(stmt, ast.If)
        and not stmt.orelse
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], ast.Break)
        and isinstance(stmt.test, ast.UnaryOp)
        and isinstance(stmt.test.op, ast.Not)
        and isinstance(stmt.test.operand, ast.Name)
    ):
        return stmt.test.operand.id
    return None


def _range_args(t: BlockTranslator, stmt: ast.For) -> list[int | Value]:
    it = stmt.iter
    hint = (
        "the loop must be `for i in range(n)`, `range(start, stop)` or `range(start, stop, step)`"
    )
    if not isinstance(it, ast.Call):
        raise t.error(it, f"cannot loop over {t.text(it)}", hint)
    callee = t.expr(it.func)
    if not (isinstance(callee, Const) and callee.value is builtins.range):
        raise t.error(it, f"cannot loop over {t.text(it)}", hint)
    if it.keywords or not 1 <= len(it.args) <= 3:
        raise t.error(it, "range() takes 1 to 3 positional arguments", hint)
    args: list[int | Value] = []
    for arg in it.args:
        if isinstance(arg, ast.Starred):
            raise t.error(arg, "range() arguments cannot be unpacked", hint)
        sym = t.expr(arg)
        if isinstance(sym, Const):
            value = sym.value
            if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
                if not INT64_MIN <= int(value) <= INT64_MAX:
                    raise t.error(
                        arg, f"range() bound {int(value)} does not fit in INT64 (the loop count)"
                    )
                args.append(int(value))
                continue
            raise t.error(arg, f"range() needs integers, got {type(value).__name__}", hint)
        value_t = t.to_tensor(sym, arg)
        if type_inference.known_dtype(value_t) != dtypes.INT64:
            value_t = t.builder.emit1("Cast", value_t, hint="bound", to=dtypes.INT64)
        args.append(value_t)
    if len(args) == 1:
        args = [0, args[0], 1]
    elif len(args) == 2:
        args = [args[0], args[1], 1]
    elif isinstance(args[2], int) and args[2] == 0:
        raise t.error(it.args[2], "range() step cannot be zero")
    if all(isinstance(a, int) for a in args) and _steps(*args) > INT64_MAX:  # type: ignore[arg-type]
        raise t.error(it, f"{t.text(it)} has more than 2**63 - 1 steps (INT64 loop count)")
    return args


def _steps(start: int, stop: int, step: int) -> int:
    """len(range(start, stop, step)), also past sys.maxsize (where len() overflows)."""
    toward = 1 if step > 0 else -1
    return max(0, (stop - start + step - toward) // step)


def _as_tensor(t: Translator, value: int | Value) -> Value:
    if isinstance(value, int):
        return t.builder.constant(np.array(value, dtype=np.int64))
    return value


def _trip_count(
    t: BlockTranslator, start: int | Value, stop: int | Value, step: int | Value
) -> Value:
    b = t.builder
    if all(isinstance(x, int) for x in (start, stop, step)):
        n = _steps(start, stop, step)  # type: ignore[arg-type]
        return b.constant(np.array(n, dtype=np.int64))
    if start == 0 and step == 1:
        assert isinstance(stop, Value)
        return stop
    span = b.emit1("Sub", _as_tensor(t, stop), _as_tensor(t, start), hint="span")
    if isinstance(step, int):
        adjust: Value = b.constant(np.array(step - 1 if step > 0 else step + 1, dtype=np.int64))
    else:
        adjust = b.emit1("Sub", step, b.emit1("Sign", step, hint="sign"), hint="adjust")
    numerator = b.emit1("Add", span, adjust, hint="span")
    count = b.emit1("Div", numerator, _as_tensor(t, step), hint="count")
    zero = b.constant(np.array(0, dtype=np.int64))
    return b.emit1("Max", count, zero, hint="trip_count")


def _check_no_jumps(t: BlockTranslator, body: Sequence[ast.stmt]) -> None:
    """Normalization leaves no jumps in a loop body (nested loops are checked on their own)."""
    for stmt in body:
        if has_jump(stmt):
            raise t.error(stmt, "internal: a jump survived normalization")


def _is_range_call(t: BlockTranslator, node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return False
    callee = t.expr(node.func)
    return isinstance(callee, Const) and callee.value is builtins.range


def translate_for(t: BlockTranslator, stmt: ast.For) -> None:
    """``for`` over ``range(...)`` or over a tensor's first axis becomes a ``Loop``; over
    a tuple or list known at compile time it is unrolled."""
    body = list(stmt.body)
    cond_var = _is_terminal_break(body[-1]) if body else None
    if cond_var is not None:
        body = body[:-1]
    _check_no_jumps(t, body)
    if _is_range_call(t, stmt.iter):
        if not isinstance(stmt.target, ast.Name):
            raise t.error(
                stmt.target,
                f"the loop variable must be a plain name, not {t.text(stmt.target)}",
                "write `for i in range(n):`",
            )
        start, stop, step = _range_args(t, stmt)
        trip = _trip_count(t, start, stop, step)
        bind = _range_target(t, stmt.target.id, start, step)
    else:
        iterable = t.expr(stmt.iter)
        if isinstance(iterable, SymTuple) or (
            isinstance(iterable, Const) and isinstance(iterable.value, (list, tuple, range))
        ):
            _unroll(t, stmt, iterable, body, cond_var)
            return
        if not isinstance(iterable, Value):
            raise t.error(
                stmt.iter,
                f"cannot loop over {t.text(stmt.iter)}",
                "loop over range(...), a tensor (its first axis), or a tuple or list known "
                "when the script is compiled",
            )
        if not isinstance(stmt.target, ast.Name):
            raise t.error(stmt.target, "the loop variable over a tensor must be a plain name")
        _check_has_rows(t, stmt.iter, iterable)
        tensor = iterable
        shape = t.builder.emit1("Shape", tensor, hint="shape")
        zero = t.builder.constant(np.array(0, dtype=np.int64))
        trip = t.builder.emit1("Gather", shape, zero, hint="trip_count", axis=0)
        target = stmt.target.id

        def bind(iteration: Value) -> Value:
            return t.builder.emit1("Gather", tensor, iteration, hint=target, axis=0)

    cond_init = None
    carried = loop_carried(stmt, t.liveness)
    if cond_var is not None:
        # The body runs before the final `if not c: break` is tested: start with True.
        cond_init = condition(t, Const(True), stmt)
        after = t.liveness.live_out(stmt)
        carried = [v for v in carried if v != cond_var or v in after]
    _loop(t, stmt, trip, cond_init, cond_var, carried, body, bind)


def _check_has_rows(t: BlockTranslator, node: ast.expr, tensor: Value) -> None:
    """A located error when ``tensor`` is known to be a scalar (annotated so, or computed
    from such by elementwise ops): a rank-0 tensor has no first axis, and the ``Gather``
    that would read its rows makes a model that onnx's shape inference rejects."""
    if not is_scalar(t.builder, tensor):
        return
    text = t.text(node)
    raise t.error(
        node,
        f"cannot loop over {text}: it is a scalar (rank 0, as annotated), which has no "
        "first axis to iterate over",
        f"annotate {text} with its shape (FLOAT['N'] for a vector, FLOAT['N', 'M'] for "
        f"rows) to loop over its first axis, or use {text} directly: a scalar has no rows",
    )


def _range_target(
    t: BlockTranslator, name: str, start: int | Value, step: int | Value
) -> Callable[[Value], Value]:
    """The loop variable of ``range(start, _, step)`` from the iteration number: a value
    standing for a Python int."""

    def bind(iteration: Value) -> Value:
        value = iteration
        if isinstance(step, Value) or step != 1:
            value = t.builder.emit1("Mul", value, _as_tensor(t, step), hint=name)
        if isinstance(start, Value) or start != 0:
            value = t.builder.emit1("Add", value, _as_tensor(t, start), hint=name)
        if value is iteration:
            iteration.hint = name
        t.int_like.add(value)
        return value

    return bind


def _unroll(
    t: BlockTranslator,
    stmt: ast.For,
    iterable: Const | SymTuple,
    body: list[ast.stmt],
    cond_var: str | None,
) -> None:
    """A loop over a tuple or list known at compile time runs its body once per item."""
    if cond_var is not None:
        raise t.error(
            stmt,
            "`break` or `return` inside a loop over a Python tuple or list is not supported",
            "loop over range(len(...)) with an index, or restructure without the jump",
        )
    items: list[Sym] = (
        list(iterable.items)
        if isinstance(iterable, SymTuple)
        else [Const(v) for v in iterable.value]
    )
    for item in items:
        t.assign_target(stmt.target, item, stmt.iter)
        t.block(body)


def translate_while(t: BlockTranslator, stmt: ast.While) -> None:
    if not isinstance(stmt.test, ast.Name):
        raise t.error(stmt.test, "internal: while condition was not normalized")
    _check_no_jumps(t, stmt.body)
    cond_var = stmt.test.id
    cond_sym = t.lookup(cond_var, stmt.test)
    if isinstance(cond_sym, Const) and not t.truth(cond_sym.value, stmt.test):
        return  # the loop never runs
    cond_init = condition(t, cond_sym, stmt.test)
    if not isinstance(cond_sym, Const) and not is_scalar(t.builder, cond_init):
        # A one-element condition of any rank (as Python's truth test allows) enters the
        # Loop as a scalar, the rank its body declares.
        no_dims = t.builder.constant(np.array([], dtype=np.int64))
        cond_init = t.builder.emit1("Reshape", cond_init, no_dims, hint=cond_init.hint)
    after = t.liveness.live_out(stmt)
    carried = [v for v in loop_carried(stmt, t.liveness) if v != cond_var or v in after]
    _loop(t, stmt, None, cond_init, cond_var, carried, list(stmt.body), None)


class _LoopBody(NamedTuple):
    """The body graph of a ``Loop`` being built: its emitter, its iteration-number and
    condition inputs, and per carried variable the value it enters with (``initial``) and
    the body input standing for it (``inputs``); ``python_ints`` are the carried variables
    that start as Python ints."""

    builder: GraphEmitter
    iter_in: Value
    cond_in: Value
    initial: dict[str, Sym | None]
    inputs: dict[str, Value]
    python_ints: set[str]


def _loop_body(t: BlockTranslator, carried: list[str], cond_var: str | None) -> _LoopBody:
    """A new loop body graph with an input per carried variable, typed like its value
    before the loop where that is known."""
    builder = _child(t, "loop_body")
    iter_in = Value("iter_num", _SCALAR_INT64)
    # onnxruntime needs the condition input's rank; the initial condition is a scalar.
    cond_in = Value(cond_var or "cond_in", _SCALAR_BOOL)
    builder.add_input(iter_in)
    builder.add_input(cond_in)
    body = _LoopBody(builder, iter_in, cond_in, {}, {}, set())
    for name in carried:
        init = t.env.get(name)
        if init is None and name in t.ctx.attr_params:
            init = t.ctx.attr_params[name]
        body.initial[name] = init
        inp = Value(name)
        starts_as_int = isinstance(init, Const) and type(init.value) is int
        if starts_as_int:
            body.python_ints.add(name)
        if init is not None and (starts_as_int or t.is_int_like(init)):
            # A Python int (a counter): typed after the body, once the type is settled.
            t.int_like.add(inp)
        elif isinstance(init, Value):
            inp.type = element_type(init.dtype) if init.dtype is not None else init.type
            if inp.type is None:
                inp.same_type_as = init
        body.inputs[name] = inp
        builder.add_input(inp)
    return body


def _carried_output(
    t: BlockTranslator, stmt: ast.stmt, sym: Sym, init: Sym | None, inp: Value
) -> Value:
    """A carried variable's value at the end of the body, in the element type it had before
    the loop (Python numbers take it; a float start makes a Python-int counter FLOAT)."""
    dtype = None
    like = None
    typed_before = isinstance(init, Value) and not t.is_int_like(init)
    if typed_before:
        assert isinstance(init, Value)
        dtype = type_inference.known_dtype(init)
        like = init if dtype is None else None
    value = t.to_tensor(
        sym,
        stmt,
        dtype=None if isinstance(sym, Value) else dtype,
        like=None if isinstance(sym, Value) else like or inp,
    )
    if typed_before:
        return t.retype_int_like(value, dtype=dtype, like=like)
    if isinstance(init, Const) and isinstance(init.value, float):
        return t.retype_int_like(value, dtype=dtypes.FLOAT)
    return value


def _translate_body(
    t: BlockTranslator,
    stmt: ast.For | ast.While,
    body: _LoopBody,
    carried: list[str],
    cond_var: str | None,
    body_stmts: list[ast.stmt],
    bind_target: Callable[[Value], Value] | None,
) -> list[Value]:
    """Translate the body's statements into its graph; the carried variables' values at the
    end of an iteration."""
    target = (
        stmt.target.id if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) else None
    )
    builder = body.builder
    with _inside(t, builder), t.scope() as ended:
        for name, inp in body.inputs.items():
            t.set_var(name, inp)
        if cond_var is not None:
            t.set_var(cond_var, body.inputs.get(cond_var, body.cond_in))
        if bind_target is not None and target is not None:
            t.set_var(target, bind_target(body.iter_in))
        t.block(body_stmts)
        taken: set[Value] = set()
        cond = condition(t, t.env[cond_var], stmt) if cond_var is not None else body.cond_in
        cond_out = _output(builder, cond, taken)
        outs = []
        for name in carried:
            sym = t.env.get(name)
            if sym is None:
                raise t.error(stmt, f"'{name}' is deleted in the loop but used after it")
            outs.append(_carried_output(t, stmt, sym, body.initial[name], body.inputs[name]))
        builder.graph.outputs = [cond_out] + [_output(builder, v, taken) for v in outs]
    t.end_names(ended - set(carried))
    return outs


def _emit_loop(
    t: BlockTranslator,
    stmt: ast.stmt,
    body: _LoopBody,
    trip: Value | None,
    cond_init: Value | None,
    carried: list[str],
    outs: list[Value],
) -> None:
    """The ``Loop`` node, and the carried variables bound to its outputs."""
    inits = [
        _initial_value(t, name, body.initial[name], out, stmt) for name, out in zip(carried, outs)
    ]
    for name, init_value in zip(carried, inits):
        inp = body.inputs[name]
        if inp.type is None and init_value.dtype is not None:
            inp.type = element_type(init_value.dtype)
    if not carried:
        return  # nothing the loop computes is used afterwards
    t.locate(stmt)
    results = t.builder.emit(
        "Loop",
        [trip, cond_init, *inits],
        [Attr("body", AT.GRAPH, body.builder.graph)],
        n_outputs=len(carried),
        hints=carried,
    )
    t.ctx.default_opset_version()
    for name, value, init_value, out in zip(carried, results, inits, outs):
        dt = init_value.dtype or type_inference.known_dtype(out)
        if dt is not None:
            value.type = element_type(dt)
        else:  # the loop keeps the type it starts with
            value.same_type_as = init_value
        if (t.is_int_like(init_value) or name in body.python_ints) and (
            t.is_int_like(out) or out is body.inputs[name]
        ):
            t.int_like.add(value)
        t.set_var(name, value)


def _loop(
    t: BlockTranslator,
    stmt: ast.For | ast.While,
    trip: Value | None,
    cond_init: Value | None,
    cond_var: str | None,
    carried: list[str],
    body_stmts: list[ast.stmt],
    bind_target: Callable[[Value], Value] | None,
) -> None:
    """A ``Loop`` running ``body_stmts`` (``trip`` times at most, while the condition
    variable ``cond_var`` holds), carrying the variables ``carried``."""
    body = _loop_body(t, carried, cond_var)
    outs = _translate_body(t, stmt, body, carried, cond_var, body_stmts, bind_target)
    _emit_loop(t, stmt, body, trip, cond_init, carried, outs)


def _initial_value(
    t: BlockTranslator, name: str, init: Sym | None, out: Value, stmt: ast.stmt
) -> Value:
    """The value a carried variable enters the loop with.

    A variable first assigned inside the loop gets a placeholder of the right element type
    (zero); it is only observable where Python would raise UnboundLocalError (the loop runs
    zero times, or an iteration reads it before any iteration assigned it).
    """
    out_dtype = type_inference.known_dtype(out)
    if optional_values.is_none(init) or optional_values.is_optional(init):
        raise optional_values.loop_carried_error(t, stmt, name)
    if isinstance(init, Value):
        if t.is_int_like(init) and out_dtype is not None:
            init = t.retype_int_like(init, dtype=out_dtype)
        t.require_same_dtype(
            stmt,
            type_inference.known_dtype(init),
            out_dtype,
            f"loop variable '{name}' is {{0}} before the loop and {{1}} after an iteration",
            "a loop-carried value keeps one element type; add a Cast",
        )
        return init
    if init is not None:
        like = _visible_partner(t, out)
        return t.to_tensor(init, stmt, dtype=out_dtype, like=like if out_dtype is None else None)
    dtype = out_dtype or t.declared_returns.get(name)
    if dtype is not None:
        zero: Any = "" if dtype == dtypes.STRING else 0
        return t.builder.constant(np.array(zero, dtype=dtypes.numpy_dtype(dtype)), dtype)
    partner = _visible_partner(t, out)
    if partner is not None:
        zero_value = t.builder.constant(np.array(0, dtype=np.int64))
        return t.builder.emit1("CastLike", zero_value, partner, hint=name)
    raise t.error(
        stmt,
        f"'{name}' is first assigned inside this loop and used after it (or in a later "
        "iteration), and its element type cannot be determined",
        f"give '{name}' a value before the loop, or annotate the function's inputs and return type",
    )


def _visible_partner(t: Translator, value: Value) -> Value | None:
    current: Value | None = value
    for _ in range(64):
        if current is None:
            return None
        if t.builder.sees(current):
            return current
        current = current.same_type_as
    return None


# -- nested graph functions -------------------------------------------------------------


def nested_graph(t: BlockTranslator, sym: Sym, node: ast.AST) -> Graph:
    """Compile a function defined inside the script into a graph attribute.

    It is compiled where it is used, so it reads the enclosing variables' current values.
    """
    if isinstance(sym, Const) and isinstance(sym.value, GraphFunction):
        raise t.error(
            node,
            f"{sym.value.__name__} is defined outside this script",
            "define graph functions (such as a Scan body) inside the script that uses them",
        )
    assert isinstance(sym, NestedGraph)
    fdef = sym.node
    _, body = split_docstring(fdef)
    facts = scan(fdef)
    if facts.needs_normalize:
        fresh = UniqueNames(all_identifiers(fdef) | set(t.env) | set(t.ctx.local_names))
        body = normalize(body, t.ctx.source, fresh)
    builder = _child(t, fdef.name)
    params: list[Value] = []
    annotations = {a.arg: a.annotation for a in fdef.args.args}
    for pname in parameter_names(fdef):
        value = Value(pname)
        ann = annotations.get(pname)
        if ann is not None:
            ann_sym = t.expr(ann)
            if isinstance(ann_sym, Const) and is_tensor_type(ann_sym.value):
                value.type = ann_sym.value.type_spec()
                value.declared_type = value.type
            else:
                raise t.error(ann, "graph function parameters can only have tensor types")
        builder.add_input(value)
        params.append(value)
    saved = (t.liveness, t.returned, t.return_node)
    t.liveness = (
        analyze(body, every_statement=False, has_nested_defs=facts.has_nested_defs)
        if facts.has_compound
        else Liveness()
    )
    t.returned = None
    try:
        with _inside(t, builder), t.scope():
            for value in params:
                t.set_var(value.hint, value)
            t.block(body)
            if t.returned is None:
                raise t.error(fdef, f"graph function {fdef.name} must return its outputs")
            taken: set[Value] = set()
            outputs = []
            for out_sym, out_node in t.returned:
                value = t.to_tensor(out_sym, out_node)
                outputs.append(_output(builder, value, taken))
            builder.graph.outputs = outputs
    finally:
        t.liveness, t.returned, t.return_node = saved
    return builder.graph


__all__ = [
    "conditional_expression",
    "nested_graph",
    "translate_for",
    "translate_if",
    "translate_while",
]
