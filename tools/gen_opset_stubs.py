"""Generate the type stubs of the opsets (``onnxscript/opsets/*.pyi``, ``onnxscript/__init__.pyi``,
``onnxscript/onnx_opset/__init__.pyi``) from the installed onnx's schemas, and the modules of
0.7's path ``onnxscript.onnx_opset._impl.opsetN`` that name each opset's class.

At run time the opsets are made from ``onnx.defs`` on first use; type checkers and IDEs
cannot see that, so these stubs spell each op out: its inputs (optional ones ``= None``,
variadic ones ``*args``), its attributes (keyword-only, typed, with their defaults), its
outputs (a tensor type, a tuple for several) and its documentation. Each opset class
defines only the ops whose schema changed in its version and inherits the others, as
``onnx.defs`` resolves them.

Usage: ``python tools/gen_opset_stubs.py`` writes the stubs; ``--check`` only says
whether the checked-in stubs are stale (exit code 1). ``tests/opsets/test_stubs.py``
runs the check.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import keyword
import re
import sys
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnx.defs
import onnx.helper

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "onnxscript"

DOMAINS = {
    "": "Opset",
    "ai.onnx.ml": "Opset_ai_onnx_ml",
    "ai.onnx.preview": "Opset_ai_onnx_preview",
}
"""Stubbed domains and the prefix of their class names (``Opset18``), as the run-time classes
(``onnxscript.opsets.opset_class``) and onnxscript 0.7 name them."""

VARIABLE_PREFIX = {"": "opset", "ai.onnx.ml": "opset_ai_onnx_ml",
                   "ai.onnx.preview": "opset_ai_onnx_preview"}  # fmt: skip
"""The prefix of the opset objects' names (``opset18``), as ``onnxscript.opsets`` has them."""

MODULES = {"": "_ai_onnx", "ai.onnx.ml": "_ai_onnx_ml", "ai.onnx.preview": "_ai_onnx_preview"}
"""The stub module (in ``onnxscript/opsets``) holding each domain's classes."""

DOC_LIMIT = 800
"""Op documentation is cut after the paragraph that passes this many characters."""

DOC_URL = {"": "https://onnx.ai/onnx/operators/onnx__{}.html",
           "ai.onnx.ml": "https://onnx.ai/onnx/operators/onnx_aionnxml_{}.html",
           "ai.onnx.preview": "https://onnx.ai/onnx/operators/onnx_aionnxpreview_{}.html"}  # fmt: skip

_AT = onnx.defs.OpSchema.AttrType
_OPTION = onnx.defs.OpSchema.FormalParameterOption

ATTRIBUTE_TYPES = {
    _AT.FLOAT: "float",
    _AT.INT: "int",
    _AT.STRING: "str",
    _AT.TENSOR: "TensorValue",
    _AT.GRAPH: "GraphValue",
    _AT.SPARSE_TENSOR: "onnx.SparseTensorProto",
    _AT.TYPE_PROTO: "TypeValue",
    _AT.FLOATS: "Sequence[float]",
    _AT.INTS: "Sequence[int]",
    _AT.STRINGS: "Sequence[str]",
    _AT.TENSORS: "Sequence[TensorValue]",
    _AT.GRAPHS: "Sequence[GraphValue]",
    _AT.SPARSE_TENSORS: "Sequence[onnx.SparseTensorProto]",
    _AT.TYPE_PROTOS: "Sequence[TypeValue]",
}
"""What an attribute of each kind accepts (``onnxscript.language.attributes.coerce``)."""

DTYPE_ATTRIBUTES = frozenset(("to", "dtype", "output_dtype", "output_datatype", "stash_type"))
"""INT attributes naming an element type: they also take a tensor type (``to=FLOAT``)."""

CONSTANT_VALUES = {
    "value_float": "FLOAT", "value_floats": "FLOAT", "value_int": "INT64",
    "value_ints": "INT64", "value_string": "STRING", "value_strings": "STRING",
}  # fmt: skip
"""``Constant``'s output type for each attribute that gives its value."""

TENSOR_CLASSES = {
    "float": "FLOAT", "uint8": "UINT8", "int8": "INT8", "uint16": "UINT16", "int16": "INT16",
    "int32": "INT32", "int64": "INT64", "string": "STRING", "bool": "BOOL",
    "float16": "FLOAT16", "double": "DOUBLE", "uint32": "UINT32", "uint64": "UINT64",
    "complex64": "COMPLEX64", "complex128": "COMPLEX128", "bfloat16": "BFLOAT16",
    "float8e4m3fn": "FLOAT8E4M3FN", "float8e4m3fnuz": "FLOAT8E4M3FNUZ",
    "float8e5m2": "FLOAT8E5M2", "float8e5m2fnuz": "FLOAT8E5M2FNUZ", "uint4": "UINT4",
    "int4": "INT4", "float4e2m1": "FLOAT4E2M1", "float8e8m0": "FLOAT8E8M0", "uint2": "UINT2",
    "int2": "INT2", "float6e2m3": "FLOAT6E2M3", "float6e3m2": "FLOAT6E3M2",
}  # fmt: skip
"""onnx's element type names (``tensor(int64)``) and the onnxscript class of each."""

OP_TYPES_HEADER = '''\
"""Types shared by the opset stubs (a stub-only module: it does not exist at run time).

``ArrayLike`` is what an op input takes besides a tensor of a script: numpy arrays and
scalars, Python numbers and (nested) lists, ``onnxscript.Tensor``. A type variable such as
``T`` ties inputs to outputs of the same element type (``Add(A: T, B: T) -> T``); it is
``Any`` when no argument is a tensor type (eager calls on arrays return arrays).
"""

from collections.abc import Callable
from typing import Any, TypeAlias

import onnx
from numpy.typing import ArrayLike as ArrayLike
from typing_extensions import TypeVar

from onnxscript.onnx_types import TensorType

TensorValue: TypeAlias = onnx.TensorProto | ArrayLike
"""A tensor attribute: a TensorProto, an array, a number or a list."""

GraphValue: TypeAlias = Callable[..., Any] | onnx.GraphProto
"""A graph attribute: a ``@graph()`` function (in a script) or a GraphProto."""

TypeValue: TypeAlias = onnx.TypeProto | type[TensorType]
"""A type attribute: a TypeProto or a tensor type such as ``FLOAT``."""

D = TypeVar("D", bound=TensorType)
"""The output type named by an element-type attribute (``Cast(x, to=INT64) -> INT64``)."""
'''

GENERATED = "Generated by tools/gen_opset_stubs.py from onnx.defs: do not edit."


# -- reading schemas ---------------------------------------------------------------------


def stubbed_schemas() -> dict[str, list[onnx.defs.OpSchema]]:
    """Every schema version of the stubbed domains, by domain, sorted by name and version."""
    found: dict[str, list[onnx.defs.OpSchema]] = {domain: [] for domain in DOMAINS}
    for schema in onnx.defs.get_all_schemas_with_history():
        if schema.domain in found:
            found[schema.domain].append(schema)
    for schemas in found.values():
        schemas.sort(key=lambda s: (s.since_version, s.name))
    return found


def versions(domain: str) -> range:
    first, last = onnx.defs.C.schema_version_map()[domain]
    return range(first, last + 1)


def constraints(schema: onnx.defs.OpSchema) -> dict[str, list[str]]:
    return {c.type_param_str: list(c.allowed_type_strs) for c in schema.type_constraints}


def tensor_class(type_str: str) -> str | None:
    """The class of a concrete ``tensor(<name>)`` type string, else None."""
    if type_str.startswith("tensor(") and type_str.endswith(")"):
        return TENSOR_CLASSES.get(type_str[len("tensor(") : -1])
    return None


def fixed_class(type_str: str, allowed: dict[str, list[str]]) -> str | None:
    """The class of a formal's type when the schema fixes it to one tensor type."""
    found = tensor_class(type_str)
    if found is None and len(allowed.get(type_str, ())) == 1:
        found = tensor_class(allowed[type_str][0])
    return found


# -- rendering an op ---------------------------------------------------------------------


@dataclass(frozen=True)
class OpTypes:
    """How an op's formals are typed: type variables tie inputs to outputs."""

    allowed: dict[str, list[str]]
    bound: frozenset[str]
    """Type variables shared by a (homogeneous) input and an output."""

    @staticmethod
    def of(schema: onnx.defs.OpSchema) -> OpTypes:
        allowed = constraints(schema)
        inputs = {f.type_str for f in schema.inputs if f.is_homogeneous}
        outputs = {f.type_str for f in schema.outputs}
        bound = {t for t in inputs & outputs if t in allowed and fixed_class(t, allowed) is None}
        return OpTypes(allowed, frozenset(bound))

    def input(self, formal: Any) -> str:
        if not formal.is_homogeneous:
            return "Any"
        fixed = fixed_class(formal.type_str, self.allowed)
        if fixed is not None:
            return f"{fixed} | ArrayLike"
        if formal.type_str in self.bound:
            return f"{formal.type_str} | ArrayLike"
        return "TensorType | ArrayLike"

    def output(self, formal: Any) -> str:
        fixed = fixed_class(formal.type_str, self.allowed)
        if fixed is not None:
            return fixed
        return formal.type_str if formal.type_str in self.bound else "Any"


def returns(schema: onnx.defs.OpSchema, types: OpTypes) -> str:
    """One output: its type; several: a tuple; optional outputs (how many a call gives
    depends on how it is unpacked) or outputs of different types per call: Any."""
    outputs = list(schema.outputs)
    if any(o.option == _OPTION.Optional for o in outputs) or not outputs:
        return "Any"
    if any(o.option == _OPTION.Variadic for o in outputs):
        only = outputs[0]
        if len(outputs) == 1 and only.is_homogeneous:
            return f"tuple[{types.output(only)}, ...]"
        return "Any"
    if len(outputs) == 1:
        return types.output(outputs[0])
    return f"tuple[{', '.join(types.output(o) for o in outputs)}]"


def literal(value: Any) -> str | None:
    """Python source for an attribute default, or None when it has none that reads well."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    if isinstance(value, float):
        text = str(np.float32(value))  # attributes are float32: the shortest exact digits
        if text in ("inf", "-inf", "nan"):
            return None
        return text.replace("e+", "e")
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # double quotes, as the formatter writes
    if isinstance(value, (bool, int)):
        return repr(value)
    if isinstance(value, list):
        items = [literal(v) for v in value]
        return None if None in items else "[" + ", ".join(str(i) for i in items) + "]"
    return None


def attribute_default(attr: Any) -> tuple[bool, Any]:
    proto = attr.default_value
    if not proto.name:
        return False, None
    return True, onnx.helper.get_attribute_value(proto)


def is_dtype_attribute(attr: Any) -> bool:
    """Whether an INT attribute names an element type (``Cast``'s ``to``)."""
    return attr.type == _AT.INT and (
        attr.name in DTYPE_ATTRIBUTES or "data type" in attr.description.lower()
    )


def attribute_param(attr: Any) -> str:
    annotation = ATTRIBUTE_TYPES.get(attr.type, "Any")
    if is_dtype_attribute(attr):
        annotation = "int | type[TensorType]"
    has_default, value = attribute_default(attr)
    if attr.required:
        return f"{attr.name}: {annotation}"
    if has_default:
        text = literal(value)
        return f"{attr.name}: {annotation} = {text if text is not None else '...'}"
    return f"{attr.name}: {annotation} | None = None"


def parameters(schema: onnx.defs.OpSchema, types: OpTypes) -> list[str]:
    """The parameters after ``self``: inputs (by position or keyword, as the binding rules
    accept them), then attributes (keyword only)."""
    attributes = list(schema.attributes.values())
    attribute_names = {a.name for a in attributes}
    params: list[str] = []
    clash = False
    optional_seen = False
    for formal in schema.inputs:
        name = formal.name
        if name in attribute_names:
            name, clash = f"{name}_input", True  # only by position: the keyword is the attribute
        annotation = types.input(formal)
        if formal.option == _OPTION.Variadic:
            params.append(f"*{name}: {annotation}")
            continue
        optional_seen = optional_seen or formal.option == _OPTION.Optional
        if optional_seen:
            # A required input after an optional one (no schema has one today) can only be
            # written with a default; passing None for it is refused at run time.
            params.append(f"{name}: {annotation} | None = None")
        else:
            params.append(f"{name}: {annotation}")
    if clash:
        params.insert(sum(1 for p in params if not p.startswith("*")), "/")
    keywords = [attribute_param(a) for a in attributes]
    if several_outputs(schema):
        keywords.append("_outputs: int | None = None")
    if keywords and not any(p.startswith("*") for p in params):
        params.append("*")
    return params + keywords


def several_outputs(schema: onnx.defs.OpSchema) -> bool:
    """Whether a call may give more than one output (then ``_outputs=k`` asks for ``k``)."""
    outputs = schema.outputs
    return len(outputs) > 1 or any(o.option == _OPTION.Variadic for o in outputs)


def _paragraphs(text: str) -> list[str]:
    return [p.strip("\n") for p in text.split("\n\n") if p.strip()]


def documentation(schema: onnx.defs.OpSchema, types: OpTypes) -> str:
    """The op's documentation: its first paragraphs (up to about ``DOC_LIMIT`` characters),
    the allowed element types of its type variables, and a link to the full text."""
    doc = inspect.cleandoc(schema.doc or "").strip()
    kept: list[str] = []
    size = 0
    for paragraph in _paragraphs(doc):
        if size >= DOC_LIMIT:
            kept.append("...")
            break
        kept.append(paragraph)
        size += len(paragraph)
    type_lines = [
        f"{name}: "
        + ", ".join(a[len("tensor(") : -1] if a.startswith("tensor(") else a for a in allowed)
        for name, allowed in types.allowed.items()
    ]
    if type_lines:
        kept.append(textwrap.fill("Element types: " + "; ".join(type_lines) + ".", 88))
    kept.append(f"Since opset {schema.since_version}: {DOC_URL[schema.domain].format(schema.name)}")
    lines = [line.rstrip() for line in "\n\n".join(kept).splitlines()]
    return "\n".join(lines)


def docstring(text: str, indent: str) -> str:
    """A triple-quoted docstring of ``text`` (raw when it holds backslashes)."""
    text = text.replace('"""', '\\"\\"\\"') if '"""' in text else text
    prefix = "r" if "\\" in text and '"""' not in text and not text.endswith("\\") else ""
    if not prefix:
        text = text.replace("\\", "\\\\") if '"""' not in text else text
    if text.endswith('"'):
        text += " "
    body = "\n".join((indent + line) if line else "" for line in text.splitlines())
    return f'{indent}{prefix}"""{body[len(indent) :]}\n{indent}"""'


def typed_variants(
    schema: onnx.defs.OpSchema, params: list[str], result: str
) -> list[tuple[list[str], str]]:
    """Overloads (parameters, result) that come before the general signature, where an
    attribute decides the output type: ``Cast(x, to=INT64)`` returns ``INT64`` (a tensor
    type given for an element-type attribute), ``Constant(value_float=0.5)`` ``FLOAT``."""
    if schema.domain == "" and schema.name == "Constant":
        return [
            (["self", "*", f"{name}: {ATTRIBUTE_TYPES[schema.attributes[name].type]}"], cls)
            for name, cls in CONSTANT_VALUES.items()
            if name in schema.attributes
        ]
    dtype_attributes = [a.name for a in schema.attributes.values() if is_dtype_attribute(a)]
    if result != "Any" or len(schema.outputs) != 1 or len(dtype_attributes) != 1:
        return []
    name = dtype_attributes[0]
    return [([f"{name}: type[D]" if p.startswith(f"{name}:") else p for p in params], "D")]


def signature(name: str, params: list[str], result: str) -> str:
    one_line = f"    def {name}({', '.join(params)}) -> {result}:"
    if len(one_line) <= 100:
        return one_line
    inner = "".join(f"        {p},\n" for p in params)
    return f"    def {name}(\n{inner}    ) -> {result}:"


def method(schema: onnx.defs.OpSchema) -> str:
    """One op as a stub method (with overloads first when an attribute types the output)."""
    types = OpTypes.of(schema)
    params = ["self", *parameters(schema, types)]
    result = returns(schema, types)
    variants = typed_variants(schema, params, result)
    decorators = []
    if schema.deprecated:
        decorators.append(
            f'    @deprecated("{schema.name} is deprecated since opset {schema.since_version}")'
        )
    if variants:
        decorators.append("    @overload")
    lines = []
    for variant_params, variant_result in variants:
        lines.extend(decorators)
        lines.append(signature(schema.name, variant_params, variant_result) + " ...")
    lines.extend(decorators)
    lines.append(signature(schema.name, params, result))
    lines.append(docstring(documentation(schema, types), "        "))
    return "\n".join(lines)


# -- rendering modules -------------------------------------------------------------------


def class_name(domain: str, version: int) -> str:
    return f"{DOMAINS[domain]}{version}"


def render_class(domain: str, version: int, schemas: list[onnx.defs.OpSchema]) -> str:
    name = class_name(domain, version)
    base = "Opset" if version == versions(domain)[0] else class_name(domain, version - 1)
    label = domain or "ai.onnx"
    doc = (
        f'    """The {label} operators of opset {version}: those whose schema changed in this '
        'version are\n    defined here, the others are inherited."""'
    )
    methods = [method(s) for s in sorted(schemas, key=lambda s: s.name)]
    if not methods:
        return f"class {name}({base}):\n{doc}\n"
    return f"class {name}({base}):\n{doc}\n\n" + "\n\n".join(methods) + "\n"


def used_names(schemas: Iterable[onnx.defs.OpSchema]) -> tuple[set[str], set[str]]:
    """The type variables and tensor classes the stubs of ``schemas`` refer to."""
    type_vars: set[str] = set()
    classes: set[str] = set()
    for schema in schemas:
        types = OpTypes.of(schema)
        type_vars |= types.bound
        for formal in (*schema.inputs, *schema.outputs):
            fixed = fixed_class(formal.type_str, types.allowed)
            if fixed is not None:
                classes.add(fixed)
    return type_vars, classes


def referenced_names(code: str) -> set[str]:
    """The names the code of a stub refers to (docstrings aside)."""
    return {n.id for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Name)}


def render_domain_module(domain: str, schemas: list[onnx.defs.OpSchema]) -> str:
    label = domain or "ai.onnx"
    by_version: dict[int, list[onnx.defs.OpSchema]] = {}
    for schema in schemas:
        by_version.setdefault(schema.since_version, []).append(schema)
    classes_text = "\n".join(
        render_class(domain, v, by_version.get(v, [])) for v in versions(domain)
    )
    used = referenced_names(classes_text)
    type_vars, classes = used_names(schemas)
    shared = ["ArrayLike", "D", "GraphValue", "TensorValue", "TypeValue", *sorted(type_vars)]
    typing_names = [n for n in ("Any", "overload") if n in used]
    groups = [
        [
            "from collections.abc import Sequence" if "Sequence" in used else "",
            f"from typing import {', '.join(typing_names)}" if typing_names else "",
        ],
        [
            "import onnx" if "onnx" in used else "",
            "from typing_extensions import deprecated" if "deprecated" in used else "",
        ],
        [
            import_statement(
                "onnxscript.onnx_types", [n for n in [*sorted(classes), "TensorType"] if n in used]
            )
            if any(n in used for n in [*classes, "TensorType"])
            else "",
            import_statement("onnxscript.opsets._op_types", [n for n in shared if n in used]),
            "from onnxscript.values import Opset",
        ],
    ]
    imports = "\n\n".join("\n".join(line for line in g if line) for g in groups if any(g))
    head = (
        f'"""The {label} opsets for type checkers (a stub-only module).\n\n'
        "An op's signature changes between versions, which a type checker would report as an\n"
        "incompatible override of the earlier version's method.\n\n"
        f'{GENERATED}\n"""\n\n'
        '# mypy: disable-error-code="override"\n'
        "# pyright: reportIncompatibleMethodOverride=false\n\n"
    )
    return head + imports + "\n\n" + classes_text


def render_op_types(all_schemas: dict[str, list[onnx.defs.OpSchema]]) -> str:
    type_vars: set[str] = set()
    for schemas in all_schemas.values():
        type_vars |= used_names(schemas)[0]
    lines = [f'{n} = TypeVar("{n}", bound=TensorType, default=Any)' for n in sorted(type_vars)]
    return OP_TYPES_HEADER + "\n" + "\n".join(lines) + "\n"


def opset_declarations() -> list[str]:
    """Imports of the opset classes, then ``opset18: Opset18`` for every opset object."""
    imports = []
    variables = []
    for domain, prefix in VARIABLE_PREFIX.items():
        names = [class_name(domain, v) for v in versions(domain)]
        imports.append(import_statement(f"onnxscript.opsets.{MODULES[domain]}", names))
        variables.extend(f"{prefix}{v}: {class_name(domain, v)}" for v in versions(domain))
    return [*imports, "", *variables]


def render_opsets_init() -> str:
    imports, _, variables = "\n".join(opset_declarations()).partition("\n\n")
    return (
        '"""Type stubs of ``onnxscript.opsets``: every opset object with its typed ops.\n\n'
        f'{GENERATED}\n"""\n\n'
        + imports
        + "\nfrom onnxscript.values import Opset\n\n"
        + '__all__ = ["get_opset", "get_opset_class", "opset_class", "opset_names", "standard_opset"]\n\n'
        + "def opset_names() -> list[str]: ...\n"
        + "def get_opset(name: str) -> Opset | None: ...\n"
        + "def get_opset_class(name: str) -> type[Opset] | None: ...\n"
        + "def opset_class(domain: str, version: int) -> type[Opset]: ...\n"
        + "def standard_opset(domain: str, version: int) -> Opset: ...\n\n"
        + variables
        + "\n"
    )


def member_key(name: str) -> tuple[int, list[Any]]:
    """The order of names in an import, as the linter's isort rules want it: constants,
    then classes, then the rest; numbers in names in numeric order."""
    rank = 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2
    parts = re.split(r"(\d+)", name.lower())
    return rank, [int(p) if p.isdigit() else p for p in parts]


def import_statement(module: str, names: list[str]) -> str:
    """``from module import a, b`` on one line, or one name a line when it is too long."""
    names = sorted(names, key=member_key)
    line = f"from {module} import {', '.join(names)}"
    if len(line) <= 100:
        return line
    return f"from {module} import (\n" + "".join(f"    {n},\n" for n in names) + ")"


def _public_imports(tree: ast.Module) -> dict[str, list[str]]:
    """The public names ``onnxscript/__init__.py`` imports (at module level and under
    ``TYPE_CHECKING``), by module."""
    nodes = list(tree.body)
    for node in tree.body:
        if isinstance(node, ast.If):
            nodes.extend(node.body)
    found: dict[str, list[str]] = {}
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [a.name for a in node.names if (a.asname or a.name)[0] != "_"]
            if names:
                found.setdefault(node.module, []).extend(names)
    return found


def _all_names(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            return [str(v) for v in value]
    raise SystemExit("onnxscript/__init__.py has no __all__")


def render_package_init() -> str:
    """The package's stub: what ``onnxscript/__init__.py`` imports, listed in ``__all__``
    (a stub exports an imported name only then, or when it is imported ``as`` itself), and
    every opset object."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    imports = _public_imports(tree)
    exported = _all_names(tree)
    for domain, module in MODULES.items():
        imports[f"onnxscript.opsets.{module}"] = [class_name(domain, v) for v in versions(domain)]
    statements = []
    for module in sorted(imports):
        names = imports[module]
        if module == "onnxscript":  # submodules, not in __all__
            statements.extend(f"from onnxscript import {n} as {n}" for n in names)
        else:
            statements.append(import_statement(module, names))
    variables = "\n".join(opset_declarations()).partition("\n\n")[2]
    return (
        '"""Type stubs of the package: its public names (as ``onnxscript/__init__.py`` '
        "imports them)\nand every opset object.\n\n"
        f'{GENERATED}\n"""\n\n'
        + "\n".join(statements)
        + "\n\nDEBUG: bool\n__version__: str\n\n__all__ = [\n"
        + "".join(f'    "{n}",\n' for n in exported)
        + "]\n\n"
        + variables
        + "\n"
    )


def render_onnx_opset() -> str:
    imports, _, variables = "\n".join(opset_declarations()).partition("\n\n")
    names = ["all_opsets", "default_opset"]
    for domain, prefix in VARIABLE_PREFIX.items():
        names.extend(f"{prefix}{v}" for v in versions(domain))
        names.extend(class_name(domain, v) for v in versions(domain))
    return (
        '"""Type stubs of the 0.7 module path ``onnxscript.onnx_opset``: the same opsets as\n'
        "``onnxscript.opsets``, their classes, and ``all_opsets`` by (domain, version); "
        "``default_opset``\nis the newest one onnxruntime runs, so its ops are not known "
        f'statically.\n\n{GENERATED}\n"""\n\n'
        + "from collections.abc import Mapping\n\n"
        + imports
        + "\nfrom onnxscript.values import Opset, _CustomOpset\n\n"
        + "__all__ = [\n"
        + "".join(f'    "{n}",\n' for n in sorted(names, key=member_key))
        + "]\n\n"
        + "all_opsets: Mapping[tuple[str, int], Opset]\n"
        + "default_opset: _CustomOpset\n"
        + variables
        + "\n"
    )


IMPL_INIT = f'''"""onnxscript 0.7's module path ``onnxscript.onnx_opset._impl``: one module per opset,
naming its class (``from onnxscript.onnx_opset._impl.opset18 import Opset18``). The classes
are ``onnxscript.opsets.opset_class``'s; the opset objects are their one instances.

{GENERATED}
"""
'''


def render_impl_module(domain: str, version: int) -> str:
    """``onnx_opset/_impl/opset18.py``: 0.7's module path of the class ``Opset18``, bound to
    the run-time class (for type checkers, the stub class of the same name)."""
    name = class_name(domain, version)
    variable = f"{VARIABLE_PREFIX[domain]}{version}"
    return (
        f'"""onnxscript 0.7\'s module path of ``{name}``, the class of ``{variable}``.\n\n'
        f'{GENERATED}\n"""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import TYPE_CHECKING\n\n"
        "from onnxscript.opsets import opset_class\n\n"
        "if TYPE_CHECKING:\n"
        f"    from onnxscript.opsets.{MODULES[domain]} import {name}\n"
        "else:\n"
        f'    {name} = opset_class("{domain}", {version})\n\n'
        f'__all__ = ["{name}"]\n'
    )


def render_all() -> dict[Path, str]:
    """Every stub file and its text."""
    all_schemas = stubbed_schemas()
    _check_names(all_schemas)
    files = {
        PACKAGE / "__init__.pyi": render_package_init(),
        PACKAGE / "onnx_opset" / "__init__.pyi": render_onnx_opset(),
        PACKAGE / "onnx_opset" / "_impl" / "__init__.py": IMPL_INIT,
        PACKAGE / "opsets" / "__init__.pyi": render_opsets_init(),
        PACKAGE / "opsets" / "_op_types.pyi": render_op_types(all_schemas),
    }
    for domain, schemas in all_schemas.items():
        files[PACKAGE / "opsets" / f"{MODULES[domain]}.pyi"] = render_domain_module(domain, schemas)
        for version in versions(domain):
            module = f"{VARIABLE_PREFIX[domain]}{version}.py"
            files[PACKAGE / "onnx_opset" / "_impl" / module] = render_impl_module(domain, version)
    return files


def _check_names(all_schemas: dict[str, list[onnx.defs.OpSchema]]) -> None:
    """Stop on names a stub cannot hold: Python keywords, or op names that would hide a
    name the annotations use."""
    reserved = {"Any", "ArrayLike", "GraphValue", "Sequence", "TensorType", "TensorValue",
                "TypeValue", "deprecated", "onnx", "tuple", "type", *TENSOR_CLASSES.values()}  # fmt: skip
    for schemas in all_schemas.values():
        type_vars = used_names(schemas)[0]
        for schema in schemas:
            formals = [f.name for f in schema.inputs] + list(schema.attributes)
            bad = [n for n in formals if keyword.iskeyword(n) or not n.isidentifier()]
            if bad or schema.name in reserved | type_vars:
                raise SystemExit(f"{schema.name}: cannot write {bad or schema.name} in a stub")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the stubs are stale")
    args = parser.parse_args(argv)
    stale = []
    for path, text in render_all().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            stale.append(path.relative_to(ROOT))
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print("stale stubs (run python tools/gen_opset_stubs.py):", *stale, sep="\n  ")
        return 1
    print(f"{'stale' if stale else 'up to date'}: {len(stale)} file(s)" if args.check else
          f"wrote {len(stale)} file(s)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
