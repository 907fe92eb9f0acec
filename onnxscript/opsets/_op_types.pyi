"""Types shared by the opset stubs (a stub-only module: it does not exist at run time).

``ArrayLike`` is what an op input takes besides a tensor of a script: numpy arrays and
scalars, Python numbers and (nested) lists, ``onnxscript.Tensor``. A type variable such as
``T`` ties inputs to outputs of the same element type (``Add(A: T, B: T) -> T``); it is
``Any`` when no argument is a tensor type (eager calls on arrays return arrays).
"""

from collections.abc import Callable
from typing import Any, TypeAlias

import onnx
from numpy.typing import ArrayLike as ArrayLike
from typing_extensions import TypeVar

from onnxscript.onnx_types import TensorType

TensorValue: TypeAlias = onnx.TensorProto | ArrayLike
"""A tensor attribute: a TensorProto, an array, a number or a list."""

GraphValue: TypeAlias = Callable[..., Any] | onnx.GraphProto
"""A graph attribute: a ``@graph()`` function (in a script) or a GraphProto."""

TypeValue: TypeAlias = onnx.TypeProto | type[TensorType]
"""A type attribute: a TypeProto or a tensor type such as ``FLOAT``."""

D = TypeVar("D", bound=TensorType)
"""The output type named by an element-type attribute (``Cast(x, to=INT64) -> INT64``)."""

S = TypeVar("S", bound=TensorType, default=Any)
T = TypeVar("T", bound=TensorType, default=Any)
T1 = TypeVar("T1", bound=TensorType, default=Any)
T2 = TypeVar("T2", bound=TensorType, default=Any)
T3 = TypeVar("T3", bound=TensorType, default=Any)
U = TypeVar("U", bound=TensorType, default=Any)
V = TypeVar("V", bound=TensorType, default=Any)
