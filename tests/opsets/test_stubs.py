"""The opset stubs (onnxscript/*.pyi, onnxscript/opsets/*.pyi): in step with the installed
onnx, declaring what the run-time objects accept, readable by an IDE without running code,
and strict enough that a type checker reports a misspelt opset or op."""

from __future__ import annotations

import ast
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import onnxscript
from onnxscript import schemas
from onnxscript.language import binding
from onnxscript.opsets import get_opset, opset_names
from tests.helpers import ROOT, load_module, mypy_diagnostics

PACKAGE = ROOT / "onnxscript"
DOMAIN_STUBS = {
    "": "_ai_onnx.pyi",
    "ai.onnx.ml": "_ai_onnx_ml.pyi",
    "ai.onnx.preview": "_ai_onnx_preview.pyi",
}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def test_stubs_are_what_the_tool_generates_from_the_installed_onnx():
    tool = load_module("gen_opset_stubs", "tools/gen_opset_stubs.py")
    stale = [
        str(path.relative_to(ROOT))
        for path, text in tool.render_all().items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    assert stale == [], "regenerate with: python tools/gen_opset_stubs.py"


def _declared(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_the_package_stub_declares_every_public_name_and_no_module_getattr():
    tree = _tree(PACKAGE / "__init__.pyi")
    assert set(dir(onnxscript)) <= _declared(tree)
    stub_all = next(
        n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "__all__"
    )
    assert ast.literal_eval(stub_all.value) == onnxscript.__all__
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert "__getattr__" not in functions  # else `opset99` would type-check


def _classes() -> dict[str, ast.ClassDef]:
    found = {}
    for stub in DOMAIN_STUBS.values():
        for node in _tree(PACKAGE / "opsets" / stub).body:
            if isinstance(node, ast.ClassDef):
                found[node.name] = node
    return found


def _methods(classes: dict[str, ast.ClassDef], name: str) -> dict[str, ast.FunctionDef]:
    """The ops of an opset class, inherited ones included (the last definition of an
    overloaded op is its general signature)."""
    cls = classes[name]
    base = cls.bases[0]
    assert isinstance(base, ast.Name)
    methods = _methods(classes, base.id) if base.id in classes else {}
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            methods[node.name] = node
    return methods


def _opset_classes() -> dict[str, str]:
    """Opset object name -> its stub class, from onnxscript/opsets/__init__.pyi."""
    return {
        n.target.id: n.annotation.id
        for n in _tree(PACKAGE / "opsets" / "__init__.pyi").body
        if isinstance(n, ast.AnnAssign)
        and isinstance(n.target, ast.Name)
        and isinstance(n.annotation, ast.Name)
    }


def test_every_opset_object_is_declared_with_exactly_its_ops():
    classes = _classes()
    declared = _opset_classes()
    assert sorted(declared) == sorted(opset_names())
    for name, cls in declared.items():
        opset = get_opset(name)
        assert opset is not None
        ops = set(_methods(classes, cls))
        assert ops == set(schemas.op_names(opset.domain, opset.version)), name


def _stub_shape(fn: ast.FunctionDef) -> tuple[list[str], list[bool], str | None, dict[str, bool]]:
    """Positional parameters, whether each has a default, the ``*args`` name, and the
    keyword-only parameters with whether each has a default."""
    args = fn.args
    positional = [a.arg for a in [*args.posonlyargs, *args.args]][1:]  # without self
    defaults = [False] * (len(positional) - len(args.defaults)) + [True] * len(args.defaults)
    keywords = {a.arg: d is not None for a, d in zip(args.kwonlyargs, args.kw_defaults)}
    return positional, defaults, args.vararg.arg if args.vararg else None, keywords


def _runtime_shape(
    sig: binding.Signature,
) -> tuple[list[str], list[bool], str | None, dict[str, bool]]:
    """The same, as the run-time binding of calls (onnxscript.language.binding) has it."""
    single = [p for p in sig.inputs if not p.variadic]
    variadic = next((p.name for p in sig.inputs if p.variadic), None)
    keywords = {p.name: p.optional or p.has_default for p in sig.attributes}
    if len(sig.outputs) > 1 or any(o.variadic for o in sig.outputs):
        keywords["_outputs"] = True
    return [p.name for p in single], [p.optional for p in single], variadic, keywords


def test_each_op_signature_is_the_calling_convention_of_the_runtime_op():
    classes = _classes()
    checked = 0
    for name, cls in _opset_classes().items():
        opset = get_opset(name)
        assert opset is not None
        for op_name, fn in _methods(classes, cls).items():
            sig = binding.signature_for(opset.domain, op_name, opset.version)
            assert sig is not None
            stub = _stub_shape(fn)
            runtime = _runtime_shape(sig)
            if any(a.arg.endswith("_input") for a in fn.args.posonlyargs):
                # An input named like an attribute: by position only (Split-1, Split-2).
                stub = ([n.removesuffix("_input") for n in stub[0]], *stub[1:])
            assert stub == runtime, f"{name}.{op_name}"
            checked += 1
    assert checked > 4000  # every op of every opset object


def test_jedi_completes_the_ops_with_signatures_and_docs_without_running_code():
    jedi = pytest.importorskip("jedi")
    project = jedi.Project(ROOT)
    environment = jedi.create_environment(sys.executable, safe=False)

    def complete(code: str) -> list[object]:
        script = jedi.Script(code, path=ROOT / "probe.py", project=project, environment=environment)
        lines = code.splitlines()
        return script.complete(len(lines), len(lines[-1]))

    completions = complete("from onnxscript import opset18 as op\nop.")
    names = {c.name for c in completions}
    assert set(schemas.op_names("", 18)) <= names
    add = next(c for c in completions if c.name == "Add")
    (signature,) = add.get_signatures()
    assert [p.name for p in signature.params] == ["A", "B"]
    assert signature.to_string().endswith("-> T")
    assert "addition" in add.docstring()
    opsets = {c.name for c in complete("from onnxscript import opse")}
    assert {"opset1", "opset18", "opset_ai_onnx_ml1"} <= opsets


def test_mypy_reports_an_unknown_opset_and_an_unknown_op():
    lines = (ROOT / "tests" / "typing_samples" / "deliberate_errors.py").read_text().splitlines()
    wanted = {i for i, line in enumerate(lines, 1) if "opset99" in line or "NoSuchOp" in line}
    reported = {
        d.line
        for d in mypy_diagnostics()
        if d.file == "deliberate_errors.py" and d.code == "attr-defined"
    }
    assert len(wanted) == 2 and wanted <= reported


def test_the_modules_behind_the_stubs_still_type_check():
    # mypy reads a .pyi instead of the .py next to it, so `mypy onnxscript` no longer sees
    # these three modules; named on the command line, they are checked with the project's
    # (strict) settings.
    cache = Path(tempfile.gettempdir()) / "onnxscript-tests-mypy-runtime"
    modules = [
        "onnxscript/__init__.py",
        "onnxscript/opsets/__init__.py",
        "onnxscript/onnx_opset/__init__.py",
    ]
    command = [sys.executable, "-m", "mypy", "--cache-dir", str(cache), *modules]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
