"""``proto2python``: the entry point of the reverse translator."""

from __future__ import annotations

import gc
import math
import os
from collections.abc import Sequence
from typing import Any

import onnx
import onnx.defs
import onnx.helper

from onnxscript.reverse import validation
from onnxscript.reverse.graph_model import TranslationError, Val
from onnxscript.reverse.identifiers import sanitize
from onnxscript.reverse.literals import string
from onnxscript.reverse.module import (
    ModuleWriter,
    attribute_parameters,
    function_header,
    input_parameters,
    model_function_lines,
    output_annotation,
)
from onnxscript.reverse.options import Options
from onnxscript.reverse.tensors import sparse_expression
from onnxscript.schemas import canonical_domain, imported_versions

ProtoLike = onnx.ModelProto | onnx.FunctionProto | onnx.GraphProto | str | os.PathLike[str]


def _tensor_type(tensor: onnx.TensorProto) -> onnx.TypeProto:
    return onnx.helper.make_tensor_type_proto(tensor.data_type, list(tensor.dims))


def proto2python(proto: ProtoLike, **options: Any) -> str:
    """See :func:`onnxscript.reverse.proto2python` (this is its implementation)."""
    opts = Options(**options)
    # Translation makes many small objects that live until it ends; the cyclic garbage
    # collector would repeatedly scan them for nothing.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _translate(proto, opts)
    finally:
        if enabled:
            gc.enable()


def _translate(proto: ProtoLike, options: Options) -> str:
    if isinstance(proto, (str, os.PathLike)):
        path = os.fspath(proto)
        model = onnx.load(path, load_external_data=False)
        if options.tensor_file is None:
            options.tensor_file = path
        return translate_model(model, options)
    if isinstance(proto, onnx.ModelProto):
        return translate_model(proto, options)
    if isinstance(proto, onnx.FunctionProto):
        return translate_function(proto, options)
    if isinstance(proto, onnx.GraphProto):
        return translate_graph(proto, options)
    raise TypeError(
        f"proto2python() takes a ModelProto, FunctionProto, GraphProto or a path, "
        f"not {type(proto).__name__}"
    )


def _default_version() -> int:
    """The ai.onnx version for protos that import none: the newest that both onnx and the
    installed onnxruntime support (what ``@script`` uses by default)."""
    from onnxscript.defaults import default_opset_version

    return default_opset_version()


def _main_version(imports: dict[str, int]) -> int:
    # The default (which loads onnxruntime to probe it) only when the proto imports no ai.onnx.
    return imports[""] if "" in imports else _default_version()


def translate_model(model: onnx.ModelProto, options: Options) -> str:
    """The module for a whole model (functions, main graph and ``make_model``)."""
    validation.check_model(model)
    model_imports = imported_versions(model.opset_import)
    with ModuleWriter(options, model.functions) as writer:
        model_fn_name = writer.names.take("make_model")
        fn_imports = []
        for fn in model.functions:
            own = imported_versions(fn.opset_import)
            fn_imports.append({**model_imports, **own} if own else dict(model_imports))
        writer.declare_opsets([model_imports, *fn_imports], _main_version(model_imports))
        fn_names = [writer.function_name(fn.name) for fn in model.functions]
        main_name = writer.names.take(
            options.function_name or model.graph.name or "main", default="main"
        )
        writer.release_attribute_names()
        seen = set()
        for fn, py_name, imports in zip(model.functions, fn_names, fn_imports):
            key = (canonical_domain(fn.domain), fn.name)
            if key in seen:
                raise TranslationError(
                    f"the model defines {fn.domain}::{fn.name} twice (overloads are not supported)"
                )
            seen.add(key)
            _add_function_proto(writer, fn, py_name, imports)
        graph = model.graph
        main = _add_main(writer, graph, main_name, model_imports, options, keep_initializers=True)
        writer.prepare()
        _function_headers(writer, model.functions, model_imports)
        in_over, out_over = _main_header(writer, main, graph, not options.function_name)
        for fn in writer.functions:
            writer.translate(fn)
        renames = {**_interface_renames(main), **_file_renames(main, options)}
        extra = {}
        if "" not in model_imports and writer.opset_vars[("", writer.main_version)] in (
            writer.imports.opsets
        ):
            extra[""] = writer.main_version
        initializers = (
            [] if options.skip_initializers else _initializer_entries(writer, main, graph)
        )
        writer.trailer = model_function_lines(
            model_fn_name,
            main_name,
            model,
            in_over,
            out_over,
            renames,
            extra,
            initializers,
            writer.imports,
        )
        return writer.write()


def _initializer_entries(
    writer: ModuleWriter, main: Any, graph: onnx.GraphProto
) -> list[tuple[str, str]]:
    """``initializers=`` of ``make_model()``, in the model's order: the variable of each
    initializer the graph reads, the value of the others (an input's default value, or
    one that nothing reads)."""
    assert writer.tensors is not None
    tensors = writer.tensors
    values: dict[str, Val] = {}
    for node in main.graph.nodes:
        if node.proto is not None:
            break  # the initializers come first
        out = node.outputs[0]
        values.setdefault(out.name, out)
    entries = []
    for init in [*graph.initializer, *graph.sparse_initializer]:
        name = init.values.name if isinstance(init, onnx.SparseTensorProto) else init.name
        val = values.get(name)
        if val is not None and (val.uses or val.is_output):
            entries.append((name, string(val.py)))
        elif isinstance(init, onnx.SparseTensorProto):
            entries.append((name, sparse_expression(init, tensors, sanitize(name))))
        else:
            entries.append((name, tensors.expression(init, sanitize(name), name)))
    return entries


def _interface_renames(main: Any) -> dict[str, str]:
    """Model inputs and outputs whose Python names differ from their names in the model."""
    renames: dict[str, str] = {}
    for val in [*main.graph.inputs, *main.graph.outputs]:
        python_name = val.py or val.cand
        if python_name != val.name:
            renames[python_name] = val.name
    return renames


def _file_renames(main: Any, options: Options) -> dict[str, str]:
    """Constant nodes read back from the model file (``model_tensor(path, name)``) whose
    Python names differ from their names: renamed back, so that the compiled model refers
    to the file's tensors by the same names (translating it again gives the same text)."""
    if options.tensor_file is None:
        return {}
    renames: dict[str, str] = {}
    for val in main.reader.values:
        node = val.node
        if node is None or node.proto is None or val.py == val.name:
            continue
        tensor = node.constant_tensor()
        if (
            isinstance(tensor, onnx.TensorProto)
            and tensor.data_location != onnx.TensorProto.EXTERNAL
            and math.prod(tensor.dims) > options.large_limit
        ):
            renames[val.py] = val.name
    return renames


def _add_function_proto(
    writer: ModuleWriter, proto: onnx.FunctionProto, py_name: str, imports: dict[str, int]
) -> None:
    """Add a ``FunctionProto`` (of a model, or translated alone) as a script function."""
    writer.add_function(
        name=proto.name,
        py_name=py_name,
        domain=canonical_domain(proto.domain),
        inputs=[(i, None) for i in proto.input],
        nodes=proto.node,
        outputs=list(proto.output),
        imports=imports,
        attributes=list(proto.attribute),
        attribute_defaults=list(proto.attribute_proto),
        doc=proto.doc_string,
    )


def _add_main(
    writer: ModuleWriter,
    graph: onnx.GraphProto,
    name: str,
    imports: dict[str, int],
    options: Options,
    keep_initializers: bool = False,
) -> Any:
    """Add the main graph; ``keep_initializers``: its initializers stay initializers
    (``make_model()`` names them), unless ``skip_initializers`` makes them inputs."""
    inputs = [(vi.name, vi.type) for vi in graph.input]
    initializers = list(graph.initializer)
    if options.skip_initializers:
        known = {vi.name for vi in graph.input}
        inputs.extend((t.name, _tensor_type(t)) for t in initializers if t.name not in known)
        initializers = []
    return writer.add_function(
        name=graph.name,
        py_name=name,
        domain="",
        inputs=inputs,
        nodes=graph.node,
        outputs=[o.name for o in graph.output],
        imports=imports,
        initializers=initializers,
        sparse_initializers=list(graph.sparse_initializer),
        doc=graph.doc_string,
        is_main=True,
        keep_initializers=keep_initializers and not options.skip_initializers,
    )


def _main_header(
    writer: ModuleWriter, main: Any, graph: onnx.GraphProto, keep_name: bool
) -> tuple[list[str | None], list[str | None]]:
    params, in_over = input_parameters(main.graph.inputs, writer.imports)
    returns, out_over = output_annotation([o.type for o in graph.output], writer.imports)
    decorator = writer.imports.name("script")
    model_name = graph.name if keep_name else ""
    main.header = _header(writer, f"@{decorator}()", main.py_name, model_name, params, returns)
    return in_over, out_over


def _header(
    writer: ModuleWriter,
    decorator: str,
    py_name: str,
    model_name: str,
    params: Sequence[str],
    returns: str,
) -> list[str]:
    """The decorator and ``def`` lines of a function, with ``@named(model_name)`` when the
    compiled function (or the model's graph) must take a name Python cannot give it."""
    lines = function_header(decorator, py_name, params, returns)
    if model_name and model_name != py_name:
        lines.insert(1, f"@{writer.imports.name('named')}({string(model_name)})")
    return lines


def _function_headers(
    writer: ModuleWriter, functions: Any, model_imports: dict[str, int], keep_names: bool = True
) -> None:
    """The decorator and ``def`` lines of the model's functions (``keep_names``: functions
    whose Python name differs from their name in the model are compiled under the latter)."""
    assert writer.tensors is not None
    by_name = {fn.py_name: fn for fn in writer.functions if not fn.is_main}
    for proto in functions:
        domain = canonical_domain(proto.domain)
        local = writer.local[(domain, proto.name)]
        fn = by_name[local.py_name]
        opset = writer.opset_var(domain, model_imports.get(domain, 1))
        writer.imports.opsets.add(opset)
        decorator = writer.imports.name("script")
        params = [v.cand for v in fn.graph.inputs]
        attributes = fn.scope.attributes
        params += attribute_parameters(proto, attributes, local.attributes, fn.scope.opset_versions)
        model_name = proto.name if keep_names else ""
        fn.header = _header(writer, f"@{decorator}({opset})", local.py_name, model_name, params, "")


def translate_function(proto: onnx.FunctionProto, options: Options) -> str:
    """The module for one ``FunctionProto``."""
    validation.check_function(proto)
    imports = imported_versions(proto.opset_import)
    with ModuleWriter(options, [proto]) as writer:
        writer.declare_opsets([imports], _main_version(imports))
        if options.function_name:
            py_name = writer.names.take(options.function_name, default="function")
        else:
            py_name = writer.function_name(proto.name)
        writer.release_attribute_names()
        _add_function_proto(writer, proto, py_name, imports)
        writer.prepare()
        _function_headers(writer, [proto], imports, keep_names=not options.function_name)
        for fn in writer.functions:
            writer.translate(fn)
        return writer.write()


def translate_graph(graph: onnx.GraphProto, options: Options) -> str:
    """The module for a bare ``GraphProto`` (its opsets come from ``opset_imports``)."""
    imports = dict(options.opset_imports or {"": _default_version()})
    with ModuleWriter(options) as writer:
        writer.declare_opsets([imports], _main_version(imports))
        name = writer.names.take(options.function_name or graph.name or "main", default="main")
        main = _add_main(writer, graph, name, imports, options)
        writer.prepare()
        _main_header(writer, main, graph, not options.function_name)
        for fn in writer.functions:
            writer.translate(fn)
        return writer.write()
