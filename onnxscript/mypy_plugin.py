"""A mypy plugin that accepts tensor-type annotations such as ``FLOAT[64, "N"]``.

Type checkers reject literal shapes inside ``X[...]`` because they are not types. This
plugin tells mypy that ``FLOAT[...]`` (any shape) means the class ``FLOAT``. Enable it in
the mypy configuration::

    [tool.mypy]
    plugins = ["onnxscript.mypy_plugin"]
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.plugin import AnalyzeTypeContext, Plugin
from mypy.types import Type

_MODULE = "onnxscript.onnx_types."


def _drop_shape(ctx: AnalyzeTypeContext) -> Type:
    name = ctx.type.name
    fullname = name if name.startswith(_MODULE) else _MODULE + name.rsplit(".", 1)[-1]
    return ctx.api.named_type(fullname, [])


class TensorTypePlugin(Plugin):
    """Resolves ``onnxscript`` tensor annotations with shapes to their element-type class."""

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if fullname.startswith(_MODULE) and fullname[len(_MODULE) :].isupper():
            return _drop_shape
        return None


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point."""
    return TensorTypePlugin
