"""Python operators on two operands annotated with the same union of tensor types.

mypy checks each pairing of the unions' items (``FLOAT + DOUBLE`` too), which the operators
refuse; the package's mypy plugin accepts an operand whose union holds the other's type.
pyright has no plugin and reports those pairings: tests/test_typing.py checks this file with
mypy only.
"""

from onnxscript import DOUBLE, FLOAT, script
from onnxscript import opset18 as op


@script()
def mean_of_two(
    x: FLOAT["N"] | DOUBLE["N"], y: FLOAT["N"] | DOUBLE["N"]
) -> FLOAT["N"] | DOUBLE["N"]:
    total = x + y
    return op.Where(x < y, total / 2.0, total * 0.5 + (x - y) * 0.0)


@script()
def mean_of_floats(x: FLOAT["N"], y: FLOAT["N"]) -> FLOAT["N"]:
    """Calls the union-typed function with FLOAT tensors (runnable: its types are fixed)."""
    return op.CastLike(mean_of_two(x, y), x)
