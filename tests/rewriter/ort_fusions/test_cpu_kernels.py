"""``ort_fusions.cpu_kernels`` against onnxruntime itself: each contrib op built alone
(its floating-point inputs cast inside the model to the type under test, its outputs cast
back to float) and run on the CPU provider; the module must say "runs" exactly when
onnxruntime runs it (and, for FusedMatMul, computes ``op(A) @ op(B)``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript.rewriter.ort_fusions import cpu_kernels
from onnxscript.rewriter.ort_fusions.fused_matmul_rule_sets import flag_perm

ort = pytest.importorskip("onnxruntime")

F, F16, F64, BF16 = ir.DataType.FLOAT, ir.DataType.FLOAT16, ir.DataType.DOUBLE, ir.DataType.BFLOAT16
FLOATS = (F, F16, F64, BF16)
RNG = np.random.default_rng(0)


def f(*shape: int) -> tuple[str, np.ndarray]:
    """A floating-point input (cast to the type under test inside the model)."""
    return ("float", RNG.standard_normal(shape).astype(np.float32))


def i64(array: Any) -> tuple[str, np.ndarray]:
    return ("int", np.asarray(array, np.int64))


def i32(array: Any) -> tuple[str, np.ndarray]:
    return ("int", np.asarray(array, np.int32))


def run_alone(
    op_type: str,
    inputs: Sequence[tuple[str, np.ndarray] | None],
    attributes: dict[str, Any],
    dtype: ir.DataType = F,
    outputs: int = 1,
    domain: str = "com.microsoft",
) -> list[np.ndarray] | None:
    """The op's outputs (as float32) in onnxruntime's CPU provider, or None when
    onnxruntime refuses the model or fails running it."""
    nodes, graph_inputs, names, feeds = [], [], [], {}
    for index, given in enumerate(inputs):
        if given is None:
            names.append("")
            continue
        kind, array = given
        name = f"i{index}"
        feeds[name] = array
        elem = helper.np_dtype_to_tensor_dtype(array.dtype)
        graph_inputs.append(helper.make_tensor_value_info(name, elem, array.shape))
        if kind == "float" and dtype != F:
            nodes.append(helper.make_node("Cast", [name], [f"{name}_c"], to=int(dtype)))
            name = f"{name}_c"
        names.append(name)
    results = [f"o{j}" for j in range(outputs)]
    nodes.append(helper.make_node(op_type, names, results, domain=domain, **attributes))
    nodes += [helper.make_node("Cast", [r], [f"{r}_f"], to=TensorProto.FLOAT) for r in results]
    graph = helper.make_graph(
        nodes, "alone", graph_inputs, [onnx.ValueInfoProto(name=f"{r}_f") for r in results]
    )
    opsets = [helper.make_opsetid("", 20), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets, ir_version=10)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    try:
        session = ort.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
        return list(session.run(None, feeds))
    except Exception:  # refused when loaded or when run
        return None


@dataclass
class Case:
    name: str
    op_type: str
    inputs: Sequence[tuple[str, np.ndarray] | None]
    attributes: dict[str, Any]
    verdict: Callable[[ir.DataType], str | None]
    outputs: int = 1
    domain: str = "com.microsoft"
    types: tuple[ir.DataType, ...] = FLOATS


def _mha(
    kv_layout: str, qk: int, v: int, past: bool = False
) -> Callable[[ir.DataType], str | None]:
    return lambda dtype: cpu_kernels.multi_head_attention(
        dtype,
        num_heads=2,
        hidden=8,
        kv_layout=kv_layout,  # type: ignore[arg-type]
        qk_head_size=qk,
        v_head_size=v,
        past=past,
    )


def _gqa_inputs(batch: int, seq: int, heads: int, kv: int, head: int, past: int | None = None):
    total = (past or 0) + seq
    return [
        f(batch, seq, heads * head),
        f(batch, seq, kv * head),
        f(batch, seq, kv * head),
        f(batch, kv, past, head) if past is not None else None,
        f(batch, kv, past, head) if past is not None else None,
        i32([total - 1] * batch),
        i32(total),
    ]


def _positions(batch: int, seq: int) -> tuple[str, np.ndarray]:
    return i64(np.tile(np.arange(seq), (batch, 1)))


CASES = [
    # MultiHeadAttention: query [2, 3, 8], 2 heads of 4
    Case(
        "mha_3d",
        "MultiHeadAttention",
        [f(2, 3, 8), f(2, 4, 8), f(2, 4, 8)],
        {"num_heads": 2},
        _mha("BSD", 4, 4),
    ),
    Case(
        "mha_3d_v6",
        "MultiHeadAttention",
        [f(2, 3, 8), f(2, 4, 8), f(2, 4, 12)],
        {"num_heads": 2},
        _mha("BSD", 4, 6),
    ),
    Case(
        "mha_4d",
        "MultiHeadAttention",
        [f(2, 3, 8), f(2, 2, 4, 4), f(2, 2, 4, 4)],
        {"num_heads": 2},
        _mha("BNSH", 4, 4),
    ),
    Case(
        "mha_4d_v6",
        "MultiHeadAttention",
        [f(2, 3, 8), f(2, 2, 4, 4), f(2, 2, 4, 6)],
        {"num_heads": 2},
        _mha("BNSH", 4, 6),
    ),
    Case(
        "mha_3d_past",
        "MultiHeadAttention",
        [f(2, 3, 8), f(2, 4, 8), f(2, 4, 8), None, None, None, f(2, 2, 5, 4), f(2, 2, 5, 4)],
        {"num_heads": 2},
        _mha("BSD", 4, 4, past=True),
        outputs=3,
    ),
    Case(
        "mha_3d_past_v6",
        "MultiHeadAttention",
        [f(2, 3, 8), f(2, 4, 8), f(2, 4, 12), None, None, None, f(2, 2, 5, 4), f(2, 2, 5, 6)],
        {"num_heads": 2},
        _mha("BSD", 4, 6, past=True),
        outputs=3,
    ),
    Case(
        "mha_heads_not_dividing",
        "MultiHeadAttention",
        [f(2, 3, 6), f(2, 4, 6), f(2, 4, 6)],
        {"num_heads": 4},
        lambda dtype: cpu_kernels.multi_head_attention(
            dtype, num_heads=4, hidden=6, kv_layout="BSD"
        ),
        types=(F,),
    ),
    # Attention: input [2, 3, 8], packed weights
    Case(
        "attention",
        "Attention",
        [f(2, 3, 8), f(8, 24), f(24)],
        {"num_heads": 2},
        lambda dtype: cpu_kernels.attention(
            dtype, input_rank=3, num_heads=2, qk_hidden=8, v_hidden=8
        ),
    ),
    Case(
        "attention_v12",
        "Attention",
        [f(2, 3, 8), f(8, 28), f(28)],
        {"num_heads": 2, "qkv_hidden_sizes": [8, 8, 12]},
        lambda dtype: cpu_kernels.attention(
            dtype, input_rank=3, num_heads=2, qk_hidden=8, v_hidden=12
        ),
        types=(F,),
    ),
    Case(
        "attention_v12_past",
        "Attention",
        [f(2, 3, 8), f(8, 28), f(28), None, f(2, 2, 2, 5, 4)],
        {"num_heads": 2, "qkv_hidden_sizes": [8, 8, 12]},
        lambda dtype: cpu_kernels.attention(
            dtype, input_rank=3, num_heads=2, qk_hidden=8, v_hidden=12, past=True
        ),
        outputs=2,
        types=(F,),
    ),
    Case(
        "attention_2d_input",
        "Attention",
        [f(3, 8), f(8, 24), f(24)],
        {"num_heads": 2},
        lambda dtype: cpu_kernels.attention(
            dtype, input_rank=2, num_heads=2, qk_hidden=8, v_hidden=8
        ),
        types=(F,),
    ),
    # GroupQueryAttention
    *(
        Case(
            f"gqa_head{head}",
            "GroupQueryAttention",
            _gqa_inputs(2, 3, 2, 1, head),
            {"num_heads": 2, "kv_num_heads": 1},
            lambda dtype, head=head: cpu_kernels.group_query_attention(
                dtype, num_heads=2, kv_num_heads=1, head_size=head
            ),
            outputs=3,
            types=FLOATS if head == 8 else (F,),
        )
        for head in (4, 8, 12, 16)
    ),
    Case(
        "gqa_heads_3_2",
        "GroupQueryAttention",
        _gqa_inputs(2, 3, 3, 2, 8),
        {"num_heads": 3, "kv_num_heads": 2},
        lambda dtype: cpu_kernels.group_query_attention(
            dtype, num_heads=3, kv_num_heads=2, head_size=8
        ),
        outputs=3,
        types=(F,),
    ),
    *(
        Case(
            f"gqa_past_b{batch}_s{seq}",
            "GroupQueryAttention",
            _gqa_inputs(batch, seq, 2, 1, 8, past=5),
            {"num_heads": 2, "kv_num_heads": 1},
            lambda dtype, batch=batch, seq=seq: cpu_kernels.group_query_attention_past(batch, seq),
            outputs=3,
            types=(F,),
        )
        for batch, seq in ((2, 3), (1, 3), (2, 1))
    ),
    # skip normalizations
    *(
        Case(
            f"{op}_{rank}d",
            op,
            [f(*shape), f(*shape), f(8), *([f(8)] if op == "SkipLayerNormalization" else [])],
            {},
            lambda dtype, op=op, rank=rank: cpu_kernels.skip_normalization(op, dtype, rank),
            types=FLOATS if rank == 3 else (F,),
        )
        for op in ("SkipLayerNormalization", "SkipSimplifiedLayerNormalization")
        for rank, shape in ((2, (3, 8)), (3, (2, 3, 8)), (4, (1, 2, 3, 8)))
    ),
    Case(
        "simplified_layer_norm",
        "SimplifiedLayerNormalization",
        [f(2, 3, 8), f(8)],
        {},
        lambda dtype: cpu_kernels.element_type("SimplifiedLayerNormalization", dtype),
        domain="",
    ),
    # RotaryEmbedding
    Case(
        "rotary_4d",
        "RotaryEmbedding",
        [f(2, 2, 3, 4), _positions(2, 3), f(4, 2), f(4, 2)],
        {"num_heads": 2},
        lambda dtype: cpu_kernels.rotary_embedding(
            dtype, input_rank=4, position_ids_rank=2, same_batch=True
        ),
    ),
    Case(
        "rotary_offset",
        "RotaryEmbedding",
        [f(2, 3, 8), i64([0]), f(4, 4), f(4, 4)],
        {"num_heads": 1},
        lambda dtype: cpu_kernels.rotary_embedding(
            dtype, input_rank=3, position_ids_rank=1, same_batch=False
        ),
        types=(F,),
    ),
    Case(
        "rotary_batch_1_positions",
        "RotaryEmbedding",
        [f(2, 2, 3, 4), _positions(1, 3), f(4, 2), f(4, 2)],
        {"num_heads": 2},
        lambda dtype: cpu_kernels.rotary_embedding(
            dtype, input_rank=4, position_ids_rank=2, same_batch=False
        ),
        types=(F,),
    ),
    Case(
        "rotary_2d",
        "RotaryEmbedding",
        [f(3, 8), _positions(1, 3), f(4, 4), f(4, 4)],
        {"num_heads": 1},
        lambda dtype: cpu_kernels.rotary_embedding(
            dtype, input_rank=2, position_ids_rank=2, same_batch=True
        ),
        types=(F,),
    ),
    # GELUs
    *(
        Case(
            f"{op}_{len(shape)}d",
            op,
            [f(*shape), *([f(8)] if op == "BiasGelu" or (op == "FastGelu" and shape) else [])],
            {},
            lambda dtype, op=op, shape=shape: cpu_kernels.gelu(op, dtype, len(shape)),
            types=FLOATS if shape else (F,),
        )
        for op in ("Gelu", "FastGelu", "BiasGelu")
        for shape in ((2, 3, 8), ())
        if not (op == "BiasGelu" and not shape)
    ),
]


@pytest.mark.parametrize(
    ("case", "dtype"),
    [(case, dtype) for case in CASES for dtype in case.types],
    ids=[f"{case.name}-{dtype.name.lower()}" for case in CASES for dtype in case.types],
)
def test_the_module_says_what_onnxruntime_runs(case: Case, dtype: ir.DataType) -> None:
    ran = run_alone(case.op_type, case.inputs, case.attributes, dtype, case.outputs, case.domain)
    reason = case.verdict(dtype)
    assert (ran is not None) == (reason is None), reason or "onnxruntime refuses it"


def _fused_matmul_cases() -> list[tuple[int, int, int, int, int, int]]:
    cases = []
    for rank_a, rank_b in ((2, 2), (3, 3), (4, 4), (3, 2), (2, 3), (4, 3), (1, 2), (2, 1), (3, 1)):
        for flags in np.ndindex(2, 2, 2, 2):
            trans_a, batch_a, trans_b, batch_b = (int(v) for v in flags)
            if (batch_a and rank_a < 3) or (batch_b and rank_b < 3):
                continue  # no permutation: the fusion never makes these
            if (rank_a == 1 and trans_a) or (rank_b == 1 and trans_b):
                continue
            cases.append((rank_a, rank_b, trans_a, batch_a, trans_b, batch_b))
    return cases


def _physical(logical: list[int], flags: tuple[int, int], rank: int) -> tuple[list[int], list[int]]:
    """The operand's stored shape for its logical ``[..., M, K]`` and the permutation that
    makes the logical one of it."""
    if rank < 2:
        return logical, list(range(rank))
    perm = flag_perm(flags, rank)
    assert perm is not None
    inverse = list(np.argsort(perm))
    return [logical[i] for i in inverse], perm


@pytest.mark.parametrize("ranks_and_flags", _fused_matmul_cases())
def test_fused_matmul_runs_and_computes_what_the_module_says(
    ranks_and_flags: tuple[int, int, int, int, int, int],
) -> None:
    rank_a, rank_b, trans_a, batch_a, trans_b, batch_b = ranks_and_flags
    logical_a = [2] * (rank_a - 2) + [3, 5] if rank_a >= 2 else [5]
    logical_b = [2] * (rank_b - 2) + [5, 4] if rank_b >= 2 else [5]
    shape_a, perm_a = _physical(logical_a, (trans_a, batch_a), rank_a)
    shape_b, perm_b = _physical(logical_b, (trans_b, batch_b), rank_b)
    a, b = f(*shape_a), f(*shape_b)
    attributes = {
        "transA": trans_a,
        "transB": trans_b,
        "transBatchA": batch_a,
        "transBatchB": batch_b,
    }
    ran = run_alone("FusedMatMul", [a, b], attributes)
    expected = np.matmul(np.transpose(a[1], perm_a), np.transpose(b[1], perm_b))
    right = ran is not None and ran[0].shape == expected.shape
    right = right and np.allclose(ran[0], expected, atol=1e-4)  # type: ignore[index]
    reason = cpu_kernels.fused_matmul(
        F,
        rank_a=rank_a,
        rank_b=rank_b,
        trans_a=trans_a,
        trans_b=trans_b,
        trans_batch_a=batch_a,
        trans_batch_b=batch_b,
    )
    assert right == (reason is None), reason or "onnxruntime refuses it or computes it wrong"


@pytest.mark.parametrize("dtype", FLOATS)
def test_fused_matmul_types(dtype: ir.DataType) -> None:
    ran = run_alone("FusedMatMul", [f(3, 8), f(8, 4)], {}, dtype)
    assert (ran is not None) == (cpu_kernels.fused_matmul(dtype, rank_a=2, rank_b=2) is None)
