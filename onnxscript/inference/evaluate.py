"""The values of a node's outputs when its inputs are constants (constant folding).

Shape arithmetic (Shape, Gather, Concat, Unsqueeze, Reshape, Cast, integer math...) is
computed with numpy directly, which is what folding while building mostly meets; any
other deterministic ai.onnx op runs on ``onnx.reference`` as a one-node model.

Only tensors are computed: a node with an output that is (or, by its schema, can only
be) a sequence or an optional is left alone, as is any result that is not an array of
numbers or strings. A tensor is what a constant can hold; a sequence written as a tensor
would be another value of another type.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnx
import onnx.reference
import onnx_ir as ir

from onnxscript import schemas
from onnxscript.ir_utils.graphs import holds_graphs
from onnxscript.ir_utils.value_facts import constant_tensor, tensor_of

_NONDETERMINISTIC = frozenset(
    {
        "RandomNormal",
        "RandomNormalLike",
        "RandomUniform",
        "RandomUniformLike",
        "Multinomial",
        "Bernoulli",
        "Dropout",
    }
)
_SHAPE_ONLY = frozenset({"Shape", "Size"})

Kernel = Callable[[ir.Node, list[Any]], list[np.ndarray] | None]


def evaluate_node(
    node: ir.Node,
    opset_version: int,
    *,
    input_size_limit: int = 8192,
    output_size_limit: int = 262144,
) -> list[ir.TensorProtocol] | None:
    """The output tensors of ``node`` when every present input is a constant (for Shape
    and Size: has a static shape), the op is a deterministic ai.onnx op without graph
    attributes whose outputs are tensors, and inputs and outputs are within the size
    limits (in elements); else None."""
    if node.domain not in ("", "ai.onnx") or node.op_type in _NONDETERMINISTIC:
        return None
    if holds_graphs(node) or not _outputs_are_tensors(node, opset_version):
        return None
    if any(_known_size(v) > output_size_limit for v in node.outputs):
        return None  # not computed at all: the result would be dropped
    arrays = _input_arrays(node, input_size_limit)
    if arrays is None:
        return None
    try:
        results = _kernel_results(node, arrays)
    except _LeftToRuntime:
        return None
    if results is None:
        try:
            results = _reference(node, arrays, opset_version)
            if not _exact_in_double(node, arrays, results, opset_version):
                return None
        except Exception:  # an op the inputs do not fit is left for the runtime to report
            return None
    if results is None or not all(_is_tensor_array(r) for r in results):
        return None  # a sequence (a list), an empty optional (None), another object
    if any(r.size > output_size_limit for r in results):
        return None
    declared = [_as_declared(r, v) for r, v in zip(results, node.outputs)]
    if any(r is None for r in declared):
        return None
    return [tensor_of(r) for r in declared if r is not None]


def _as_declared(result: np.ndarray, value: ir.Value) -> np.ndarray | None:
    """``result`` of the output's known element type: an integer result of a wider type
    (onnx.reference's ReduceSumSquare of int32 gives int64) as that type where its values
    fit; None when it is of another type."""
    if value.dtype is None or value.dtype == ir.DataType.STRING:
        return result
    declared = value.dtype.numpy()
    if result.dtype == declared:
        return result
    if result.dtype.kind in "iu" and np.dtype(declared).kind in "iu":
        limits = np.iinfo(declared)
        if result.size == 0 or (result.min() >= limits.min and result.max() <= limits.max):
            return result.astype(declared)
    return None


def _kernel_results(node: ir.Node, arrays: list[Any]) -> list[np.ndarray] | None:
    """The numpy fast path's results, or None to defer to onnx.reference: when the op has
    no kernel, or the kernel does not take these inputs (``Range`` of one-element limits,
    which onnx.reference and onnxruntime read as scalars). ``_LeftToRuntime`` when the
    node must not be folded at all."""
    kernel = _KERNELS.get(node.op_type)
    if kernel is None:
        return None
    try:
        with np.errstate(all="ignore"):  # IEEE results (x / 0 is inf), as the runtime's
            return kernel(node, arrays)
    except _LeftToRuntime:
        raise
    except Exception:
        return None


_DOUBLE_EXACT = 2.0**52
"""Integers up to this magnitude are exact in double (with a margin for the rounding of
the bound itself)."""

_ACCUMULATING = {
    "ReduceSum": (0,),
    "ReduceProd": (0,),
    "ReduceSumSquare": (0,),
    "ReduceL1": (0,),
    "ReduceL2": (0,),
    "ReduceMean": (0,),
    "ReduceLogSum": (0,),
    "ReduceLogSumExp": (0,),
    "CumSum": (0,),
    "Pow": (0,),
    "MatMul": (0, 1),
    "Einsum": None,
    "Sum": None,
    "Mean": None,
}
"""Ops that sum or multiply many numbers, and the inputs they do it on (None: all).
onnxruntime computes several of them on integers through double (``ReduceSum`` of int64
[2**53 + 1, 2] is 2**53 + 2; ``Pow(3, 39)`` is 3**39 rounded; an overflow saturates), where
onnx.reference computes exactly or wraps around."""


def _exact_in_double(
    node: ir.Node, arrays: Sequence[Any], results: Sequence[Any], version: int
) -> bool:
    """Whether the integer results of an accumulating op (``_ACCUMULATING``) are the same
    computed exactly and through double: every partial sum and product is within
    ``_DOUBLE_EXACT``, bounded by running the op on the magnitudes of its operands in
    double. Other ops and results: True. Gemm of integers (its alpha and beta may cancel
    the bound's terms) is not folded."""
    if not any(isinstance(r, np.ndarray) and r.dtype.kind in "iu" for r in results):
        return True
    if node.op_type == "Gemm":
        return False
    if node.op_type not in _ACCUMULATING:
        return True
    operands = _ACCUMULATING[node.op_type]
    magnitudes = [
        a
        if a is None or (operands is not None and i not in operands)
        else np.abs(a.astype(np.float64))
        for i, a in enumerate(arrays)
    ]
    bounds = _reference(node, magnitudes, version)
    return all(
        np.all(np.abs(np.asarray(b, dtype=np.float64)) <= _limit(r))
        for b, r in zip(bounds, results)
    )


def _limit(result: Any) -> float:
    """The largest magnitude an accumulated integer result may have to be folded: exact in
    double and within its type (onnxruntime saturates what overflows, onnx.reference wraps
    it around)."""
    if not isinstance(result, np.ndarray) or result.dtype.kind not in "iu":
        return np.inf
    return min(_DOUBLE_EXACT, float(np.iinfo(result.dtype).max))


def _outputs_are_tensors(node: ir.Node, version: int) -> bool:
    """Whether no output of ``node`` is known to be, or can by its op's schema only be,
    something other than a tensor (SequenceConstruct, SequenceEmpty, Optional...)."""
    if any(v.type is not None and not isinstance(v.type, ir.TensorType) for v in node.outputs):
        return False
    facts = schemas.op_facts("", node.op_type, version)
    if facts is None:
        return True  # onnx.reference refuses an op it does not know
    constraints = dict(facts.type_constraints)
    for formal in facts.outputs:
        allowed = constraints.get(formal.type_str, (formal.type_str,))
        if not any(t.startswith("tensor(") for t in allowed):
            return False
    return True


def _is_tensor_array(result: Any) -> bool:
    """Whether ``result`` is an array a tensor can hold: numbers, or strings."""
    if not isinstance(result, (np.ndarray, np.generic)):  # kernels may give numpy scalars
        return False
    if result.dtype.kind == "O":
        return all(isinstance(item, (str, bytes)) for item in result.ravel())
    return result.dtype.kind in "biufcSU"


def _input_arrays(node: ir.Node, limit: int) -> list[Any] | None:
    if node.op_type in _SHAPE_ONLY:
        source = node.inputs[0]
        if source is None or source.shape is None or not source.shape.is_static():
            return None
        return [tuple(source.shape.numpy())]
    tensors: list[ir.TensorProtocol | None] = []
    for value in node.inputs:  # constants as value_facts says (not a graph input's data)
        tensor = None if value is None else constant_tensor(value)
        if value is not None and (tensor is None or tensor.size > limit):
            return None  # before any input is read: a big one is never materialized
        tensors.append(tensor)
    return [None if t is None else t.numpy() for t in tensors]


def _known_size(value: ir.Value) -> int:
    """The number of elements of ``value`` when its shape is static, else 0."""
    if value.shape is None or not value.shape.is_static():
        return 0
    return math.prod(value.shape.numpy())


def _attr(node: ir.Node, name: str, default: Any = None) -> Any:
    attr = node.attributes.get(name)
    return default if attr is None else attr.value


def _shape(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
    dims = a[0]
    start, end = _attr(node, "start", 0), _attr(node, "end", len(dims))
    return [np.array(dims[slice(start, end)], dtype=np.int64)]


def _size(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
    return [np.array(int(np.prod(a[0])), dtype=np.int64)]


def _gather(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
    data, indices = a[0], a[1]
    axis = _attr(node, "axis", 0)
    indices = np.where(indices < 0, indices + data.shape[axis], indices)
    return [np.take(data, indices, axis=axis)]


def _concat(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
    return [np.concatenate([x for x in a if x is not None], axis=_attr(node, "axis", 0))]


def _axes(node: ir.Node, a: list[Any]) -> list[int] | None:
    if len(a) > 1 and a[1] is not None:
        return [int(i) for i in a[1].reshape(-1)]
    found = _attr(node, "axes")
    return list(found) if found is not None else None


def _unsqueeze(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
    axes = _axes(node, a) or []
    rank = a[0].ndim + len(axes)
    return [np.expand_dims(a[0], tuple(sorted(i + rank if i < 0 else i for i in axes)))]


def _squeeze(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
    axes = _axes(node, a)
    return [np.squeeze(a[0], axis=tuple(axes) if axes is not None else None)]


def _reshape(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
    shape = [int(d) for d in a[1]]
    if not _attr(node, "allowzero", 0):
        shape = [a[0].shape[i] if d == 0 else d for i, d in enumerate(shape)]
    return [a[0].reshape(shape)]


def _cast(node: ir.Node, a: list[Any]) -> list[np.ndarray] | None:
    to = ir.DataType(_attr(node, "to"))
    if not (to.is_integer() or to.is_floating_point()) or to.bitwidth < 16:
        return None
    if not (a[0].dtype.kind in "iub" or to.is_floating_point()):
        return None  # float -> int rounding and saturation: onnx.reference decides
    return [a[0].astype(to.numpy())]


class _LeftToRuntime(Exception):
    """Inputs on which the runtime fails or has no defined result (an integer division by
    zero; the lowest signed integer divided by -1, which stops onnxruntime's process with
    SIGFPE): the node is not folded, whatever onnx.reference would compute."""


def _integer_operands(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether both operands are integers; if so, fails when a divisor is zero or a
    dividend the lowest number divided by -1."""
    if x.dtype.kind not in "iu" or y.dtype.kind not in "iu":
        return False
    if np.any(y == 0):
        raise _LeftToRuntime
    if x.dtype.kind == "i" and np.any((x == np.iinfo(x.dtype).min) & (y == -1)):
        raise _LeftToRuntime
    return True


def _div(node: ir.Node, a: list[Any]) -> list[np.ndarray] | None:
    """Div; of integers exact, the quotient truncated toward zero (as C++ and onnxruntime
    compute it; a float quotient loses digits past 2**53)."""
    x, y = a
    if not _integer_operands(x, y):
        return [np.divide(x, y).astype(x.dtype)]
    quotient = np.floor_divide(x, y)
    if x.dtype.kind == "i":  # floor -> truncation where the signs differ and it is inexact
        inexact = (x - quotient * y) != 0
        quotient = quotient + (inexact & ((x < 0) != (y < 0)))
    return [np.asarray(quotient).astype(x.dtype, copy=False)]


def _mod(node: ir.Node, a: list[Any]) -> list[np.ndarray] | None:
    """Mod of integers, exact: the remainder's sign is the divisor's (``fmod=0``, numpy's
    ``mod``) or the dividend's (``fmod=1``, C's ``%``). Floats: onnx.reference."""
    x, y = a
    if not _integer_operands(x, y):
        return None
    rule = np.fmod if _attr(node, "fmod", 0) else np.mod
    return [np.asarray(rule(x, y)).astype(x.dtype, copy=False)]


def _binary(fn: Callable[[Any, Any], Any]) -> Kernel:
    def kernel(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
        return [np.asarray(fn(a[0], a[1])).astype(a[0].dtype, copy=False)]

    return kernel


def _compare(fn: Callable[[Any, Any], Any]) -> Kernel:
    def kernel(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
        return [np.asarray(fn(a[0], a[1]))]

    return kernel


def _range(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
    return [np.arange(a[0], a[1], a[2]).astype(a[0].dtype)]


def _where(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
    return [np.where(a[0], a[1], a[2])]


def _identity(node: ir.Node, a: list[Any]) -> list[np.ndarray]:
    return [a[0]]


_KERNELS: dict[str, Kernel] = {
    "Shape": _shape,
    "Size": _size,
    "Gather": _gather,
    "Concat": _concat,
    "Unsqueeze": _unsqueeze,
    "Squeeze": _squeeze,
    "Reshape": _reshape,
    "Cast": _cast,
    "Identity": _identity,
    "Add": _binary(np.add),
    "Sub": _binary(np.subtract),
    "Mul": _binary(np.multiply),
    "Div": _div,
    "Mod": _mod,
    "Equal": _compare(np.equal),
    "Less": _compare(np.less),
    "Greater": _compare(np.greater),
    "Range": _range,
    "Where": _where,
}
"""Kernels for what shape arithmetic uses; each returns None to defer to onnx.reference."""


def run_op(
    domain: str,
    op_type: str,
    version: int,
    inputs: Sequence[Any],
    attributes: dict[str, Any] | None = None,
) -> list[np.ndarray]:
    """The outputs of one ai.onnx op on arrays (None for an omitted input), computed by
    ``onnx.reference``; attributes as Python values."""
    values = [None if a is None else ir.Value(name=f"in{i}") for i, a in enumerate(inputs)]
    attrs = [ir.convenience.convert_attribute(k, v) for k, v in (attributes or {}).items()]
    schema = onnx.defs.get_schema(op_type, version, domain)
    count = len(schema.outputs)
    node = ir.Node(domain, op_type, values, attrs, num_outputs=count)
    results = _reference(node, [None if a is None else np.asarray(a) for a in inputs], version)
    return [np.asarray(r) for r in results]


def _reference(node: ir.Node, arrays: Sequence[Any], version: int) -> list[Any]:
    """Run the node alone on onnx's reference evaluator: its results as it gives them
    (arrays; lists for sequences, None for an empty optional)."""
    names = [f"in{i}" if a is not None else "" for i, a in enumerate(arrays)]
    outputs = [f"out{i}" for i in range(len(node.outputs))]
    proto = ir.serde.serialize_node(node)
    del proto.input[:]
    proto.input.extend(names)
    del proto.output[:]
    proto.output.extend(outputs)
    evaluator = _evaluator(proto.SerializeToString(), version, len(names))
    feeds = {n: a for n, a in zip(names, arrays) if n}
    return list(evaluator.run(None, feeds))


@functools.lru_cache(maxsize=256)
def _evaluator(node_bytes: bytes, version: int, count: int) -> onnx.reference.ReferenceEvaluator:
    """A reference evaluator for one node (cached by the node's bytes and version)."""
    node = onnx.NodeProto.FromString(node_bytes)
    graph = onnx.helper.make_graph(
        [node],
        "fold",
        [onnx.helper.make_empty_tensor_value_info(n) for n in node.input if n],
        [onnx.helper.make_empty_tensor_value_info(n) for n in node.output],
    )
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", version)])
    return onnx.reference.ReferenceEvaluator(model)


__all__ = ["evaluate_node", "run_op"]
