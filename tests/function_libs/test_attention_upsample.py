"""Scaled dot-product attention and interpolation (aten/attention.py, aten/upsample.py):
modules exported with dynamic shapes and run by onnxruntime at the export's sizes and two
others, against torch; a tiny GPT-2 with dynamic batch and sequence; the fused attention
kernels' overloads against torch's math; every OpInfo sample of the entries that reach
these overloads (test_ops_opinfo runs the first three of each)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from tests.function_libs.dynamic_export import (  # noqa: E402
    all_dynamic,
    check_at,
    compare,
    export,
    run_onnx,
)

F = torch.nn.functional
DYN = torch.export.Dim.DYNAMIC

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning"),
    pytest.mark.filterwarnings("ignore::FutureWarning"),
]


def _onnx_ops(program: Any) -> list[str]:
    return [node.op_type for node in program.model.graph]


def _assert_matches(program: Any, module: torch.nn.Module, inputs: list[tuple[Any, ...]]) -> None:
    differences = check_at(program, module, inputs)
    assert all(d.ok for d in differences), differences


# -- attention --------------------------------------------------------------------------------


class _Attention(torch.nn.Module):
    """``F.scaled_dot_product_attention(q, k, v[, attn_mask], **options)``."""

    def __init__(self, **options: Any) -> None:
        super().__init__()
        self.options = options

    def forward(self, q: Any, k: Any, v: Any, mask: Any = None) -> Any:
        if mask is None:
            return F.scaled_dot_product_attention(q, k, v, **self.options)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, **self.options)


def _bool_mask(batch: int, length: int, keys: int) -> Any:
    """[B, 1, L, S], random, with query row 0 of batch 0 seeing no key (torch: zeros)."""
    mask = torch.rand(batch, 1, length, keys) > 0.4
    mask[0, 0, 0] = False
    return mask


def _float_mask(batch: int, length: int, keys: int) -> Any:
    """[L, S] additive, with some -inf and query row 0 all -inf (torch: zeros)."""
    mask = torch.randn(length, keys)
    mask[torch.rand(length, keys) > 0.7] = -torch.inf
    mask[0] = -torch.inf
    return mask


Sizes = tuple[int, int, int]  # batch, query length, key length
MASKS: dict[str, Callable[[int, int, int], Any]] = {"bool": _bool_mask, "float": _float_mask}
ATTENTION: dict[str, tuple[dict[str, Any], str | None]] = {
    "plain": ({}, None),
    "scale": ({"scale": 0.3}, None),
    "causal": ({"is_causal": True}, None),
    "bool_mask": ({}, "bool"),
    "float_mask": ({}, "float"),
    "gqa": ({"enable_gqa": True}, None),
    "gqa_causal": ({"enable_gqa": True, "is_causal": True}, None),
    "gqa_bool_mask": ({"enable_gqa": True}, "bool"),
}
"""Case -> SDPA keyword arguments and the kind of attn_mask given (torch refuses a mask
with is_causal here; the CPU flash kernel's overload takes both, tested below)."""
SIZES: list[Sizes] = [(2, 5, 7), (3, 9, 4), (1, 1, 12)]
"""The export's sizes first; L > S, L < S and a single query among them."""


def _attention_inputs(case: str, sizes: Sizes, heads: int = 4) -> tuple[Any, ...]:
    batch, length, keys = sizes
    options, mask = ATTENTION[case]
    kv_heads = heads // 2 if options.get("enable_gqa") else heads
    q = torch.randn(batch, heads, length, 8)
    k = torch.randn(batch, kv_heads, keys, 8)
    v = torch.randn(batch, kv_heads, keys, 6)
    return (q, k, v) if mask is None else (q, k, v, MASKS[mask](batch, length, keys))


def _attention_dims(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Batch and lengths dynamic (the mask's too, where it has them)."""
    dims: list[Any] = [{0: DYN, 2: DYN}] * 3
    if len(args) == 4:
        dims.append({0: DYN, 2: DYN, 3: DYN} if args[3].dim() == 4 else {0: DYN, 1: DYN})
    return tuple(dims)


@pytest.mark.parametrize("case", sorted(ATTENTION))
def test_attention_with_dynamic_lengths_matches_torch(case: str):
    torch.manual_seed(0)
    module = _Attention(**ATTENTION[case][0])
    inputs = [_attention_inputs(case, sizes) for sizes in SIZES]
    program = export(module, inputs[0], _attention_dims(inputs[0]))
    ops = _onnx_ops(program)
    assert ops.count("Softmax") == 1 and ops.count("MatMul") == 2, ops
    _assert_matches(program, module, inputs)


@pytest.mark.parametrize("case", ["plain", "gqa"])
def test_attention_with_every_dim_dynamic(case: str):
    """Heads and head size dynamic too: the default scale and the key-head repetition are
    computed from the run-time shapes."""
    torch.manual_seed(0)
    module = _Attention(**ATTENTION[case][0])
    inputs = [_attention_inputs(case, sizes, heads) for sizes, heads in zip(SIZES, (4, 6, 2))]
    program = export(module, inputs[0], all_dynamic(inputs[0]))
    _assert_matches(program, module, inputs)


def test_attention_without_heads():
    """[B, L, E] inputs (no head dim), causal."""
    torch.manual_seed(0)
    module = _Attention(is_causal=True)
    inputs = [tuple(torch.randn(b, n, 8) for n in (q, k, k)) for b, q, k in SIZES]
    program = export(module, inputs[0], ({0: DYN, 1: DYN},) * 3)
    _assert_matches(program, module, inputs)


def _run_unoptimized(model: Any, args: tuple[Any, ...]) -> list[np.ndarray]:
    """The model run by onnxruntime without its graph optimizations (which drop a Dropout
    that follows a Softmax even in training mode)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = onnxruntime.InferenceSession(model.SerializeToString(), options)
    names = [i.name for i in session.get_inputs()]
    return session.run(None, {n: a.numpy() for n, a in zip(names, args)})


def test_attention_dropout_is_random_and_keeps_the_shape():
    torch.manual_seed(0)
    module = _Attention(dropout_p=0.5)
    args = _attention_inputs("plain", SIZES[0])
    program = export(module, args, _attention_dims(args))
    assert "Dropout" in _onnx_ops(program)
    expected = F.scaled_dot_product_attention(*args).numpy()
    runs = [_run_unoptimized(program.model_proto, args)[0] for _ in range(2)]
    assert all(r.shape == expected.shape and np.isfinite(r).all() for r in runs)
    assert not np.allclose(runs[0], runs[1])
    assert not np.allclose(runs[0], expected)


class _GPT2Logits(torch.nn.Module):
    def __init__(self, model: Any) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: Any, attention_mask: Any) -> Any:
        return self.model(input_ids=input_ids, attention_mask=attention_mask).logits


def _tokens(batch: int, length: int) -> tuple[Any, Any]:
    """Token ids and an attention mask with the second sequence left-padded."""
    ids = torch.randint(0, 100, (batch, length))
    mask = torch.ones(batch, length, dtype=torch.int64)
    if batch > 1:
        mask[1, : length // 2] = 0
    return ids, mask


def test_gpt2_with_dynamic_batch_and_sequence():
    """A tiny GPT-2 (its attention is aten::scaled_dot_product_attention, with a bool
    mask): exported with dynamic batch and sequence, it matches torch at two other shapes,
    padded rows included."""
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        vocab_size=100, n_embd=32, n_layer=2, n_head=4, n_positions=128
    )
    module = _GPT2Logits(transformers.GPT2LMHeadModel(config).eval())
    inputs = [_tokens(2, 7), _tokens(3, 11), _tokens(1, 5)]
    program = export(module, inputs[0], ({0: DYN, 1: DYN}, {0: DYN, 1: DYN}))
    assert _onnx_ops(program).count("Softmax") == config.n_layer
    _assert_matches(program, module, inputs)


# -- the fused kernels' overloads -------------------------------------------------------------


def _math_attention(q: Any, k: Any, v: Any, bias: Any, causal: bool, scale: float | None) -> Any:
    """torch's output and the logsumexp of the scaled, masked scores."""
    factor = q.shape[-1] ** -0.5 if scale is None else scale
    scores = q @ k.transpose(-1, -2) * factor
    if causal:
        keep = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
        scores = scores.masked_fill(~keep, -torch.inf)
    if bias is not None:
        scores = scores + bias
    output = F.scaled_dot_product_attention(q, k, v, attn_mask=bias, is_causal=causal, scale=scale)
    return output, torch.logsumexp(scores, -1)


class _Flash(torch.nn.Module):
    """The CUDA flash kernel's overload (no CPU kernel: compared with torch's math)."""

    def forward(self, q: Any, k: Any, v: Any) -> Any:
        result = torch.ops.aten._scaled_dot_product_flash_attention(q, k, v, 0.0, True, scale=0.3)
        return result[0], result[1]


class _Efficient(torch.nn.Module):
    """The CUDA memory-efficient kernel's overload, with a bias and the logsumexp."""

    def forward(self, q: Any, k: Any, v: Any, bias: Any) -> Any:
        result = torch.ops.aten._scaled_dot_product_efficient_attention(q, k, v, bias, True)
        return result[0], result[1]


class _FlashForCpu(torch.nn.Module):
    """The CPU flash kernel's overload, causal, with a float mask or none."""

    def forward(self, q: Any, k: Any, v: Any, mask: Any = None) -> Any:
        return torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(
            q, k, v, is_causal=True, attn_mask=mask
        )


def _qkv(sizes: Sizes) -> tuple[Any, Any, Any]:
    batch, length, keys = sizes
    return (
        torch.randn(batch, 3, length, 8),
        torch.randn(batch, 3, keys, 8),
        torch.randn(batch, 3, keys, 8),
    )


@pytest.mark.parametrize("masked", [False, True])
def test_flash_attention_for_cpu_matches_torch(masked: bool):
    """Output and logsumexp; causal and the float mask together (a row they mask out
    entirely: zeros)."""
    torch.manual_seed(0)
    module = _FlashForCpu()
    inputs = [
        (*_qkv(sizes), _float_mask(*sizes).expand(sizes[0], 1, -1, -1)) if masked else _qkv(sizes)
        for sizes in SIZES
    ]
    dims = ({0: DYN, 2: DYN},) * 3 + (({0: DYN, 2: DYN, 3: DYN},) if masked else ())
    program = export(module, inputs[0], dims)
    _assert_matches(program, module, inputs)


def test_cuda_flash_attention_overload_matches_math():
    torch.manual_seed(0)
    inputs = [_qkv(sizes) for sizes in SIZES]
    program = export(_Flash(), inputs[0], ({0: DYN, 2: DYN},) * 3)
    for q, k, v in inputs:
        output, lse = _math_attention(q, k, v, None, True, 0.3)
        got = run_onnx(program.model_proto, (q, k, v))
        assert compare(got, [output.numpy(), lse.numpy()]).ok


def test_cuda_efficient_attention_overload_matches_math():
    """The logsumexp's rows are padded to a multiple of 32 as the kernel's."""
    torch.manual_seed(0)
    inputs = [(*_qkv(s), torch.randn(s[0], 3, s[1], s[2])) for s in [*SIZES, (2, 40, 5)]]
    program = export(_Efficient(), inputs[0], ({0: DYN, 2: DYN},) * 3 + ({0: DYN, 2: DYN, 3: DYN},))
    for q, k, v, bias in inputs:
        output, lse = _math_attention(q, k, v, bias, False, None)
        got = run_onnx(program.model_proto, (q, k, v, bias))
        rows = -(-q.shape[-2] // 32) * 32
        assert got[1].shape == (*lse.shape[:-1], rows)
        assert compare([got[0], got[1][..., : q.shape[-2]]], [output.numpy(), lse.numpy()]).ok


# -- interpolation ----------------------------------------------------------------------------


class _Interpolate(torch.nn.Module):
    def __init__(self, body: Callable[[Any], Any]) -> None:
        super().__init__()
        self.body = body

    def forward(self, x: Any) -> Any:
        return self.body(x)


def _doubled(mode: str, **options: Any) -> Callable[[Any], Any]:
    return lambda x: F.interpolate(x, size=(x.shape[2] * 2, x.shape[3] * 2), mode=mode, **options)


INTERPOLATE: dict[str, Callable[[Any], Any]] = {
    "nearest_size": _doubled("nearest"),
    "nearest_exact_size": lambda x: F.interpolate(
        x, size=(x.shape[2] + 3, x.shape[3] * 2), mode="nearest-exact"
    ),
    "bilinear_size": _doubled("bilinear"),
    "bilinear_align_corners_size": _doubled("bilinear", align_corners=True),
    "bicubic_size": _doubled("bicubic"),
    "bicubic_align_corners_size": _doubled("bicubic", align_corners=True),
    "bilinear_mixed_size": lambda x: F.interpolate(x, size=(x.shape[2] * 2, 7), mode="bilinear"),
    "bilinear_halved_size": lambda x: F.interpolate(
        x, size=(x.shape[2] // 2, x.shape[3] - 1), mode="bilinear"
    ),
    "nearest_scale_2": lambda x: F.interpolate(x, scale_factor=2.0, mode="nearest"),
    "nearest_scale_0.5": lambda x: F.interpolate(x, scale_factor=0.5, mode="nearest"),
    "bilinear_scale_1.5": lambda x: F.interpolate(x, scale_factor=1.5, mode="bilinear"),
    "bicubic_scales": lambda x: F.interpolate(x, scale_factor=(2.0, 0.5), mode="bicubic"),
    "antialiased_bilinear": lambda x: F.interpolate(
        x, size=(x.shape[2] // 2, x.shape[3] // 3), mode="bilinear", antialias=True
    ),
    "antialiased_bicubic": lambda x: F.interpolate(
        x, size=(x.shape[2] // 2, x.shape[3] + 2), mode="bicubic", antialias=True
    ),
    "linear_1d": lambda x: F.interpolate(
        x.flatten(2), size=x.shape[2] * x.shape[3] + 5, mode="linear"
    ),
    "trilinear_3d": lambda x: F.interpolate(
        x.unsqueeze(2).expand(-1, -1, 3, -1, -1),
        size=(5, x.shape[2] + 1, x.shape[3] * 2),
        mode="trilinear",
    ),
    "nearest_3d": lambda x: F.interpolate(x.unsqueeze(2), scale_factor=2.0, mode="nearest"),
}
"""Case -> a function of x [N, C, H, W] (all but C dynamic)."""
IMAGES = [(2, 3, 8, 10), (1, 3, 5, 7), (3, 3, 12, 6)]
"""The export's shape first."""


def _image_dims() -> tuple[Any, ...]:
    return ({0: DYN, 2: DYN, 3: DYN},)


@pytest.mark.parametrize("case", sorted(INTERPOLATE))
def test_interpolation_with_dynamic_sizes_matches_torch(case: str):
    torch.manual_seed(0)
    module = _Interpolate(INTERPOLATE[case])
    inputs = [(torch.randn(*shape),) for shape in IMAGES]
    program = export(module, inputs[0], _image_dims())
    assert _onnx_ops(program).count("Resize") == 1
    _assert_matches(program, module, inputs)


class _Segmenter(torch.nn.Module):
    """A segmentation head: features at a quarter of the resolution, upsampled back to the
    input's (symbolic) size."""

    def __init__(self) -> None:
        super().__init__()
        self.encoder = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, stride=2, padding=1),
            torch.nn.ReLU(),
            torch.nn.Conv2d(8, 4, 3, stride=2, padding=1),
        )

    def forward(self, x: Any) -> Any:
        logits = self.encoder(x)
        return F.interpolate(logits, size=x.shape[-2:], mode="bilinear", align_corners=False)


class _PositionEmbedding(torch.nn.Module):
    """A vision transformer's position embeddings interpolated (bicubic) to the patch grid
    of the input."""

    def __init__(self) -> None:
        super().__init__()
        self.patches = torch.nn.Conv2d(3, 8, 2, stride=2)
        self.position = torch.nn.Parameter(torch.randn(1, 8, 4, 4))

    def forward(self, x: Any) -> Any:
        patches = self.patches(x)
        grid = F.interpolate(self.position, size=patches.shape[-2:], mode="bicubic")
        return (patches + grid).flatten(2).transpose(1, 2)


@pytest.mark.parametrize("model", [_Segmenter, _PositionEmbedding])
def test_models_interpolating_to_symbolic_sizes(model: type[torch.nn.Module]):
    torch.manual_seed(0)
    module = model().eval()
    inputs = [(torch.randn(*shape),) for shape in IMAGES]
    program = export(module, inputs[0], _image_dims())
    _assert_matches(program, module, inputs)


# -- every OpInfo sample ----------------------------------------------------------------------

OPINFO_ENTRIES = [
    "nn.functional.scaled_dot_product_attention",
    "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu",
    "nn.functional.interpolate.nearest",
    "nn.functional.interpolate.nearest-exact",
    "nn.functional.interpolate.linear",
    "nn.functional.interpolate.bilinear",
    "nn.functional.interpolate.bicubic",
    "nn.functional.interpolate.trilinear",
    "nn.functional.upsample_bilinear",
    "nn.functional.upsample_nearest",
    "_upsample_bilinear2d_aa",
]
REFUSED = "align_corners=True"
"""The refusal of antialiased interpolation with align_corners (no Resize mode has torch's
sample points there)."""


class _Sample(torch.nn.Module):
    def __init__(self, op: Any, template: list[Any], kwargs: dict[str, Any]) -> None:
        super().__init__()
        self.op, self.template, self.kwargs = op, template, kwargs

    def forward(self, *tensors: Any) -> Any:
        given = iter(tensors)
        args = [next(given) if isinstance(a, torch.Tensor) else a for a in self.template]
        return self.op(*args, **self.kwargs)


ALL_SAMPLES = os.environ.get("TORCHLIB_ALL_SAMPLES", "") not in ("", "0")
"""Every sample of each entry (env ``TORCHLIB_ALL_SAMPLES=1``, about 2 min); by default every
third one (the OpInfo harness runs the first three of each entry already)."""


@pytest.mark.parametrize("entry", OPINFO_ENTRIES)
def test_every_opinfo_sample_exported(entry: str):
    """Each sample exported and run: it matches torch, or (dropout) has torch's shape, or
    is the documented refusal."""
    pytest.importorskip("expecttest")
    from tests.function_libs.opinfo_harness import opinfos, run_exported

    info = opinfos()[entry]
    failures = []
    for index, sample in enumerate(info.sample_inputs("cpu", torch.float32)):
        if not ALL_SAMPLES and index % 3:
            continue
        template = [sample.input, *sample.args]
        module = _Sample(info.op, template, dict(sample.kwargs))
        tensors = tuple(a for a in template if isinstance(a, torch.Tensor))
        if sample.kwargs.get("dropout_p", 0.0) > 0:
            failures += _dropout_sample_problems(index, module, tensors)
            continue
        result = run_exported(module, tensors).result
        if result != "pass" and not (sample.kwargs.get("align_corners") and REFUSED in result):
            failures.append((index, result))
    assert not failures, failures


def _dropout_sample_problems(index: int, module: Any, tensors: tuple[Any, ...]) -> list[Any]:
    """A sample with dropout: random in both, so compared by shape."""
    program = export(module, tensors, optimize=False)
    got = run_onnx(program.model_proto, tensors)[0]
    expected = module(*tensors)
    return [] if got.shape == tuple(expected.shape) else [(index, got.shape, expected.shape)]
