"""What the language rules need from a front end that carries them out.

The rules of ``language.operators`` and ``language.indexing`` are written once, against
this interface. The converter implements it with graph values (an operand is a compile-time
symbol, emitting adds a node), eager mode with arrays (emitting runs the op), and a tracing
builder with recorded values. A front end decides what its operands are; the rules decide
which ops they become and which element types literals take.
"""

from __future__ import annotations

from typing import Any, Protocol

TENSOR = 0
"""An operand computed at run time, with its own element type (a numpy array counts)."""
INDEX = 1
"""A ``for ... in range(...)`` loop index, or int arithmetic on one: it stands for a Python
int, so like a literal it takes the element type of the tensor it meets."""
ATTR = 2
"""An attribute parameter of the function: a tensor of its own type unless it meets one."""
LITERAL = 3
"""A Python value known now (a number, a string, a list of them)."""


class Target(Protocol):
    """A front end that operator and indexing rules act through.

    Operands are whatever the front end holds; ``tensor`` turns any operand into a tensor
    value of the front end, which is what ``emit`` takes and returns.
    """

    def kind(self, operand: Any) -> int:
        """``TENSOR``, ``INDEX``, ``ATTR`` or ``LITERAL``."""
        ...

    def literal(self, operand: Any) -> Any:
        """The Python value of a ``LITERAL`` operand."""
        ...

    def dtype(self, value: Any) -> int | None:
        """The element type of a tensor value, if known."""
        ...

    def tensor(self, operand: Any, *, dtype: int | None = None, like: Any = None) -> Any:
        """``operand`` as a tensor value. A literal or attribute parameter takes the element
        type ``dtype``, else that of the tensor value ``like``, else its own; a run-time
        tensor is returned as it is."""
        ...

    def retype_index(self, value: Any, *, dtype: int | None = None, like: Any = None) -> Any:
        """A loop index (``INDEX`` operand) in element type ``dtype`` or that of ``like``."""
        ...

    def emit(self, op_type: str, *inputs: Any, **attributes: Any) -> Any:
        """Apply the ai.onnx op ``op_type`` (default opset) and return its only output."""
        ...

    def mark_index(self, value: Any) -> Any:
        """``value`` (a result of int arithmetic on loop indices and ints) as an ``INDEX``."""
        ...

    def static(self, operand: Any) -> tuple[bool, Any]:
        """(whether ``operand`` is known now, as Python folds it, and its value)."""
        ...

    def python(self, value: Any) -> Any:
        """A Python value computed by a rule (``a and b`` of literals), as an operand."""
        ...
