"""Placeholders for ATen operators the library has no function for.

onnxscript 0.7 defined such names (``ops.core.aten_adjoint``, ...) as functions raising
``NotImplementedError``; ``ops/`` keeps those names, each an :func:`unsupported` function
naming its operator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn


def unsupported(qualified_name: str) -> Callable[..., NoReturn]:
    """A function that raises ``NotImplementedError`` naming ``qualified_name``
    (``"aten::adjoint"``), whatever it is called with."""

    def not_implemented(*args: Any, **kwargs: Any) -> NoReturn:
        raise NotImplementedError(
            f"onnxscript's ATen library has no function for {qualified_name} (onnxscript "
            "0.7 had only this placeholder): torch.onnx decomposes the operator when it can"
        )

    name = qualified_name.replace("::", "_").replace(".", "_")
    not_implemented.__name__ = not_implemented.__qualname__ = name
    not_implemented.__doc__ = f"{qualified_name}: not implemented (raises NotImplementedError)."
    return not_implemented


__all__ = ["unsupported"]
