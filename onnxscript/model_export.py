"""``to_model_proto`` options: IR version, opset imports, types, attribute values, fields."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import onnx
import onnx.helper
import onnx.shape_inference

from onnxscript.defaults import default_ir_version
from onnxscript.onnx_types import is_tensor_type
from onnxscript.program.graph import Function
from onnxscript.program.initializers import add_initializers
from onnxscript.program.lowering import bind_attributes, model_opset_imports
from onnxscript.program.proto_types import type_from_proto, type_to_proto
from onnxscript.program.serialize import function_to_model_proto
from onnxscript.value_types import TensorTypeSpec, TypeSpec

_OPTIONS = {
    "ir_version",
    "opset_imports",
    "input_types",
    "output_types",
    "io_types",
    "value_infos",
    "source_locations",
    "initializers",
}
_MODEL_FIELDS = {f.name for f in onnx.ModelProto.DESCRIPTOR.fields}


def _type(value: Any, what: str) -> TypeSpec | None:
    if value is None:
        return None
    if is_tensor_type(value):
        spec: TypeSpec = value.type_spec()
        return spec
    if isinstance(value, onnx.TypeProto):
        return type_from_proto(value)
    if isinstance(value, (TensorTypeSpec,)):
        return value
    raise TypeError(f'{what}: expected a tensor type such as FLOAT["N"], got {value!r}')


def _imports(value: Any) -> dict[str, int]:
    if isinstance(value, Mapping):
        return {str(k): int(v) for k, v in value.items()}
    result = {}
    for item in value:
        if isinstance(item, onnx.OperatorSetIdProto):
            result[item.domain] = item.version
        else:
            domain, version = item
            result[domain] = int(version)
    return result


def _complete(t: TypeSpec | None) -> bool:
    """Whether a declared output type is used as is.

    Sequence and optional types are. A tensor type needs an element type and a shape:
    ``FLOAT[...]`` gets the shape that shape inference finds, if any, because onnx.checker
    requires a shape on a model's outputs (the inferred type refines the declared one).
    """
    if isinstance(t, TensorTypeSpec):
        return bool(t.dtype) and t.shape is not None
    return t is not None


def check_options(fn: Function, options: Mapping[str, Any], caller: str) -> None:
    """A TypeError naming the first keyword that is no option of ``to_model_proto``."""
    attr_names = {p.name for p in fn.attr_params}
    for key in options:
        if key not in _OPTIONS and key not in attr_names and key not in _MODEL_FIELDS:
            raise TypeError(
                f"{caller} got an unexpected keyword {key!r}; it takes "
                f"{', '.join(sorted(_OPTIONS))}, values for attribute parameters "
                f"({', '.join(sorted(attr_names)) or 'none'}) and ModelProto fields"
            )


def _per_value(given: Sequence[Any] | None, count: int, option: str, what: str) -> list[Any]:
    """``input_types``/``output_types`` as one entry per value (None: untyped by it). As
    onnxscript 0.7, a shorter list leaves the rest to annotations and extra entries are
    ignored; here with a warning, since they usually mean a mistake."""
    entries = list(given or ())
    if len(entries) > count:
        warnings.warn(
            f"{option} has {len(entries)} types for {count} {what}; the last "
            f"{len(entries) - count} are ignored",
            UserWarning,
            stacklevel=5,
        )
    return (entries + [None] * count)[:count]


def to_model_proto(fn: Function, options: Mapping[str, Any]) -> onnx.ModelProto:
    """Lower ``fn`` to a model; see ``OnnxFunction.to_model_proto`` for the options."""
    check_options(fn, options, "to_model_proto()")
    attr_names = {p.name for p in fn.attr_params}
    attr_values = {k: v for k, v in options.items() if k in attr_names}
    fields = {
        key: value
        for key, value in options.items()
        if key not in _OPTIONS and key not in attr_names
    }
    bindings = bind_attributes(fn, attr_values)

    graph = fn.graph
    io_type = _type(options.get("io_types"), "io_types")
    in_given = _per_value(options.get("input_types"), len(graph.inputs), "input_types", "inputs")
    out_given = _per_value(
        options.get("output_types"), len(graph.outputs), "output_types", "outputs"
    )
    in_types = [
        _type(g, "input_types") or v.declared_type or v.type or io_type
        for g, v in zip(in_given, graph.inputs)
    ]
    out_types = [
        _type(g, "output_types") or v.declared_type or io_type
        for g, v in zip(out_given, graph.outputs)
    ]
    extra = [
        (name, t)
        for name, value in (options.get("value_infos") or {}).items()
        if (t := _type(value, f"value_infos[{name!r}]")) is not None
    ]
    imports = (
        _imports(options["opset_imports"])
        if options.get("opset_imports") is not None
        else model_opset_imports(fn)
    )
    ir_version = options.get("ir_version")
    if ir_version is None:
        ids = [onnx.helper.make_opsetid(d, v) for d, v in imports.items()]
        try:
            needed = onnx.helper.find_min_ir_version_for(ids, ignore_unknown=True)
        except Exception:
            needed = 3
        ir_version = max(default_ir_version(), needed)
    fields.setdefault("producer_name", "onnxscript")
    model = function_to_model_proto(
        fn,
        ir_version=ir_version,
        opset_imports=imports,
        bindings=bindings,
        input_types=in_types,
        output_types=[t if _complete(t) else None for t in out_types],
        extra_value_infos=extra,
        model_fields=fields,
        source_locations=bool(options.get("source_locations", False)),
    )
    _fill_output_types(model, out_types, [v.type for v in graph.outputs])
    _exact_types(model.graph.input, in_given)
    _exact_types(model.graph.output, out_given)
    if options.get("initializers") is not None:
        add_initializers(model, options["initializers"], fn.name)
    return model


def _exact_types(infos: Sequence[onnx.ValueInfoProto], given: Sequence[Any]) -> None:
    """A type given as an ``onnx.TypeProto`` is used as is: IR types have no denotations,
    maps or sparse tensors. (An optional input keeps the optional type lowering gave it.)"""
    for info, t in zip(infos, given):
        if not isinstance(t, onnx.TypeProto) or t.WhichOneof("value") is None:
            continue
        lowered = info.type.WhichOneof("value")
        if lowered == "optional_type" and t.WhichOneof("value") != "optional_type":
            continue
        info.type.CopyFrom(t)


def _fill_output_types(
    model: onnx.ModelProto,
    given: Sequence[TypeSpec | None],
    known: Sequence[TypeSpec | None],
) -> None:
    """Outputs without a complete declared type get the type shape inference finds."""
    missing = [i for i, t in enumerate(given) if not _complete(t)]
    if not missing:
        return
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
        by_name = {vi.name: vi for vi in inferred.graph.value_info}
        by_name.update({vi.name: vi for vi in inferred.graph.output})
    except Exception:
        by_name = {}

    for i in missing:
        out = model.graph.output[i]
        found = by_name.get(out.name)
        if found is not None and found.type.WhichOneof("value") is not None:
            out.type.CopyFrom(found.type)
        elif given[i] is not None:
            out.type.CopyFrom(type_to_proto(given[i]))  # type: ignore[arg-type]
        elif known[i] is not None:
            out.type.CopyFrom(type_to_proto(known[i]))  # type: ignore[arg-type]
