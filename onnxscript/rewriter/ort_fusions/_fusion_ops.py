"""The domains of the ops the ort fusions make (defined with the fusion targets,
:mod:`onnxscript.rewriter.rules.fusion.targets`): the private domain of the intermediate
ops one fusion makes and a later one completes (rotary embeddings before their cos / sin
caches are found, scaled-dot-product attention before its projections are), and
onnxruntime's contrib domain."""

from __future__ import annotations

from onnxscript.rewriter.rules.fusion.targets import INTERMEDIATE_DOMAIN as DOMAIN
from onnxscript.rewriter.rules.fusion.targets import MS_DOMAIN

__all__ = ["DOMAIN", "MS_DOMAIN"]
