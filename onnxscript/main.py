"""The decorators: ``@script()`` compiles a function, ``@graph()`` marks a nested graph."""

from __future__ import annotations

import gc
import inspect
from collections.abc import Callable
from typing import Any, Literal, overload

from typing_extensions import ParamSpec, TypeVar

from onnxscript.errors import OnnxScriptError, for_user
from onnxscript.values import OnnxFunction, Opset, OpsetLike, TracedOnnxFunction, as_opset, graph

_P = ParamSpec("_P")
_R = TypeVar("_R")

_DEFAULT_DOMAIN = Opset("this", 1)


@overload
def script(
    opset: Opset | None = None,
    default_opset: Opset | OpsetLike | None = None,
    *,
    trace_only: Literal[False] = False,
    **kwargs: Any,
) -> Callable[[Callable[_P, _R]], OnnxFunction[_P, _R]]: ...


@overload
def script(
    opset: Opset | None = None,
    default_opset: Opset | OpsetLike | None = None,
    *,
    trace_only: Literal[True],
    **kwargs: Any,
) -> Callable[[Callable[_P, _R]], TracedOnnxFunction[_P, _R]]: ...


def script(
    opset: Opset | None = None,
    default_opset: Opset | OpsetLike | None = None,
    *,
    trace_only: bool = False,
    **kwargs: Any,
) -> Callable[[Callable[..., Any]], OnnxFunction | TracedOnnxFunction]:
    """Compile the decorated Python function to ONNX when the decorator runs.

    ``opset`` is the function's own domain and version (default ``Opset("this", 1)``);
    ``default_opset`` is the ai.onnx opset for Python operators when the function calls no
    op (an Opset, or a builder's ``op``: its domain and version) (default: the opset the function uses, else one imported in its module, else the
    newest that onnxruntime supports). Other keywords are defaults for
    :meth:`OnnxFunction.to_model_proto`.

    Errors in the function's body raise :class:`onnxscript.ScriptError` pointing at the
    offending line.

    ``trace_only=True`` does not compile: it returns a :class:`TracedOnnxFunction`, whose
    body runs as Python on every call (traced by a tracing evaluator, run on arrays
    eagerly), so it may branch on ``x.dtype``, ``len(x.shape)`` or attribute values.
    """
    if opset is not None and not isinstance(opset, Opset):
        if inspect.isfunction(opset):
            raise TypeError(
                "@script must be called: write @script() (with parentheses) above the function"
            )
        raise TypeError(
            f"@script() opset must be an Opset such as Opset('my.domain', 1), got {opset!r}"
        )
    explicit = None if default_opset is None else as_opset(default_opset)
    if default_opset is not None and explicit is None:
        raise TypeError(
            f"default_opset must be an Opset such as opset18 (or a builder's op), "
            f"got {default_opset!r}"
        )

    def transform(fn: Callable[..., Any]) -> OnnxFunction | TracedOnnxFunction:
        if not inspect.isfunction(fn):
            raise TypeError(
                f"@script() can only decorate a Python function, not {type(fn).__name__}"
            )
        own = opset or _DEFAULT_DOMAIN
        if trace_only:
            return TracedOnnxFunction(own, fn)
        from onnxscript.converter.function import compile_function

        # Compiling allocates many short-lived objects that reference counting frees;
        # pausing the cyclic garbage collector meanwhile saves its repeated full scans
        # (about a tenth of the time). It is switched back on at once.
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            compiled = compile_function(fn, own, explicit)
            if kwargs:
                from onnxscript.model_export import check_options

                check_options(compiled.function, kwargs, "@script()")
        except OnnxScriptError as exc:
            # The user sees their decorator line, this frame and the located message.
            raise for_user(exc) from exc.__cause__
        finally:
            if collecting:
                gc.enable()
        return OnnxFunction(
            fn,
            own,
            compiled.function,
            compiled.signature,
            kwargs,
            compiled.source.text(),
        )

    return transform


__all__ = ["graph", "script"]
