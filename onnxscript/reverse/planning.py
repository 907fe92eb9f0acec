"""Decide how each node is written and which values share a Python variable.

Control flow becomes Python statements where the script compiler turns those statements
back into the same nodes:

* ``If`` -> ``if c: ... else: ...`` when all its outputs are used; each output is one
  variable, assigned in both branches.
* ``Loop`` with a trip count, no condition and a body that passes the condition through ->
  ``for i in range(n):``; with a computed condition -> ``for ...: ...; if not c: break``;
  without a trip count -> ``while c:``. Loop-carried values are one variable each (the
  initial value, the body's input and output and the loop's result).
* Anything else with graph attributes (``Scan``, loops with scan outputs, ...) keeps the
  op call, with nested ``@graph()`` functions for the graphs.

Value merging (SSA variants back into one variable) is optional: each merge records the
value it moved, and a merge that turns out to be wrong (see ``source_writer``) is disabled by
adding that value's ``seq`` to ``avoid`` and planning again. ``level`` trades readability for
safety: 0 = everything, 1 = no optional merges, 2 = explicit op calls for control flow.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import onnx

from onnxscript.compiled_patterns import is_scalar_shape, is_true_scalar
from onnxscript.reverse.graph_model import GraphInfo, NodeInfo, Val, Var
from onnxscript.reverse.identifiers import ssa_base

CALL = 0
SKIP = 1
IF = 2
FOR = 3
WHILE = 4
FOR_BREAK = 5
EXPLICIT = 6


@dataclass(slots=True)
class IfPlan:
    then_graph: GraphInfo
    else_graph: GraphInfo
    then_deferred: list[int] = field(default_factory=list)
    else_deferred: list[int] = field(default_factory=list)
    elif_: bool = False


@dataclass(slots=True)
class LoopPlan:
    body: GraphInfo
    trip: Val | None
    cond: Val | None
    inits: list[Val]
    results: list[Val]
    deferred: list[int] = field(default_factory=list)
    cond_deferred: bool = False


def var_of(val: Val, created: list[Var]) -> Var:
    """The variable of ``val``, made (and added to ``created``) if it has none yet."""
    var = val.var
    if var is None:
        var = val.var = Var(val)
        created.append(var)
    return var


def unite(a: Val, b: Val, created: list[Var]) -> None:
    """Put ``a`` and ``b`` (and everything sharing a variable with them) in one variable
    (a variable that ends up empty stays in ``created``: its root no longer refers to it)."""
    va = var_of(a, created)
    vb = var_of(b, created)
    if va is vb:
        return
    if len(va.members) < len(vb.members):
        va, vb = vb, va
    for member in vb.members:
        member.var = va
    va.members.extend(vb.members)
    if vb.root.seq < va.root.seq:
        va.root = vb.root


def _is_const_true(val: Val) -> bool:
    tensor = val.node.constant_tensor() if val.node is not None else None
    return isinstance(tensor, onnx.TensorProto) and is_true_scalar(tensor)


def _is_empty_shape(val: Val) -> bool:
    """Whether ``val`` is a ``Constant`` holding the empty int64 shape (a scalar's)."""
    tensor = val.node.constant_tensor() if val.node is not None else None
    return isinstance(tensor, onnx.TensorProto) and is_scalar_shape(tensor)


def _loop_form(trip: Val | None, cond: Val | None, body: GraphInfo) -> int:
    """``FOR``, ``FOR_BREAK``, ``WHILE`` or ``EXPLICIT`` for a plain ``Loop``; marks the
    body's pass-through ``Identity`` of the condition as skipped for ``FOR``."""
    iter_in, cond_in, cond_out = body.inputs[0], body.inputs[1], body.outputs[0]
    cond_true = cond is None or _is_const_true(cond)
    passthrough = _condition_passthrough(cond_in, cond_out, body)
    if trip is not None and cond_true and passthrough is not None:
        copy = passthrough if isinstance(passthrough, NodeInfo) else None
        if cond_in.uses == (0 if copy is None else 1):
            if copy is not None:
                copy.form = SKIP
            return FOR
    if trip is not None and cond_true and cond_in.uses == 0:
        return FOR_BREAK
    if trip is None and cond is not None and iter_in.uses == 0:
        return WHILE
    return EXPLICIT


def _condition_passthrough(cond_in: Val, cond_out: Val, body: GraphInfo) -> NodeInfo | bool | None:
    """``True`` when the body returns its condition input itself, the ``Identity`` node
    when it returns a copy of it that nothing else reads, ``None`` otherwise."""
    if cond_out is cond_in:
        return True
    src = cond_out.node
    if (
        src is not None
        and cond_out.graph is body
        and src.op_type == "Identity"
        and not src.domain
        and len(src.inputs) == 1
        and src.inputs[0] is cond_in
        and cond_out.uses == 0
        and cond_out.is_output == 1
    ):
        return src
    return None


@dataclass(slots=True)
class _Carried:
    """The variables a loop's values may join: its results and, for ``while``, the body's
    condition input (``cond_in``)."""

    plan: LoopPlan
    cond_in: Val | None

    def taken(self, val: Val, own: Val | None = None) -> bool:
        """Whether ``val`` already shares a variable with one of this loop's (other than
        ``own``'s)."""
        var = val.var
        if var is None or (own is not None and var is own.var):
            return False
        if any(var is r.var for r in self.plan.results):
            return True
        return self.cond_in is not None and var is self.cond_in.var


class Planner:
    """Plans one function body (and its nested graphs) at one ``level``."""

    def __init__(
        self, level: int, avoid: set[int], main: GraphInfo | None, ssa_names: bool = True
    ) -> None:
        self.level = level
        self.avoid = avoid
        self.main = main
        self.ssa_names = ssa_names  # False: no value has a name like x_1 (nothing to merge)
        self.skipped_uses: dict[int, int] = {}  # uses of a value by skipped nodes
        self.vars: list[Var] = []  # the variables made (some end up merged into others)

    def optional(self, val: Val) -> bool:
        """Whether an optional merge moving ``val`` is allowed."""
        return self.level == 0 and val.seq not in self.avoid

    # -- graphs ---------------------------------------------------------------------------

    def plan(self, graph: GraphInfo) -> None:
        """Plan a function body: control flow first (innermost first), then SSA merges,
        which must see the final control-flow variables."""
        self.plan_graph(graph)
        if self.level == 0 and self.ssa_names:
            self._merge_all(graph)

    def _merge_all(self, graph: GraphInfo) -> None:
        for node in graph.control:
            for _, sub in node.graphs:
                self._merge_all(sub)
        self.merge_ssa(graph)

    def plan_graph(self, graph: GraphInfo) -> None:
        """Choose the form of the nodes of ``graph`` that have nested graphs (the others
        are op calls, the form they are read with), and plan their graphs first."""
        for node in graph.control:
            for _, sub in node.graphs:
                self.plan_graph(sub)
            if node.op_type == "If" and not node.domain:
                self.plan_if(node)
            elif node.op_type == "Loop" and not node.domain:
                self.plan_loop(node, graph)
            else:
                node.form = EXPLICIT

    # -- if -------------------------------------------------------------------------------

    def plan_if(self, node: NodeInfo) -> None:
        then_g = node.graph("then_branch")
        else_g = node.graph("else_branch")
        outs = node.outputs
        if (
            self.level >= 2
            or then_g is None
            or else_g is None
            or len(node.graphs) != 2
            or then_g.inputs
            or else_g.inputs
            or len(node.inputs) != 1
            or node.inputs[0] is None
            or not outs
            or len(then_g.outputs) != len(outs)
            or len(else_g.outputs) != len(outs)
            or any(o is None or not (o.uses or o.is_output) or o.seq in self.avoid for o in outs)
        ):
            node.form = EXPLICIT
            return
        node.form = IF
        results: list[Val] = [o for o in outs if o is not None]
        for out in results:
            var_of(out, self.vars)
        plan = IfPlan(then_g, else_g)
        plan.then_deferred = self._branch(results, then_g, ordered=True)
        plan.else_deferred = self._branch(results, else_g, ordered=False)
        live = [n for n in else_g.nodes if n.form != SKIP]
        plan.elif_ = (
            not plan.else_deferred and len(live) == 1 and live[0].form == IF and not else_g.doc
        )
        node.plan = plan

    def _branch(self, results: list[Val], graph: GraphInfo, ordered: bool) -> list[int]:
        """Unite each branch output with its If output where the branch can assign the
        variable directly; return the indices assigned at the end of the branch instead.

        In the then-branch (``ordered``), the variables must be first assigned in output
        order, because that order is how the compiler orders the If outputs.
        """
        deferred: list[int] = []
        last = (-1, -1)
        prefix = True
        for i, (out, value) in enumerate(zip(results, graph.outputs)):
            ok = (
                value.graph is graph
                and value.node is not None
                and value.node.form != SKIP
                and value.seq not in self.avoid
                and not (
                    value.var is not None
                    and value.var is not out.var
                    and any(value.var is r.var for r in results)
                )
            )
            pos = (value.index, value.slot)
            if ok and ordered:
                ok = prefix and pos > last
            if ok:
                unite(out, value, self.vars)
                last = pos
            else:
                deferred.append(i)
                prefix = False
        return deferred

    # -- loops ----------------------------------------------------------------------------

    def plan_loop(self, node: NodeInfo, graph: GraphInfo) -> None:
        body = node.graph("body")
        if body is None or not self._loop_is_plain(node, body):
            node.form = EXPLICIT
            return
        ins = list(node.inputs) + [None] * (2 - len(node.inputs))
        trip, cond = ins[0], ins[1]
        node.form = _loop_form(trip, cond, body)
        if node.form == EXPLICIT:
            return
        if node.form != WHILE and cond is not None and cond.uses == 1 and cond.node is not None:
            cond.node.form = SKIP  # the compiler makes its own `true` when it needs one
        if node.form == WHILE and cond is not None:
            cond = self._unreshaped(cond)
        inits = [v for v in ins[2:] if v is not None]
        results = [o for o in node.outputs if o is not None]
        plan = LoopPlan(body, trip, cond, inits, results)
        carried = _Carried(plan, body.inputs[1] if node.form == WHILE else None)
        for j, result in enumerate(results):
            unite(result, body.inputs[j + 2], self.vars)
        if carried.cond_in is not None:
            var_of(carried.cond_in, self.vars)
        self._unite_body_outputs(plan, carried)
        self._unite_body_cond(plan, carried, node.form)
        self._unite_initial_values(node, graph, plan, carried)
        node.plan = plan

    def _loop_is_plain(self, node: NodeInfo, body: GraphInfo) -> bool:
        """Whether a ``Loop`` has the structure the compiler gives ``for``/``while``: one
        graph, as many carried values in and out as the body has, none of them unused."""
        n = len(node.inputs) - 2
        outs = node.outputs
        if (
            self.level >= 2
            or len(node.graphs) != 1
            or len(body.inputs) != max(n, 0) + 2
            or len(body.outputs) != max(n, 0) + 1
            or len(outs) != max(n, 0)
            or any(v is None for v in node.inputs[2:])
            or any(o is None or o.seq in self.avoid for o in outs)
        ):
            return False
        # The compiler would not carry an unused value.
        return all(
            body.inputs[j + 2].uses or out.uses or out.is_output
            for j, out in enumerate(outs)
            if out is not None
        )

    def _unite_body_outputs(self, plan: LoopPlan, carried: _Carried) -> None:
        """Each carried value's body output joins its variable when it is computed in the
        body, after the last read of the body input, in output order; others are deferred
        (assigned at the end of the body)."""
        body = plan.body
        last = (-1, -1)
        prefix = True
        for j, result in enumerate(plan.results):
            value = body.outputs[j + 1]
            ok = (
                prefix
                and value.graph is body
                and value.node is not None
                and value.node.form != SKIP
                and body.inputs[j + 2].last_use <= value.index
                and value.seq not in self.avoid
                and not carried.taken(value, result)
                and (value.index, value.slot) > last
            )
            if ok:
                unite(result, value, self.vars)
                last = (value.index, value.slot)
            else:
                plan.deferred.append(j)
                prefix = False

    def _unite_body_cond(self, plan: LoopPlan, carried: _Carried, form: int) -> None:
        """The body's condition output shares the condition input's variable where the
        compiler would give them one name."""
        body = plan.body
        cond_in, cond_out = body.inputs[1], body.outputs[0]
        computed = (
            cond_out.graph is body
            and cond_out.node is not None
            and cond_out.node.form != SKIP
            and cond_out.seq not in self.avoid
        )
        if form == WHILE:
            if (
                computed
                and cond_in.last_use <= cond_out.index
                and not carried.taken(cond_out, cond_in)
            ):
                unite(cond_in, cond_out, self.vars)
            else:
                plan.cond_deferred = True
        elif form == FOR_BREAK and computed and cond_out.var is None:
            # The compiler names the body's condition input after the variable tested by
            # `if not c: break`; sharing the input's name keeps the names stable.
            unite(cond_in, cond_out, self.vars)

    def _unite_initial_values(
        self, node: NodeInfo, graph: GraphInfo, plan: LoopPlan, carried: _Carried
    ) -> None:
        """An initial value becomes the loop variable when nothing else reads it."""
        for init, result in zip(plan.inits, plan.results):
            # A model output keeps its name only as the first value of its variable.
            if graph is self.main and result.is_output:
                continue
            if self._can_merge_init(node, init, graph) and not carried.taken(init, result):
                unite(result, init, self.vars)
        # A constant condition stays its own variable: it may also be the (unread) condition
        # of `for` loops, which would make the choice differ once compiled again.
        cond, cond_in = plan.cond, carried.cond_in
        if (
            cond_in is not None
            and cond is not None
            and not (cond.node is not None and cond.node.op_type == "Constant")
            and self._can_merge_init(node, cond, graph)
            and not carried.taken(cond, cond_in)
        ):
            unite(cond_in, cond, self.vars)

    def _unreshaped(self, cond: Val) -> Val:
        """The compiler reshapes a ``while`` condition to a scalar itself: a condition that
        is ``Reshape(c, [])``, read only by this loop, is written as ``c``."""
        node = cond.node
        if (
            node is None
            or node.op_type != "Reshape"
            or node.domain
            or cond.uses != 1
            or len(node.inputs) != 2
            or node.form == SKIP
            or node.proto is None
            or node.attributes
        ):
            return cond
        source, shape = node.inputs
        if source is None or shape is None or not _is_empty_shape(shape):
            return cond
        node.form = SKIP
        shape_node = shape.node
        assert shape_node is not None
        count = self.skipped_uses.get(id(shape), 0) + 1
        self.skipped_uses[id(shape)] = count
        if count == shape.uses and not shape.is_output:
            shape_node.form = SKIP
        return source

    def _can_merge_init(self, node: NodeInfo, init: Val, graph: GraphInfo) -> bool:
        """An initial value can become the loop variable when it is defined in the loop's
        graph and nothing reads it after the loop or inside the body."""
        if not self.optional(init) or init.graph is not graph or init.is_output:
            return False
        if init.node is not None and init.node.form == SKIP:
            return False
        return init.last_use <= node.index and init.nested_last < node.index

    # -- SSA variants ---------------------------------------------------------------------

    def merge_ssa(self, graph: GraphInfo) -> None:
        """Merge ``x_1`` into the variable ``x`` when ``x`` is no longer read.

        Only values defined in this graph are merged, and only when the earlier value is not
        an output of the graph and is not read after the later one is defined.
        """
        is_main = graph is self.main
        latest: dict[str, Val] = {inp.cand: inp for inp in graph.inputs}
        for node in graph.nodes:
            if node.form == SKIP:
                continue
            for val in node.outputs:
                if val is None:
                    continue
                var = val.var
                if var is None and not (val.uses or val.is_output):
                    continue
                if var is not None and var.root is not val:
                    latest[var.root.cand] = val  # val joined a variable that another value started
                    continue
                cand = val.cand
                base = ssa_base(cand) if cand[-1].isdigit() else None  # (a quick no first)
                if base is not None:
                    earlier = latest.get(base)
                    if earlier is not None and self._merges(earlier, val, is_main):
                        unite(earlier, val, self.vars)
                        latest[base] = val
                        continue
                latest[cand] = val

    def _merges(self, earlier: Val, val: Val, is_main: bool) -> bool:
        """Whether ``val`` (``x_1``) may join the variable of ``earlier`` (``x``): they are
        not in one variable already, ``earlier`` is no graph output and is not read after
        ``val`` is defined, and ``val`` is no output of the main graph (those keep their
        names) nor an initializer (``initializers=`` names the variable it starts)."""
        return (
            (val.var is None or earlier.var is not val.var)
            and not (is_main and val.is_output)
            and val.node is not None
            and val.node.proto is not None  # an initializer starts its own variable
            and not earlier.is_output
            and earlier.last_use <= val.index
            and self.optional(val)
            and self.optional(earlier)
        )
