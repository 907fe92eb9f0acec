"""``export2python``: onnxscript 0.7's name for translating a model back to script.

It is :func:`onnxscript.proto2python`; the options of 0.7 map one to one onto options of
the same name and meaning:

* ``function_name``: the name of the main function;
* ``rename``: short variable names;
* ``use_operators``: binary ops written as Python operators (``a + b``);
* ``inline_const``: small constants used once written where they are used;
* ``skip_initializers``: the main graph's initializers become function inputs.

Every other keyword (``inline_limit``, ``large_limit``, ``tensor_file``, ``opset_imports``)
goes to ``proto2python`` as is. The generated code differs from 0.7's in form (it uses this
package's imports and defines ``make_model()`` for a model) but compiles back to an
isomorphic model.

``has_input`` and ``is_onnx_op`` are 0.7's node helpers of this module
(:mod:`onnxscript.proto_nodes`).
"""

from __future__ import annotations

import os
from typing import Any

import onnx

from onnxscript.proto_nodes import has_input, is_onnx_op
from onnxscript.reverse import proto2python


def export2python(
    model_onnx: onnx.ModelProto | onnx.FunctionProto | onnx.GraphProto | str | os.PathLike[str],
    function_name: str | None = None,
    rename: bool = False,
    use_operators: bool = False,
    inline_const: bool = False,
    skip_initializers: bool = False,
    **options: Any,
) -> str:
    """The Python script source of ``model_onnx`` (see :func:`onnxscript.proto2python`)."""
    return proto2python(
        model_onnx,
        function_name=function_name,
        rename=rename,
        use_operators=use_operators,
        inline_const=inline_const,
        skip_initializers=skip_initializers,
        **options,
    )


__all__ = ["export2python", "has_input", "is_onnx_op"]
