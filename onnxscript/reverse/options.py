"""How to translate: the options of :func:`onnxscript.reverse.proto2python` and their
defaults (also the defaults of the command line)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Options:
    """See :func:`onnxscript.reverse.proto2python`."""

    function_name: str | None = None
    rename: bool = False
    use_operators: bool = False
    inline_const: bool = False
    skip_initializers: bool = False
    inline_limit: int = 16
    large_limit: int = 1024
    tensor_file: str | None = None
    opset_imports: dict[str, int] | None = None
