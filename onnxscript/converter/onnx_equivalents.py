"""The ONNX op call that does on tensors what a builtin, ``math`` or numpy function does
on numbers and arrays: the hint of the error for ``np.exp(x)`` or ``len(x)`` in a script.

Those functions cannot run on a script's tensors (they are symbols while it compiles);
the hint names the op to write instead, with the call's own arguments
(``np.exp(x)`` -> ``op.Exp(x)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from onnxscript import schemas

LIBRARIES = ("builtins", "math", "cmath", "numpy")
"""Modules (the first part of ``__module__``) whose functions are mapped to ops."""

_FIRST_ARGUMENT: dict[str, str] = {
    "len": "op.Shape({0}, start=0, end=1)",
    "int": "op.Cast({0}, to=INT64)",
    "float": "op.Cast({0}, to=FLOAT)",
    "bool": "op.Cast({0}, to=BOOL)",
    "round": "op.Round({0})",
    "sum": "op.ReduceSum({0}, keepdims=0)",
    "mean": "op.ReduceMean({0}, keepdims=0)",
    "prod": "op.ReduceProd({0}, keepdims=0)",
    "amax": "op.ReduceMax({0}, keepdims=0)",
    "amin": "op.ReduceMin({0}, keepdims=0)",
    "argmax": "op.ArgMax({0}, keepdims=0)",
    "argmin": "op.ArgMin({0}, keepdims=0)",
    "absolute": "op.Abs({0})",
    "fabs": "op.Abs({0})",
    "negative": "op.Neg({0})",
    "arcsin": "op.Asin({0})",
    "arccos": "op.Acos({0})",
    "arctan": "op.Atan({0})",
    "isnan": "op.IsNaN({0})",
    "isinf": "op.IsInf({0})",
}
"""Functions of one tensor whose op is not their capitalized name (``{0}``: the tensor)."""

_SAME_ARGUMENTS: dict[str, str] = {
    "maximum": "Max",
    "minimum": "Min",
    "power": "Pow",
    "pow": "Pow",
    "matmul": "MatMul",
    "dot": "MatMul",
    "cumsum": "CumSum",
}
"""Functions that are one op taking the same arguments, under another name."""

_FALSE_FRIENDS = frozenset({"identity", "compress", "split", "unique", "range", "print"})
"""Capitalized, these name an op that does something else (``np.identity`` makes a
matrix, ONNX ``Identity`` copies)."""


def equivalent_op_call(name: str, args: Sequence[str]) -> str | None:
    """The op call to write instead of ``name(*args)``, a library function called on
    tensors (``args`` are the arguments' source texts), or None when there is no one op."""
    if name in ("max", "min"):
        if len(args) == 1:  # max(x) reduces; max(a, b) compares element-wise
            return f"op.Reduce{name.capitalize()}({args[0]}, keepdims=0)"
        return f"op.{name.capitalize()}({', '.join(args)})"
    if name in _FIRST_ARGUMENT:
        return _FIRST_ARGUMENT[name].format(args[0] if args else "...")
    op_name = _SAME_ARGUMENTS.get(name)
    capitalized = name.capitalize()  # exp -> Exp, sqrt -> Sqrt, tanh -> Tanh, ...
    if op_name is None and name.isalpha() and name not in _FALSE_FRIENDS:
        op_name = capitalized if schemas.op_versions("", capitalized) else None
    if op_name is None:
        return None
    return f"op.{op_name}({', '.join(args) or '...'})"


def library_of(fn: Any) -> str | None:
    """``"numpy"``, ``"math"``, ``"built-in"`` ... when ``fn`` comes from one of
    :data:`LIBRARIES`, else None."""
    module = getattr(fn, "__module__", None)
    root = module.split(".")[0] if isinstance(module, str) else ""
    if root not in LIBRARIES:
        return None
    return "built-in" if root == "builtins" else root
