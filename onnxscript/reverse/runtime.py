"""Helpers that translated scripts call to get tensors that are not written in the source.

* :func:`external_tensor` rebuilds a tensor whose data lives in an external file (the ONNX
  external-data mechanism), exactly as the original model refers to it.
* :func:`model_tensor` reads a large tensor back from the model file it was translated from,
  so that the script does not carry megabytes of numbers.
* :func:`rename_values` gives a compiled model's inputs and outputs back their original
  names when those are not Python identifiers (``input.1``, ``output:0``).
* :func:`with_denotations` sets the denotations of a ``TypeProto`` that ``onnx.helper``
  builds (``input_types=`` of ``make_model``).
* :func:`named` gives a function the ONNX name it had in the model when that name cannot
  be its Python name (``@script(dom)`` then ``@named("my-func")`` above ``def my_func``).

The tensor helpers are evaluated when the script is compiled (they are plain Python calls
with constant arguments) and give ``onnx.TensorProto`` objects for ``op.Constant(value=...)``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import onnx

from onnxscript.proto_graphs import nested_graphs, subgraphs


def external_tensor(
    name: str,
    data_type: int,
    dims: Sequence[int],
    location: str | None,
    offset: int | None = None,
    length: int | None = None,
    checksum: str | None = None,
    basepath: str | None = None,
    extra: Sequence[tuple[str, str]] = (),
) -> onnx.TensorProto:
    """A tensor whose data is stored in the file ``location`` (relative to the model; None:
    no ``location`` entry);
    ``extra`` are further ``external_data`` entries (keys onnx does not define, or values
    of the known keys that are not numbers), kept as they are after the known ones."""
    tensor = onnx.TensorProto()
    tensor.name = name
    tensor.data_type = data_type
    tensor.dims.extend(dims)
    tensor.data_location = onnx.TensorProto.EXTERNAL
    fields = {
        "location": location,
        "offset": offset,
        "length": length,
        "checksum": checksum,
        "basepath": basepath,
    }
    entries = [(key, str(value)) for key, value in fields.items() if value is not None]
    for key, value in [*entries, *extra]:
        entry = tensor.external_data.add()
        entry.key = key
        entry.value = value
    return tensor


def with_denotations(
    t: onnx.TypeProto, denotation: str | None = None, dims: Sequence[str | None] | None = None
) -> onnx.TypeProto:
    """``t`` with its denotation (``TypeProto.denotation``) and those of its dimensions
    set (``None``: none); annotations and ``onnx.helper`` cannot give them."""
    if denotation is not None:
        t.denotation = denotation
    if dims is not None:
        which = t.WhichOneof("value")
        tensor = t.tensor_type if which == "tensor_type" else t.sparse_tensor_type
        for dim, text in zip(tensor.shape.dim, dims):
            if text is not None:
                dim.denotation = text
    return t


_F = TypeVar("_F", bound=Callable[..., Any])


def named(name: str) -> Callable[[_F], _F]:
    """A decorator that sets the function's ``__name__`` to ``name``, which ``@script``
    (applied after it) compiles the function under: a function name that is not a Python
    identifier (``my-func``, ``pkg.Linear``), a keyword, or the name of another function of
    the module."""

    def rename(fn: _F) -> _F:
        fn.__name__ = name
        return fn

    return rename


def _graph_tensors(graph: onnx.GraphProto) -> Iterator[tuple[str, onnx.TensorProto]]:
    for init in graph.initializer:
        yield init.name, init
    yield from _node_tensors(graph.node)


def _node_tensors(nodes: Sequence[onnx.NodeProto]) -> Iterator[tuple[str, onnx.TensorProto]]:
    for node in nodes:
        if node.op_type == "Constant" and node.output:
            for attr in node.attribute:
                if attr.name == "value":
                    yield node.output[0], attr.t
        for sub in subgraphs(node):
            yield from _graph_tensors(sub)


@functools.lru_cache(maxsize=8)
def _model_tensors(path: str) -> dict[str, onnx.TensorProto]:
    model = onnx.load(path, load_external_data=True)
    found: dict[str, onnx.TensorProto] = {}
    for name, tensor in _graph_tensors(model.graph):
        found.setdefault(name, tensor)
    for fn in model.functions:
        for name, tensor in _node_tensors(fn.node):
            found.setdefault(f"{fn.domain}::{fn.name}::{name}", tensor)
    return found


def model_tensor(path: str, name: str) -> onnx.TensorProto:
    """The tensor that defines the value ``name`` in the model file ``path``.

    ``name`` is an initializer name or the output of a ``Constant`` node (for a function's
    constant: ``"domain::function::value"``). Files are read once per process.
    """
    tensors = _model_tensors(os.path.abspath(path))
    try:
        return tensors[name]
    except KeyError:
        raise KeyError(f"{path} defines no tensor for the value {name!r}") from None


def _graph_names(graph: onnx.GraphProto, found: set[str]) -> None:
    for sub in nested_graphs(graph):
        found.update(i.name for i in sub.input)
        found.update(t.name for t in sub.initializer)
        for node in sub.node:
            found.update(node.output)


def _rename(graph: onnx.GraphProto, names: dict[str, str]) -> None:
    def fix(items: Any) -> None:
        for i, name in enumerate(items):
            if name in names:
                items[i] = names[name]

    for info in (*graph.input, *graph.output, *graph.value_info):
        if info.name in names:
            info.name = names[info.name]
    for tensor in graph.initializer:
        if tensor.name in names:
            tensor.name = names[tensor.name]
    for node in graph.node:
        fix(node.input)
        fix(node.output)
        for sub in subgraphs(node):
            _rename(sub, names)


def rename_values(model: onnx.ModelProto, names: dict[str, str]) -> onnx.ModelProto:
    """Give the main graph's values back the names they had in the translated model, where
    Python needed other names: its inputs and outputs (the model's interface) and the
    constants read back from the model file with :func:`model_tensor` (which finds them by
    these names).

    A name that the compiled model already uses for another value is left alone.
    """
    taken: set[str] = set()
    _graph_names(model.graph, taken)
    usable = {old: new for old, new in names.items() if new == old or new not in taken}
    _rename(model.graph, usable)
    return model
