"""A seeded mutant generator: semantics-preserving chains spliced into a case's model, and
``Shape`` probes of intermediate values added as outputs.

:func:`mutate` copies a case, then ``chains`` times picks a value of the main graph whose
type shape inference knows and splices a chain computing the same value after it (the
producer's output is renamed and the chain's last node takes the old name; a graph input's
readers are moved to the chain's end). The chains are written in the form of the model's
opset (attributes below the opset that turned them into inputs, opset-1 style where the op
still takes them), use negative axes where the opset allows, carry sequences, optionals,
If and Loop bodies, and work on every element type the op accepts (a chain onnx.checker
or onnxruntime rejects is dropped). Then up to ``probes`` intermediate values get a
``Shape`` output (a wrong inferred shape shows as a wrong output) and sometimes the value
itself becomes an output.

Each mutant is checked before use: it passes what its base passed, and onnxruntime
computes the base's outputs on it (:func:`validate`); one that does not is discarded and
counted (a generator bug or an onnxruntime quirk, never a transform's failure).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper

from onnxscript.testing.node_tests import Case

T = TensorProto
FLOATS = {T.FLOAT, T.DOUBLE, T.FLOAT16, T.BFLOAT16}
SIGNED = {T.INT8, T.INT16, T.INT32, T.INT64}
UNSIGNED = {T.UINT8, T.UINT16, T.UINT32, T.UINT64}
NUMERIC = FLOATS | SIGNED | UNSIGNED
INT64_MAX = 2**63 - 1


@dataclasses.dataclass
class ValueType:
    elem: int
    shape: list[int | None] | None  # None: rank unknown; None dims: unknown sizes

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    @property
    def static(self) -> bool:
        return self.shape is not None and all(isinstance(d, int) for d in self.shape)


class Splice:
    """Nodes being spliced into one model: fresh names, constants in the opset's form."""

    def __init__(self, model: onnx.ModelProto, opset: int, rng: np.random.Generator) -> None:
        self.model = model
        self.opset = opset
        self.rng = rng
        self.nodes: list[onnx.NodeProto] = []
        self.count = 0
        self.taken = _all_names(model.graph)

    def fresh(self, base: str) -> str:
        while True:
            self.count += 1
            name = f"{base}__m{self.count}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def node(self, op: str, inputs: list[str], n_out: int = 1, **attrs: Any) -> list[str]:
        outs = [self.fresh(op.lower()) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, **attrs))
        return outs

    def one(self, op: str, inputs: list[str], **attrs: Any) -> str:
        return self.node(op, inputs, **attrs)[0]

    def const(self, array: np.ndarray, elem: int | None = None) -> str:
        """A constant: a Constant node where the opset's Constant takes its type (floats
        before opset 9), else an initializer (also a graph input under IR 3)."""
        elem = elem if elem is not None else helper.np_dtype_to_tensor_dtype(array.dtype)
        name = self.fresh("c")
        tensor = _tensor(name, array, elem)
        floats = elem in (T.FLOAT, T.DOUBLE, T.FLOAT16)
        if (self.opset >= 9 or floats) and self.rng.random() < 0.7:
            self.nodes.append(helper.make_node("Constant", [], [name], value=tensor))
        else:
            self.model.graph.initializer.append(tensor)
            if self.model.ir_version < 4:
                self.model.graph.input.append(
                    helper.make_tensor_value_info(name, elem, list(array.shape))
                )
        return name

    def ints(self, values: list[int]) -> str:
        return self.const(np.asarray(values, dtype=np.int64))


def _tensor(name: str, array: np.ndarray, elem: int) -> onnx.TensorProto:
    if elem == T.BFLOAT16:
        return helper.make_tensor(name, elem, list(array.shape), array.astype(np.float32).ravel())
    return onnx.numpy_helper.from_array(np.asarray(array), name)


def _all_names(graph: onnx.GraphProto) -> set[str]:
    names = {v.name for v in graph.input} | {v.name for v in graph.output}
    names |= {t.name for t in graph.initializer}
    for node in graph.node:
        names.update(node.input)
        names.update(node.output)
        for attr in node.attribute:
            for sub in [attr.g, *attr.graphs] if attr.HasField("g") else attr.graphs:
                names |= _all_names(sub)
    return names


def _np_type(elem: int) -> Any:
    return helper.tensor_dtype_to_np_dtype(elem)


def _scalar(elem: int, value: float) -> np.ndarray:
    if elem == T.BFLOAT16:
        return np.asarray(value, dtype=np.float32)
    return np.asarray(value, dtype=_np_type(elem))


# -- the chains ------------------------------------------------------------------------------
# Each takes the splice, the input value, its type; returns the chain's last value, or None
# when it does not apply to that type/opset.

Chain = Callable[[Splice, str, ValueType], "str | None"]


def _identity(s: Splice, v: str, t: ValueType) -> str | None:
    return s.one("Identity", [v])


def _cast_same(s: Splice, v: str, t: ValueType) -> str | None:
    return s.one("Cast", [v], to=t.elem) if s.opset >= 6 else None


WIDER = {
    T.FLOAT: T.DOUBLE,
    T.FLOAT16: T.FLOAT,
    T.BFLOAT16: T.FLOAT,
    T.INT8: T.INT32,
    T.INT16: T.INT64,
    T.INT32: T.INT64,
    T.UINT8: T.INT32,
    T.UINT16: T.UINT32,
    T.UINT32: T.UINT64,
    T.BOOL: T.INT64,
}


def _cast_round_trip(s: Splice, v: str, t: ValueType) -> str | None:
    if t.elem not in WIDER or s.opset < 6:
        return None
    return s.one("Cast", [s.one("Cast", [v], to=WIDER[t.elem])], to=t.elem)


def _reshape_own_shape(s: Splice, v: str, t: ValueType) -> str | None:
    if s.opset < 5:
        return None
    return s.one("Reshape", [v, s.one("Shape", [v])])


def _reshape_static(s: Splice, v: str, t: ValueType) -> str | None:
    if s.opset < 5 or not t.static or not t.shape:
        return None
    dims = [int(d) for d in t.shape if d is not None]
    target = list(dims)
    if 0 not in dims and s.rng.random() < 0.5:
        target[int(s.rng.integers(len(target)))] = -1
    if s.rng.random() < 0.3:
        target[int(s.rng.integers(len(target)))] = 0  # copy the input's dim (allowzero 0)
        if target.count(-1) and 0 in dims:
            return None
    return s.one("Reshape", [v, s.ints(target)])


def _transpose_pair(s: Splice, v: str, t: ValueType) -> str | None:
    if t.rank is None or t.rank < 2:
        return None
    perm = [int(p) for p in s.rng.permutation(t.rank)]
    inverse = [int(p) for p in np.argsort(perm)]
    return s.one("Transpose", [s.one("Transpose", [v], perm=perm)], perm=inverse)


def _axis(s: Splice, rank: int, negative_from: int = 11) -> int:
    axis = int(s.rng.integers(rank))
    if s.opset >= negative_from and s.rng.random() < 0.5:
        axis -= rank
    return axis


def _concat_one(s: Splice, v: str, t: ValueType) -> str | None:
    if not t.rank or s.opset < 4:
        return None
    return s.one("Concat", [v], axis=_axis(s, t.rank))


def _neutral(op: str, value: float) -> Chain:
    def chain(s: Splice, v: str, t: ValueType) -> str | None:
        if t.elem not in NUMERIC:
            return None
        if t.elem in FLOATS and value == 0:
            c = s.const(_scalar(t.elem, -0.0), t.elem)  # x + -0.0 is x, -0.0 included
        else:
            c = s.const(_scalar(t.elem, value), t.elem)
        args = [c, v] if op in ("Add", "Mul") and s.rng.random() < 0.5 else [v, c]
        return s.one(op, args)

    return chain


def _expand_own(s: Splice, v: str, t: ValueType) -> str | None:
    if s.opset < 8:
        return None
    if t.rank and s.rng.random() < 0.5:
        return s.one("Expand", [v, s.ints([1] * int(s.rng.integers(1, t.rank + 1)))])
    return s.one("Expand", [v, s.one("Shape", [v])])


def _subgraph(
    name: str, nodes: list[onnx.NodeProto], inputs: list[Any], outputs: list[Any]
) -> onnx.GraphProto:
    return helper.make_graph(nodes, name, inputs, outputs)


def _branch(s: Splice, v: str, t: ValueType, nodes: list[onnx.NodeProto], out: str) -> Any:
    return _subgraph(
        s.fresh("branch"), nodes, [], [helper.make_tensor_value_info(out, t.elem, None)]
    )


def _if_const(s: Splice, v: str, t: ValueType) -> str | None:
    keep = s.fresh("keep")
    other = s.fresh("other")
    other_op = "Neg" if t.elem in FLOATS | SIGNED and s.opset >= 6 else "Identity"
    then = _branch(s, v, t, [helper.make_node("Identity", [v], [keep])], keep)
    orelse = _branch(s, v, t, [helper.make_node(other_op, [v], [other])], other)
    flag = bool(s.rng.random() < 0.5)
    cond = s.const(np.asarray(flag) if s.rng.random() < 0.5 else np.asarray([flag]), T.BOOL)
    branches = (then, orelse) if flag else (orelse, then)
    return s.one("If", [cond], then_branch=branches[0], else_branch=branches[1])


def _squeeze_unsqueeze(s: Splice, v: str, t: ValueType) -> str | None:
    if t.rank is None:
        return None
    axis = int(s.rng.integers(t.rank + 1))
    if s.opset >= 11 and s.rng.random() < 0.5:
        axis -= t.rank + 1
    if s.opset >= 13:
        axes = s.ints([axis])
        return s.one("Squeeze", [s.one("Unsqueeze", [v, axes]), axes])
    return s.one("Squeeze", [s.one("Unsqueeze", [v], axes=[axis])], axes=[axis])


def _slice_full(s: Splice, v: str, t: ValueType) -> str | None:
    if not t.rank:
        return None
    axis = _axis(s, t.rank)
    if s.opset < 10:
        return s.one("Slice", [v], starts=[0], ends=[INT64_MAX], axes=[axis])
    if s.rng.random() < 0.5:  # reversed twice
        args = [s.ints([-1]), s.ints([-INT64_MAX]), s.ints([axis]), s.ints([-1])]
        return s.one("Slice", [s.one("Slice", [v, *args]), *args])
    return s.one("Slice", [v, s.ints([0]), s.ints([INT64_MAX]), s.ints([axis])])


def _flatten_back(s: Splice, v: str, t: ValueType) -> str | None:
    if t.rank is None or s.opset < 9:
        return None
    axis = int(s.rng.integers(t.rank + 1))
    if s.opset >= 11 and s.rng.random() < 0.5:
        axis -= t.rank
    flat = s.one("Flatten", [v], axis=axis)
    return s.one("Reshape", [flat, s.one("Shape", [v])])


def _split_concat(s: Splice, v: str, t: ValueType) -> str | None:
    if not t.static or not t.shape or s.opset < 2:
        return None
    axis = _axis(s, len(t.shape))
    size = int(t.shape[axis] or 0)  # type: ignore[arg-type]
    if size < 2:
        return None
    first = int(s.rng.integers(1, size))
    sizes = [first, size - first]
    if s.opset >= 13:
        if s.opset >= 18 and s.rng.random() < 0.3 and size % 2 == 0:
            parts = s.node("Split", [v], 2, axis=axis, num_outputs=2)
        elif s.rng.random() < 0.5:
            # sizes computed at run time: [dim - first, first] reversed into [first, rest]
            dim = s.one("Gather", [s.one("Shape", [v]), s.ints([axis])], axis=0)
            rest = s.one("Sub", [dim, s.ints([first])])
            parts = s.node(
                "Split", [v, s.one("Concat", [s.ints([first]), rest], axis=0)], 2, axis=axis
            )
        else:
            parts = s.node("Split", [v, s.ints(sizes)], 2, axis=axis)
    else:
        parts = s.node("Split", [v], 2, axis=axis, split=sizes)
    return s.one("Concat", parts, axis=axis)


def _sequence_round_trip(s: Splice, v: str, t: ValueType) -> str | None:
    if s.opset < 11:
        return None
    if t.rank and s.rng.random() < 0.5:
        axis = _axis(s, t.rank)
        seq = s.one("SplitToSequence", [v], axis=axis)
        return s.one("ConcatFromSequence", [seq], axis=axis)
    seq = s.one("SequenceConstruct", [v])
    if s.rng.random() < 0.5:
        seq = s.one("SequenceInsert", [s.one("SequenceEmpty", [], dtype=t.elem), v])
    return s.one("SequenceAt", [seq, s.const(np.asarray(0, dtype=np.int64))])


def _optional_round_trip(s: Splice, v: str, t: ValueType) -> str | None:
    if s.opset < 15:
        return None
    return s.one("OptionalGetElement", [s.one("Optional", [v])])


def _loop_once(s: Splice, v: str, t: ValueType) -> str | None:
    it, cond_in, carried = s.fresh("i"), s.fresh("cond"), s.fresh("carried")
    cond_out, out = s.fresh("cond_out"), s.fresh("carried_out")
    inner = [helper.make_node("Identity", [cond_in], [cond_out])]
    if s.opset >= 11 and s.rng.random() < 0.5:  # a sequence inside the body
        seq = s.fresh("seq")
        inner += [  # position `it` is 0 on the one iteration
            helper.make_node("SequenceConstruct", [carried], [seq]),
            helper.make_node("SequenceAt", [seq, it], [out]),
        ]
    else:
        inner.append(helper.make_node("Identity", [carried], [out]))
    body = _subgraph(
        s.fresh("body"),
        inner,
        [
            helper.make_tensor_value_info(it, T.INT64, []),
            helper.make_tensor_value_info(cond_in, T.BOOL, []),
            helper.make_tensor_value_info(carried, t.elem, None),
        ],
        [
            helper.make_tensor_value_info(cond_out, T.BOOL, []),
            helper.make_tensor_value_info(out, t.elem, None),
        ],
    )
    trip = s.const(np.asarray(1, dtype=np.int64))
    cond = s.const(np.asarray(True), T.BOOL)
    return s.one("Loop", [trip, cond, v], body=body)


def _if_sequence(s: Splice, v: str, t: ValueType) -> str | None:
    """An If whose branches return a sequence (or an optional) holding the value."""
    if s.opset < 11:
        return None
    optional = s.opset >= 16 and s.rng.random() < 0.5
    branches = []
    for _ in range(2):
        out = s.fresh("branch_out")
        op = "Optional" if optional else "SequenceConstruct"
        value_type = helper.make_tensor_type_proto(t.elem, None)
        wrapped = (
            helper.make_optional_type_proto(value_type)
            if optional
            else helper.make_sequence_type_proto(value_type)
        )
        branches.append(
            _subgraph(
                s.fresh("branch"),
                [helper.make_node(op, [v], [out])],
                [],
                [helper.make_value_info(out, wrapped)],
            )
        )
    cond = s.const(np.asarray(bool(s.rng.random() < 0.5)), T.BOOL)
    held = s.one("If", [cond], then_branch=branches[0], else_branch=branches[1])
    if optional:
        return s.one("OptionalGetElement", [held])
    return s.one("SequenceAt", [held, s.const(np.asarray(0, dtype=np.int64))])


def _self_op(op: str) -> Chain:
    def chain(s: Splice, v: str, t: ValueType) -> str | None:
        if t.elem not in NUMERIC:
            return None
        return s.one(op, [v, v])

    return chain


def _clip_unbounded(s: Splice, v: str, t: ValueType) -> str | None:
    if t.elem not in NUMERIC:
        return None
    if s.opset < 11:
        return s.one("Clip", [v], min=float("-inf"), max=float("inf")) if s.opset >= 6 else None
    if s.rng.random() < 0.5:
        return s.one("Clip", [v])
    if t.elem not in FLOATS:
        info = np.iinfo(_np_type(t.elem))
        low, high = _scalar(t.elem, info.min), _scalar(t.elem, info.max)
    else:
        low, high = _scalar(t.elem, -np.inf), _scalar(t.elem, np.inf)
    return s.one("Clip", [v, s.const(low, t.elem), s.const(high, t.elem)])


def _neg_neg(s: Splice, v: str, t: ValueType) -> str | None:
    if t.elem not in FLOATS | SIGNED:
        return None
    return s.one("Neg", [s.one("Neg", [v])])


def _where_true(s: Splice, v: str, t: ValueType) -> str | None:
    if s.opset < 9:
        return None
    flag = bool(s.rng.random() < 0.5)
    cond = s.const(np.asarray(flag), T.BOOL)
    other = s.one("Identity", [v])
    return s.one("Where", [cond, v, other] if flag else [cond, other, v])


def _pad_zero(s: Splice, v: str, t: ValueType) -> str | None:
    if not t.rank:
        return None
    if s.opset < 11:
        return s.one("Pad", [v], pads=[0] * (2 * t.rank)) if s.opset >= 2 else None
    return s.one("Pad", [v, s.ints([0] * (2 * t.rank))])


def _tile_ones(s: Splice, v: str, t: ValueType) -> str | None:
    if not t.rank or s.opset < 6:
        return None
    return s.one("Tile", [v, s.ints([1] * t.rank)])


def _cast_like(s: Splice, v: str, t: ValueType) -> str | None:
    return s.one("CastLike", [v, v]) if s.opset >= 15 else None


def _dropout(s: Splice, v: str, t: ValueType) -> str | None:
    if t.elem not in FLOATS:
        return None
    if s.opset >= 12 and s.rng.random() < 0.5:
        ratio = s.const(np.asarray(0.5, dtype=np.float32))
        return s.one("Dropout", [v, ratio, s.const(np.asarray(False), T.BOOL)])
    return s.one("Dropout", [v])


def _gather_all(s: Splice, v: str, t: ValueType) -> str | None:
    if not t.rank or s.opset < 11:
        return None
    axis = _axis(s, t.rank)
    dim = s.one("Gather", [s.one("Shape", [v]), s.const(np.asarray(axis, dtype=np.int64))], axis=0)
    zero, one = s.const(np.asarray(0, dtype=np.int64)), s.const(np.asarray(1, dtype=np.int64))
    return s.one("Gather", [v, s.one("Range", [zero, dim, one])], axis=axis)


def _reduce_unsqueezed(s: Splice, v: str, t: ValueType) -> str | None:
    if t.rank is None or t.elem not in NUMERIC or s.opset < 13:
        return None
    axis = int(s.rng.integers(t.rank + 1))
    up = s.one("Unsqueeze", [v, s.ints([axis])])
    op = str(s.rng.choice(["ReduceMax", "ReduceMin", "ReduceSum"]))
    if op == "ReduceSum" or s.opset >= 18:
        return s.one(op, [up, s.ints([axis])], keepdims=0)
    return s.one(op, [up], axes=[axis], keepdims=0)


CHAINS: dict[str, Chain] = {
    "identity": _identity,
    "cast_same": _cast_same,
    "cast_round_trip": _cast_round_trip,
    "reshape_own_shape": _reshape_own_shape,
    "reshape_static": _reshape_static,
    "transpose_pair": _transpose_pair,
    "concat_one": _concat_one,
    "add_zero": _neutral("Add", 0),
    "sub_zero": _neutral("Sub", 0),
    "mul_one": _neutral("Mul", 1),
    "div_one": _neutral("Div", 1),
    "expand_own": _expand_own,
    "if_const": _if_const,
    "squeeze_unsqueeze": _squeeze_unsqueeze,
    "slice_full": _slice_full,
    "flatten_back": _flatten_back,
    "split_concat": _split_concat,
    "sequence_round_trip": _sequence_round_trip,
    "optional_round_trip": _optional_round_trip,
    "loop_once": _loop_once,
    "if_sequence": _if_sequence,
    "max_self": _self_op("Max"),
    "min_self": _self_op("Min"),
    "clip_unbounded": _clip_unbounded,
    "neg_neg": _neg_neg,
    "where_const": _where_true,
    "pad_zero": _pad_zero,
    "tile_ones": _tile_ones,
    "cast_like": _cast_like,
    "dropout": _dropout,
    "gather_all": _gather_all,
    "reduce_unsqueezed": _reduce_unsqueezed,
}


# -- splicing --------------------------------------------------------------------------------


def value_types(model: onnx.ModelProto) -> dict[str, ValueType]:
    """The tensor values of the main graph whose element type shape inference knows."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
    except Exception:  # shape inference fails on the model: only declared types
        inferred = model
    graph = inferred.graph
    found: dict[str, ValueType] = {}
    infos = [*graph.input, *graph.value_info, *graph.output]
    for tensor in graph.initializer:
        found[tensor.name] = ValueType(tensor.data_type, list(tensor.dims))
    for info in infos:
        if info.type.WhichOneof("value") != "tensor_type":
            continue
        tensor_type = info.type.tensor_type
        if not tensor_type.elem_type:
            continue
        shape = None
        if tensor_type.HasField("shape"):
            shape = [
                d.dim_value if d.HasField("dim_value") else None for d in tensor_type.shape.dim
            ]
        found[info.name] = ValueType(tensor_type.elem_type, shape)
    return found


def _splice(model: onnx.ModelProto, s: Splice, v: str, chain: Chain, t: ValueType) -> bool:
    graph = model.graph
    producer = next((k for k, node in enumerate(graph.node) if v in node.output), None)
    s.nodes = []
    if producer is None:  # a graph input or an initializer: its readers move to the chain
        end = chain(s, v, t)
        if end is None:
            return False
        outputs = {o.name for o in graph.output}
        for node in graph.node:
            _rename_reads(node, v, end)
        if v in outputs:
            pass  # the graph output keeps the input itself
        nodes = list(graph.node)
        del graph.node[:]
        graph.node.extend([*s.nodes, *nodes])
        return True
    pre = s.fresh(v)
    node = graph.node[producer]
    end = chain(s, pre, t)
    if end is None:
        return False
    index = list(node.output).index(v)
    node.output[index] = pre
    # the chain's last node takes the value's name
    for chained in s.nodes:
        for k, out in enumerate(chained.output):
            if out == end:
                chained.output[k] = v
        for k, name in enumerate(chained.input):
            if name == end:
                chained.input[k] = v
    nodes = list(graph.node)
    del graph.node[:]
    graph.node.extend([*nodes[: producer + 1], *s.nodes, *nodes[producer + 1 :]])
    return True


def _rename_reads(node: onnx.NodeProto, old: str, new: str) -> None:
    for k, name in enumerate(node.input):
        if name == old:
            node.input[k] = new
    for attr in node.attribute:
        subs = [attr.g] if attr.HasField("g") else []
        for sub in [*subs, *attr.graphs]:
            if any(i.name == old for i in sub.input):
                continue  # shadowed
            for inner in sub.node:
                _rename_reads(inner, old, new)


def mutate(
    case: Case, seed: int, chains: int = 3, probes: int = 2, kinds: list[str] | None = None
) -> tuple[Case, list[str]]:
    """A mutant of ``case``: ``chains`` chains spliced in, ``probes`` probes added. Returns
    the mutant and what was done (chain names and probes)."""
    rng = np.random.default_rng(seed)
    model = onnx.ModelProto()
    model.CopyFrom(case.model)
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    done: list[str] = []
    s = Splice(model, opset, rng)
    names = sorted(CHAINS) if kinds is None else kinds
    for _ in range(chains):
        types = value_types(model)
        candidates = sorted(types)
        if not candidates:
            break
        for _attempt in range(8):
            v = str(rng.choice(candidates))
            name = str(rng.choice(names))
            if _splice(model, s, v, CHAINS[name], types[v]):
                done.append(f"{name}({v})")
                break
    types = value_types(model)
    graph_io = {i.name for i in model.graph.input} | {o.name for o in model.graph.output}
    inits = {t.name for t in model.graph.initializer}
    produced = [o for node in model.graph.node for o in node.output if o]
    inner = [v for v in produced if v in types and v not in graph_io and v not in inits]
    for v in (
        sorted(rng.choice(inner, size=min(probes, len(inner)), replace=False)) if inner else []
    ):
        v = str(v)
        s.nodes = []
        probe = s.one("Shape", [v])
        model.graph.node.extend(s.nodes)
        t = types[v]
        model.graph.output.append(helper.make_tensor_value_info(probe, T.INT64, [t.rank]))
        done.append(f"shape_probe({v})")
        if rng.random() < 0.25 and t.shape is not None:
            model.graph.output.append(helper.make_tensor_value_info(v, t.elem, t.shape))
            done.append(f"value_probe({v})")
    data_sets = [(list(inputs), list(outputs)) for inputs, outputs in case.data_sets]
    mutant = Case(f"{case.name}~m{seed}", model, data_sets, case.rtol, case.atol)
    return mutant, done


__all__ = ["CHAINS", "ValueType", "mutate", "value_types"]
