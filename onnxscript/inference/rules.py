"""Fast type and shape rules for the common ai.onnx ops, written from the operator specs.

Each rule sets what it can of ``node.outputs`` and leaves the rest unknown; ops without a
rule here go to onnx's own inference (``fallback``). Symbolic dims pass through.

A rule never guesses: a size, shape or axis list given as an input is read only when the
input is a constant (``ir_utils.value_facts``: a graph input's initializer is a default
the caller may override, not a constant); when it is not, what depends on it stays
unknown. Each rule follows every version of its op: inputs that were attributes in
older opsets (Slice before 10, Reshape before 5, axes before 13 or 18), changed defaults
(Concat's axis before 4), Cast's type name before 6.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import onnx_ir as ir

from onnxscript.inference import InferenceError, control_flow
from onnxscript.inference.dims import (
    Dim,
    broadcast,
    dims,
    normalize_axis,
    product,
    unknown,
)
from onnxscript.ir_utils.value_facts import cast_target, constant_ints

Rule = Callable[[ir.Node, int], None]


def _set(value: ir.Value, dtype: ir.DataType | None, shape: list[Dim] | None) -> None:
    if dtype is not None and value.dtype is None:
        value.dtype = dtype
    if shape is not None and value.shape is None:
        value.shape = ir.Shape(shape)


def _dtype(node: ir.Node, index: int = 0) -> ir.DataType | None:
    """The element type of the tensor input ``index`` (None for a sequence or optional:
    their element type is not a tensor's)."""
    value = node.inputs[index] if index < len(node.inputs) else None
    if value is None or not isinstance(value.type, ir.TensorType):
        return None
    return value.dtype


def _input(node: ir.Node, index: int) -> ir.Value | None:
    return node.inputs[index] if index < len(node.inputs) else None


def _input_ints(node: ir.Node, index: int) -> tuple[bool, list[int] | None]:
    """(whether input ``index`` is given, its ints when it is a constant)."""
    value = _input(node, index)
    return value is not None, constant_ints(value)


def _attr(node: ir.Node, name: str, default: Any = None) -> Any:
    attr = node.attributes.get(name)
    return default if attr is None else attr.value


def _int_attr(node: ir.Node, name: str, default: int) -> int:
    return int(_attr(node, name, default))


def same_as_input(node: ir.Node, version: int) -> None:
    """Elementwise unary ops (and ops whose first output is shaped like the input). An
    Identity of a sequence or optional gives the same type, not a tensor."""
    source = node.inputs[0]
    if source is not None and source.type is not None and _dtype(node) is None:
        out = node.outputs[0]
        if node.op_type == "Identity" and out.type is None:
            out.type = source.type
            out.shape = source.shape if out.shape is None else out.shape  # its elements'
        return
    _set(node.outputs[0], _dtype(node), dims(source))


_LEGACY_BROADCAST = dict.fromkeys(
    ("Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Greater", "Less"), 7
)
"""Ops whose broadcasting before the given opset was one-way: ``B`` onto ``A`` with the
``broadcast`` attribute (the result shaped like ``A``), else inputs of one shape."""

_SAME_SHAPE = dict.fromkeys(("Max", "Min", "Sum", "Mean"), 8)
"""Ops whose inputs before the given opset all have one shape (no broadcasting)."""


def _broadcast_dims(node: ir.Node, version: int) -> list[Dim] | None:
    """The result's dims of an elementwise op, as its opset broadcasts: numpy-style from
    opset 7 (8 for Max, Min, Sum, Mean); before, ``A``'s shape or one shape for all."""
    shapes = [dims(v) for v in node.inputs if v is not None]
    if node.op_type == "PRelu":  # the slope broadcasts to X, one way, in every opset
        return shapes[0] if shapes else None
    legacy = version < _LEGACY_BROADCAST.get(node.op_type, 0)
    if legacy and _int_attr(node, "broadcast", 0):
        return shapes[0] if shapes else None
    if legacy or version < _SAME_SHAPE.get(node.op_type, 0):
        return _one_shape(shapes, node.op_type, version)
    return broadcast(shapes)


def _one_shape(shapes: list[list[Dim] | None], op: str, version: int) -> list[Dim] | None:
    """The shape all ``shapes`` must have (an op without broadcasting): the first one
    when all are known equal, dims unknown where they are not known equal."""
    if not shapes or any(s is None for s in shapes):
        return None
    first = shapes[0]
    assert first is not None
    if any(s is not None and len(s) != len(first) for s in shapes):
        raise InferenceError(f"{op}-{version} takes inputs of one shape (no broadcasting)")
    result: list[Dim] = []
    for index, dim in enumerate(first):
        found = {s[index] for s in shapes if s is not None and isinstance(s[index], int)}
        if len(found) > 1:
            raise InferenceError(f"{op}-{version} takes inputs of one shape (no broadcasting)")
        same = all(s is not None and s[index] == dim for s in shapes)
        result.append(dim if same else (found.pop() if found else unknown()))
    return result


def elementwise(node: ir.Node, version: int) -> None:
    """Broadcasting ops whose output has the inputs' element type."""
    dtype = next((v.dtype for v in node.inputs if v is not None and v.dtype), None)
    _set(node.outputs[0], dtype, _broadcast_dims(node, version))


def predicate(node: ir.Node, version: int) -> None:
    """Elementwise tests (IsInf, IsNaN): a BOOL per element."""
    _set(node.outputs[0], ir.DataType.BOOL, dims(node.inputs[0]))


def comparison(node: ir.Node, version: int) -> None:
    _set(node.outputs[0], ir.DataType.BOOL, _broadcast_dims(node, version))


def where(node: ir.Node, version: int) -> None:
    dtype = _dtype(node, 1) or _dtype(node, 2)
    _set(node.outputs[0], dtype, broadcast([dims(v) for v in node.inputs]))


def cast(node: ir.Node, version: int) -> None:
    _set(node.outputs[0], cast_target(node), dims(node.inputs[0]))


def cast_like(node: ir.Node, version: int) -> None:
    _set(node.outputs[0], _dtype(node, 1), dims(node.inputs[0]))


def shape_op(node: ir.Node, version: int) -> None:
    source = dims(node.inputs[0])
    rank = len(source) if source is not None else None
    length: list[Dim] = [unknown()]
    if rank is not None:
        start = _int_attr(node, "start", 0)
        end = _int_attr(node, "end", rank)
        start, end = (max(0, min(rank, i + rank if i < 0 else i)) for i in (start, end))
        length = [max(0, end - start)]
    _set(node.outputs[0], ir.DataType.INT64, length)


def size_op(node: ir.Node, version: int) -> None:
    _set(node.outputs[0], ir.DataType.INT64, [])


def matmul(node: ir.Node, version: int) -> None:
    a, b = dims(node.inputs[0]), dims(node.inputs[1])
    shape = None
    if a is not None and b is not None and a and b:
        a2 = [1, *a] if len(a) == 1 else a
        b2 = [*b, 1] if len(b) == 1 else b
        k1, k2 = a2[-1], b2[-2]
        if isinstance(k1, int) and isinstance(k2, int) and k1 != k2:
            raise InferenceError(f"MatMul inner dims differ: {k1} vs {k2}")
        batch = broadcast([a2[:-2], b2[:-2]]) or []
        shape = [*batch, *([] if len(a) == 1 else [a2[-2]]), *([] if len(b) == 1 else [b2[-1]])]
    _set(node.outputs[0], _dtype(node), shape)


def gemm(node: ir.Node, version: int) -> None:
    a, b = dims(node.inputs[0]), dims(node.inputs[1])
    shape = None
    if a is not None and b is not None and len(a) == 2 and len(b) == 2:
        m, k1 = (a[1], a[0]) if _int_attr(node, "transA", 0) else (a[0], a[1])
        k2, n = (b[1], b[0]) if _int_attr(node, "transB", 0) else (b[0], b[1])
        if isinstance(k1, int) and isinstance(k2, int) and k1 != k2:
            raise InferenceError(f"Gemm inner dims differ: {k1} vs {k2}")
        shape = [m, n]
    _set(node.outputs[0], _dtype(node), shape)


def reshape(node: ir.Node, version: int) -> None:
    target = _attr(node, "shape") if version < 5 else constant_ints(_input(node, 1))
    target = list(target) if target is not None else None
    source = dims(node.inputs[0])
    shape: list[Dim] | None = None
    if target is not None:
        allowzero = _int_attr(node, "allowzero", 0)
        shape = []
        for i, d in enumerate(target):
            if d == 0 and not allowzero:
                shape.append(source[i] if source is not None and i < len(source) else unknown())
            else:
                shape.append(d)
        if -1 in shape:
            shape[shape.index(-1)] = _missing_dim(source, [d for d in shape if d != -1])
    _set(node.outputs[0], _dtype(node), shape)


def _missing_dim(source: list[Dim] | None, others: list[Dim]) -> Dim:
    """The dim ``-1`` stands for: total size over the other dims' product."""
    if source is None:
        return unknown()
    total, rest = product(source), product(others)
    if total is not None and rest:
        if total % rest:
            raise InferenceError(f"cannot reshape {total} elements into groups of {rest}")
        return total // rest
    remaining = list(source)
    for dim in others:  # cancel equal dims, symbolic ones included: [N, 64] -> [-1, 64]
        if dim in remaining:
            remaining.remove(dim)
        else:
            return unknown()
    return remaining[0] if len(remaining) == 1 else (product(remaining) or unknown())


def concat(node: ir.Node, version: int) -> None:
    found = [dims(v) for v in node.inputs if v is not None]
    shapes = [s for s in found if s is not None]
    shape = None
    if shapes and len(shapes) == len(found):
        ranks = {len(s) for s in shapes}
        if len(ranks) != 1:
            raise InferenceError(f"Concat inputs have different ranks: {sorted(ranks)}")
        rank = ranks.pop()
        default = 1 if version < 4 else 0  # Concat-1's axis defaulted to 1
        axis = normalize_axis(_int_attr(node, "axis", default), rank, "Concat")
        shape = list(shapes[0])
        sizes = [s[axis] for s in shapes]
        static = [d for d in sizes if isinstance(d, int)]
        shape[axis] = sum(static) if len(static) == len(sizes) else unknown()
    _set(node.outputs[0], _dtype(node), shape)


def transpose(node: ir.Node, version: int) -> None:
    source = dims(node.inputs[0])
    shape = None
    if source is not None:
        perm = _attr(node, "perm") or list(reversed(range(len(source))))
        if sorted(perm) != list(range(len(source))):
            raise InferenceError(f"Transpose perm {list(perm)} does not fit rank {len(source)}")
        shape = [source[p] for p in perm]
    _set(node.outputs[0], _dtype(node), shape)


def _axes(node: ir.Node, version: int, since: int) -> list[int] | None:
    """Axes given as an attribute (before ``since``) or as the second input."""
    if version < since:
        value = _attr(node, "axes")
        return list(value) if value is not None else None
    return constant_ints(_input(node, 1))


def unsqueeze(node: ir.Node, version: int) -> None:
    source, axes = dims(node.inputs[0]), _axes(node, version, 13)
    shape = None
    if source is not None and axes is not None:
        rank = len(source) + len(axes)
        positions = sorted(normalize_axis(a, rank, "Unsqueeze") for a in axes)
        shape = list(source)
        for p in positions:
            shape.insert(p, 1)
    _set(node.outputs[0], _dtype(node), shape)


def squeeze(node: ir.Node, version: int) -> None:
    source, axes = dims(node.inputs[0]), _axes(node, version, 13)
    shape = None
    if source is not None:
        if axes is None and (len(node.inputs) < 2 or node.inputs[1] is None):
            if all(isinstance(d, int) for d in source):
                shape = [d for d in source if d != 1]
        elif axes is not None:
            drop = {normalize_axis(a, len(source), "Squeeze") for a in axes}
            shape = [d for i, d in enumerate(source) if i not in drop]
    _set(node.outputs[0], _dtype(node), shape)


def reduce(node: ir.Node, version: int) -> None:
    since = 13 if node.op_type == "ReduceSum" else 18
    source, axes = dims(node.inputs[0]), _axes(node, version, since)
    keep = _int_attr(node, "keepdims", 1)
    shape: list[Dim] | None = None
    if source is not None:
        given_axes = axes is not None or (len(node.inputs) > 1 and node.inputs[1] is not None)
        if axes is None and given_axes:
            shape = None if keep == 0 else [unknown()] * len(source)
        else:
            if not axes and _int_attr(node, "noop_with_empty_axes", 0):
                shape = list(source)
            else:
                chosen = {
                    normalize_axis(a, len(source), node.op_type) for a in axes or range(len(source))
                }
                shape = [
                    1 if i in chosen else d for i, d in enumerate(source) if keep or i not in chosen
                ]
    _set(node.outputs[0], _dtype(node), shape)


def arg_reduce(node: ir.Node, version: int) -> None:
    source = dims(node.inputs[0])
    shape: list[Dim] | None = None
    if source is not None:
        axis = normalize_axis(_int_attr(node, "axis", 0), len(source), node.op_type)
        keep = _int_attr(node, "keepdims", 1)
        shape = [1 if i == axis else d for i, d in enumerate(source) if keep or i != axis]
    _set(node.outputs[0], ir.DataType.INT64, shape)


def gather(node: ir.Node, version: int) -> None:
    data, indices = dims(node.inputs[0]), dims(node.inputs[1])
    shape = None
    if data is not None and indices is not None:
        axis = normalize_axis(_int_attr(node, "axis", 0), len(data), "Gather")
        shape = [*data[:axis], *indices, *data[axis + 1 :]]
    _set(node.outputs[0], _dtype(node), shape)


def flatten(node: ir.Node, version: int) -> None:
    source = dims(node.inputs[0])
    shape: list[Dim] | None = None
    if source is not None:
        # Flatten's axis is in [-r, r]: -1 is the last dim, r the end (a [n, 1] result)
        axis = normalize_axis(
            _int_attr(node, "axis", 1), len(source), "Flatten", end_inclusive=True
        )
        outer, inner = product(source[:axis]), product(source[axis:])
        shape = [unknown() if outer is None else outer, unknown() if inner is None else inner]
    _set(node.outputs[0], _dtype(node), shape)


def expand(node: ir.Node, version: int) -> None:
    target = constant_ints(_input(node, 1))
    shape = None
    if target is not None:
        shape = broadcast([dims(node.inputs[0]), list(target)])
    _set(node.outputs[0], _dtype(node), shape)


def constant_of_shape(node: ir.Node, version: int) -> None:
    target = constant_ints(_input(node, 0))
    value = _attr(node, "value")
    dtype = value.dtype if value is not None else ir.DataType.FLOAT
    _set(node.outputs[0], dtype, list(target) if target is not None else None)


def constant(node: ir.Node, version: int) -> None:
    attr = node.attributes.get("value")
    if attr is not None and attr.type == ir.AttributeType.TENSOR:
        _set(node.outputs[0], attr.value.dtype, list(attr.value.shape.numpy()))
        return
    forms: dict[str, tuple[ir.DataType, list[Dim]]] = {
        "value_int": (ir.DataType.INT64, []),
        "value_float": (ir.DataType.FLOAT, []),
        "value_string": (ir.DataType.STRING, []),
    }
    for name, (dtype, shape) in forms.items():
        if name in node.attributes:
            _set(node.outputs[0], dtype, list(shape))
    for name, dtype in (("value_ints", ir.DataType.INT64), ("value_floats", ir.DataType.FLOAT)):
        if name in node.attributes:
            _set(node.outputs[0], dtype, [len(node.attributes[name].value)])


def slice_op(node: ir.Node, version: int) -> None:
    source = dims(node.inputs[0])
    axes: list[int] | None
    steps: list[int] | None
    if version < 10:  # starts, ends and axes were attributes; no steps
        starts, ends, axes = (_attr(node, name) for name in ("starts", "ends", "axes"))
        steps, known = None, True
    else:
        starts, ends = constant_ints(_input(node, 1)), constant_ints(_input(node, 2))
        (has_axes, axes), (has_steps, steps) = _input_ints(node, 3), _input_ints(node, 4)
        # axes or steps given but not constants: which dims change is not known
        known = (axes is not None or not has_axes) and (steps is not None or not has_steps)
    shape = None
    if source is not None and starts is not None and ends is not None and known:
        starts, ends = list(starts), list(ends)
        axes = list(axes) if axes is not None else list(range(len(starts)))
        steps = steps if steps is not None else [1] * len(starts)
        shape = list(source)
        for start, end, axis, step in zip(starts, ends, axes, steps):
            axis = normalize_axis(axis, len(source), "Slice")
            shape[axis] = _sliced(source[axis], start, end, step)
    _set(node.outputs[0], _dtype(node), shape)


def _sliced(dim: Dim, start: int, end: int, step: int) -> Dim:
    if step == 0:
        raise InferenceError("Slice step cannot be 0")
    if not isinstance(dim, int):
        whole = start == 0 and step == 1 and end >= 2**62
        return dim if whole else unknown()
    return len(range(dim)[slice(start, end, step)])


def split(node: ir.Node, version: int) -> None:
    source = dims(node.inputs[0])
    if source is None:
        for out in node.outputs:
            _set(out, _dtype(node), None)
        return
    axis = normalize_axis(_int_attr(node, "axis", 0), len(source), "Split")
    # the sizes: an input (Split-1 and from 13), or an attribute (before 13); equal parts
    # only when neither is given (a sizes input that is not a constant is not known)
    given, sizes = _input_ints(node, 1)
    if not given and version < 13:
        sizes = list(_attr(node, "split") or []) or None
        given = sizes is not None
    count = len(node.outputs)
    total = source[axis]
    if not given and isinstance(total, int) and count:
        chunk = -(-total // count)
        sizes = [min(chunk, max(0, total - i * chunk)) for i in range(count)]
    for i, out in enumerate(node.outputs):
        shape = list(source)
        shape[axis] = sizes[i] if sizes is not None and i < len(sizes) else unknown()
        _set(out, _dtype(node), shape)


def batch_norm(node: ir.Node, version: int) -> None:
    _set(node.outputs[0], _dtype(node), dims(node.inputs[0]))


def global_pool(node: ir.Node, version: int) -> None:
    source = dims(node.inputs[0])
    shape = [*source[:2], *([1] * (len(source) - 2))] if source is not None else None
    _set(node.outputs[0], _dtype(node), shape)


_UNARY = [
    "Abs",
    "Acos",
    "Acosh",
    "Asin",
    "Asinh",
    "Atan",
    "Atanh",
    "Ceil",
    "Celu",
    "Cos",
    "Cosh",
    "Elu",
    "Erf",
    "Exp",
    "Floor",
    "Gelu",
    "HardSigmoid",
    "HardSwish",
    "Hardmax",
    "Identity",
    "LeakyRelu",
    "Log",
    "LogSoftmax",
    "Mish",
    "Neg",
    "Not",
    "Reciprocal",
    "Relu",
    "Round",
    "Selu",
    "Shrink",
    "Sigmoid",
    "Sign",
    "Sin",
    "Sinh",
    "Softmax",
    "Softplus",
    "Softsign",
    "Sqrt",
    "Tan",
    "Tanh",
    "ThresholdedRelu",
    "Trilu",
    "CumSum",
    "Clip",
    "LpNormalization",
    "InstanceNormalization",
    "LRN",
    "MeanVarianceNormalization",
    "BitwiseNot",
]
_BROADCAST = [
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Pow",
    "Mod",
    "Max",
    "Min",
    "Sum",
    "Mean",
    "And",
    "Or",
    "Xor",
    "BitShift",
    "BitwiseAnd",
    "BitwiseOr",
    "BitwiseXor",
    "PRelu",
]
_COMPARE = ["Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual"]
_REDUCE = [
    "ReduceSum",
    "ReduceMean",
    "ReduceMax",
    "ReduceMin",
    "ReduceProd",
    "ReduceL1",
    "ReduceL2",
    "ReduceLogSum",
    "ReduceLogSumExp",
    "ReduceSumSquare",
]

RULES: dict[str, Rule] = {
    "If": control_flow.if_rule,
    "Loop": control_flow.loop_rule,
    "Scan": control_flow.scan_rule,
    **dict.fromkeys(_UNARY, same_as_input),
    "IsInf": predicate,
    "IsNaN": predicate,
    **dict.fromkeys(_BROADCAST, elementwise),
    **dict.fromkeys(_COMPARE, comparison),
    **dict.fromkeys(_REDUCE, reduce),
    "ArgMax": arg_reduce,
    "ArgMin": arg_reduce,
    "BatchNormalization": batch_norm,
    "Cast": cast,
    "CastLike": cast_like,
    "Concat": concat,
    "Constant": constant,
    "ConstantOfShape": constant_of_shape,
    "Dropout": same_as_input,
    "Expand": expand,
    "Flatten": flatten,
    "Gather": gather,
    "Gemm": gemm,
    "GlobalAveragePool": global_pool,
    "GlobalMaxPool": global_pool,
    "LayerNormalization": same_as_input,
    "MatMul": matmul,
    "Reshape": reshape,
    "Shape": shape_op,
    "Size": size_op,
    "Slice": slice_op,
    "Split": split,
    "Squeeze": squeeze,
    "Transpose": transpose,
    "Unsqueeze": unsqueeze,
    "Where": where,
}
"""Op type (ai.onnx) -> rule. Ops with more than one output handled here: Split only
(Dropout and the normalizations set their first output; the others fall back)."""


__all__ = ["RULES", "Rule"]
