"""torch's decomposed quantization ops (``quantized_decomposed::``) exported through
torch.onnx, against torch's own results: each overload called directly (static and dynamic
batch), and an FX-reference quantized model (PT2E's ``quantize_pt2e`` left torch for torchao,
which is not installed; ``_convert_to_reference_decomposed_fx`` makes the same QDQ ops).

torch quantizes ``round(x * (1 / scale))``, ONNX ``round(x / scale)``: where the two round
differently (a value within a rounding error of a half step) the outputs differ by one;
those elements are found with torch and allowed, every other one must be equal."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch.ao.quantization.fx._decomposed")

from tests.function_libs import dynamic_export  # noqa: E402

Q = torch.ops.quantized_decomposed
SCALE, ZERO = 0.0731, 3
CHANNEL_SCALES = torch.tensor([0.05, 0.0213, 0.11, 0.031])
CHANNEL_ZEROS = torch.tensor([0, -4, 7, 2])


class _Overloads(torch.nn.Module):
    """Every overload, and the dtypes ONNX's QDQ ops lack (int16) and out_dtype."""

    def forward(self, x: Any, q8: Any, q16: Any, qc: Any) -> tuple[Any, ...]:
        scale, zero = torch.tensor(SCALE), torch.tensor(ZERO)
        low, high = torch.tensor(-100), torch.tensor(100)
        quantized = (
            Q.quantize_per_tensor(x, SCALE, 128 + ZERO, 0, 255, torch.uint8),
            Q.quantize_per_tensor(x, SCALE, ZERO, -127, 127, torch.int8),  # narrowed
            Q.quantize_per_tensor.tensor(x, scale, zero, -128, 127, torch.int8),
            Q.quantize_per_tensor.tensor2(x, scale, zero, low, high, torch.int8),
            Q.quantize_per_tensor(x, SCALE / 50, ZERO, -(2**15), 2**15 - 1, torch.int16),
            Q.quantize_per_channel(x, CHANNEL_SCALES, CHANNEL_ZEROS, 1, -128, 127, torch.int8),
        )
        dequantized = (
            Q.dequantize_per_tensor(q8, SCALE, ZERO, -128, 127, torch.int8),
            Q.dequantize_per_tensor.tensor(q8, scale, zero, -128, 127, torch.int8),
            Q.dequantize_per_tensor.tensor2(q8, scale, zero, low, high, torch.int8),
            Q.dequantize_per_tensor(
                q8, SCALE, ZERO, -128, 127, torch.int8, out_dtype=torch.float16
            ),
            Q.dequantize_per_tensor(q16, SCALE / 50, ZERO, -(2**15), 2**15 - 1, torch.int16),
            Q.dequantize_per_channel(qc, CHANNEL_SCALES, CHANNEL_ZEROS, 1, -128, 127, torch.int8),
            Q.dequantize_per_channel(qc, CHANNEL_SCALES, None, 1, -128, 127, torch.int8),
        )
        return (*quantized, *dequantized)


SCALES = [SCALE, SCALE, SCALE, SCALE, SCALE / 50, CHANNEL_SCALES.reshape(1, 4, 1)]
"""The scale of each quantized output, to find where torch's two roundings differ."""


def _inputs(batch: int) -> tuple[Any, ...]:
    generator = torch.Generator().manual_seed(batch)
    x = torch.randn(batch, 4, 50, generator=generator) * 4
    x[0, 0, :3] = torch.tensor([0.5, 1.5, -2.5]) * SCALE  # ties (round half to even)
    q8 = torch.randint(-128, 128, (batch, 4, 50), dtype=torch.int8, generator=generator)
    q16 = torch.randint(-(2**15), 2**15, (batch, 4, 50), dtype=torch.int16, generator=generator)
    return x, q8, q16, q8.clone()


def _check(program: Any, module: torch.nn.Module, args: tuple[Any, ...]) -> None:
    got = dynamic_export.run_onnx(program.model_proto, args)
    with torch.no_grad():
        expected = [t.numpy() for t in module(*args)]
    x = args[0]
    for index, (g, e) in enumerate(zip(got, expected)):
        assert g.dtype == e.dtype and g.shape == e.shape, index
        if index < len(SCALES):  # quantized: exact but where torch's roundings differ
            scale = SCALES[index]
            tie = torch.round(x / scale) != torch.round(x * (1.0 / scale))
            allowed = tie.numpy()
            assert allowed.sum() <= 2
            np.testing.assert_array_equal(g[~allowed], e[~allowed])
            assert np.abs(g.astype(np.int64) - e.astype(np.int64)).max() <= 1
        else:
            np.testing.assert_allclose(g, e, rtol=0, atol=1e-6 if e.dtype == np.float32 else 1e-3)


def test_each_overload_against_torch() -> None:
    """Exported with a dynamic batch, checked at the export's batch and another."""
    module = _Overloads().eval()
    args = _inputs(2)
    spec = tuple({0: torch.export.Dim.DYNAMIC} for _ in args)
    program = dynamic_export.export(module, args, dynamic_shapes=spec, optimize=False)
    ops = [n.op_type for n in program.model.graph]
    assert ops.count("QuantizeLinear") == 5 and ops.count("DequantizeLinear") == 5
    assert ops.count("Clip") >= 2  # the narrowed ranges
    for batch in (2, 5):
        _check(program, module, _inputs(batch))


class _Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x: Any) -> Any:
        return self.fc(torch.relu(self.conv(x)).mean((2, 3)))


def _reference_model() -> Any:
    """The FX reference model with decomposed QDQ ops (x86: per-channel weights,
    activations in a reduced uint8 range)."""
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import _convert_to_reference_decomposed_fx, prepare_fx

    torch.manual_seed(0)
    model = _Net().eval()
    example = (torch.randn(2, 3, 8, 8),)
    prepared = prepare_fx(model, get_default_qconfig_mapping("x86"), example)
    for _ in range(4):
        prepared(torch.randn(4, 3, 8, 8))
    return _convert_to_reference_decomposed_fx(prepared)


def test_quantized_model_against_torch_reference() -> None:
    reference = _reference_model()
    x = torch.randn(2, 3, 8, 8, generator=torch.Generator().manual_seed(1))
    spec = ({0: torch.export.Dim.DYNAMIC},)
    plain = dynamic_export.export(reference, (x,), dynamic_shapes=spec, optimize=False)
    quantizers = [n for n in plain.model.graph if n.op_type == "QuantizeLinear"]
    assert len(quantizers) == 7
    assert sum(n.attributes.get_int("axis", 1) == 0 for n in quantizers) == 2  # weights
    last = [n for n in reference.graph.nodes if n.target == Q.quantize_per_tensor.default][-1]
    step = float(last.args[1])  # the output quantizer's scale
    others = [x, torch.randn(5, 3, 8, 8, generator=torch.Generator().manual_seed(2))]
    optimized = dynamic_export.export(reference, (x,), dynamic_shapes=spec)
    for program in (plain, optimized):
        for args in others:
            got = dynamic_export.run_onnx(program.model_proto, [args])[0]
            expected = reference(args).detach().numpy()
            off = np.abs(got - expected)
            # A float op's last bit (ORT's Conv against torch's) may move a value across
            # a quantizer's rounding point (and the optimizer folds the weights' QDQ with
            # ONNX's rounding); the next quantizers carry the change on: a step or two of
            # the output, in few elements.
            assert off.max() <= 2 * step * 1.001
            assert (off > 1e-6).mean() <= 0.25, off


def test_eager_against_torch() -> None:
    """Our functions called on arrays (onnxscript's eager mode), as torch's ATen graph
    evaluator calls them."""
    import onnx_ir as ir

    from onnxscript.function_libs.torch_lib.aten import quantized

    int8, int16 = int(ir.DataType.INT8), int(ir.DataType.INT16)
    x, q8, _, _ = _inputs(3)
    scales, zeros = CHANNEL_SCALES.numpy(), CHANNEL_ZEROS.numpy()
    cases = [
        (
            quantized.quantize_per_tensor(x.numpy(), SCALE, ZERO, -100, 100, int8),
            Q.quantize_per_tensor(x, SCALE, ZERO, -100, 100, torch.int8),
        ),
        (
            quantized.quantize_per_tensor(x.numpy(), SCALE / 50, ZERO, -(2**15), 2**15 - 1, int16),
            Q.quantize_per_tensor(x, SCALE / 50, ZERO, -(2**15), 2**15 - 1, torch.int16),
        ),
        (
            quantized.quantize_per_channel(x.numpy(), scales, zeros, 1, -128, 127, int8),
            Q.quantize_per_channel(x, CHANNEL_SCALES, CHANNEL_ZEROS, 1, -128, 127, torch.int8),
        ),
        (
            quantized.dequantize_per_tensor_tensor(
                q8.numpy(), np.float32(SCALE), np.int64(ZERO), -128, 127, int8
            ),
            Q.dequantize_per_tensor.tensor(
                q8, torch.tensor(SCALE), torch.tensor(ZERO), -128, 127, torch.int8
            ),
        ),
        (
            quantized.dequantize_per_channel(q8.numpy(), scales, None, 1, -128, 127, int8),
            Q.dequantize_per_channel(q8, CHANNEL_SCALES, None, 1, -128, 127, torch.int8),
        ),
    ]
    for index, (ours, theirs) in enumerate(cases):
        got, expected = np.asarray(ours), theirs.numpy()
        assert got.dtype == expected.dtype, index
        if index < 3:  # quantized: the elements where torch's two roundings agree
            scale = SCALE / 50 if index == 1 else SCALE
            scale_tensor = CHANNEL_SCALES.reshape(1, 4, 1) if index == 2 else scale
            agree = (torch.round(x / scale_tensor) == torch.round(x * (1.0 / scale_tensor))).numpy()
            np.testing.assert_array_equal(got[agree], expected[agree])
        else:
            np.testing.assert_allclose(got, expected, rtol=0, atol=1e-6)
