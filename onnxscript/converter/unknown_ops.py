"""Ops a script calls in a standard domain (``op.MyOp`` with ``op = opset18``) that onnx
defines no schema for: custom ops some runtime registers in the default domain.

onnxscript 0.7 emits such a call as a node like any other (positional arguments are inputs,
``None`` an omitted one, keywords attributes), and so does this compiler. onnx.checker and
onnxruntime reject the model unless a runtime registers the op, so ``to_model_proto()``
warns then (``ModelCheckWarning``). A name close to one of the opset's ops is probably a
typo, which the compiler also reports here with a located warning.
"""

from __future__ import annotations

import ast
import warnings

from onnxscript.source import SourceText
from onnxscript.values import Op, Opset


class UnknownOpWarning(UserWarning):
    """A script calls an op that its (standard) opset does not define, under a name close to
    one it does define (probably a typo)."""


def schemaless_op(source: SourceText, node: ast.AST, opset: Opset, name: str) -> Op:
    """The op ``name`` of ``opset``, which has no schema for it: called like a custom op.
    Warns (located at ``node``) when the name looks like a misspelt op of the opset."""
    close = opset.suggestions(name)
    if close:
        found = source.error(
            node,
            f"opset {opset.domain or 'ai.onnx'} version {opset.version} has no op {name!r}: "
            "the call becomes a node of an op that onnx does not define",
            f"did you mean {' or '.join(close)}?",
        )
        message = f"{found.message}; {found.hint}"
        warnings.warn_explicit(message, UnknownOpWarning, found.filename, found.lineno)
    return Op(opset, name)
