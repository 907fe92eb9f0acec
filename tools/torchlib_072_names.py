"""List what each name of onnxscript 0.7.2's ATen modules (``torch_lib.ops.*``) is, black-box.

Run with the interpreter that has onnxscript 0.7.2 installed, from a directory where
``import onnxscript`` finds that package and not this repository::

    cd /tmp && /work/ref072/bin/python /work/main/tools/torchlib_072_names.py

It writes ``tests/function_libs/data/onnxscript_0_7_2_torch_lib_names.json``: for every
module of ``onnxscript.function_libs.torch_lib.ops`` and every name it defines, one of

- ``{"overloads": [[qualified name, is complex], ...], "schema": ...}``: a function 0.7.2's
  ``default_registry`` holds for those names;
- ``{"unsupported": qualified name, "schema": ...}``: a function that raises
  ``NotImplementedError`` when called (the qualified name read from its docstring, whose
  first line is the ATen schema);
- ``{"helper": ..., "schema": ...}``: another function (its kind: ``function``,
  ``OnnxFunction``);
- ``{"value": type name}``: anything else (an opset, a constant).

``tools/torchlib_faces.py`` writes the 0.7.2 module paths (``torch_lib/ops/``) from it, and
``tests/function_libs/test_ops_faces.py`` checks them against it.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import re
import sys
import types
from pathlib import Path
from typing import Any

OUT = (
    Path(__file__).resolve().parents[1]
    / "tests"
    / "function_libs"
    / "data"
    / "onnxscript_0_7_2_torch_lib_names.json"
)
PACKAGE = "onnxscript.function_libs.torch_lib.ops"
_SCHEMA_NAME = re.compile(r"^([\w:]+(?:\.\w+)?)\(")
_NAMESPACES = {"prims": "prims", "quantized_decomposed": "quantized_decomposed"}


def _schema(value: Any) -> str:
    doc = inspect.getdoc(value) or ""
    return doc.splitlines()[0].strip() if doc else ""


def _qualified(schema: str, module: str, name: str) -> str:
    """``aten::adjoint`` from ``adjoint(Tensor(a) self) -> Tensor(a)``."""
    match = _SCHEMA_NAME.match(schema)
    if match is None:
        raise ValueError(f"{module}.{name}: no schema in its docstring: {schema!r}")
    op_name = match[1]
    if "::" in op_name:
        return op_name
    namespace = "torchvision" if name.startswith("torchvision_") else "aten"
    namespace = _NAMESPACES.get(module.rpartition(".")[2], namespace)
    return f"{namespace}::{op_name.removesuffix('.default')}"


def _raises_not_implemented(function: types.FunctionType) -> bool:
    """Called with None for each required argument, it raises NotImplementedError."""
    parameters = inspect.signature(function).parameters.values()
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in parameters if p.default is p.empty and p.kind in positional]
    try:
        function(*[None] * len(required))
    except NotImplementedError:
        return True
    except Exception:
        return False
    return False


def _defined_names(module: types.ModuleType) -> list[str]:
    """The names the module defines: its functions, onnxscript objects and upper-case
    constants (what ``import`` of the module gives that is its own)."""
    names = []
    for name, value in vars(module).items():
        if name.startswith("_"):
            continue
        function = getattr(value, "function", value)
        if isinstance(value, type):
            if value.__module__ == module.__name__:
                names.append(name)
        elif isinstance(function, types.FunctionType):
            if function.__module__ == module.__name__:
                names.append(name)
        elif isinstance(value, types.ModuleType):
            continue
        elif type(value).__module__.startswith("onnxscript") or name.isupper():
            names.append(name)
    return sorted(names)


def describe() -> dict[str, dict[str, dict[str, Any]]]:
    from onnxscript.function_libs.torch_lib.registration import default_registry

    package = importlib.import_module(PACKAGE)
    modules = sorted(m.name for m in pkgutil.iter_modules(package.__path__, f"{PACKAGE}."))
    registered: dict[int, list[list[Any]]] = {}
    for qualified, entry in default_registry.items():
        for is_complex, functions in ((False, entry.overloads), (True, entry.complex)):
            for function in functions:
                registered.setdefault(id(function), []).append([qualified, is_complex])
    result: dict[str, dict[str, dict[str, Any]]] = {}
    for module_name in modules:
        module = importlib.import_module(module_name)
        described: dict[str, dict[str, Any]] = {}
        for name in _defined_names(module):
            value = getattr(module, name)
            schema = _schema(value)
            if id(value) in registered:
                described[name] = {"overloads": registered[id(value)], "schema": schema}
            elif isinstance(value, types.FunctionType) and _raises_not_implemented(value):
                qualified = _qualified(schema, module_name, name)
                described[name] = {"unsupported": qualified, "schema": schema}
            elif isinstance(value, types.FunctionType) or hasattr(value, "function"):
                described[name] = {"helper": type(value).__name__, "schema": schema}
            else:
                described[name] = {"value": type(value).__name__}
        result[module_name.rpartition(".")[2]] = described
    return result


def main() -> None:
    import onnxscript

    if not onnxscript.__version__.startswith("0.7."):
        sys.exit(f"run with onnxscript 0.7.x installed (found {onnxscript.__version__})")
    names = describe()
    OUT.write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {sum(len(v) for v in names.values())} names in {len(names)} modules")


if __name__ == "__main__":
    main()
