"""``export2python``: onnxscript 0.7's name for translating a model back to script.

It is :func:`onnxscript.proto2python` with the options 0.7 offers under the same names
(``function_name``, ``rename``, ``use_operators``, ``inline_const``); the other options of
``proto2python`` are passed through by keyword.
"""

from __future__ import annotations

import os
from typing import Any

import onnx

from onnxscript.reverse import proto2python


def export2python(
    model_onnx: onnx.ModelProto | onnx.FunctionProto | onnx.GraphProto | str | os.PathLike[str],
    function_name: str | None = None,
    rename: bool = False,
    use_operators: bool = False,
    inline_const: bool = False,
    **options: Any,
) -> str:
    """The Python script source of ``model_onnx`` (see :func:`onnxscript.proto2python`)."""
    return proto2python(
        model_onnx,
        function_name=function_name,
        rename=rename,
        use_operators=use_operators,
        inline_const=inline_const,
        **options,
    )


__all__ = ["export2python"]
