"""``export_onnx_lib(functions, filename)``: script functions saved as a function library.

The file is what onnxscript 0.7 writes: a ``ModelProto`` with no graph whose ``functions``
are the given functions' ``FunctionProto``s, in the given order, under a fixed header
(``ir_version`` 10, producer ``p2o``, an ai.onnx 15 import). Tools that read such a
library (``onnx.load`` then ``model.functions``) get the same file from either package.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import onnx
import onnx.helper

from onnxscript.values import OnnxFunction

_IR_VERSION = 10
_PRODUCER = "p2o"
_OPSET_IMPORT = ("", 15)


def library_proto(functions: Sequence[OnnxFunction]) -> onnx.ModelProto:
    """The library as a graph-less ``ModelProto`` holding each function's proto."""
    for index, function in enumerate(functions):
        if not isinstance(function, OnnxFunction):
            raise TypeError(
                f"export_onnx_lib expects functions compiled with @script(); item {index} "
                f"is {type(function).__name__}"
            )
    model = onnx.ModelProto(ir_version=_IR_VERSION, producer_name=_PRODUCER)
    model.opset_import.append(onnx.helper.make_opsetid(*_OPSET_IMPORT))
    model.functions.extend(function.to_function_proto() for function in functions)
    return model


def export_onnx_lib(functions: Sequence[OnnxFunction], filename: str | os.PathLike[str]) -> None:
    """Write ``functions`` (script functions) to ``filename`` as an ONNX function library."""
    proto = library_proto(list(functions))
    with open(filename, "wb") as file:
        file.write(proto.SerializeToString())


__all__ = ["export_onnx_lib", "library_proto"]
