"""The Python code blocks of the README and the docs run as written.

Blocks of one file run in order in one namespace, each registered with linecache so that
``@script()`` can read it. Every compiled function found is checked with onnx.checker.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

from onnxscript import OnnxFunction, register_source
from tests.helpers import ROOT, checked_model

FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_code_blocks_run(path: Path):
    text = path.read_text()
    namespace: dict = {"__name__": f"docs_{path.stem}"}
    blocks = _BLOCK.findall(text)
    for index, block in enumerate(blocks):
        if "import torch" in block and importlib.util.find_spec("torch") is None:
            continue  # the torch extra is not installed: that example cannot run here
        filename = f"<{path.name} block {index}>"
        register_source(block, filename)
        exec(compile(block, filename, "exec"), namespace)
    for value in list(namespace.values()):
        if (
            isinstance(value, OnnxFunction)
            and not value.function_ir.attr_params
            and _annotated(value)  # an untyped example is given its types where it is used
        ):
            checked_model(value)


def _annotated(fn: OnnxFunction) -> bool:
    """Every parameter annotated, and with one type (a ``TypeVar`` or ``Union`` input has
    none in the compiled function)."""
    parameters = inspect.signature(fn.function).parameters.values()
    if any(p.annotation is inspect.Parameter.empty for p in parameters):
        return False
    return all(v.declared_type is not None for v in fn.function_ir.graph.inputs)
