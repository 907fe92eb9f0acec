"""The installed onnx's operator schemas: lookups, and the facts the compiler needs.

``onnx.defs`` builds its whole registry (every schema of every opset, ~15 ms) the first
time any schema is asked for. Compiling a script only needs a few facts per op (formal
inputs, outputs, attributes, type constraints), so those come from an index of plain data
(:class:`OpFacts`), built once per onnx version and kept in the user's cache directory
(``$ONNXSCRIPT_CACHE_DIR``, else ``$XDG_CACHE_HOME/onnxscript``, else
``~/.cache/onnxscript``). Without a usable cache directory the index is built in memory.
:func:`get_schema` still gives the real ``onnx.defs.OpSchema`` where one is needed (eager
type checks, ``Op.op_schema``).
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import tempfile
from collections.abc import Iterable
from typing import Any, NamedTuple

import onnx
import onnx.defs

STANDARD_DOMAINS = (
    "",
    "ai.onnx.ml",
    "ai.onnx.preview",
    "ai.onnx.preview.training",
    "ai.onnx.training",
)

SINGLE, OPTIONAL, VARIADIC = 0, 1, 2
"""``Formal.option``: as ``onnx.defs.OpSchema.FormalParameterOption``."""

_INDEX_FORMAT = 1


class Formal(NamedTuple):
    """A formal input or output of an op."""

    name: str
    option: int
    type_str: str
    min_arity: int
    homogeneous: bool


class FormalAttribute(NamedTuple):
    """An attribute of an op: ``kind`` is an ``onnx.AttributeProto.AttributeType``."""

    name: str
    kind: int
    required: bool
    has_default: bool
    default: Any


class OpFacts(NamedTuple):
    """What the compiler needs to know of one op schema."""

    domain: str
    name: str
    since_version: int
    deprecated: bool
    inputs: tuple[Formal, ...]
    outputs: tuple[Formal, ...]
    attributes: tuple[FormalAttribute, ...]
    type_constraints: tuple[tuple[str, tuple[str, ...]], ...]


def canonical_domain(domain: str) -> str:
    """``"ai.onnx"`` and ``""`` name the same domain; use ``""``."""
    return "" if domain == "ai.onnx" else domain


def imported_versions(opset_import: Iterable[onnx.OperatorSetIdProto]) -> dict[str, int]:
    """A proto's opset imports as {canonical domain: version}."""
    return {canonical_domain(o.domain): int(o.version) for o in opset_import}


@functools.cache
def domain_versions() -> dict[str, tuple[int, int]]:
    """The (first, last) opset version of every domain the installed onnx defines."""
    mapping: dict[str, tuple[int, int]] = onnx.defs.C.schema_version_map()
    return dict(mapping)


def has_schemas(domain: str) -> bool:
    """Whether onnx defines schemas for ``domain`` (custom domains have none)."""
    return canonical_domain(domain) in domain_versions()


@functools.lru_cache(maxsize=4096)
def get_schema(domain: str, name: str, version: int) -> onnx.defs.OpSchema | None:
    """The ``onnx.defs.OpSchema`` of ``domain.name`` in effect at opset ``version``, or
    ``None``."""
    domain = canonical_domain(domain)
    try:
        return onnx.defs.get_schema(name, version, domain)
    except onnx.defs.SchemaError:
        return None


# -- facts and their index ----------------------------------------------------------------


def _enum_value(member: Any) -> int:
    """The number of a member of one of onnx.defs' (pybind) enums."""
    return int(member.value)


def _attribute_default(attr: Any) -> tuple[bool, Any]:
    proto = attr.default_value
    if not proto.name:
        return False, None
    value = onnx.helper.get_attribute_value(proto)
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    elif isinstance(value, list):
        value = [v.decode("utf-8", errors="replace") if isinstance(v, bytes) else v for v in value]
    return True, value


def _formal(formal: Any) -> Formal:
    return Formal(
        formal.name,
        _enum_value(formal.option),
        formal.type_str,
        int(formal.min_arity),
        bool(formal.is_homogeneous),
    )


def facts_of(schema: onnx.defs.OpSchema) -> OpFacts:
    """The facts of an ``onnx.defs.OpSchema``."""
    attributes = []
    for attr in schema.attributes.values():
        has_default, default = _attribute_default(attr)
        attributes.append(
            FormalAttribute(
                attr.name, _enum_value(attr.type), bool(attr.required), has_default, default
            )
        )
    return OpFacts(
        schema.domain,
        schema.name,
        int(schema.since_version),
        bool(schema.deprecated),
        tuple(_formal(f) for f in schema.inputs),
        tuple(_formal(f) for f in schema.outputs),
        tuple(attributes),
        tuple((c.type_param_str, tuple(c.allowed_type_strs)) for c in schema.type_constraints),
    )


def _decode(row: list[Any]) -> OpFacts:
    domain, name, since, deprecated, inputs, outputs, attributes, constraints = row
    return OpFacts(
        domain,
        name,
        since,
        deprecated,
        tuple(Formal(*f) for f in inputs),
        tuple(Formal(*f) for f in outputs),
        tuple(FormalAttribute(*a) for a in attributes),
        tuple((param, tuple(allowed)) for param, allowed in constraints),
    )


def _build_lines() -> list[str]:
    """The index as text: one line per op, ``domain|name<TAB>json`` listing its versions."""
    by_op: dict[str, list[OpFacts]] = {}
    for schema in onnx.defs.get_all_schemas_with_history():
        by_op.setdefault(f"{schema.domain}|{schema.name}", []).append(facts_of(schema))
    lines = []
    for key in sorted(by_op):
        versions = sorted(by_op[key], key=lambda f: f.since_version)
        try:
            lines.append(f"{key}\t{json.dumps(versions, separators=(',', ':'))}")
        except (TypeError, ValueError):
            continue  # a default JSON cannot hold: this op is looked up in onnx.defs
    return lines


def cache_dir() -> str:
    """Where the schema index is kept (see the module docstring)."""
    given = os.environ.get("ONNXSCRIPT_CACHE_DIR")
    if given:
        return given
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "onnxscript")


def _index_path() -> str:
    return os.path.join(cache_dir(), f"schema-index-v{_INDEX_FORMAT}-onnx-{onnx.__version__}.txt")


def _read_index(path: str) -> dict[str, str] | None:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    index: dict[str, str] = {}
    for line in text.split("\n"):
        key, tab, entry = line.partition("\t")
        if not tab or "|" not in key:
            return None  # not an index this version wrote: rebuild it
        index[key] = entry
    return index or None


def _write_index(path: str, lines: list[str]) -> None:
    """Write atomically (a concurrent reader sees the old file or the whole new one)."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        os.replace(tmp, path)
    except OSError:
        pass  # no writable cache: the index is rebuilt in the next process


@functools.cache
def _index() -> dict[str, str]:
    path = _index_path()
    index = _read_index(path)
    if index is None:
        lines = _build_lines()
        _write_index(path, lines)
        index = dict(line.split("\t", 1) for line in lines)
    return index


@functools.lru_cache(maxsize=1024)
def _versions(domain: str, name: str) -> tuple[OpFacts, ...]:
    entry = _index().get(f"{domain}|{name}")
    if entry is None:
        return ()
    try:
        return tuple(_decode(row) for row in json.loads(entry))
    except (ValueError, TypeError):
        return ()


def op_versions(domain: str, name: str) -> tuple[OpFacts, ...]:
    """The facts of every version of ``domain.name``, oldest first."""
    return _versions(canonical_domain(domain), name)


@functools.lru_cache(maxsize=4096)
def op_facts(domain: str, name: str, version: int) -> OpFacts | None:
    """The facts of the schema of ``domain.name`` in effect at opset ``version`` (the one
    ``onnx.defs.get_schema`` returns), or ``None`` when onnx defines no such op."""
    domain = canonical_domain(domain)
    found = None
    for facts in _versions(domain, name):
        if facts.since_version > version:
            break
        found = facts
    if found is None and has_schemas(domain):
        # Not in the index (a schema registered at run time?): ask onnx itself.
        schema = get_schema(domain, name, version)
        return facts_of(schema) if schema is not None else None
    return found


@functools.lru_cache(maxsize=64)
def op_names(domain: str, version: int) -> tuple[str, ...]:
    """Every op name defined in ``domain`` at opset ``version``, sorted."""
    domain = canonical_domain(domain)
    prefix = f"{domain}|"
    names = []
    for key in _index():
        if key.startswith(prefix):
            name = key[len(prefix) :]
            first = _versions(domain, name)
            if first and first[0].since_version <= version:
                names.append(name)
    return tuple(sorted(names))


def suggest(domain: str, name: str, version: int, limit: int = 3) -> list[str]:
    """Op names close to a misspelled ``name`` (case-insensitive first)."""
    names = op_names(domain, version)
    lowered = {n.lower(): n for n in names}
    exact_case = lowered.get(name.lower())
    found = [exact_case] if exact_case else []
    for match in difflib.get_close_matches(name.lower(), list(lowered), n=limit, cutoff=0.6):
        if lowered[match] not in found:
            found.append(lowered[match])
    return found[:limit]
