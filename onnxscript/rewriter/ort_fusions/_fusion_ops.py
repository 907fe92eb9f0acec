"""The private domain of the intermediate ops that one ort fusion makes and a later one
completes (rotary embeddings before their cos / sin caches are found, scaled-dot-product
attention before its projections are)."""

from __future__ import annotations

DOMAIN = "ai.onnxruntime._fusion"
"""Domain of the intermediate ops (as 0.7.2 names it); onnxruntime cannot run them."""

MS_DOMAIN = "com.microsoft"


__all__ = ["DOMAIN", "MS_DOMAIN"]
