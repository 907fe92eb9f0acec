"""Smoke test of the compile benchmark's workloads: correctness only, no timing.

Every representative function of ``bench/functions.py`` must compile with our package to a
model that passes the full onnx checker and runs on its benchmark inputs, and the generated
size workloads must have the advertised number of statements and compile too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from onnxscript import OnnxFunction, script
from tests.helpers import checked_model, load_module, run_model

bench_functions = load_module("bench_functions", "bench/functions.py")
bench_compile = load_module("bench_compile", "bench/compile.py")


@pytest.mark.parametrize("entry", bench_functions.ALL, ids=lambda e: e.name)
def test_representative_function_compiles_to_checked_model(entry: object) -> None:
    model = checked_model(script()(entry.function))  # type: ignore[attr-defined]
    outputs = run_model(model, *entry.inputs())  # type: ignore[attr-defined]
    assert len(outputs) == len(model.graph.output)


def test_function_sets_are_disjoint_and_named() -> None:
    names = [e.name for e in bench_functions.ALL]
    assert len(names) == len(set(names))
    assert len(bench_functions.COMMON) >= 9


@pytest.mark.parametrize("shape", bench_compile.SHAPES)
@pytest.mark.parametrize("size", bench_compile.SIZES)
def test_sized_workload_has_exact_statement_count(shape: str, size: int) -> None:
    source = bench_compile.generate_sized_module(shape, size)
    assert bench_compile.count_statements(source) == size


@pytest.mark.parametrize("shape", bench_compile.SHAPES)
def test_sized_workload_compiles(shape: str, tmp_path: Path) -> None:
    path = tmp_path / f"bench_size_{shape}.py"
    path.write_text(bench_compile.generate_sized_module(shape, 100))
    module = load_module(f"bench_size_{shape}", path)
    checked_model(script()(module.big))


def test_import_module_compiles(tmp_path: Path) -> None:
    names = [e.name for e in bench_functions.COMMON]
    text, count = bench_compile.generate_import_module(names)
    assert count == bench_compile.IMPORT_FUNCTIONS
    path = tmp_path / "bench_import_500.py"
    path.write_text(text)
    module = load_module("bench_import_500", path)
    compiled = [v for v in vars(module).values() if isinstance(v, OnnxFunction)]
    assert len(compiled) == bench_compile.IMPORT_FUNCTIONS
