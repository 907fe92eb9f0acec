"""onnxscript 0.7's ``torch_lib.graph_building`` path: the TorchScript graph builder of
``torch.onnx.dynamo_export``, removed (as in onnxscript 0.4 and later). Its class names
remain; making one raises ``NotImplementedError`` saying what to use instead."""

from __future__ import annotations

from typing import Any


class RemovedTorchScriptBuilder:
    """A class of the removed TorchScript graph builder: it cannot be made."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            "The TorchScript graph builder of torch.onnx.dynamo_export is gone (since "
            "onnxscript 0.4): export with torch.onnx.export(..., dynamo=True)."
        )


TorchScriptGraph = RemovedTorchScriptBuilder
TorchScriptTensor = RemovedTorchScriptBuilder
TorchScriptTracingEvaluator = RemovedTorchScriptBuilder

__all__ = ["TorchScriptGraph", "TorchScriptTensor", "TorchScriptTracingEvaluator"]
