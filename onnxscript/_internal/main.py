"""onnxscript 0.7's ``onnxscript._internal.main``: the ``@script()`` and ``@graph()``
decorators (:mod:`onnxscript.main`) and ``export_onnx_lib``
(:mod:`onnxscript.library_export`)."""

from onnxscript.library_export import export_onnx_lib
from onnxscript.main import graph, script

__all__ = ["export_onnx_lib", "graph", "script"]
