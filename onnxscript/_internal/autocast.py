"""onnxscript 0.7's ``onnxscript._internal.autocast`` (Python values cast to tensors of an
op's input types). Here Python literals become arrays in :mod:`onnxscript.language.literals`
(``literal_array``, ``python_to_array``), and ``language.binding`` picks the element type
a literal input takes (``literal_input_type``)."""

from onnxscript.language.binding import literal_input_type
from onnxscript.language.literals import literal_array, python_to_array

__all__ = ["literal_array", "literal_input_type", "python_to_array"]
