"""Every module path of the onnxscript 0.7.2 wheel imports, and defines every name 0.7.2's
does (COMPATIBILITY.md §15; in the ``_internal`` modules listed under
``names_optional_in``, only the import is required).

The list is ``../shared/compat/onnxscript-0.7.2-surface.json`` (made by importing the
installed 0.7.2 wheel) when it is there beside the repository, else the copy kept in
``tests/data``. ``python ../shared/tools/compat_surface.py --list`` says the same in one
run.
"""

from __future__ import annotations

import importlib
import json
import warnings
from pathlib import Path

import pytest

from tests.helpers import ROOT

_SHARED = ROOT.parent / "shared" / "compat" / "onnxscript-0.7.2-surface.json"
_COPY = ROOT / "tests" / "data" / "onnxscript-0.7.2-surface.json"


def _surface() -> dict:
    path: Path = _SHARED if _SHARED.exists() else _COPY
    return json.loads(path.read_text(encoding="utf-8"))


SURFACE = _surface()
MODULES: dict[str, list[str]] = SURFACE["modules"]
OPTIONAL = frozenset(SURFACE["names_optional_in"])


def test_the_surface_list_is_the_whole_wheel():
    assert len(MODULES) == 178
    assert sum(len(names) for m, names in MODULES.items() if m not in OPTIONAL) == 1720
    assert set(MODULES) >= OPTIONAL
    if _SHARED.exists():  # the copy in tests/data is the shared list
        assert json.loads(_COPY.read_text(encoding="utf-8")) == SURFACE


@pytest.mark.parametrize("module_name", sorted(MODULES))
def test_module_path_imports_with_every_name(module_name: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = importlib.import_module(module_name)
    if module_name in OPTIONAL:
        return
    missing = [name for name in MODULES[module_name] if not hasattr(module, name)]
    assert missing == [], f"{module_name} lacks {missing}"
