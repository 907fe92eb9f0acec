"""onnxscript 0.7's experimental torch_lib flags, read from the environment at import.

A flag is on when its variable is ``1`` (a warning is logged then). They steered onnxscript
0.7's TorchScript-based graph building, which is gone (as it was from 0.4 on): nothing in
this package reads them; they are kept for code that does.
"""

from __future__ import annotations

import logging
import os

logger = logging.getLogger(__name__)


def _flag(name: str, default: bool, warning: str) -> bool:
    value = os.getenv(name)
    if value is None:
        return default
    enabled = value == "1"
    if enabled:
        logger.warning("Experimental flag %s is enabled. %s", name, warning)
    return enabled


EXPERIMENTAL_INITIALIZERS_AS_INPUTS: bool = _flag(
    "TORCHLIB_EXPERIMENTAL_INITIALIZERS_AS_INPUTS",
    False,
    "Initializers become inputs of the model graph.",
)
EXPERIMENTAL_PREFER_TRACING: bool = _flag(
    "TORCHLIB_EXPERIMENTAL_PREFER_TRACING",
    True,
    "Traceable functions are traced (if branches folded, constant expressions collapsed).",
)

__all__ = ["EXPERIMENTAL_INITIALIZERS_AS_INPUTS", "EXPERIMENTAL_PREFER_TRACING"]
