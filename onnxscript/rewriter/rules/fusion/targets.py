"""The ops a fusion can emit. A fusion whose pattern and checks do not depend on where
its result runs is written once (in this package) with a ``target``: ``"onnx"`` emits
ai.onnx ops of opset 23 (``onnx_fusions.fuse``), ``"onnxruntime"`` emits onnxruntime's
contrib ops, or the intermediate ops of ``ort_fusions`` that a later fusion completes
(``optimize_for_ort``). The replacement is the only part that differs."""

from __future__ import annotations

from typing import Literal

FusionTarget = Literal["onnx", "onnxruntime"]

ONNX: FusionTarget = "onnx"
ONNXRUNTIME: FusionTarget = "onnxruntime"

INTERMEDIATE_DOMAIN = "ai.onnxruntime._fusion"
"""Domain of the intermediate ops one ort fusion makes and a later one completes (as
0.7.2 names it); onnxruntime cannot run them."""

MS_DOMAIN = "com.microsoft"
"""onnxruntime's contrib ops."""


__all__ = ["INTERMEDIATE_DOMAIN", "MS_DOMAIN", "ONNX", "ONNXRUNTIME", "FusionTarget"]
