"""The schema index: the same facts as onnx.defs, kept per onnx version in a cache dir."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import onnx
import onnx.defs
import pytest

from onnxscript import schemas
from onnxscript.language import binding
from tests.helpers import ROOT


def _every_name_and_domain() -> set[tuple[str, str]]:
    return {(s.domain, s.name) for s in onnx.defs.get_all_schemas_with_history()}


def test_index_gives_the_schema_onnx_gives_at_every_version():
    versions = schemas.domain_versions()
    checked = 0
    for domain, name in sorted(_every_name_and_domain()):
        first, last = versions[domain]
        for version in range(first, last + 1):
            try:
                expected = onnx.defs.get_schema(name, version, domain)
            except onnx.defs.SchemaError:
                expected = None
            found = schemas.op_facts(domain, name, version)
            if expected is None:
                assert found is None, (domain, name, version)
            else:
                assert found == schemas.facts_of(expected), (domain, name, version)
                checked += 1
    assert checked > 3000


def test_signatures_from_facts_match_signatures_from_schemas():
    resize = onnx.defs.get_schema("Resize", 18, "")
    sig = binding.signature_for("", "Resize", 18)
    assert sig == binding.from_facts(schemas.facts_of(resize))
    assert [p.name for p in sig.inputs] == [i.name for i in resize.inputs]
    assert sig.param_by_name["mode"].default == "nearest"
    assert sig.param_by_name["cubic_coeff_a"].default == pytest.approx(-0.75)


def test_op_names_and_suggestions_come_from_the_index():
    names = schemas.op_names("", 18)
    expected = sorted(
        {
            s.name
            for s in onnx.defs.get_all_schemas_with_history()
            if s.domain == "" and s.since_version <= 18
        }
    )
    assert list(names) == expected
    assert "Add" in names and "RMSNormalization" not in names
    assert schemas.suggest("", "add", 18)[0] == "Add"


def test_custom_domains_have_no_facts():
    assert not schemas.has_schemas("com.example")
    assert schemas.op_facts("com.example", "Foo", 1) is None


def _run(code: str, cache: Path) -> str:
    env = {**os.environ, "ONNXSCRIPT_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


COMPILE = (
    "from onnxscript import FLOAT, script, opset18 as op\n"
    "from tests.helpers import define\n"
    "f = script()(define('def f(x: FLOAT[2]):\\n    return op.Relu(x) + 1.0\\n', "
    "{'FLOAT': FLOAT, 'op': op}))\n"
    "print(len(f.to_model_proto().graph.node))\n"
)

# Counts the schemas asked of onnx.defs while compiling (each first request builds onnx's
# whole registry, which the index exists to avoid).
COUNTING = (
    "import onnx.defs\n"
    "calls = []\n"
    "real = onnx.defs.get_schema\n"
    "onnx.defs.get_schema = lambda *args: calls.append(args) or real(*args)\n"
    + COMPILE
    + "print(calls)\n"
)


def test_compiling_reads_the_index_and_asks_onnx_for_no_schema(tmp_path):
    first = _run(COUNTING, tmp_path).split("\n")
    assert first[0] == "3"
    written = [p.name for p in tmp_path.iterdir()]
    assert written == [f"schema-index-v1-onnx-{onnx.__version__}.txt"]
    second = _run(COUNTING, tmp_path).split("\n")
    assert second[:2] == ["3", "[]"]


def test_a_corrupt_index_is_rebuilt_and_an_unwritable_cache_is_tolerated(tmp_path):
    path = tmp_path / f"schema-index-v1-onnx-{onnx.__version__}.txt"
    path.write_text("not an index")
    assert _run(COMPILE, tmp_path).strip() == "3"
    assert path.read_text().startswith("ai.onnx.ml|")
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert _run(COMPILE, blocked / "cache").strip() == "3"  # a path under a file
