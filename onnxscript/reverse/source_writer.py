"""Write a planned function body as Python statements, checking it as it goes.

While writing, the source writer simulates how the script compiler will read the code: which
value each Python variable holds at each point, which variables an ``if`` assigns (they
become the If's outputs, in order of first assignment in the then-branch) and which ones
a loop carries (assigned in the body, in order of first assignment). Any disagreement with
the original graph raises :class:`Mismatch`, and the translator plans again more
conservatively. So the emitted code compiles back to the same graph or is not emitted.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import onnx
import onnx.defs

from onnxscript.language.operators import COMPARISONS, SIMPLE_BINARY
from onnxscript.reverse.attributes import AT, AttributeWriter
from onnxscript.reverse.graph_model import GraphInfo, NodeInfo, TranslationError, Val
from onnxscript.reverse.identifiers import is_plain_identifier
from onnxscript.reverse.literals import comment_lines, docstring, string
from onnxscript.reverse.planning import (
    CALL,
    FOR,
    FOR_BREAK,
    IF,
    SKIP,
    WHILE,
    IfPlan,
    LoopPlan,
)
from onnxscript.reverse.types import Imports, annotation
from onnxscript.values import Opset

_POISON = object()
_MISSING = object()
_GRAPH_KINDS = (AT.GRAPH, AT.GRAPHS)

# Ops that ``use_operators`` writes as Python operators: those the script compiler turns
# each operator into directly (the shared operator rules), so each maps back to this op.
_BINARY_OPERATORS = {op: symbol for symbol, op in (SIMPLE_BINARY | COMPARISONS).items()}


class Mismatch(Exception):
    """The code written so far would not compile back to the original graph."""

    def __init__(self, message: str, *values: object) -> None:
        super().__init__(message)
        self.values = [v for v in values if isinstance(v, Val)]


@functools.lru_cache(maxsize=4096)
def _schema_facts(
    domain: str, op_type: str, version: int
) -> tuple[bool, frozenset[str] | None, int]:
    """(the op's last output is variadic, the names of its attributes, how many leading
    inputs are required) from its schema; an op without a schema may have anything
    (``None`` for its attribute names)."""
    try:
        schema = onnx.defs.get_schema(op_type, version, domain)
    except Exception:
        return False, None, 0
    option = onnx.defs.OpSchema.FormalParameterOption
    outs = schema.outputs
    variadic = bool(outs) and outs[-1].option == option.Variadic
    required = 0
    for formal in schema.inputs:
        if formal.option != option.Single:
            break
        required += 1
    return variadic, frozenset(schema.attributes), required


@dataclass
class LocalFunction:
    """A function of the model, called by name from the other functions."""

    py_name: str
    n_outputs: int
    attributes: dict[str, str]  # proto attribute name -> Python parameter name


@dataclass(frozen=True, slots=True)
class OpFacts:
    """What writing a call of one op needs, worked out once per op and function."""

    callee: str  # ``op.Add``, ``my_domain["odd name"]``, or a local function's name
    local: LocalFunction | None
    variadic: bool  # the last output is variadic: one result is written ``(x,)``
    attribute_names: frozenset[str] | None  # the attributes it has (None: unknown)
    required: int  # how many leading inputs it requires


@dataclass
class FunctionScope:
    """What one function's body needs from the module being written."""

    opset_names: dict[str, str]  # domain -> opset variable
    opset_versions: dict[str, int]
    functions: dict[tuple[str, str], LocalFunction]
    attributes: AttributeWriter
    imports: Imports
    attr_params: dict[str, str] = field(default_factory=dict)
    file_key_prefix: str = ""
    use_operators: bool = False
    inline_const: bool = False
    main_opset: str = "op"
    # The main graph's initializers stay initializers (``make_model`` names them in
    # ``initializers=``): never inlined, and those nothing reads are not written at all.
    keep_initializers: bool = False


class SourceWriter:
    """Writes one function body (and nested graphs) while checking it."""

    def __init__(self, scope: FunctionScope) -> None:
        self.scope = scope
        self.lines: list[str] = []
        self.env: dict[str, object] = {}
        self.log: list[tuple[str, object]] = []  # (name, previous value) per binding
        self.marks = 0
        self.use_operators = scope.use_operators
        self.inline: dict[int, str] = {}  # id(value) -> expression, for inline_const
        self.index_vals: set[int] = set()
        # Liveness as the compiler sees it. The compiler only makes an If output or a loop
        # result when the variable is read afterwards: `pending` holds, per variable, such
        # a value that still has to be read. `watch` holds loop inputs (carried variables
        # at the top of a body) until they are read.
        self.pending: dict[str, Val] = {}
        self.watch: dict[str, Val] = {}
        # Reading a loop result also reads the loop's initial value (a watched loop input of
        # an enclosing loop): id(result) -> (variable, watched value).
        self.links: dict[int, list[tuple[str, Val]]] = {}
        self._ops: dict[str | tuple[str, str], OpFacts] = {}

    # -- the simulated environment ------------------------------------------------------

    def bind(self, name: str, value: object) -> None:
        env = self.env
        if self.pending and name in self.pending:
            dead = self.pending.pop(name)
            raise Mismatch(f"{dead.name!r} is never read, so it would not be computed", dead)
        if self.marks:
            self.log.append((name, env.get(name, _MISSING)))
        env[name] = value

    def read(self, val: Val) -> str:
        name = val.py
        if self.env.get(name) is not val:
            inline = self.inline.get(id(val))
            if inline is not None:
                return inline
            found = self.env.get(name)
            raise Mismatch(f"{name} does not hold {val.name!r} here", val, found)
        self._seen(name, val)
        return name

    def _seen(self, name: str, val: Val) -> None:
        if self.pending and self.pending.get(name) is val:
            del self.pending[name]
        if self.watch:
            if self.watch.get(name) is val:
                del self.watch[name]
            linked = self.links.pop(id(val), None)
            if linked:
                for watched_name, watched in linked:
                    self._seen(watched_name, watched)

    def _require(self, name: str, val: Val) -> None:
        """``val`` (in ``name``) exists only if something reads it later."""
        self.pending[name] = val

    def _drop_pending(self, names: Sequence[str], allowed: set[str]) -> None:
        """A block ends: values of ``names`` that were never read would not be computed,
        except for ``allowed`` variables, which the enclosing statement accounts for."""
        if not self.pending:
            return
        for name in names:
            dead = self.pending.get(name)
            if dead is None:
                continue
            if name in allowed:
                del self.pending[name]
            else:
                raise Mismatch(f"{dead.name!r} is never read, so it would not be computed", dead)

    def mark(self) -> int:
        """A position in the log to :meth:`undo` to (each mark is undone once). Bindings are
        logged only while a mark is open: those made outside every block are never undone."""
        self.marks += 1
        return len(self.log)

    def undo(self, mark: int) -> list[str]:
        """Restore the environment to the log position ``mark``; return the names assigned
        since then, in order of first assignment."""
        entries = self.log[mark:]
        env = self.env
        for name, old in reversed(entries):
            if old is _MISSING:
                env.pop(name, None)
            else:
                env[name] = old
        del self.log[mark:]
        self.marks -= 1
        return list(dict.fromkeys([entry[0] for entry in entries]))

    # -- blocks ---------------------------------------------------------------------------

    def function(
        self, graph: GraphInfo, header: Sequence[str], doc: str, indent: str, outputs: Sequence[Val]
    ) -> None:
        self.lines.extend(header)
        inner = indent + "    "
        if doc:
            self.lines.extend(docstring(doc, inner))
        for val in graph.inputs:
            self.bind(val.py, val)
        self.block(graph, inner)
        names = [self.read(v) for v in outputs]
        self.lines.append(f"{inner}return {', '.join(names)}")
        if self.pending:
            dead = next(iter(self.pending.values()))
            raise Mismatch(f"{dead.name!r} is never read, so it would not be computed", dead)

    def block(self, graph: GraphInfo, indent: str) -> None:
        if self.scope.inline_const:
            self._collect_inline(graph)
        for node in graph.nodes:
            form = node.form
            if form == CALL:
                self.call(node, indent)
            elif form == SKIP:
                continue
            elif form == IF:
                self.if_(node, indent, "if")
            elif form in (FOR, WHILE, FOR_BREAK):
                self.loop(node, indent)
            else:
                self.explicit(node, indent)

    def _pass_if_empty(self, start: int, indent: str) -> None:
        """A block that produced no statement needs ``pass``."""
        if len(self.lines) == start:
            self.lines.append(indent + "pass")

    def _collect_inline(self, graph: GraphInfo) -> None:
        """``inline_const``: small constants used once are written at their use."""
        for node in graph.nodes:
            if node.form != CALL:
                continue
            tensor = node.constant_tensor()
            out = node.outputs[0] if node.outputs else None
            if not isinstance(tensor, onnx.TensorProto) or out is None:
                continue
            if node.proto is None and out.depth == 0 and self.scope.keep_initializers:
                continue
            if out.uses != 1 or out.is_output:
                continue
            if math.prod(tensor.dims) > self.scope.attributes.tensors.inline_limit:
                continue
            user = self._single_user(graph, out)
            if user is None:
                continue
            node.form = SKIP
            self.inline[id(out)] = self.scope.attributes.tensors.expression(tensor, out.cand)

    @staticmethod
    def _single_user(graph: GraphInfo, val: Val) -> NodeInfo | None:
        if not 0 <= val.last_use < len(graph.nodes):
            return None
        user = graph.nodes[val.last_use]
        if user.form != CALL or not any(v is val for v in user.inputs):
            return None
        return user

    # -- op calls -------------------------------------------------------------------------

    def callee(self, node: NodeInfo) -> str:
        scope = self.scope
        local = scope.functions.get((node.domain, node.op_type))
        if local is not None:
            return local.py_name
        opset = scope.opset_names[node.domain]
        scope.imports.opsets.add(opset)
        name = node.op_type
        if is_plain_identifier(name) and not name.startswith("_") and name not in _OPSET_ATTRS:
            return f"{opset}.{name}"
        _check_standard_name(node, name, "op")
        return f"{opset}[{string(name)}]"

    def attributes(self, node: NodeInfo, value_name: str) -> list[str]:
        """``name=value`` arguments for the node's attributes (graphs excepted)."""
        scope = self.scope
        op = self.op_facts(node)
        local = op.local
        out: list[str] = []
        odd: list[str] = []
        # Sorted by name: the text then does not depend on the order in the proto.
        previous = None
        for attr in sorted(node.attributes, key=lambda a: a.name):
            if attr.name == previous:
                raise TranslationError(f"{node.op_type} gives attribute {attr.name!r} twice")
            previous = attr.name
            if op.attribute_names is not None and attr.name not in op.attribute_names:
                _check_standard_name(node, attr.name, "attribute")  # the clearer message
                raise TranslationError(f"{node.op_type} has no attribute {attr.name!r}")
            if attr.type in _GRAPH_KINDS:
                continue
            key = attr.name
            if local is not None:
                if key not in local.attributes:
                    raise TranslationError(
                        f"a call of {node.op_type} gives attribute {key!r}, which the "
                        "function does not declare"
                    )
                key = local.attributes[key]
            if attr.ref_attr_name:
                param = scope.attr_params.get(attr.ref_attr_name)
                if param is None:
                    raise TranslationError(
                        f"{node.op_type} refers to an attribute parameter "
                        f"{attr.ref_attr_name!r} outside of a function that declares it"
                    )
                if not is_plain_identifier(key):
                    raise TranslationError(f"attribute name {key!r} is not an identifier")
                out.append(f"{key}={param}")
                continue
            file_key = scope.file_key_prefix + value_name if value_name else None
            text = scope.attributes.value(attr, node.domain, value_name or "value", file_key)
            if is_plain_identifier(key):
                out.append(f"{key}={text}")
            else:
                _check_standard_name(node, key, "attribute")
                odd.append(f"{string(key)}: {text}")
        if odd:
            name = scope.attributes.tensors.names.take("ATTRIBUTES", default="ATTRIBUTES")
            scope.attributes.tensors.module_lines.append(f"{name} = {{{', '.join(odd)}}}")
            out.append(f"**{name}")
        return out

    def op_facts(self, node: NodeInfo) -> OpFacts:
        """The facts of the node's op (cached: :meth:`call` looks them up inline)."""
        key: str | tuple[str, str] = (node.domain, node.op_type) if node.domain else node.op_type
        op = self._ops.get(key)
        if op is None:
            op = self._ops[key] = self._new_op_facts(node)
        return op

    def _new_op_facts(self, node: NodeInfo) -> OpFacts:
        local = self.scope.functions.get((node.domain, node.op_type))
        variadic, attribute_names, required = False, None, 0
        if local is None and node.domain in _STANDARD_DOMAINS:
            version = self.scope.opset_versions.get(node.domain, 1)
            variadic, attribute_names, required = _schema_facts(node.domain, node.op_type, version)
        return OpFacts(self.callee(node), local, variadic, attribute_names, required)

    def targets(self, node: NodeInfo) -> str:
        outs = node.outputs
        op = self.op_facts(node)
        local = op.local
        if len(outs) > 1:
            # Unused results of multi-output ops are written `_`.
            names = [v.py if v is not None and _kept(v) else "_" for v in outs]
        else:
            names = [v.py if v is not None else "_" for v in outs]
        if local is not None:
            names.extend("_" for _ in range(local.n_outputs - len(names)))
        if len(names) == 1:
            return f"({names[0]},)" if op.variadic else names[0]
        return ", ".join(names)

    def call(self, node: NodeInfo, indent: str) -> None:
        """``outputs = op.Op(inputs, attributes)`` (the hot path of writing)."""
        proto = node.proto
        outs = node.outputs
        first = outs[0] if outs else None
        lines = self.lines
        if proto is None:
            if _carried_by_make_model(self.scope, first):
                return
            text = self._initializer(node, first)
            local, variadic = None, False
        else:
            doc = proto.doc_string
            if doc:
                lines.extend(comment_lines(doc, indent))
            op = self._ops.get(node.op_type if not node.domain else (node.domain, node.op_type))
            if op is None:
                op = self.op_facts(node)
            env_get = self.env.get
            tracking = self.pending or self.watch
            args = []
            for v in node.inputs:
                if v is None:
                    args.append("None")
                    continue
                name = v.py
                if env_get(name) is v:
                    if tracking:
                        self._seen(name, v)
                    args.append(name)
                else:
                    args.append(self.read(v))
            required = op.required
            if required and (len(args) < required or "None" in args[:required]):
                raise TranslationError(
                    f"{node.op_type} omits a required input (an empty name or too few inputs)"
                )
            operator = self._operator(node, args) if self.use_operators else None
            if operator is not None:
                text = operator
            else:
                if node.attributes:
                    args.extend(self.attributes(node, first.name if first is not None else ""))
                text = f"{op.callee}({', '.join(args)})"
            local, variadic = op.local, op.variadic
        if not outs:
            lines.append(indent + text)
            return
        if len(outs) == 1 and first is not None and not variadic and local is None:
            name = first.py
            env = self.env
            if self.marks:
                self.log.append((name, env.get(name, _MISSING)))
            env[name] = first
            lines.append(f"{indent}{name} = {text}")
            return
        self._assign_results(node, text, indent)

    def _assign_results(self, node: NodeInfo, text: str, indent: str) -> None:
        """``targets = text`` for a call with several results (or a tuple target)."""
        targets = self.targets(node)
        for v in node.outputs:
            if v is not None and _kept(v):
                self.bind(v.py, v)
        self.lines.append(f"{indent}{targets} = {text}")

    def _operator(self, node: NodeInfo, args: list[str]) -> str | None:
        """``a + b`` for a binary op node, where an operator writes it (:meth:`call` asks
        only for nodes of the model, and only with ``use_operators``)."""
        if node.domain or len(args) != 2:
            return None
        symbol = _BINARY_OPERATORS.get(node.op_type)
        if symbol is None or len(node.outputs) != 1 or node.attributes:
            return None
        if any(v is None or id(v) in self.index_vals or id(v) in self.inline for v in node.inputs):
            return None
        return f"{args[0]} {symbol} {args[1]}"

    def _initializer(self, node: NodeInfo, out: Val | None) -> str:
        scope = self.scope
        if scope.keep_initializers and out is not None and out.depth == 0:
            # Not a node of the compiled model: the model needs no ai.onnx import for it.
            scope.imports.constant_opsets.add(scope.main_opset)
        else:
            scope.imports.opsets.add(scope.main_opset)
        tensor = node.tensor
        name = out.name if out is not None else ""
        if isinstance(tensor, onnx.SparseTensorProto):
            from onnxscript.reverse.tensors import sparse_expression

            text = sparse_expression(tensor, scope.attributes.tensors, out.cand if out else "t")
            return f"{scope.main_opset}.Constant(sparse_value={text})"
        assert isinstance(tensor, onnx.TensorProto)
        text = scope.attributes.tensors.expression(
            tensor, out.cand if out else "tensor", scope.file_key_prefix + name
        )
        return f"{scope.main_opset}.Constant(value={text})"

    # -- assignments at the end of a block ----------------------------------------------

    def assign(
        self, indent: str, pairs: Sequence[tuple[str, Val]], identity_for: Sequence[str] = ()
    ) -> None:
        """Assign each target its source, reading every source before any target changes.

        A target that already holds its source is left alone, except that targets in
        ``identity_for`` (loop variables, which must be assigned in the body to be carried)
        get an explicit ``op.Identity``.
        """
        work: list[tuple[str, str, Val]] = []
        transfer: list[tuple[str, Val]] = []
        for target, src in pairs:
            if self.pending and self.pending.get(src.py) is src and src.py != target:
                transfer.append((target, src))  # an alias does not read; its target must
            text = self.read(src)
            if text == target:
                if target not in identity_for:
                    continue
                text = f"{self.scope.main_opset}.Identity({text})"
                self.scope.imports.opsets.add(self.scope.main_opset)
            work.append((target, text, src))
        if not work:
            return
        targets = [t for t, _, _ in work]
        sequential = all(
            not any(src.py == t for t in targets[:i]) for i, (_, _, src) in enumerate(work)
        )
        if sequential:
            for target, text, _ in work:
                self.lines.append(f"{indent}{target} = {text}")
        else:
            texts = ", ".join(text for _, text, _ in work)
            self.lines.append(f"{indent}{', '.join(targets)} = {texts}")
        for target, _, src in work:
            self.bind(target, src)
        for target, src in transfer:
            self._require(target, src)

    # -- if -------------------------------------------------------------------------------

    def if_(self, node: NodeInfo, indent: str, keyword: str) -> None:
        plan = node.plan
        assert isinstance(plan, IfPlan)
        cond_val = node.inputs[0]
        assert cond_val is not None
        results = [r for r in node.outputs if r is not None]
        names = [r.py for r in results]
        self.lines.append(f"{indent}{keyword} {self.read(cond_val)}:")
        inner = indent + "    "
        then_assigned = self._branch(plan.then_graph, inner, results, plan.then_deferred, names)
        if plan.elif_:
            mark = self.mark()
            inner_if = next(n for n in plan.else_graph.nodes if n.form != SKIP)
            self.if_(inner_if, indent, "elif")
            self._check_outputs(results, plan.else_graph)
            else_assigned = self.undo(mark)
            self._drop_pending(else_assigned, set(names))
        else:
            self.lines.append(f"{indent}else:")
            else_assigned = self._branch(plan.else_graph, inner, results, plan.else_deferred, None)
        self._forget(dict.fromkeys([*then_assigned, *else_assigned]), set(names))
        for r in results:
            self.bind(r.py, r)
            self._require(r.py, r)

    def _forget(self, assigned: Iterable[str], outputs: set[str]) -> None:
        """After an ``if`` or a loop: a variable that had a value before it and is
        reassigned inside (without being one of its ``outputs``) no longer has a known value.
        (Names first bound inside are not bound after it anyway.)"""
        env = self.env
        for name in assigned:
            if name not in outputs and name in env:
                self.bind(name, _POISON)

    def _check_outputs(self, results: Sequence[Val], graph: GraphInfo) -> None:
        for r, value in zip(results, graph.outputs):
            if self.env.get(r.py) is not value:
                raise Mismatch(f"branch output {value.name!r} is not in {r.py}", value)

    def _branch(
        self,
        graph: GraphInfo,
        indent: str,
        results: list[Val],
        deferred: list[int],
        order: list[str] | None,
    ) -> list[str]:
        mark = self.mark()
        start = len(self.lines)
        if graph.doc:
            self.lines.extend(comment_lines(graph.doc, indent))
        self.block(graph, indent)
        self.assign(indent, [(results[i].py, graph.outputs[i]) for i in deferred])
        self._pass_if_empty(start, indent)
        self._check_outputs(results, graph)
        assigned = self.undo(mark)
        self._drop_pending(assigned, {r.py for r in results})
        if order is not None:
            wanted = set(order)
            got = [n for n in assigned if n in wanted]
            if got != order:
                raise Mismatch(f"if outputs would be ordered {got}, not {order}")
        return assigned

    # -- loops ----------------------------------------------------------------------------

    def loop(self, node: NodeInfo, indent: str) -> None:
        plan = node.plan
        assert isinstance(plan, LoopPlan)
        form = node.form
        body = plan.body
        names = [r.py for r in plan.results]
        self._loop_header(plan, form, names, indent)
        # The loop reads the initial values only if it carries the variables; it does when
        # the body reads them (checked below) or when the results are read afterwards.
        saved: list[Val | None] = []
        for name in names:
            self.pending.pop(name, None)
            saved.append(self.watch.pop(name, None))
        mark = self.mark()
        self._loop_enter(plan, form, names)
        body_mark = len(self.log)
        inner = indent + "    "
        start = len(self.lines)
        if body.doc:
            self.lines.extend(comment_lines(body.doc, inner))
        self.block(body, inner)
        self._loop_body_end(plan, form, names, inner)
        self._pass_if_empty(start, inner)
        self._loop_exit(plan, names, saved, mark, body_mark)

    def _loop_header(self, plan: LoopPlan, form: int, names: list[str], indent: str) -> None:
        """Assign the initial values the loop variables do not hold yet; write ``for`` or
        ``while``."""
        bins = plan.body.inputs
        pairs = [
            (name, init) for name, init in zip(names, plan.inits) if self.env.get(name) is not init
        ]
        cond_name = bins[1].py
        if form == WHILE:
            cond = plan.cond
            assert cond is not None
            if self.env.get(cond_name) is not cond:
                pairs.append((cond_name, cond))
        self.assign(indent, pairs)
        if form == WHILE:
            self.lines.append(f"{indent}while {cond_name}:")
        else:
            trip = plan.trip
            assert trip is not None
            self.lines.append(f"{indent}for {bins[0].py} in range({self.read(trip)}):")

    def _loop_enter(self, plan: LoopPlan, form: int, names: list[str]) -> None:
        """Bind the body's inputs to the loop's variables."""
        bins = plan.body.inputs
        if form == WHILE:
            self._seen(bins[1].py, bins[1] if plan.cond is None else plan.cond)
        else:
            self.bind(bins[0].py, bins[0])
            self.index_vals.add(id(bins[0]))
        for j, name in enumerate(names):
            self.bind(name, bins[j + 2])
            self.watch[name] = bins[j + 2]
        if form == WHILE:
            self.bind(bins[1].py, bins[1])

    def _loop_body_end(self, plan: LoopPlan, form: int, names: list[str], inner: str) -> None:
        """Assign the deferred body outputs, check every variable holds its output, and
        write ``if not c: break`` for a computed condition."""
        bins, bouts = plan.body.inputs, plan.body.outputs
        cond_name = bins[1].py
        # A body output that is the body's input (passed through) still has to be
        # assigned in the body for the loop to carry it: an explicit Identity.
        passed = [names[j] for j in plan.deferred if bouts[j + 1] is bins[j + 2]]
        self.assign(inner, [(names[j], bouts[j + 1]) for j in plan.deferred], identity_for=passed)
        if form == WHILE and plan.cond_deferred and self.env.get(cond_name) is not bouts[0]:
            self.assign(inner, [(cond_name, bouts[0])])
        for j, name in enumerate(names):
            if self.env.get(name) is not bouts[j + 1]:
                raise Mismatch(f"{name} does not hold the loop output", bouts[j + 1])
        if form == WHILE and self.env.get(cond_name) is not bouts[0]:
            raise Mismatch("the loop condition is not in its variable", bouts[0])
        if form == FOR_BREAK:
            self.lines.append(f"{inner}if not {self.read(bouts[0])}:")
            self.lines.append(f"{inner}    break")

    def _loop_exit(
        self,
        plan: LoopPlan,
        names: list[str],
        saved: list[Val | None],
        mark: int,
        body_mark: int,
    ) -> None:
        """Check the loop carries its variables in order, leave the body's scope and bind
        the loop's results (values read only after the loop stay watched)."""
        bins = plan.body.inputs
        carried = self.log[body_mark:]
        wanted = set(names)
        order = [n for n in dict.fromkeys(name for name, _ in carried) if n in wanted]
        if order != names:
            raise Mismatch(f"loop would carry {order}, not {names}")
        unread = {j for j, name in enumerate(names) if self.watch.get(name) is bins[j + 2]}
        for name in names:
            self.watch.pop(name, None)
        assigned = self.undo(mark)
        self._drop_pending(assigned, wanted | {bins[1].py})
        self._forget(assigned, wanted)
        for j, r in enumerate(plan.results):
            self.bind(r.py, r)
            if j in unread:
                self._require(r.py, r)
                watched = saved[j]
                if watched is not None:
                    self.watch[r.py] = watched
                    self.links.setdefault(id(r), []).append((r.py, watched))

    # -- nested graph functions ---------------------------------------------------------

    def explicit(self, node: NodeInfo, indent: str) -> None:
        proto = node.proto
        assert proto is not None
        if proto.doc_string:
            self.lines.extend(comment_lines(proto.doc_string, indent))
        graph_args = []
        graphs = list(node.graphs)
        if node.op_type == "If" and not node.domain:
            graphs.sort(key=lambda item: item[0] != "then_branch")
        for attr_name, graph in graphs:
            if not is_plain_identifier(attr_name):
                raise TranslationError(f"attribute name {attr_name!r} is not an identifier")
            self.graph_def(graph, indent)
            graph_args.append(f"{attr_name}={graph.func_name}")
        args = [self.read(v) if v is not None else "None" for v in node.inputs]
        first = node.outputs[0] if node.outputs else None
        kwargs = self.attributes(node, first.name if first is not None else "")
        text = f"{self.callee(node)}({', '.join(args + kwargs + graph_args)})"
        if not node.outputs:
            self.lines.append(indent + text)
            return
        self._assign_results(node, text, indent)

    def graph_def(self, graph: GraphInfo, indent: str) -> None:
        params = []
        imports = self.scope.imports
        for val in graph.inputs:
            ann = None
            if val.type is not None and val.type.WhichOneof("value") == "tensor_type":
                ann = annotation(val.type, imports)
            params.append(f"{val.py}: {ann}" if ann else val.py)
        decorator = imports.name("graph")
        self.lines.append(f"{indent}@{decorator}()")
        self.lines.append(f"{indent}def {graph.func_name}({', '.join(params)}):")
        mark = self.mark()
        inner = indent + "    "
        if graph.doc:
            self.lines.extend(docstring(graph.doc, inner))
        for val in graph.inputs:
            self.bind(val.py, val)
        self.block(graph, inner)
        names = [self.read(v) for v in graph.outputs]
        self.lines.append(f"{inner}return {', '.join(names)}")
        self._drop_pending(self.undo(mark), set())
        self.bind(graph.func_name, _POISON)


_STANDARD_DOMAINS = frozenset({"", "ai.onnx.ml", "ai.onnx.preview.training"})


def _check_standard_name(node: NodeInfo, name: str, what: str) -> None:
    """A standard op (or attribute of one) whose name NFKC normalization changes is in no
    schema: the compiler would refuse ``op["Ｒｅｌｕ"]``, and ``op.Ｒｅｌｕ`` would be
    ``op.Relu`` (Python normalizes identifiers). Other domains get the name as written
    (``my_domain["Ｒｅｌｕ"](x)``, ``**{"ﬁlter": 1}``)."""
    if node.domain in _STANDARD_DOMAINS and not name.isascii():
        normal = unicodedata.normalize("NFKC", name)
        if normal != name:
            domain = node.domain or "ai.onnx"
            raise TranslationError(
                f"{node.op_type!r} of {domain}: the {what} name {name!r} is in no opset, and "
                f"Python would read it as {normal!r} (identifiers are NFKC-normalized)"
            )


def _carried_by_make_model(scope: FunctionScope, out: Val | None) -> bool:
    """Whether an initializer is left to ``make_model``: one of the main graph that nothing
    reads (``initializers=`` gives its value)."""
    return (
        scope.keep_initializers
        and out is not None
        and out.depth == 0
        and not (out.uses or out.is_output)
    )


def _kept(val: Val) -> bool:
    """Whether a node output gets a variable (it is read, an output, or part of one)."""
    return bool(val.uses or val.is_output or val.var is not None)


# Names that `opset.<name>` would not resolve to an op (the Opset object's own attributes).
_OPSET_ATTRS = frozenset({"domain", "version", *(n for n in vars(Opset) if not n.startswith("_"))})
