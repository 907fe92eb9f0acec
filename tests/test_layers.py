"""The package's layers: imports point one way, and nothing heavy loads before it is used.

Units are the sub-packages (``converter``, ``evaluator``, ...) and the top-level modules
(``values``, ``dtypes``, ...); the package root is the public facade and may import
anything. Imports inside functions count too: they only move the cost.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path

from tests.helpers import ROOT

PACKAGE = ROOT / "onnxscript"

BOTTOM = {
    "errors",
    "dtypes",
    "schemas",
    "source",
    "runtime",
    "defaults",
    "compiled_patterns",
    "proto_graphs",
    "proto_nodes",
    "unique_names",
    "program",
    "value_types",
    "onnx_types",
    "language",
}
"""The bottom layer: it imports nothing above itself."""

FORBIDDEN = {
    "evaluator": {"converter", "analysis", "values", "opsets", "main", "reverse"},
    "reverse": {"converter", "evaluator"},
    "analysis": {"converter"},
    "language": {"evaluator", "converter", "values", "opsets"},
}
"""What a unit must never import, and so never depend on."""


def _unit(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "onnxscript" or len(parts) < 2 or parts[1] in ("__init__", "__main__"):
        return None
    name = parts[1]
    exists = (PACKAGE / name).is_dir() or (PACKAGE / f"{name}.py").is_file()
    return name if exists else None


@cache
def _root_lazy_names() -> dict[str, str]:
    """The names the package root resolves on first use (its ``_LAZY`` table): name ->
    the module that defines it."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_LAZY" for t in node.targets
        ):
            table = ast.literal_eval(node.value)
            assert isinstance(table, dict)
            return {str(k): str(v) for k, v in table.items()}
    raise AssertionError("the package root has no _LAZY table")


def _imported_modules(path: str, module: str, tree: ast.Module) -> list[tuple[str, int]]:
    """The modules ``module`` imports, with their lines. A name imported from the package
    root that the root resolves lazily counts as an import of its defining module (the
    root only forwards it); a bare ``import onnxscript`` is the root itself."""
    found = []
    lazy = _root_lazy_names()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")
                if not path.endswith("__init__.py"):
                    package = package[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([base] if base else [])])
            found.append((base, node.lineno))
            for alias in node.names:
                forwarded = lazy.get(alias.name) if base == "onnxscript" else None
                found.append((forwarded or f"{base}.{alias.name}", node.lineno))
    return found


def root_imports(package: Path = PACKAGE) -> list[str]:
    """The places where a module inside the package imports the package root itself
    (``import onnxscript``, or ``from onnxscript import X`` for a name the root resolves
    lazily): the root imports every unit, so such an import hides a cycle from the layer
    check; the module defining the name is imported instead."""
    found = []
    lazy = _root_lazy_names()
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package.parent)
        if path.parent == package and path.name in ("__init__.py", "__main__.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(a.name == "onnxscript" for a in node.names):
                found.append(f"{relative}:{node.lineno}: import onnxscript")
            elif (
                isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "onnxscript"
            ):
                names = [a.name for a in node.names if a.name in lazy]
                if names:
                    found.append(f"{relative}:{node.lineno}: from onnxscript import {names}")
    return found


@cache
def edges() -> dict[tuple[str, str], list[str]]:
    """(importing unit, imported unit) -> the places that make the import."""
    found: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).with_suffix("")
        module = ".".join(relative.parts).removesuffix(".__init__")
        source = _unit(module)
        if source is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target, line in _imported_modules(str(path), module, tree):
            unit = _unit(target)
            if unit is not None and unit != source:
                found[(source, unit)].append(f"{relative}.py:{line}")
    return dict(found)


def _cycle() -> list[str] | None:
    graph: dict[str, set[str]] = defaultdict(set)
    for a, b in edges():
        graph[a].add(b)
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(unit: str) -> list[str] | None:
        state[unit] = 1
        path.append(unit)
        for nxt in sorted(graph[unit]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[unit] = 2
        return None

    for unit in sorted(graph):
        if unit not in state and (found := visit(unit)) is not None:
            return found
    return None


def test_no_import_cycle_between_units():
    assert _cycle() is None


def test_forbidden_imports():
    bad = {(a, b): places for (a, b), places in edges().items() if b in FORBIDDEN.get(a, set())}
    assert bad == {}


def test_the_bottom_layer_imports_only_the_bottom_layer():
    bad = {(a, b): places for (a, b), places in edges().items() if a in BOTTOM and b not in BOTTOM}
    assert bad == {}


def test_no_module_imports_the_package_root():
    assert root_imports() == []


def test_root_imports_are_seen(tmp_path: Path) -> None:
    # Guards root_imports itself: both forms are found in a unit's module, not in the
    # root's own modules, and a submodule imported from the root is not one.
    package = tmp_path / "onnxscript"
    (package / "evaluator").mkdir(parents=True)
    (package / "__init__.py").write_text("import onnxscript.evaluator\n")
    (package / "evaluator" / "probe.py").write_text(
        "import onnxscript\nfrom onnxscript import register_source\nfrom onnxscript import schemas\n"
    )
    found = root_imports(package)
    assert [p.rsplit(": ", 1)[1] for p in found] == [
        "import onnxscript",
        "from onnxscript import ['register_source']",
    ]


def test_the_layer_test_sees_the_imports():
    # Guards the test itself: known edges are found, with their places.
    assert ("converter", "language") in edges()
    assert ("values", "evaluator") in edges()  # a lazy import inside a function
    assert all(places for places in edges().values())


def _loaded_after(code: str) -> list[str]:
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    loaded: list[str] = json.loads(done.stdout.splitlines()[-1])
    return loaded


def _units(loaded: list[str]) -> set[str]:
    return {unit for m in loaded if (unit := _unit(m)) is not None}


def test_importing_the_package_loads_no_front_end_back_end_or_runtime():
    loaded = _loaded_after("import onnxscript\nfrom onnxscript import FLOAT, script, opset18")
    units = _units(loaded)
    assert units.isdisjoint({"converter", "analysis", "evaluator", "reverse", "testing"})
    assert "onnxruntime" not in loaded


def test_compiling_loads_the_converter_but_not_eager_mode_or_onnxruntime():
    code = (
        "from onnxscript import FLOAT, script, opset18 as op\n"
        "from tests.helpers import define\n"
        "f = script()(define('def f(x: FLOAT[2]):\\n    return op.Relu(x) * 2.0\\n', "
        "{'FLOAT': FLOAT, 'op': op}))\n"
        "f.to_model_proto()\n"
    )
    loaded = _loaded_after(code)
    units = _units(loaded)
    assert {"converter", "analysis", "program"} <= units
    assert units.isdisjoint({"evaluator", "reverse"})
    assert "onnxruntime" not in loaded
