"""onnxscript 0.7's module paths of the ATen library: ``ops.core``, ``ops.nn``, ``ops.prims``,
... bind 0.7's names (``aten_add``, ...) to the library's functions, which live in
``torch_lib/aten/`` (one module per operator family) and ``torch_lib/helpers/``.

The submodules load on first use (``ops.core`` after ``import ...torch_lib.ops`` too).
Importing this package fills ``registration.default_registry`` with the library's
functions, as it did in 0.7: a function registered with ``torch_op`` for the same
overload afterwards is refused (before, it wins).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from onnxscript.function_libs.torch_lib.registration import load_library

load_library()

_FACES = (
    "common",
    "core",
    "fft",
    "linalg",
    "nested",
    "nn",
    "prims",
    "quantized_decomposed",
    "sparse",
    "special",
    "vision",
)


def __getattr__(name: str) -> ModuleType:
    if name in _FACES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_FACES])
