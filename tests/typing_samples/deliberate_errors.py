"""Mistakes a type checker must report: each line marked ``# error: <mypy error code>``
has one, and no other line has any.

The code is for type checkers only (``TYPE_CHECKING``): run, it would fail on its first
line, so importing the module (as tests that collect script functions do) runs nothing.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from onnxscript import DOUBLE, FLOAT, INT64, script
    from onnxscript import opset18 as op
    from onnxscript import opset99 as newest  # error: attr-defined

    @script()
    def unknown_op(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.NoSuchOp(x)  # error: attr-defined

    @script()
    def bad_attribute(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.LeakyRelu(x, alpha="high")  # error: arg-type

    @script()
    def missing_input(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.Add(x)  # error: call-arg

    @script()
    def attribute_as_input(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.Softmax(x, 1)  # error: call-arg

    @script()
    def wrong_return(x: FLOAT["N"]) -> INT64["N"]:
        return op.Relu(x)  # error: return-value

    @script()
    def mixed_element_types(x: FLOAT["N"], n: INT64["N"]) -> FLOAT["N"]:
        return x + n  # error: operator

    @script()
    def shift_floats(x: FLOAT["N"]) -> FLOAT["N"]:
        return x << 1  # error: operator

    @script()
    def union_to_other_type(x: FLOAT["N"] | DOUBLE["N"]) -> INT64["N"]:
        return op.Relu(x)  # error: return-value

    @script()
    def union_with_other_element_type(x: FLOAT | DOUBLE, n: INT64) -> FLOAT | DOUBLE:
        return x + n  # error: operator

    def call_with_wrong_arity(x: FLOAT["N"]) -> None:
        unknown_op(x, x)  # error: call-overload

    __all__ = ["newest"]
