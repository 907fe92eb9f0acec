"""onnxscript 0.7's ``onnxscript.utils.timing_utils``: loading, saving, shape inference and
the optimizer's steps, each printing how long it took (``Load time: 0.01``)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar

import onnx

from onnxscript import optimizer

_R = TypeVar("_R")


def timeit(f: Callable[..., _R], message: str) -> Callable[..., _R]:
    """``f`` printing ``"<message> time: <seconds>"`` after each call."""

    @functools.wraps(f)
    def timed(*args: Any, **kw: Any) -> _R:
        start = time.time()
        result = f(*args, **kw)
        print(f"{message} time: {time.time() - start}")
        return result

    return timed


load = timeit(onnx.load, "Load")
save = timeit(onnx.save, "Save")
infer = timeit(onnx.shape_inference.infer_shapes, "Infer")
fold_constants = timeit(optimizer.fold_constants, "Fold Constants")
remove_unused = timeit(optimizer.remove_unused_nodes, "Remove Unused")
optimize = timeit(optimizer.optimize, "Optimize")

__all__ = ["fold_constants", "infer", "load", "optimize", "remove_unused", "save", "timeit"]
