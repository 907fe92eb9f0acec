"""Write onnxscript 0.7's ATen module paths (``onnxscript/function_libs/torch_lib/ops/``).

Each of 0.7.2's names (``tests/function_libs/data/onnxscript_0_7_2_torch_lib_names.json``,
made by ``tools/torchlib_072_names.py``) is bound to this library's function for the same
ATen overload:

- a function 0.7.2 registered: ours registered for its first overload (the one its schema
  names), real or complex as 0.7.2's; where 0.7.2's covers overloads ours splits over
  several functions, a comment names the others;
- a 0.7.2 placeholder raising ``NotImplementedError``: ours for that operator when the
  library has one, else ``unsupported("<qualified name>")``;
- 0.7.2's helpers and values: what ``HELPERS`` and ``VALUES`` below say.

Run ``python tools/torchlib_faces.py`` after changing the library's registrations (torch
needed); ``--check`` exits 1 if a face differs from what would be written (the tests run it).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "function_libs" / "data" / "onnxscript_0_7_2_torch_lib_names.json"
FACES = ROOT / "onnxscript" / "function_libs" / "torch_lib" / "ops"
LIBRARY = "onnxscript.function_libs.torch_lib.aten"
HELPER_PACKAGE = "onnxscript.function_libs.torch_lib.helpers"

HELPERS = {
    # 0.7.2's plain functions (unregistered: torch decomposes these overloads first).
    "core.aten_hstack": "shape.hstack",
    "core.aten_vstack": "shape.vstack",
    "core.aten_std": "reduction.std",
    "core.aten_std_correction": "reduction.std_correction",
    "core.aten_std_dim": "reduction.std_dim",
    "core.aten_std_mean": "reduction.std_mean",
    "core.aten_std_mean_correction": "reduction.std_mean_correction",
    "core.aten_std_mean_dim": "reduction.std_mean_dim",
    "core.aten_var": "reduction.var",
    "core.aten_var_correction": "reduction.var_correction",
    "core.aten_var_dim": "reduction.var_dim",
    "core.aten_var_mean": "reduction.var_mean",
    "core.aten_var_mean_correction": "reduction.var_mean_correction",
    "core.aten_var_mean_dim": "reduction.var_mean_dim",
    # 0.7.2's shared helpers.
    "common.cast_to": "complex_layout.cast_to",
    "common.constant": "constants.typed_constant",
    "common.merge_dims": "sizes.merge_dims",
    "common.IsScalar": "script_functions.IsScalar",
    "common.Rank": "script_functions.Rank",
}
"""0.7.2's helper -> ``module.name`` (a module of the library or of its helpers)."""

VALUES = {
    "op": ("from onnxscript import opset18 as op", None),
    "opset19": ("from onnxscript import opset19", None),
    "DOMAIN": (None, "script_functions.COMMON_DOMAIN"),
    "common_opset": (None, "script_functions.common_opset"),
    "COMPLEX64_TYPE": ("import onnx_ir as ir", "ir.DataType.COMPLEX64"),
    "COMPLEX128_TYPE": ("import onnx_ir as ir", "ir.DataType.COMPLEX128"),
}
"""0.7.2's non-function names -> (an import line, the expression bound; None: the import)."""

_RENAMED_MODULES = {"complex": "complex_variants"}
"""Library modules imported under another name (``complex`` is a builtin)."""

_HEADER = '''"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.{module}``: its
names bound to this library's functions (``torch_lib/aten/``, ``torch_lib/helpers/``).

A function 0.7 registered is the one registered here for its first ATen overload (the
comment lists 0.7's overloads, "complex" marking complex variants); a name 0.7 only
declared (raising ``NotImplementedError``) is the function for that operator when the
library has one, else an ``unsupported`` placeholder naming it. Written by
``python tools/torchlib_faces.py``; do not edit.
"""

from __future__ import annotations
'''


def _schema_name(schema: str, namespace: str) -> str | None:
    head = schema.split("(", 1)[0]
    if not head:
        return None
    name = head if "::" in head else f"{namespace}::{head}"
    return name.removesuffix(".default")


@functools.cache
def library() -> dict[tuple[str, bool], str]:
    """(qualified name, is complex) -> ``module.name`` of the function registered for it."""
    from onnxscript.function_libs.torch_lib.registration import collect_ops

    found: dict[tuple[str, bool], str] = {}
    for record in collect_ops():
        function = record.function
        module = function.function.__module__.removeprefix(f"{LIBRARY}.")
        reference = f"{_RENAMED_MODULES.get(module, module)}.{function.name}"
        found.setdefault((record.qualified_name, record.is_complex), reference)
    return found


UNREACHABLE_COMPLEX = {
    ("aten::mul", True),
    ("aten::scalar_tensor", True),
    ("_operator::neg", True),
}
"""Complex variants 0.7.2 registered that torch.onnx never calls: it calls a complex
variant when an argument is a complex tensor, and these overloads take numbers
(``mul(Scalar a, Scalar b)``, ``scalar_tensor(Scalar s)``, a SymInt's negation)."""


def _overloads_text(overloads: list[tuple[str, bool]]) -> str:
    """``aten::div.Tensor, div.Scalar (complex)``: the namespace written once, and
    "complex" once when all are."""
    all_complex = all(c for _, c in overloads)
    texts = []
    for i, (qualified, is_complex) in enumerate(overloads):
        namespace, _, name = qualified.partition("::")
        shown = qualified if i == 0 or not overloads[0][0].startswith(f"{namespace}::") else name
        texts.append(f"{shown} (complex)" if is_complex and not all_complex else shown)
    return ", ".join(texts) + (" (complex)" if all_complex else "")


def _registered(
    entry: dict[str, Any], namespace: str, ours: dict[tuple[str, bool], str]
) -> tuple[str, list[str], str]:
    """The reference bound to a registered 0.7.2 function, the comment lines above it
    (0.7.2's overloads that other functions of ours implement) and its trailing comment
    (those it implements)."""
    overloads = [(q, bool(c)) for q, c in entry["overloads"]]
    named = _schema_name(entry.get("schema", ""), namespace)
    first = next((o for o in overloads if o[0] == named), overloads[0])
    order = [first] + [o for o in overloads if o != first]
    chosen = next((ours[o] for o in order if o in ours), None)
    if chosen is None:  # only the other kind (a real function handling complex dtypes)
        chosen = next(ours[(q, not c)] for q, c in order if (q, not c) in ours)
    same = [o for o in order if ours.get(o) == chosen]
    others: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for o in order:
        target = ours.get(o)
        if target == chosen:
            continue
        if target is None and o in UNREACHABLE_COMPLEX:
            target = "never called by torch.onnx (its arguments are numbers)"
        others[target or "not registered here"].append(o)
    lines = [f"# also {_overloads_text(names)}: {target}" for target, names in others.items()]
    return chosen, lines, _overloads_text(same) if same else ""


def render(module: str, names: dict[str, dict[str, Any]]) -> str:
    ours = library()
    namespace = {"prims": "prims", "quantized_decomposed": "quantized_decomposed"}.get(
        module, "aten"
    )
    imports: set[str] = set()
    library_modules: set[str] = set()
    helper_modules: set[str] = set()
    body: list[str] = []
    uses_unsupported = False
    for name, entry in names.items():
        above: list[str] = []
        trailing = ""
        if "value" in entry:
            line, expression = VALUES[name]
            if line:
                imports.add(line)
            if expression is None:
                continue
            reference = expression
        elif "helper" in entry:
            reference = HELPERS[f"{module}.{name}"]
        elif "overloads" in entry:
            reference, above, trailing = _registered(entry, namespace, ours)
        else:
            qualified = entry["unsupported"]
            found = ours.get((qualified, False)) or ours.get((qualified, True))
            if found is None:
                uses_unsupported = True
                body.append(f'{name} = unsupported("{qualified}")')
                continue
            reference, trailing = found, f"{qualified} (a placeholder in 0.7)"
        owner = reference.split(".", 1)[0]
        if owner in _helper_modules():
            helper_modules.add(owner)
        elif owner != "ir":
            library_modules.add(owner)
        line = f"{name} = {reference}"
        if trailing and len(line) + len(trailing) + 4 > 100:  # the comment above it
            above, trailing = [*above, f"# {trailing}"], ""
        for comment in above:
            body.extend(textwrap.wrap(comment, 100, subsequent_indent="#   "))
        body.append(line + (f"  # {trailing}" if trailing else ""))
    lines = [_HEADER.format(module=module)]
    lines += sorted(i for i in imports if i.startswith("import "))
    lines += sorted(i for i in imports if i.startswith("from "))
    if library_modules:
        listed = sorted(_import_name(m) for m in library_modules)
        lines.append(f"from {LIBRARY} import {', '.join(listed)}")
    if helper_modules:
        lines.append(f"from {HELPER_PACKAGE} import {', '.join(sorted(helper_modules))}")
    if uses_unsupported:
        lines.append("from onnxscript.function_libs.torch_lib.unsupported import unsupported")
    exported = sorted(names)
    return (
        "\n".join(lines)
        + "\n\n"
        + "\n".join(body)
        + "\n\n__all__ = [\n"
        + "".join(f'    "{n}",\n' for n in exported)
        + "]\n"
    )


def _import_name(module: str) -> str:
    original = {v: k for k, v in _RENAMED_MODULES.items()}.get(module)
    return f"{original} as {module}" if original else module


def _helper_modules() -> set[str]:
    return {"complex_layout", "constants", "sizes", "script_functions"}


def _formatted(path: Path, text: str) -> str:
    """The text as ``ruff format`` and ``ruff check --fix`` (imports) leave it."""
    import subprocess

    for command in (["check", "--fix-only", "--select", "I,RUF022", "-q"], ["format", "-q"]):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *command, "--stdin-filename", str(path), "-"],
            input=text,
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        text = done.stdout
    return text


def faces() -> dict[Path, str]:
    data = json.loads(DATA.read_text())
    return {FACES / f"{m}.py": _formatted(FACES / f"{m}.py", render(m, n)) for m, n in data.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    stale = []
    for path, text in faces().items():
        if path.exists() and path.read_text() == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text)
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path.relative_to(ROOT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
