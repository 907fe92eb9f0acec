"""Synthetic graphs per rule family: small seeded models shaped like what each family of
the default rules, the folding and the fusions matches, with the edge cases that decide
whether a rewrite is right (NaN and infinite bounds, zero-size dims, negative axes,
attribute forms of old opsets, broadcasting that changes a shape, element types the rule
may not assume, constants that are graph inputs a caller may override).

``FAMILIES`` maps a family's name to a generator ``f(g)``: it writes nodes into the
:class:`Builder` ``g`` (whose opset and random generator it may read, and whose opset it
may raise with ``g.at_least``); :func:`family_case` runs one with a seed and returns a
case with inputs (no expected outputs: onnxruntime's outputs before the transform are the
reference).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper

from onnxscript.testing.node_tests import Case

T = TensorProto
FLOAT_TYPES = (T.FLOAT, T.FLOAT16, T.DOUBLE)
INT_TYPES = (T.INT32, T.INT64, T.INT8, T.UINT8)


class Builder:
    """A graph being written: inputs with their data, nodes, constants in the opset's form."""

    def __init__(self, rng: np.random.Generator, opset: int) -> None:
        self.rng = rng
        self.opset = opset
        self.nodes: list[onnx.NodeProto] = []
        self.inputs: list[onnx.ValueInfoProto] = []
        self.data: list[Any] = []
        self.inits: list[onnx.TensorProto] = []
        self.outputs: list[str] = []
        self.ranks: dict[str, tuple[int, int]] = {}
        """Element type and rank of outputs whose shape inference cannot tell the rank."""
        self.count = 0
        self.special = rng.random() < 0.3
        """Float inputs hold NaN and infinities."""

    def at_least(self, opset: int) -> None:
        self.opset = max(self.opset, opset)

    def fresh(self, base: str) -> str:
        self.count += 1
        return f"{base}{self.count}"

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def pick(self, options: Any) -> Any:
        return options[int(self.rng.integers(len(options)))]

    def array(self, elem: int, shape: list[int], positive: bool = False) -> np.ndarray:
        dtype = helper.tensor_dtype_to_np_dtype(elem)
        size = int(np.prod(shape)) if shape else 1
        if elem == T.BOOL:
            return (self.rng.random(shape) < 0.5) if shape else np.asarray(self.chance(0.5))
        if elem == T.STRING:
            return np.asarray(self.rng.choice(["a", "bc", ""], size=size), dtype=object).reshape(
                shape
            )
        if np.issubdtype(dtype, np.integer):
            low = 0 if np.issubdtype(dtype, np.unsignedinteger) or positive else -5
            return self.rng.integers(low, 6, size=shape).astype(dtype)
        values = self.rng.standard_normal(shape).astype(np.float32)
        if positive:
            values = np.abs(values) + 0.5
        elif self.special and size >= 3:
            flat = values.reshape(-1)
            flat[int(self.rng.integers(size))] = np.nan
            flat[int(self.rng.integers(size))] = np.inf
            flat[int(self.rng.integers(size))] = -np.inf
        return values.astype(dtype)

    def input(
        self, elem: int, shape: list[int], symbolic: bool = False, positive: bool = False
    ) -> str:
        name = self.fresh("x")
        dims: list[Any] = list(shape)
        if symbolic:
            dims = [f"d{k}" if self.chance(0.5) else d for k, d in enumerate(shape)]
        self.inputs.append(helper.make_tensor_value_info(name, elem, dims))
        self.data.append(self.array(elem, shape, positive))
        return name

    def const(self, array: Any, elem: int | None = None, initializer: bool | None = None) -> str:
        """A constant: a Constant node where the opset allows its type, else (or at
        random) an initializer."""
        array = np.asarray(array)
        if elem is not None and elem != T.BFLOAT16:
            array = array.astype(helper.tensor_dtype_to_np_dtype(elem))
        name = self.fresh("c")
        tensor = onnx.numpy_helper.from_array(array, name)
        floats = tensor.data_type in (T.FLOAT, T.DOUBLE, T.FLOAT16)
        if initializer is None:
            initializer = self.chance(0.4) or not (self.opset >= 9 or floats)
        if initializer:
            self.inits.append(tensor)
        else:
            self.nodes.append(helper.make_node("Constant", [], [name], value=tensor))
        return name

    def ints(self, values: list[int], initializer: bool | None = None) -> str:
        return self.const(np.asarray(values, dtype=np.int64), initializer=initializer)

    def node(
        self, op: str, inputs: list[str], n_out: int = 1, domain: str = "", **attrs: Any
    ) -> Any:
        outs = [self.fresh(op.lower()) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, domain=domain, **attrs))
        return outs[0] if n_out == 1 else outs

    def output(self, *names: str) -> None:
        self.outputs.extend(names)

    def model(self) -> onnx.ModelProto:
        model = helper.make_model(
            helper.make_graph(self.nodes, "family", self.inputs, [], self.inits),
            opset_imports=[helper.make_opsetid("", self.opset)],
        )
        graph = model.graph
        model.ir_version = 3 if self.opset < 8 else (8 if self.opset < 18 else 10)
        if model.ir_version < 4:
            for tensor in self.inits:
                graph.input.append(
                    helper.make_tensor_value_info(tensor.name, tensor.data_type, list(tensor.dims))
                )
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        known = {v.name: v for v in [*inferred.graph.value_info, *graph.input]}
        for name in self.outputs:
            if name in self.ranks:
                elem, rank = self.ranks[name]
                dims = [f"{name}_{k}" for k in range(rank)]
                graph.output.append(helper.make_tensor_value_info(name, elem, dims))
            else:
                graph.output.append(known[name])
        return model


Family = Callable[[Builder], None]


def _float(g: Builder) -> int:
    return int(g.pick([T.FLOAT, T.FLOAT, T.FLOAT16, T.DOUBLE]))


def _shape(g: Builder, rank: int | None = None, zero: bool = True) -> list[int]:
    rank = int(g.rng.integers(1, 5)) if rank is None else rank
    shape = [int(g.rng.integers(1, 5)) for _ in range(rank)]
    if zero and rank and g.chance(0.1):
        shape[int(g.rng.integers(rank))] = 0
    return shape


def _axis(g: Builder, rank: int) -> int:
    axis = int(g.rng.integers(rank))
    return axis - rank if g.opset >= 11 and g.chance(0.5) else axis


# -- the default rules -----------------------------------------------------------------------


def cast(g: Builder) -> None:
    g.at_least(13)
    types = [T.FLOAT, T.DOUBLE, T.FLOAT16, T.INT32, T.INT64, T.INT8, T.UINT8, T.BOOL, T.BFLOAT16]
    a = int(g.pick(types[:8]))  # onnxruntime returns no bfloat16 output: only in between
    x = g.input(a, _shape(g))
    y = x
    for _ in range(int(g.rng.integers(1, 4))):
        to = a if g.chance(0.3) else int(g.pick(types))
        y = (
            g.node("Cast", [y], to=to)
            if not (g.opset >= 15 and g.chance(0.2))
            else g.node(
                "CastLike",
                [
                    y,
                    g.const(
                        np.zeros([], helper.tensor_dtype_to_np_dtype(to))
                        if to != T.BFLOAT16
                        else np.zeros([], np.float32),
                        to if to != T.BFLOAT16 else T.FLOAT,
                    ),
                ],
            )
        )
    if to == T.BFLOAT16:
        y = g.node("Cast", [y], to=T.FLOAT)
    g.output(y)


def reshape(g: Builder) -> None:
    g.at_least(5)
    shape = _shape(g, int(g.rng.integers(1, 5)))
    x = g.input(_float(g), shape, symbolic=g.chance(0.4))
    size = int(np.prod(shape))
    y = x
    for _ in range(int(g.rng.integers(1, 4))):
        kind = g.pick(["reshape", "flatten", "squeeze", "unsqueeze", "own"])
        if kind == "reshape" and size:
            target = [size] if g.chance(0.3) else [1, size]
            if g.chance(0.5):
                target[int(g.rng.integers(len(target)))] = -1
            allowzero = {"allowzero": int(g.chance(0.5))} if g.opset >= 14 else {}
            y = g.node("Reshape", [y, g.ints(target)], **allowzero)
            shape = [size] if len(target) == 1 else [1, size]
        elif kind == "flatten" and g.opset >= 9:
            axis = int(g.rng.integers(len(shape) + 1))
            if g.opset >= 11 and g.chance(0.5):
                axis -= len(shape)
            y = g.node("Flatten", [y], axis=axis)
            k = axis % (len(shape) + 1) if axis >= 0 else axis + len(shape)
            shape = [int(np.prod(shape[:k])), int(np.prod(shape[k:]))]
        elif kind == "unsqueeze":
            axis = int(g.rng.integers(len(shape) + 1))
            if g.opset >= 13:
                y = g.node("Unsqueeze", [y, g.ints([axis])])
            else:
                y = g.node("Unsqueeze", [y], axes=[axis])
            shape = [*shape[:axis], 1, *shape[axis:]]
        elif kind == "squeeze" and 1 in shape:
            axis = shape.index(1)
            if g.opset >= 11 and g.chance(0.5):
                axis -= len(shape)
            y = g.node(
                "Squeeze",
                [y, g.ints([axis])] if g.opset >= 13 else [y],
                **({} if g.opset >= 13 else {"axes": [axis]}),
            )
            shape = shape[: axis % len(shape)] + shape[axis % len(shape) + 1 :]
        elif kind == "own":
            y = g.node("Reshape", [y, g.node("Shape", [y])])
        g.output(g.node("Shape", [y]))
    g.output(g.node("Relu", [y]))


def transpose(g: Builder) -> None:
    rank = int(g.rng.integers(1, 5))
    x = g.input(_float(g), _shape(g, rank), symbolic=g.chance(0.3))
    y = x
    for _ in range(int(g.rng.integers(1, 4))):
        if g.chance(0.2):
            y = g.node("Transpose", [y])
        else:
            perm = [int(p) for p in g.rng.permutation(rank)]
            y = g.node("Transpose", [y], perm=perm)
    g.output(y, g.node("Shape", [y]))


def slices(g: Builder) -> None:
    rank = int(g.rng.integers(1, 4))
    shape = _shape(g, rank)
    x = g.input(_float(g), shape)
    y = x
    big = 2**63 - 1
    for _ in range(int(g.rng.integers(1, 4))):
        axis = int(g.rng.integers(rank))
        n = shape[axis]
        start = int(g.rng.integers(-n - 1, n + 2)) if n else 0
        end = g.pick([big, -big, n, int(g.rng.integers(-n - 1, n + 2))])
        step = g.pick([1, 1, 2, -1]) if g.opset >= 10 else 1
        if step < 0 and end == big:
            end = -big
        if g.opset < 10:
            y = g.node("Slice", [y], starts=[start], ends=[min(end, 2**31)], axes=[axis])
        elif g.chance(0.3) and n >= 2 and g.opset >= 13:
            parts = g.node("Split", [y, g.ints([1, n - 1])], 2, axis=axis)
            y = g.pick(parts)
        else:
            ax = axis - rank if g.opset >= 11 and g.chance(0.5) else axis
            args = [g.ints([start]), g.ints([end])]
            if g.chance(0.8):
                args.append(g.ints([ax]))
                if step != 1 or g.chance(0.5):
                    args.append(g.ints([step]))
            y = g.node("Slice", [y, *args])
        g.output(g.node("Shape", [y]))
    g.output(y)


def min_max(g: Builder) -> None:
    g.at_least(8)  # Min/Max broadcast from opset 8
    elem = int(g.pick([T.FLOAT, T.FLOAT, T.DOUBLE, T.INT32, T.INT64]))
    if elem not in FLOAT_TYPES:
        g.at_least(12)
    x = g.input(elem, _shape(g))
    y = x
    for _ in range(int(g.rng.integers(2, 4))):
        op = g.pick(["Min", "Max", "Clip"])
        if elem in FLOAT_TYPES:
            bound = g.pick([0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 0.5])
        else:
            bound = int(g.rng.integers(-3, 4))
        if op == "Clip":
            other = g.pick([bound - 1, bound + 1, bound]) if not np.isnan(bound) else 0.0
            low, high = (bound, other) if g.chance(0.5) else (other, bound)
            if g.opset < 11:
                if elem not in FLOAT_TYPES:
                    continue
                y = g.node("Clip", [y], min=float(low), max=float(high))
            else:
                args = [y, g.const(low, elem) if g.chance(0.8) else "", g.const(high, elem)]
                if g.chance(0.2):
                    args = [y, g.const(low, elem)]
                y = g.node("Clip", args)
        else:
            c = g.const(np.full(g.pick([[], [1]]), bound), elem)
            y = g.node(op, [y, c] if g.chance(0.5) else [c, y])
    g.output(y)


def relu_clip(g: Builder) -> None:
    g.at_least(11)
    x = g.input(T.FLOAT, _shape(g))
    y = x
    for _ in range(int(g.rng.integers(2, 4))):
        if g.chance(0.5):
            y = g.node("Relu", [y])
        else:
            low = g.pick([0.0, -1.0, 1.0, -np.inf, np.nan])
            high = g.pick([6.0, 0.0, -1.0, np.inf])
            args = [y, g.const(np.float32(low)) if g.chance(0.8) else "", g.const(np.float32(high))]
            if g.chance(0.2):
                args = args[:2]
            y = g.node("Clip", args)
    g.output(y)


def _conv_input(g: Builder, dims: int) -> tuple[str, int, list[int]]:
    channels = int(g.rng.integers(1, 4))
    shape = [int(g.rng.integers(1, 3)), channels, *[int(g.rng.integers(3, 6)) for _ in range(dims)]]
    return g.input(T.FLOAT, shape), channels, shape


def batchnorm(g: Builder) -> None:
    g.at_least(9)
    kind = g.pick(["Conv", "ConvTranspose", "Gemm"])
    var = g.array(T.FLOAT, [1], positive=True)
    if kind == "Gemm":
        x = g.input(T.FLOAT, [int(g.rng.integers(1, 4)), 3])
        out = int(g.rng.integers(1, 4))
        trans = int(g.chance(0.5))
        w = g.const(g.array(T.FLOAT, [out, 3] if trans else [3, out]))
        args = [x, w] + ([g.const(g.array(T.FLOAT, [out]))] if g.chance(0.5) else [])
        y = g.node("Gemm", args, transB=trans)
        channels = out
    else:
        dims = int(g.rng.integers(1, 3))
        x, cin, _ = _conv_input(g, dims)
        group = cin if g.chance(0.3) else 1
        cout = group * int(g.rng.integers(1, 3))
        if kind == "Conv":
            w = g.const(g.array(T.FLOAT, [cout, cin // group, *[2] * dims]))
        else:
            w = g.const(g.array(T.FLOAT, [cin, cout // group, *[2] * dims]))
        args = [x, w] + ([g.const(g.array(T.FLOAT, [cout]))] if g.chance(0.5) else [])
        y = g.node(kind, args, group=group)
        channels = cout
    var = g.array(T.FLOAT, [channels], positive=True)
    if g.chance(0.3):
        var[0] = 0.0
    eps = g.pick([1e-5, 0.0, 1e-3])
    params = [
        g.array(T.FLOAT, [channels], positive=True),
        g.array(T.FLOAT, [channels]),
        g.array(T.FLOAT, [channels]),
        var,
    ]
    args = [g.const(p, initializer=True) for p in params]
    if kind == "Gemm":  # BatchNormalization on [N, C]
        y = g.node("BatchNormalization", [y, *args], epsilon=eps)
    else:
        y = g.node("BatchNormalization", [y, *args], epsilon=eps)
    g.output(y)


def pad_conv(g: Builder) -> None:
    g.at_least(11)
    integer = g.opset >= 13 and g.chance(0.2)
    dims = int(g.rng.integers(1, 3))
    if integer:
        channels = 2
        x = g.input(T.UINT8, [1, channels, *[4] * dims])
    else:
        x, channels, _ = _conv_input(g, dims)
    pads = [int(g.rng.integers(0, 2)) for _ in range(2 * (dims + 2))]
    pads[0] = pads[1] = pads[dims + 2] = pads[dims + 3] = 0
    if g.chance(0.3):
        pads[1] = 1  # pads the channel axis: not a conv pad
    if g.chance(0.2):
        pads[-1] = -1
    mode = g.pick(["constant", "constant", "reflect", "edge"])
    value = g.pick([0, 0, 1])
    elem = T.UINT8 if integer else T.FLOAT
    args = [x, g.ints(pads), g.const(np.asarray(value), elem)]
    if g.opset >= 18 and g.chance(0.3):
        axes = list(range(dims + 2))
        args = [x, g.ints(pads), g.const(np.asarray(value), elem), g.ints(axes)]
    y = g.node("Pad", args, mode=mode)
    attrs: dict[str, Any] = {}
    if g.chance(0.3):
        attrs["auto_pad"] = g.pick(["SAME_UPPER", "VALID", "NOTSET"])
    elif g.chance(0.5):
        attrs["pads"] = [int(g.rng.integers(0, 2)) for _ in range(2 * dims)]
    if integer:
        w = g.const(g.rng.integers(0, 3, size=[2, channels, *[2] * dims]).astype(np.uint8))
        y = g.node("ConvInteger", [y, w], **attrs)
    else:
        w = g.const(g.array(T.FLOAT, [2, channels, *[2] * dims]))
        y = g.node("Conv", [y, w], **attrs)
    g.output(y)


def gemm(g: Builder) -> None:
    m, k, n = (int(g.rng.integers(1, 4)) for _ in range(3))
    elem = T.FLOAT if g.chance(0.8) else T.DOUBLE
    kind = g.pick(["matmul_add", "transposed", "gemm", "reshape_matmul"])
    if kind == "gemm":
        a = g.input(elem, [k, m] if g.chance(0.5) else [m, k])
        ta = int(g.inputs[-1].type.tensor_type.shape.dim[0].dim_value == k and k != m)
        b = g.const(g.array(elem, [k, n]))
        args = [a, b] + (
            [g.const(g.array(elem, g.pick([[n], [1, n], [m, n], [m, 1], []])))]
            if g.chance(0.7)
            else []
        )
        g.output(
            g.node(
                "Gemm",
                args,
                alpha=float(g.pick([1.0, 0.5])),
                beta=float(g.pick([1.0, 2.0, 0.0])),
                transA=ta,
            )
        )
        return
    rank = int(g.pick([1, 2, 2, 3]))
    shape = [k] if rank == 1 else ([m, k] if rank == 2 else [2, m, k])
    a = g.input(elem, shape)
    if kind == "transposed" and rank == 2:
        a = g.node("Transpose", [a], perm=[1, 0])
        a = g.node("Transpose", [a], perm=[1, 0])
    if kind == "reshape_matmul" and rank >= 2:
        a = g.node("Reshape", [a, g.ints([-1, k])])
    b_shape = g.pick([[k, n], [k]])
    b = g.const(g.array(elem, b_shape)) if g.chance(0.7) else g.input(elem, b_shape)
    if kind == "transposed" and len(b_shape) == 2 and g.chance(0.5):
        b = g.node("Transpose", [g.const(g.array(elem, [n, k]))], perm=[1, 0])
    y = g.node("MatMul", [a, b])
    bias = g.const(g.array(elem, g.pick([[n], [1, n], [m, n], [], [1]])))
    y = g.node("Add", [y, bias] if g.chance(0.5) else [bias, y])
    if kind == "reshape_matmul" and rank == 3:
        y = g.node("Reshape", [y, g.ints([2, m, -1])])
    g.output(y)


def arithmetic(g: Builder) -> None:
    elem = int(g.pick([T.FLOAT, T.INT64, T.INT32, T.DOUBLE, T.FLOAT16]))
    shape = _shape(g)
    x = g.input(elem, shape, symbolic=g.chance(0.3))
    y = x
    for _ in range(int(g.rng.integers(1, 4))):
        op, value = g.pick([("Add", 0), ("Sub", 0), ("Mul", 1), ("Div", 1), ("Mul", 0), ("Pow", 1)])
        if op == "Pow" and elem not in FLOAT_TYPES:
            continue
        cshape = g.pick([[], [1], shape, [2, *shape]])
        c = g.const(np.full(cshape, value), elem)
        y = g.node(op, [y, c] if g.chance(0.7) or op in ("Sub", "Div", "Pow") else [c, y])
    g.output(y, g.node("Shape", [y]))


def dropout(g: Builder) -> None:
    g.at_least(12)
    x = g.input(_float(g), _shape(g))
    # training mode only with ratio 0: a dropping Dropout is random, nothing to compare
    training = bool(g.chance(0.3))
    ratio = g.const(np.float32(0.0 if training else g.pick([0.0, 0.5])))
    flag = g.const(np.asarray(training))
    args = g.pick([[x], [x, ratio], [x, ratio, flag]]) if not training else [x, ratio, flag]
    if g.chance(0.5):
        y, mask = g.node("Dropout", args, 2)
        g.output(g.node("Not", [g.node("Not", [mask])]))
    else:
        y = g.node("Dropout", args)
    g.output(g.node("Shape", [y]), y)


def expand_binary(g: Builder) -> None:
    g.at_least(8)
    shape = _shape(g, int(g.rng.integers(1, 4)), zero=False)
    x = g.input(T.FLOAT, shape)
    target = [d if g.chance(0.7) else 1 for d in shape]
    if g.chance(0.3):
        target = [3, *target]
    e = g.node("Expand", [x, g.ints(target)])
    other = g.input(T.FLOAT, g.pick([shape, [1], [shape[-1]], [*shape[:-1], 1]]))
    op = g.pick(["Add", "Mul", "Sub", "Div"])
    y = g.node(op, [e, other] if g.chance(0.5) else [other, e])
    g.output(y)


def scatter_nd(g: Builder) -> None:
    g.at_least(13)
    n = int(g.rng.integers(1, 4))
    data = g.input(T.FLOAT, [n, 3])
    if g.chance(0.7):
        indices = g.const(np.arange(n, dtype=np.int64).reshape(n, 1))
    else:
        indices = g.const(np.asarray([[n - 1]] * n, dtype=np.int64))
    updates = (
        g.node("Gather", [data, g.ints(list(range(n)))], axis=0)
        if g.chance(0.7)
        else g.input(T.FLOAT, [n, 3])
    )
    g.output(g.node("ScatterND", [data, indices, updates]))


def cast_constant_of_shape(g: Builder) -> None:
    g.at_least(9)
    x = g.input(T.FLOAT, _shape(g, 2))
    shape = g.node("Shape", [x])
    value = g.pick([None, 0.0, 1.5, -2.0, np.nan])
    attrs = (
        {} if value is None else {"value": helper.make_tensor("v", T.FLOAT, [1], [float(value)])}
    )
    c = g.node("ConstantOfShape", [shape], **attrs)
    to = int(g.pick([T.INT64, T.FLOAT16, T.DOUBLE, T.BOOL, T.INT8]))
    g.output(g.node("Cast", [c], to=to))


def hard_swish(g: Builder) -> None:
    g.at_least(14)
    x = g.input(T.FLOAT, _shape(g))
    kind = g.pick(["hardsigmoid", "clip", "relu6"])
    if kind == "hardsigmoid":
        alpha = g.pick([1 / 6, 0.2])
        h = g.node("HardSigmoid", [x], alpha=float(alpha), beta=0.5)
    else:
        shifted = g.node("Add", [x, g.const(np.float32(3.0))])
        h = g.node(
            "Clip", [shifted, g.const(np.float32(0.0)), g.const(np.float32(g.pick([6.0, 5.0])))]
        )
        h = g.node("Div", [h, g.const(np.float32(6.0))])
    g.output(g.node("Mul", [x, h] if g.chance(0.5) else [h, x]) if g.chance(0.8) else h)


def conv_affine(g: Builder) -> None:
    dims = int(g.rng.integers(1, 3))
    x, channels, _ = _conv_input(g, dims)
    scale = g.const(g.array(T.FLOAT, g.pick([[], [1], [channels, *[1] * dims]])))
    offset = g.const(g.array(T.FLOAT, g.pick([[], [1], [channels, *[1] * dims]])))
    before = g.chance(0.5)
    if before:
        x = g.node("Add", [g.node("Mul", [x, scale]), offset])
    w = g.const(g.array(T.FLOAT, [2, channels, *[2] * dims]))
    pads = {"pads": [1] * (2 * dims)} if g.chance(0.3) else {}
    y = g.node("Conv", [x, w], **pads)
    if not before:
        y = g.node(
            "Add",
            [
                g.node("Mul", [y, g.const(g.array(T.FLOAT, [1]))]),
                g.const(g.array(T.FLOAT, [2, *[1] * dims])),
            ],
        )
    g.output(y)


def optional_bias(g: Builder) -> None:
    kind = g.pick(["Conv", "ConvTranspose", "Gemm"])
    zero = g.chance(0.7)
    if kind == "Gemm":
        x = g.input(T.FLOAT, [2, 3])
        bias = np.zeros([4], np.float32) if zero else g.array(T.FLOAT, [4])
        g.output(g.node("Gemm", [x, g.const(g.array(T.FLOAT, [3, 4])), g.const(bias)]))
        return
    x, cin, _ = _conv_input(g, 2)
    bias = np.zeros([2], np.float32) if zero else g.array(T.FLOAT, [2])
    shape = [2, cin, 2, 2] if kind == "Conv" else [cin, 2, 2, 2]
    g.output(g.node(kind, [x, g.const(g.array(T.FLOAT, shape)), g.const(bias)]))


# -- the fusions -----------------------------------------------------------------------------


def _hidden(g: Builder, elem: int) -> tuple[str, list[int]]:
    shape = [int(g.rng.integers(1, 3)), int(g.rng.integers(1, 5)), int(g.pick([4, 8, 16]))]
    return g.input(elem, shape, symbolic=g.chance(0.3)), shape


def _reduce_mean(g: Builder, x: str, axis: int) -> str:
    if g.opset >= 18:
        return g.node("ReduceMean", [x, g.ints([axis])], keepdims=1)
    return g.node("ReduceMean", [x], axes=[axis], keepdims=1)


def layer_norm(g: Builder) -> None:
    g.at_least(13)
    elem = int(g.pick([T.FLOAT, T.FLOAT, T.FLOAT16, T.DOUBLE]))
    x, shape = _hidden(g, elem)
    axis = g.pick([-1, 2, -2]) if g.chance(0.3) else -1
    mean = _reduce_mean(g, x, axis)
    centered = g.node("Sub", [x, mean])
    square = (
        g.node("Pow", [centered, g.const(np.asarray(2.0), elem)])
        if g.chance(0.5)
        else g.node("Mul", [centered, centered])
    )
    var = _reduce_mean(g, square, axis)
    eps = g.const(np.asarray(g.pick([1e-5, 1e-6, 0.0])), elem)
    std = g.node("Sqrt", [g.node("Add", [var, eps])])
    y = (
        g.node("Div", [centered, std])
        if g.chance(0.7)
        else g.node("Mul", [centered, g.node("Reciprocal", [std])])
    )
    scale = (
        g.const(g.array(elem, [shape[-1]], positive=True))
        if g.chance(0.8)
        else g.input(elem, [shape[-1]])
    )
    y = g.node("Mul", [y, scale])
    if g.chance(0.6):
        y = g.node("Add", [y, g.const(g.array(elem, [shape[-1]]))])
    g.output(y)


def skip_norm(g: Builder) -> None:
    g.at_least(17)
    elem = T.FLOAT if g.chance(0.8) else T.FLOAT16
    x, shape = _hidden(g, elem)
    skip = g.input(elem, shape)
    s = g.node("Add", [x, skip])
    if g.chance(0.5):
        s = g.node("Add", [s, g.const(g.array(elem, [shape[-1]]))])
    scale = g.const(g.array(elem, [shape[-1]], positive=True))
    args = [s, scale] + ([g.const(g.array(elem, [shape[-1]]))] if g.chance(0.5) else [])
    y = g.node("LayerNormalization", args, axis=-1, epsilon=1e-5)
    g.output(y)
    if g.chance(0.5):
        g.output(s)


def rms_norm(g: Builder) -> None:
    g.at_least(13)
    elem = int(g.pick([T.FLOAT, T.FLOAT, T.FLOAT16]))
    x, shape = _hidden(g, elem)
    up = g.node("Cast", [x], to=T.FLOAT) if elem != T.FLOAT and g.chance(0.5) else x
    work = T.FLOAT if up != x else elem
    square = (
        g.node("Pow", [up, g.const(np.asarray(2.0), work)])
        if g.chance(0.5)
        else g.node("Mul", [up, up])
    )
    mean = _reduce_mean(g, square, -1)
    eps = g.const(np.asarray(g.pick([1e-6, 1e-5, 0.0])), work)
    root = g.node("Sqrt", [g.node("Add", [mean, eps])])
    y = (
        g.node("Mul", [up, g.node("Reciprocal", [root])])
        if g.chance(0.6)
        else g.node("Div", [up, root])
    )
    if up != x:
        y = g.node("Cast", [y], to=elem)
    y = g.node("Mul", [g.const(g.array(elem, [shape[-1]], positive=True)), y])
    g.output(y)


def gelu(g: Builder) -> None:
    g.at_least(13)
    elem = T.FLOAT if g.chance(0.8) else T.FLOAT16
    x = g.input(elem, _shape(g))
    if g.chance(0.3):  # a bias first (BiasGelu)
        shape = [int(d.dim_value) for d in g.inputs[-1].type.tensor_type.shape.dim]
        if shape:
            x = g.node("Add", [x, g.const(g.array(elem, [shape[-1]]))])
    half = g.const(np.asarray(0.5), elem)
    one = g.const(np.asarray(1.0), elem)
    if g.chance(0.5):  # erf form
        inner = g.node("Erf", [g.node("Div", [x, g.const(np.asarray(np.sqrt(2.0)), elem)])])
    else:  # tanh form
        cube = g.node("Pow", [x, g.const(np.asarray(3.0), elem)])
        inner = g.node("Add", [x, g.node("Mul", [g.const(np.asarray(0.044715), elem), cube])])
        inner = g.node(
            "Tanh", [g.node("Mul", [g.const(np.asarray(np.sqrt(2 / np.pi)), elem), inner])]
        )
    y = g.node("Mul", [g.node("Mul", [half, x]), g.node("Add", [one, inner])])
    g.output(y)


def rotary(g: Builder) -> None:
    g.at_least(18)
    elem = T.FLOAT
    batch, heads, seq, dim = 1, int(g.pick([1, 2])), int(g.rng.integers(1, 5)), int(g.pick([4, 8]))
    x = g.input(elem, [batch, heads, seq, dim])
    cos = (
        g.input(elem, [batch, 1, seq, dim])
        if g.chance(0.5)
        else g.const(g.array(elem, [1, 1, seq, dim]))
    )
    sin = (
        g.input(elem, [batch, 1, seq, dim])
        if g.chance(0.5)
        else g.const(g.array(elem, [1, 1, seq, dim]))
    )
    half = dim // 2
    first = g.node("Slice", [x, g.ints([0]), g.ints([half]), g.ints([3]), g.ints([1])])
    second = g.node("Slice", [x, g.ints([half]), g.ints([2**63 - 1]), g.ints([3]), g.ints([1])])
    rotated = g.node("Concat", [g.node("Neg", [second]), first], axis=-1)
    y = g.node("Add", [g.node("Mul", [x, cos]), g.node("Mul", [rotated, sin])])
    g.output(y)


def attention(g: Builder) -> None:
    g.at_least(18)
    elem = T.FLOAT if g.chance(0.8) else g.pick([T.FLOAT16, T.DOUBLE])
    batch, heads, seq = int(g.rng.integers(1, 3)), int(g.pick([1, 2, 4])), int(g.rng.integers(1, 6))
    head = int(g.pick([4, 8]))
    kv_seq = seq if g.chance(0.6) else seq + 1
    v_head = head if g.chance(0.8) else head * 2
    q = g.input(elem, [batch, heads, seq, head])
    k = g.input(elem, [batch, heads, kv_seq, head])
    v = g.input(elem, [batch, heads, kv_seq, v_head])
    kt = g.node("Transpose", [k], perm=[0, 1, 3, 2])
    scale = float(g.pick([1 / np.sqrt(head), 0.5, 1.0]))
    if g.chance(0.5):
        scores = g.node("Mul", [g.node("MatMul", [q, kt]), g.const(np.asarray(scale), elem)])
    else:
        scores = g.node("Div", [g.node("MatMul", [q, kt]), g.const(np.asarray(1 / scale), elem)])
    if g.chance(0.5):
        mask = (
            g.input(elem, [1, 1, seq, kv_seq])
            if g.chance(0.5)
            else g.const(
                np.triu(np.full([seq, kv_seq], -np.inf if g.chance(0.5) else -1e4), 1), elem
            )
        )
        scores = g.node("Add", [scores, mask])
    probs = g.node("Softmax", [scores], axis=-1)
    y = g.node("MatMul", [probs, v])
    if g.chance(0.5):
        y = g.node(
            "Reshape",
            [g.node("Transpose", [y], perm=[0, 2, 1, 3]), g.ints([batch, seq, heads * v_head])],
        )
    g.output(y)


# -- sequences, optionals, control flow and the shapes -------------------------------


def sequences(g: Builder) -> None:
    g.at_least(int(g.pick([11, 16, 18])))
    elem = int(g.pick([T.FLOAT, T.INT64, T.STRING, T.BOOL]))
    x = g.input(elem, [int(g.rng.integers(1, 4)), 2])
    kind = g.pick(["construct", "empty", "const", "split", "if_seq", "if_opt", "loop"])
    if kind == "construct":
        g.output(g.node("SequenceConstruct", [x, x]))
    elif kind == "empty":
        seq = g.node("SequenceEmpty", [], dtype=elem)
        g.output(g.node("SequenceInsert", [seq, x]) if g.chance(0.5) else seq)
        g.output(x)
    elif kind == "const":
        c = g.const(g.array(elem, [2]))
        seq = g.node("SequenceConstruct", [c])
        g.output(seq, g.node("SequenceLength", [seq]))
        g.output(g.node("Identity", [x]))
    elif kind == "split":
        seq = g.node("SplitToSequence", [x], axis=0, keepdims=int(g.chance(0.5)))
        g.output(seq, g.node("SequenceLength", [seq]))
    elif kind in ("if_seq", "if_opt"):
        g.at_least(16)
        value_type = helper.make_tensor_type_proto(elem, None)
        seq_type = helper.make_sequence_type_proto(value_type)
        out_type = helper.make_optional_type_proto(seq_type) if kind == "if_opt" else seq_type
        branches = []
        for k in range(2):
            out = g.fresh("branch")
            if kind == "if_opt" and k == 1:
                nodes = [helper.make_node("Optional", [], [out], type=seq_type)]
            else:
                seq = g.fresh("s")
                nodes = [helper.make_node("SequenceConstruct", [x], [seq])]
                nodes.append(
                    helper.make_node("Optional" if kind == "if_opt" else "Identity", [seq], [out])
                )
            branches.append(
                helper.make_graph(nodes, g.fresh("b"), [], [helper.make_value_info(out, out_type)])
            )
        cond = g.input(T.BOOL, [])
        held = g.node("If", [cond], then_branch=branches[0], else_branch=branches[1])
        if kind == "if_opt":
            g.output(g.node("OptionalHasElement", [held]))
        else:
            g.output(held)
    else:  # a loop collecting a sequence
        it, c_in, seq_in, c_out, seq_out = (g.fresh(n) for n in ("i", "c", "s", "co", "so"))
        body = helper.make_graph(
            [
                helper.make_node("Identity", [c_in], [c_out]),
                helper.make_node("SequenceInsert", [seq_in, x], [seq_out]),
            ],
            g.fresh("body"),
            [
                helper.make_tensor_value_info(it, T.INT64, []),
                helper.make_tensor_value_info(c_in, T.BOOL, []),
                helper.make_value_info(
                    seq_in,
                    helper.make_sequence_type_proto(helper.make_tensor_type_proto(elem, None)),
                ),
            ],
            [
                helper.make_tensor_value_info(c_out, T.BOOL, []),
                helper.make_value_info(
                    seq_out,
                    helper.make_sequence_type_proto(helper.make_tensor_type_proto(elem, None)),
                ),
            ],
        )
        empty = g.node("SequenceEmpty", [], dtype=elem)
        trip = g.const(np.asarray(int(g.rng.integers(0, 3)), dtype=np.int64))
        seq = g.node("Loop", [trip, "", empty], body=body)
        g.output(seq, g.node("SequenceLength", [seq]))


def flatten_negative(g: Builder) -> None:
    g.at_least(11)
    rank = int(g.rng.integers(1, 5))
    shape = _shape(g, rank)
    x = g.input(_float(g), shape)
    axis = int(g.rng.integers(-rank, rank + 1))
    y = g.node("Relu", [g.node("Flatten", [x], axis=axis)])
    g.output(y)


def split_runtime(g: Builder) -> None:
    g.at_least(13)
    n = int(g.rng.integers(2, 5))
    x = g.input(T.FLOAT, [n, 1])
    first = int(g.rng.integers(0, n + 1))
    sizes = g.input(T.INT64, [2])
    g.data[-1] = np.asarray([first, n - first], dtype=np.int64)
    a, b = g.node("Split", [x, sizes], 2, axis=0)
    y = g.node("Expand", [b, g.ints([n - first, 3])])
    g.ranks[a] = g.ranks[y] = (T.FLOAT, 2)
    g.output(a, y)


def old_attributes(g: Builder) -> None:
    """Ops written as opset 1-10 wrote them: attributes where later opsets take inputs."""
    g.opset = int(g.pick([7, 8, 9, 10]))
    x = g.input(T.FLOAT, [3, 4, 2])
    kind = g.pick(["slice", "squeeze", "pad", "reduce", "split", "upsample", "clip", "topk"])
    if kind == "slice" and g.opset < 10:
        y = g.node("Slice", [x], starts=[1, -3], ends=[100, 2], axes=[0, 1])
    elif kind == "squeeze":  # axes sorted: onnx infers rank 4 for Squeeze-1 axes=[2, 0]
        y = g.node("Squeeze", [g.node("Unsqueeze", [x], axes=[0, 2])], axes=[0, 2])
    elif kind == "pad":
        y = g.node("Pad", [x], pads=[0, 1, 0, 0, 1, 0], mode="constant", value=1.5)
    elif kind == "reduce":
        y = g.node(
            g.pick(["ReduceSum", "ReduceMean", "ReduceMax"]),
            [x],
            axes=[1],
            keepdims=int(g.chance(0.5)),
        )
    elif kind == "split":
        y = g.node("Concat", list(g.node("Split", [x], 2, axis=1, split=[1, 3])[::-1]), axis=1)
    elif kind == "upsample" and g.opset == 9:
        y = g.node(
            "Upsample", [x, g.const(np.asarray([1.0, 2.0, 1.0], np.float32))], mode="nearest"
        )
    elif kind == "clip":
        y = g.node("Clip", [x], min=-0.5, max=0.5)
    else:
        y = (
            g.node("TopK", [x], 2, k=2, axis=1)[0]
            if g.opset < 10
            else g.node("TopK", [x, g.ints([2])], 2, axis=1)[0]
        )
    g.output(g.node("Relu", [y]))


FAMILIES: dict[str, Family] = {
    "cast": cast,
    "reshape": reshape,
    "transpose": transpose,
    "slices": slices,
    "min_max_clip": min_max,
    "relu_clip": relu_clip,
    "batchnorm_into_conv": batchnorm,
    "pad_into_conv": pad_conv,
    "gemm_matmul": gemm,
    "no_op_arithmetic": arithmetic,
    "dropout": dropout,
    "expand_before_binary_op": expand_binary,
    "scatter_nd": scatter_nd,
    "cast_constant_of_shape": cast_constant_of_shape,
    "hard_swish": hard_swish,
    "conv_affine": conv_affine,
    "optional_bias": optional_bias,
    "layer_norm": layer_norm,
    "skip_layer_norm": skip_norm,
    "rms_norm": rms_norm,
    "gelu": gelu,
    "rotary": rotary,
    "attention": attention,
    "sequences_control_flow": sequences,
    "flatten_negative_axis": flatten_negative,
    "split_runtime_sizes": split_runtime,
    "old_attribute_forms": old_attributes,
}


def family_case(family: str, seed: int) -> Case:
    """The case ``family#seed``: the family's graph at an opset drawn from 7..28 (raised to
    what the family needs), with one data set of seeded inputs. Raises what onnx's shape
    inference raises when the drawn combination is not a valid model."""
    rng = np.random.default_rng([seed, *family.encode()])
    g = Builder(rng, int(rng.integers(7, 29)))
    FAMILIES[family](g)
    model = g.model()
    return Case(f"{family}#{seed}", model, [(list(g.data), [])], 1e-3, 1e-5)


__all__ = ["FAMILIES", "Builder", "family_case"]
