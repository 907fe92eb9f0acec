"""Translate a whole ``ModelProto``, ``FunctionProto`` or ``GraphProto`` into a module.

The module imports what it uses, declares the opsets (``from onnxscript import opset18 as
op``, ``my_domain = Opset("my.domain", 1)``), defines large tensors as module constants,
then the model's functions (callees first) as ``@script(<domain opset>)`` functions and the
main graph as a ``@script()`` function, and for a model a ``make_model()`` function that
compiles the main function with the original model's IR version, opset imports and
metadata.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

import onnx
import onnx.defs

from onnxscript.proto_graphs import nested_nodes
from onnxscript.reverse.attributes import (
    PYTHON_KINDS,
    AttributeWriter,
    attribute_kind,
    schema_attribute_kind,
)
from onnxscript.reverse.graph_model import GraphInfo, Reader, TranslationError, Val, Var
from onnxscript.reverse.identifiers import (
    RESERVED_BUILTINS,
    NameAllocator,
    is_plain_identifier,
    may_have_ssa_names,
    sanitize,
    ssa_base,
)
from onnxscript.reverse.literals import string
from onnxscript.reverse.options import Options
from onnxscript.reverse.planning import CALL, Planner
from onnxscript.reverse.source_writer import FunctionScope, LocalFunction, Mismatch, SourceWriter
from onnxscript.reverse.tensors import TensorWriter
from onnxscript.reverse.types import (
    DTYPE_NAMES,
    Imports,
    annotation,
    has_denotation,
    has_type,
    type_expression,
)
from onnxscript.schemas import canonical_domain, imported_versions

AT = onnx.AttributeProto

_MODULE_NAMES = frozenset(
    {
        "np",
        "onnx",
        "script",
        "graph",
        "Opset",
        "external_tensor",
        "model_tensor",
        "rename_values",
        "with_denotations",
        "named",
        "_",
        *DTYPE_NAMES.values(),
    }
)
_MAX_TARGETED_RETRIES = 8
_RUNTIME_NAMES = frozenset(
    {"external_tensor", "model_tensor", "named", "rename_values", "with_denotations"}
)
# Names a model's functions and attributes cannot keep: the entry point of the module,
# builtins the emitted code calls, and the name of unused results.
_NOT_KEPT = frozenset({"make_model", "_"})
# Names the script compiler gives values it makes on its own (a `for` loop's condition
# constant, the shape that makes a `while` condition a scalar, loop body inputs).
_COMPILER_HINTS = frozenset({"true", "const", "iter_num", "cond_in"})


@dataclass
class _Function:
    """One function of the module while it is being translated."""

    graph: GraphInfo
    reader: Reader
    names: NameAllocator
    scope: FunctionScope
    py_name: str
    header: list[str] = field(default_factory=list)
    doc: str = ""
    outputs: list[Val] = field(default_factory=list)
    is_main: bool = False
    calls: set[tuple[str, str]] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)


def _interface(fn: _Function) -> set[int]:
    """Ids of the values whose names are the function's interface: its inputs, and for the
    main function its outputs (a model's input and output names)."""
    keep = {id(v) for v in fn.graph.inputs}
    if fn.is_main:
        keep |= {id(v) for v in fn.graph.outputs}
    return keep


def _kept_initializers(fn: _Function) -> list[Val]:
    """The main graph's initializers that stay initializers. ``initializers=`` gives them
    their names only after compiling: no value the compiler names may take one."""
    if not fn.scope.keep_initializers:
        return []
    return [
        out
        for node in fn.graph.nodes
        if node.proto is None
        for out in node.outputs
        if out is not None
    ]


def _keepable(name: str) -> bool:
    """Whether a function or attribute of the model can keep ``name`` in Python."""
    return (
        is_plain_identifier(name)
        and name[:2] != "__"
        and name not in RESERVED_BUILTINS
        and name not in _NOT_KEPT
    )


class ModuleWriter:
    """Collects opsets, functions and constants, and writes the module text.

    The names of the model's functions and of their attribute parameters are what the
    compiled model calls them, so they are kept: the module's own names (opset objects,
    imports such as ``np`` or ``graph``, constants) give way to them.
    """

    def __init__(self, options: Options, functions: Sequence[onnx.FunctionProto] = ()) -> None:
        self.options = options
        self.user_functions = {f.name for f in functions if _keepable(f.name)}
        self.user_attributes = {a for f in functions for a in _attribute_names(f) if _keepable(a)}
        self._claimed: set[str] = set()
        user = self.user_functions | self.user_attributes
        self.names = NameAllocator(_MODULE_NAMES | user)
        aliases = {n: self.names.take(n) for n in sorted(_MODULE_NAMES & user)}
        self.imports = Imports(aliases)
        self.opset_vars: dict[tuple[str, int], str] = {}
        self.main_version = 0
        self.local: dict[tuple[str, str], LocalFunction] = {}
        self.functions: list[_Function] = []
        self.tensors: TensorWriter | None = None
        self.trailer: list[str] = []
        self.module_names: set[str] | None = None  # names defined at module level

    # -- opsets ---------------------------------------------------------------------------

    def declare_opsets(self, versions: Sequence[dict[str, int]], main_version: int) -> None:
        """Name an opset variable for every (domain, version) imported anywhere."""
        self.main_version = main_version
        self.opset_vars[("", main_version)] = self.names.take("op")
        pairs = sorted({(d, v) for imports in versions for d, v in imports.items()})
        per_domain: dict[str, int] = {}
        for domain, _ in pairs:
            per_domain[domain] = per_domain.get(domain, 0) + 1
        for domain, version in pairs:
            if (domain, version) in self.opset_vars:
                continue
            self.opset_vars[(domain, version)] = self._opset_name(
                domain, version, per_domain[domain] > 1
            )

    def _opset_name(self, domain: str, version: int, several: bool) -> str:
        if not domain:
            return self.names.take(f"opset{version}")
        base = sanitize(domain.replace(".", "_"), default="opset")
        return self.names.take(f"{base}{version}" if several else base)

    def function_name(self, name: str) -> str:
        """The Python name of the model's function ``name``: ``name`` itself when it can
        keep it (the first function of that name)."""
        if name in self.user_functions and name not in self._claimed:
            self._claimed.add(name)
            return name
        return self.names.take(name, default="function")

    def release_attribute_names(self) -> None:
        """Module-level names are chosen: attribute names are free for values again (each
        function claims its own attribute parameters)."""
        self.names.used -= self.user_attributes - self.user_functions

    def opset_var(self, domain: str, version: int) -> str:
        key = (domain, version)
        name = self.opset_vars.get(key)
        if name is None:
            name = self._opset_name(domain, version, True)
            self.opset_vars[key] = name
        return name

    # -- reading ----------------------------------------------------------------------------

    def add_function(
        self,
        *,
        name: str,
        py_name: str,
        domain: str,
        inputs: Sequence[tuple[str, onnx.TypeProto | None]],
        nodes: Sequence[onnx.NodeProto],
        outputs: Sequence[str],
        imports: dict[str, int],
        initializers: Sequence[onnx.TensorProto] = (),
        sparse_initializers: Sequence[onnx.SparseTensorProto] = (),
        attributes: Sequence[str] = (),
        attribute_defaults: Sequence[onnx.AttributeProto] = (),
        doc: str = "",
        is_main: bool = False,
        keep_initializers: bool = False,
    ) -> _Function:
        if self.module_names is None:
            self.module_names = set(self.names.used)
        names = self.names.copy()
        attr_params: dict[str, str] = {}
        declared = [*attributes, *(a.name for a in attribute_defaults)]
        called = _op_types(nodes) if self.user_functions & set(declared) else set()
        for attr_name in declared:
            _check_stable(attr_name, name)
            # A parameter named like a function hides it, unless this function calls none
            # of that name.
            free = attr_name not in names.used or (
                attr_name in self.user_functions and attr_name not in called
            )
            if attr_name in self.user_attributes and free and attr_name not in attr_params:
                names.used.add(attr_name)
                attr_params[attr_name] = attr_name
            else:
                attr_params[attr_name] = names.take(attr_name, default="attr")
        reader = Reader(names)
        graph = reader.read_graph(name, inputs, nodes, outputs, initializers, sparse_initializers)
        reader.name_subgraphs()
        graph.doc = doc
        scope = FunctionScope(
            opset_names={},
            opset_versions=dict(imports),
            functions=self.local,
            attributes=None,  # type: ignore[arg-type]  # set once all names are known
            imports=self.imports,
            attr_params=attr_params,
            file_key_prefix="" if is_main else f"{domain}::{name}::",
            use_operators=self.options.use_operators,
            inline_const=self.options.inline_const,
            keep_initializers=keep_initializers,
        )
        fn = _Function(graph, reader, names, scope, py_name, doc=doc, is_main=is_main)
        fn.calls = reader.calls
        fn.outputs = list(graph.outputs)
        self.functions.append(fn)
        if not is_main:
            self.local[(domain, name)] = LocalFunction(py_name, len(outputs), attr_params)
        return fn

    # -- writing ----------------------------------------------------------------------------

    def prepare(self) -> None:
        """Set up names that depend on every function: module constants and opsets."""
        everything = NameAllocator()
        for fn in self.functions:
            everything.used |= fn.names.used
        everything.used |= self.names.used
        self.names = everything
        self.tensors = TensorWriter(
            names=everything,
            imports=self.imports,
            inline_limit=self.options.inline_limit,
            large_limit=self.options.large_limit,
            tensor_file=self.options.tensor_file,
        )
        writer = AttributeWriter(self.tensors, self.imports)
        for fn in self.functions:
            fn.scope.attributes = writer
            versions = fn.scope.opset_versions
            ai_version = versions.get("", self.main_version)
            fn.scope.main_opset = self.opset_var("", ai_version)
            for domain in sorted(fn.reader.domains | set(versions)):
                fn.scope.opset_names[domain] = self.opset_var(domain, versions.get(domain, 1))

    def translate(self, fn: _Function) -> None:
        """Plan and write one function, planning more conservatively after a mismatch."""
        assert self.tensors is not None
        level = 0
        avoid: set[int] = set()
        tries = 0
        values = fn.reader.values
        main_graph = fn.graph if fn.is_main else None
        ssa_names = may_have_ssa_names(fn.names.used)  # (every value's name is in it)
        while True:
            if tries:
                _reset(fn)
            planner = Planner(level, avoid, main_graph, ssa_names)
            planner.plan(fn.graph)
            state = self.names.snapshot()
            fn_state = fn.names.snapshot()
            module_mark = len(self.tensors.module_lines)
            imports_state = (set(self.imports.names), set(self.imports.modules))
            writer = SourceWriter(fn.scope)
            try:
                self._name_values(fn, values, planner.vars, ssa_names)
                writer.function(fn.graph, fn.header, fn.doc, "", fn.outputs)
            except Mismatch as exc:
                self.names.restore(state)
                fn.names.restore(fn_state)
                del self.tensors.module_lines[module_mark:]
                self.imports.names, self.imports.modules = imports_state
                tries += 1
                fresh = {v.seq for v in exc.values}
                fresh |= {v.var.root.seq for v in exc.values if v.var is not None}
                fresh -= avoid
                if level == 0 and fresh and tries <= _MAX_TARGETED_RETRIES:
                    avoid |= fresh
                    continue
                level += 1
                if level > 2:
                    raise TranslationError(f"cannot translate {fn.py_name}: {exc}") from None
                continue
            fn.lines = writer.lines
            return

    def _name_values(
        self, fn: _Function, values: Sequence[Val], variables: list[Var], ssa_names: bool
    ) -> None:
        """Python names: each value its candidate name, except that the values of a
        variable take its first value's (with ``rename``, short names instead).
        ``ssa_names``: some value may have a name like ``x_1``."""
        if not self.options.rename:
            multi: dict[str, Var] = {}
            for variable in variables:
                root = variable.root
                if root.var is not variable:
                    continue  # merged into another variable
                name = root.cand
                for member in variable.members:
                    member.py = name
                if len(variable.members) > 1:
                    multi[name] = variable
            if ssa_names or not fn.names.used.isdisjoint(_COMPILER_HINTS):
                self._avoid_suffix_names(fn, values, multi)
            return
        keep = _interface(fn)
        taken = set(self.module_names or ())
        taken |= set(fn.scope.attr_params.values())
        taken |= {sub.func_name for sub in fn.reader.subgraphs}
        taken |= {v.cand for v in values if id(v) in keep}
        taken |= {v.name for v in _kept_initializers(fn)}
        counter = 0
        by_var: dict[int, str] = {}
        for val in values:
            var = val.var
            key = id(var) if var is not None else id(val)
            if key in by_var:
                val.py = by_var[key]
                continue
            members = var.members if var is not None else [val]
            kept = next((m for m in members if id(m) in keep), None)
            if kept is not None:
                name = kept.cand
            else:
                while True:
                    name = f"v{counter}"
                    counter += 1
                    if name not in taken:
                        break
            by_var[key] = name
            val.py = name

    def _avoid_suffix_names(
        self, fn: _Function, values: Sequence[Val], multi: dict[str, Var]
    ) -> None:
        """The compiler names the values of a variable ``x`` ``x``, ``x_1``, ``x_2``, ...;
        another variable called ``x_1`` would lose its name to them when compiled, and
        translating again would not give the same text. Such variables get a trailing ``_``
        (except the model's inputs and outputs, whose names are its interface)."""
        # An initializer keeps its name too: its variable is called like it, so that the
        # compiler, which sees the name, gives it to no other value.
        keep = _interface(fn) | {id(v) for v in _kept_initializers(fn)}
        renamed: dict[str, str] = {}
        hints = _COMPILER_HINTS
        for val in values:
            name = val.py
            if not name[-1].isdigit() and name not in hints:
                continue
            base = ssa_base(name)
            if name in _COMPILER_HINTS or base in _COMPILER_HINTS:
                if id(val) in keep:
                    continue
                base = name
            elif base is None or base not in multi:
                continue
            elif id(val) in keep:
                # The model's input, output or initializer keeps its name: plan `base`
                # without merges.
                raise Mismatch(f"{name} would collide with the values of {base}", multi[base].root)
            new = renamed.get(name)
            if new is None:
                new = renamed[name] = fn.names.take(name + "_")
            val.py = new

    def write(self) -> str:
        """The module text (call after every function was translated)."""
        assert self.tensors is not None
        body: list[str] = []
        for fn in self._ordered():
            body.append("")
            body.append("")
            body.extend(fn.lines)
        if self.trailer:
            body.extend(["", "", *self.trailer])
        head = self._header()
        module_lines = self.tensors.module_lines
        parts = head
        if module_lines:
            parts = [*parts, "", *module_lines]
        return "\n".join([*parts, *body]) + "\n"

    def __enter__(self) -> ModuleWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Break the reference cycles of the functions' graphs (see :meth:`Reader.release`)
        once the text is written, or translation failed."""
        for fn in self.functions:
            fn.reader.release(fn.graph)

    def _ordered(self) -> list[_Function]:
        """Functions with every callee before its callers (main last)."""
        by_name = {fn.py_name: fn for fn in self.functions}
        by_key = {
            key: by_name[local.py_name]
            for key, local in self.local.items()
            if local.py_name in by_name
        }
        done: list[_Function] = []
        seen: set[int] = set()
        for fn in sorted(self.functions, key=lambda f: f.is_main):  # (a stable sort)
            _visit(fn, by_key, seen, done)
        return done

    def _header(self) -> list[str]:
        lines = []
        imports = self.imports
        if "np" in imports.modules:
            lines.append(f"import numpy as {imports.np}")
        if "onnx" in imports.modules:
            lines.append("import onnx" + _as("onnx", imports.onnx))
        if lines:
            lines.append("")
        names = set(imports.names - _RUNTIME_NAMES)
        used_vars = self.imports.opsets | self.imports.constant_opsets
        opset_lines = []
        custom = []
        max_known = onnx.defs.onnx_opset_version()
        for (domain, version), var in sorted(self.opset_vars.items()):
            if var not in used_vars:
                continue
            if not domain and 1 <= version <= max_known:
                opset_lines.append(
                    f"from onnxscript import opset{version}"
                    + ("" if var == f"opset{version}" else f" as {var}")
                )
            else:
                opset = imports.name("Opset")
                names.add("Opset")
                custom.append(f"{var} = {opset}({string(domain)}, {version})")
        if names:
            ordered = sorted(names, key=lambda n: (n[0].islower(), n))
            lines.append(f"from onnxscript import {self._imported(ordered)}")
        lines.extend(opset_lines)
        runtime = sorted(imports.names & _RUNTIME_NAMES)
        if runtime:
            lines.append(f"from onnxscript.reverse.runtime import {self._imported(runtime)}")
        if custom:
            lines.append("")
            lines.extend(custom)
        return lines

    def _imported(self, names: Sequence[str]) -> str:
        aliases = self.imports.aliases
        return ", ".join(n + _as(n, aliases.get(n, n)) for n in names)


def _reset(fn: _Function) -> None:
    """Undo a failed attempt at ``fn``: no variables, candidate names, every node a call
    (planning sets the other forms again)."""
    for val in fn.reader.values:
        val.var = None
        val.py = val.cand
    for graph in [fn.graph, *fn.reader.subgraphs]:
        for node in graph.nodes:
            node.form = CALL


def _visit(
    fn: _Function,
    by_key: dict[tuple[str, str], _Function],
    seen: set[int],
    done: list[_Function],
) -> None:
    """Append ``fn`` to ``done`` after its callees (depth first, callees by key)."""
    if id(fn) in seen:
        return
    seen.add(id(fn))
    for key in sorted(fn.calls):
        callee = by_key.get(key)
        if callee is not None:
            _visit(callee, by_key, seen, done)
    done.append(fn)


def _as(name: str, alias: str) -> str:
    return "" if alias == name else f" as {alias}"


def _attribute_names(fn: onnx.FunctionProto) -> list[str]:
    return [*fn.attribute, *(a.name for a in fn.attribute_proto)]


def _op_types(nodes: Sequence[onnx.NodeProto]) -> set[str]:
    """The op types of ``nodes`` and of the nodes of their graphs."""
    return {node.op_type for node in nested_nodes(nodes)}


def _check_stable(attr_name: str, fn_name: str) -> None:
    """Python reads identifiers NFKC-normalized: a parameter named ``ﬁlter`` would be the
    attribute ``filter``, so such attribute parameters cannot be declared."""
    if not attr_name.isascii() and unicodedata.normalize("NFKC", attr_name) != attr_name:
        raise TranslationError(
            f"function {fn_name!r} has an attribute parameter {attr_name!r}, which Python "
            f"would read as {unicodedata.normalize('NFKC', attr_name)!r} (identifiers are "
            "NFKC-normalized): scripts cannot declare it"
        )


def attribute_parameters(
    fn: onnx.FunctionProto,
    writer: AttributeWriter,
    py_names: dict[str, str],
    versions: dict[str, int],
) -> list[str]:
    """Python parameters for a function's attributes: required ones, then defaulted ones."""
    kinds = _reference_kinds(fn.node, versions)
    params = []
    for name in fn.attribute:
        kind = kinds.get(name, AT.INT)
        params.append(f"{py_names[name]}: {_python_kind(kind, fn.name, name)}")
    for attr in fn.attribute_proto:
        kind = attribute_kind(attr)
        text = writer.default(attr)
        params.append(f"{py_names[attr.name]}: {_python_kind(kind, fn.name, attr.name)} = {text}")
    return params


def _python_kind(kind: int, fn_name: str, attr: str) -> str:
    text = PYTHON_KINDS.get(kind)
    if text is None:
        raise TranslationError(
            f"function {fn_name!r} has an attribute parameter {attr!r} of a type scripts "
            "cannot declare (only int, float, str and lists of them)"
        )
    return text


def _reference_kinds(nodes: Sequence[onnx.NodeProto], versions: dict[str, int]) -> dict[str, int]:
    """For each attribute parameter a function refers to, the kind of the referring
    attribute (from the attribute itself, or else from the op's schema)."""
    found: dict[str, int] = {}
    for node in nested_nodes(nodes):
        for attr in node.attribute:
            if not attr.ref_attr_name:
                continue
            kind = int(attr.type)
            if not kind:
                domain = canonical_domain(node.domain)
                kind = schema_attribute_kind(
                    domain, node.op_type, attr.name, versions.get(domain, 1)
                )
            if kind:
                found.setdefault(attr.ref_attr_name, kind)
    return found


def input_parameters(inputs: Sequence[Val], imports: Imports) -> tuple[list[str], list[str | None]]:
    """Parameters with annotations, and for each input the ``TypeProto`` expression to give
    ``to_model_proto`` when no annotation can express its type."""
    params = []
    overrides: list[str | None] = []
    for val in inputs:
        t = val.type
        ann = annotation(t, imports) if t is not None else None
        params.append(f"{val.cand}: {ann}" if ann else val.cand)
        overrides.append(
            type_expression(t, imports) if t is not None and _needs_proto(t, ann) else None
        )
    return params, overrides


def _needs_proto(t: onnx.TypeProto, ann: str | None) -> bool:
    """Whether ``make_model`` must give the type as a ``TypeProto``: no annotation says it
    (or not all of it: denotations)."""
    return (ann is None and has_type(t)) or has_denotation(t)


def output_annotation(
    types: Sequence[onnx.TypeProto], imports: Imports
) -> tuple[str, list[str | None]]:
    """The return annotation and the ``TypeProto`` expressions annotations cannot give."""
    anns = [annotation(t, imports) if has_type(t) else None for t in types]
    overrides = [
        type_expression(t, imports) if _needs_proto(t, a) else None for a, t in zip(anns, types)
    ]
    if not anns or all(a is None for a in anns):
        return "", overrides
    if len(anns) == 1:
        return f" -> {anns[0]}", overrides
    return f" -> tuple[{', '.join(a or 'None' for a in anns)}]", overrides


def model_function_lines(
    py_name: str,
    main_name: str,
    model: onnx.ModelProto,
    input_overrides: Sequence[str | None],
    output_overrides: Sequence[str | None],
    renames: dict[str, str] | None = None,
    extra_imports: dict[str, int] | None = None,
    initializers: Sequence[tuple[str, str]] = (),
    names: Imports | None = None,
) -> list[str]:
    """``make_model()``: the main function compiled with the model's own settings (plus
    ``extra_imports``: ai.onnx for the nodes the compiler adds in a model that imports no
    ai.onnx opset) and ``initializers``: (name, Python expression) pairs for
    ``initializers=``; ``names`` are the module's imports."""
    names = names if names is not None else Imports()
    onnx_name = names.module("onnx")
    args = [f"ir_version={model.ir_version}"]
    imports = imported_versions(model.opset_import)
    for domain, version in (extra_imports or {}).items():
        imports.setdefault(domain, version)
    items = ", ".join(f"{string(d)}: {v}" for d, v in imports.items())
    args.append(f"opset_imports={{{items}}}")
    args.append(f"producer_name={string(model.producer_name)}")  # "" is not the default
    for field_name in ("producer_version", "domain", "doc_string"):
        value = getattr(model, field_name)
        if value:
            args.append(f"{field_name}={string(value)}")
    if model.model_version:
        args.append(f"model_version={model.model_version}")
    if any(o is not None for o in input_overrides):
        args.append(f"input_types=[{', '.join(o or 'None' for o in input_overrides)}]")
    if any(o is not None for o in output_overrides):
        args.append(f"output_types=[{', '.join(o or 'None' for o in output_overrides)}]")
    if initializers:
        items = "".join(f"            {string(k)}: {v},\n" for k, v in initializers)
        args.append(f"initializers={{\n{items}        }}")
    lines = [
        f"def {py_name}() -> {onnx_name}.ModelProto:",
        f'    """{main_name} as a model with the original model\'s settings."""',
        f"    model = {main_name}.to_model_proto(",
    ]
    lines.extend(f"        {a}," for a in args)
    lines.append("    )")
    if renames:
        items = ", ".join(f"{string(k)}: {string(v)}" for k, v in renames.items())
        lines.append(f"    {names.name('rename_values')}(model, {{{items}}})")
    if model.metadata_props:
        props = ", ".join(f"{string(p.key)}: {string(p.value)}" for p in model.metadata_props)
        lines.append(f"    {onnx_name}.helper.set_model_props(model, {{{props}}})")
    lines.append("    return model")
    return lines


def function_header(decorator: str, name: str, params: Sequence[str], returns: str) -> list[str]:
    return [decorator, f"def {name}({', '.join(params)}){returns}:"]
