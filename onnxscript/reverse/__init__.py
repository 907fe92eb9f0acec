"""Reverse translation: ONNX models, functions and graphs back to readable script source.

:func:`proto2python` writes the source; :func:`exec_script` runs source given as a string
(registering it so that ``@script`` can read it). The translation itself depends only on
onnx protos and produces text; its modules are imported on first use.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from onnxscript.errors import TranslationError
from onnxscript.reverse.loading import exec_script
from onnxscript.reverse.options import Options

if TYPE_CHECKING:
    import onnx


def proto2python(
    proto: onnx.ModelProto | onnx.FunctionProto | onnx.GraphProto | str | os.PathLike[str],
    *,
    function_name: str | None = None,
    rename: bool = False,
    use_operators: bool = False,
    inline_const: bool = False,
    skip_initializers: bool = False,
    inline_limit: int = Options.inline_limit,
    large_limit: int = Options.large_limit,
    tensor_file: str | None = None,
    opset_imports: dict[str, int] | None = None,
) -> str:
    """Translate an ONNX model, function or graph into Python script source.

    ``proto`` is a ``ModelProto``, ``FunctionProto``, ``GraphProto`` or the path of a model
    file. The result is a module that defines the model's functions and its main graph as
    ``@script`` functions and, for a model, ``make_model()``, which compiles the main
    function back into a model with the original IR version, opset imports and metadata.
    Run it with :func:`exec_script` (or save it and import it). Names, strings and doc
    strings from the proto are always escaped: they cannot inject code.

    Options:

    * ``function_name``: the name of the main function (default: the graph's name);
    * ``rename``: short variable names (``v0``, ``v1``, ...) except for the main graph's
      inputs and outputs;
    * ``use_operators``: write ``Add``, ``Sub``, ``Mul``, ``Div``, ``MatMul``, ``Pow`` and
      comparisons as Python operators (``a + b``);
    * ``inline_const``: write small constants that are used once where they are used;
    * ``skip_initializers``: make the main graph's initializers inputs of the function
      instead of constants (the weights are then fed at run time);
    * ``inline_limit``: tensors with at most this many elements are written in place, larger
      ones as module-level constants;
    * ``large_limit``: tensors with more elements are read back from the model file at
      compile time (``tensor_file``, by default the path given as ``proto``) instead of
      being written out;
    * ``opset_imports``: the opsets of a bare ``GraphProto`` (default: the newest ai.onnx).

    Raises :class:`TranslationError` for protos that scripts cannot express.
    """
    from onnxscript.reverse.translate import proto2python as translate

    return translate(
        proto,
        function_name=function_name,
        rename=rename,
        use_operators=use_operators,
        inline_const=inline_const,
        skip_initializers=skip_initializers,
        inline_limit=inline_limit,
        large_limit=large_limit,
        tensor_file=tensor_file,
        opset_imports=opset_imports,
    )


__all__ = ["TranslationError", "exec_script", "proto2python"]
