"""Compile one Python function to a program-IR function: the converter's entry point.

Pipeline: source -> AST -> parameters -> normalized AST (structured control flow) ->
liveness -> statement-by-statement translation into IR -> SSA naming.
"""

from __future__ import annotations

import ast
import functools
import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

from onnxscript.analysis.dead_code import remove_unused_constants
from onnxscript.analysis.liveness import Liveness, analyze
from onnxscript.analysis.names import Facts, all_identifiers, attribute_bases, scan
from onnxscript.analysis.naming import assign_names
from onnxscript.converter import input_defaults, optional_values
from onnxscript.converter.context import FunctionContext
from onnxscript.converter.control_flow import _output
from onnxscript.converter.graph_emitter import GraphEmitter
from onnxscript.converter.normalize import check_nesting, normalize
from onnxscript.converter.parameters import Parameters, output_types, read_parameters
from onnxscript.converter.scope import PythonScope
from onnxscript.converter.statements import FunctionTranslator
from onnxscript.converter.symbols import Sym
from onnxscript.defaults import default_opset_version
from onnxscript.language.binding import Signature
from onnxscript.program.graph import Function, Graph, Value
from onnxscript.source import SourceText, parse_function, split_docstring
from onnxscript.unique_names import UniqueNames
from onnxscript.value_types import TypeSpec
from onnxscript.values import Op, Opset


def _default_version(
    fdef: ast.FunctionDef, scope: PythonScope, explicit: Opset | None, ctx_imports: dict[str, int]
) -> int:
    """The ai.onnx opset for Python operators: ``default_opset`` if given, else the one the
    function's op calls use, else the newest one imported in its module, else the newest
    that onnxruntime supports."""
    if explicit is not None:
        return explicit.version
    if "" in ctx_imports:  # an op call translated already
        return ctx_imports[""]
    for base in attribute_bases(fdef):
        obj = scope.lookup(base)
        if isinstance(obj, Opset) and obj.domain == "":
            return obj.version
    op_versions = sorted(
        obj.version
        for name in all_identifiers(fdef)
        if isinstance(obj := scope.lookup(name), Op) and obj.domain == ""
    )
    if op_versions:
        return op_versions[-1]
    versions = sorted(
        {v.version for v in scope.values() if isinstance(v, Opset) and v.domain == ""}
    )
    if versions:
        return versions[-1]
    return default_opset_version()


class Compiled(NamedTuple):
    """The result of compiling one Python function."""

    function: Function
    signature: Signature
    source: SourceText


def _structured(
    fn: Callable[..., Any],
    fdef: ast.FunctionDef,
    body: list[ast.stmt],
    source: SourceText,
    facts: Facts,
    param_names: set[str],
) -> tuple[list[ast.stmt], set[str]]:
    """The body with structured control flow (``normalize``), and the fresh names that
    normalization introduced."""
    if not facts.needs_normalize:
        return body, set()
    taken = all_identifiers(fdef) | param_names
    fresh = UniqueNames(taken)
    try:
        structured = normalize(body, source, fresh)
    except RecursionError:
        raise source.error(
            fdef,
            f"control flow in {fn.__name__} nests too deeply once early returns are "
            "turned into if/else",
            "ONNX models cannot nest more than about 30 If/Loop subgraphs; combine the "
            "conditions of successive early returns",
        ) from None
    return structured, fresh.taken - taken


def _declare_returns(
    translator: FunctionTranslator, generated: set[str], out_types: list[TypeSpec | None] | None
) -> None:
    """Tell the translator the element types of the variables that normalization made for
    returned values (``return_val...``), from the return annotation."""
    if not out_types:
        return
    ret_names = sorted(
        (n for n in generated if n.startswith("return_val")), key=lambda n: (len(n), n)
    )
    for i, name in enumerate(ret_names):
        dtype = getattr(out_types[min(i, len(out_types) - 1)], "dtype", None)
        if dtype:
            translator.declared_returns[name] = dtype


def _outputs(
    translator: FunctionTranslator,
    fdef: ast.FunctionDef,
    out_types: list[TypeSpec | None] | None,
) -> list[Value]:
    """The graph outputs: the returned values, typed as the return annotation declares."""
    source = translator.ctx.source
    if translator.returned is None:
        raise source.error(
            fdef,
            f"{fdef.name} does not return anything",
            "a script function must return one or more tensors",
        )
    taken: set[Value] = set()
    outputs = []
    for i, (sym, node) in enumerate(translator.returned):
        value = _returned_value(translator, sym, node)
        if out_types is not None and i < len(out_types):
            declared = getattr(out_types[i], "dtype", None)
            value = translator.retype_int_like(value, dtype=declared or None)
            translator.check_declared_dtype(value, declared, node, "the return annotation")
        outputs.append(_output(translator.builder, value, taken))
    if out_types is None:
        return outputs
    if len(out_types) != len(outputs):
        raise source.error(
            translator.return_node,
            f"the return annotation declares {len(out_types)} output(s) but the "
            f"function returns {len(outputs)}",
        )
    for value, spec in zip(outputs, out_types):
        if spec is not None:
            value.declared_type = optional_values.output_type(value, spec)
    return outputs


def _returned_value(translator: FunctionTranslator, sym: Sym, node: ast.expr) -> Value:
    """A returned symbol as an output value (an optional value stays optional)."""
    if optional_values.is_optional(sym):
        assert isinstance(sym, Value)
        return sym
    if optional_values.is_none(sym):
        raise translator.error(
            node,
            "the function returns None here on every path, and an ONNX output is a value",
            "return a tensor; None on some branches only makes the output optional",
        )
    return translator.to_tensor(sym, node)


def _translator(
    fn: Callable[..., Any],
    fdef: ast.FunctionDef,
    source: SourceText,
    parameters: Parameters,
    local_names: frozenset[str],
    liveness: Liveness,
    default_opset: Opset | None,
) -> FunctionTranslator:
    """A translator into a new graph whose inputs are the function's inputs."""
    scope = PythonScope(fn)
    ctx = FunctionContext(
        source=source,
        scope=scope,
        attr_params=parameters.attr_refs,
        resolve_default=functools.partial(_default_version, fdef, scope, default_opset),
        local_names=local_names,
    )
    builder = GraphEmitter(Graph(fn.__name__, doc_string=""), ctx)
    translator = FunctionTranslator(ctx, builder, liveness)
    for value in parameters.inputs:
        builder.add_input(value)
        translator.env[value.hint] = value
    translator.optional_inputs.update(parameters.optional_inputs())
    input_defaults.fill_defaults(translator, parameters.defaults)
    return translator


def compile_function(
    fn: Callable[..., Any],
    opset: Opset,
    default_opset: Opset | None = None,
) -> Compiled:
    """Compile ``fn``: its IR function, calling convention and source."""
    fdef, source = parse_function(fn)
    try:
        annotations = inspect.get_annotations(fn, eval_str=True)
    except Exception as exc:
        raise source.error(
            fdef, f"cannot evaluate the annotations of {fn.__name__}: {exc}"
        ) from None
    parameters = read_parameters(fn, fdef, source, annotations)
    doc, body = split_docstring(fdef)
    facts = scan(fdef)
    param_names = {p.name for p in parameters.params}
    structured, generated = _structured(fn, fdef, body, source, facts, param_names)
    if facts.has_compound:
        check_nesting(structured, source)
        liveness = analyze(structured, every_statement=False, has_nested_defs=facts.has_nested_defs)
    else:
        liveness = Liveness()
    # Names the function binds (normalization adds only fresh ones).
    local_names = frozenset(facts.assigned | generated | param_names)
    translator = _translator(fn, fdef, source, parameters, local_names, liveness, default_opset)
    out_types = output_types(annotations.get("return", inspect.Signature.empty))
    _declare_returns(translator, generated, out_types)
    translator.block(structured)
    graph = translator.builder.graph
    graph.outputs = _outputs(translator, fdef, out_types)
    if facts.has_compound:
        remove_unused_constants(graph)
    assign_names(graph, fixed=parameters.inputs)
    function = Function(
        name=fn.__name__,
        domain=opset.domain,
        graph=graph,
        attr_params=parameters.attr_params,
        opset_imports=dict(translator.ctx.opset_imports),
        doc_string=doc,
        callees=list(translator.ctx.callees),
        optional_inputs=parameters.optional_inputs(),
    )
    return Compiled(function, Signature(fn.__name__, tuple(parameters.params)), source)
