"""The ATen library's layout: every module of ``aten/`` is an op module, found by walking
the package; shared code lives in ``helpers/``; each ATen function's docstring starts with
its ATen schema (``tools/aten_docstrings.py`` writes them)."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

pytest.importorskip("torch")

from onnxscript.function_libs.torch_lib import helpers
from onnxscript.function_libs.torch_lib.registration import (
    OPS_PACKAGE,
    collect_ops,
    op_modules,
)
from tests.helpers import load_module


def test_every_module_of_ops_is_found_and_registers_functions():
    package = importlib.import_module(OPS_PACKAGE)
    files = {path.stem for path in Path(*package.__path__).glob("*.py")}
    assert {name.rpartition(".")[2] for name in op_modules()} == files
    registering = {record.function.function.__module__ for record in collect_ops()}
    assert set(op_modules()) <= registering  # a module registering nothing is a helper


def test_helpers_register_nothing():
    names = [m.name for m in pkgutil.iter_modules(helpers.__path__, f"{helpers.__name__}.")]
    assert names
    registered = {record.function.function.__module__ for record in collect_ops()}
    assert registered.isdisjoint(names)


def test_every_aten_function_docstring_starts_with_its_schema():
    tool = load_module("aten_docstrings", "tools/aten_docstrings.py")
    functions = tool.registered_functions()
    assert len(functions) > 400
    lacking = [
        f"{function.__module__}.{function.__name__}: {schema}"
        for function, schema in functions
        if tool.first_line(function) != schema
    ]
    assert not lacking, "run tools/aten_docstrings.py:\n" + "\n".join(lacking)


def test_the_schema_of_roll():
    tool = load_module("aten_docstrings", "tools/aten_docstrings.py")
    assert tool.torch_schema("aten::roll") == (
        "roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor"
    )
    assert tool.torch_schema("aten::add.Tensor").startswith("add.Tensor(Tensor self,")
    assert tool.torch_schema("prims::sum").startswith("prims::sum(Tensor inp, int[]? dims")
    assert tool.torch_schema("_operator::add") is None
