"""onnxscript 0.7's ``onnxscript._internal._inliner`` (its ``instantiate`` copied a
function's body for one call). Here inlining is :mod:`onnxscript.passes.inlining`."""

from onnxscript.passes.inlining import InlineFunctionsPass, inline

__all__ = ["InlineFunctionsPass", "inline"]
