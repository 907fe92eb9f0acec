"""Neural-network overloads registered for breadth (losses, embedding bags, pooling, norms,
pixel shuffles, im2col, fake quantization) in the cases the OpInfo entries' first samples
do not reach: each module is exported with dynamic shapes, its graph checked to call the
overload (torch keeps it whole because the library registers it), and run by onnxruntime
at the export's sizes and at others, against torch; and each function run eagerly on
arrays against torch's kernel (the OpInfo harness's eager mode decomposes these
non-core overloads, so never calls them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from onnxscript.function_libs.torch_lib.aten import (  # noqa: E402
    embedding,
    fake_quantize,
    losses,
    nn,
    rearrange,
)
from tests.function_libs.dynamic_export import check_at, export  # noqa: E402
from tests.function_libs.opinfo_harness import graph_overloads  # noqa: E402

F = torch.nn.functional
DYN = torch.export.Dim.DYNAMIC

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning"),
    pytest.mark.filterwarnings("ignore::FutureWarning"),
]


class _Call(torch.nn.Module):
    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args: Any) -> Any:
        return self.fn(*args)


@dataclass(frozen=True)
class Case:
    """``fn`` on each input tuple of ``make(size)`` for two sizes; ``dims`` the dynamic
    spec (None: static, run at the export's sizes only); ``overload`` the overload the
    exported graph must call."""

    fn: Callable[..., Any]
    make: Callable[[int], tuple[Any, ...]]
    dims: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None
    overload: str


def _every_dim(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple({axis: DYN for axis in range(a.dim())} for a in args)


def _first_dims(count: int) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """Dim 0 dynamic in the first ``count`` inputs, the rest static."""
    return lambda args: tuple({0: DYN} if i < count else None for i in range(len(args)))


def _logits(n: int, classes: int = 5, *rest: int) -> torch.Tensor:
    return torch.randn(n, classes, *rest)


def _targets(n: int, classes: int = 5, *rest: int, ignored: int = -100) -> torch.Tensor:
    target = torch.randint(0, classes, (n, *rest))
    target.view(-1)[1] = ignored
    return target


def _bags(n: int) -> tuple[Any, ...]:
    """A table of 10 rows, 3n indices in n bags (one empty), the offsets."""
    indices = torch.randint(0, 10, (3 * n,))
    offsets = torch.tensor([0, 0] + [3 * i + 1 for i in range(1, n - 1)])
    return torch.randn(10, 4), indices, offsets


def _closed(weight: Any, indices: Any, offsets: Any) -> tuple[Any, ...]:
    """The bags with the closing offset (``include_last_offset``)."""
    return weight, indices, torch.cat([offsets, torch.tensor([len(indices)])])


def _halves(n: int) -> torch.Tensor:
    """Values on the half-steps of a 0.25 grid (round half to even matters), past the
    ranges."""
    return (torch.arange(-4 * n, 4 * n + 3, dtype=torch.float32) * 0.125).reshape(1, -1)


CASES: dict[str, Case] = {
    "cross_entropy_smoothing": Case(
        lambda x, t: F.cross_entropy(x, t, label_smoothing=0.2),
        lambda n: (_logits(n, 5, 3), _targets(n, 5, 3)),
        _every_dim,
        "aten::cross_entropy_loss",
    ),
    "cross_entropy_weight_ignore_none": Case(
        lambda x, t, w: F.cross_entropy(x, t, w, ignore_index=2, reduction="none"),
        lambda n: (_logits(n), _targets(n, ignored=2), torch.rand(5)),
        _first_dims(2),
        "aten::cross_entropy_loss",
    ),
    "cross_entropy_weight_smoothing_sum": Case(
        lambda x, t, w: F.cross_entropy(x, t, w, reduction="sum", label_smoothing=0.1),
        lambda n: (_logits(n), _targets(n), torch.rand(5)),
        _first_dims(2),
        "aten::cross_entropy_loss",
    ),
    "cross_entropy_weight_smoothing_mean": Case(
        lambda x, t, w: F.cross_entropy(x, t, w, label_smoothing=0.3),
        lambda n: (_logits(n, 5, 2), _targets(n, 5, 2), torch.rand(5)),
        _first_dims(2),
        "aten::cross_entropy_loss",
    ),
    "cross_entropy_probabilities": Case(
        lambda x, t, w: F.cross_entropy(x, t, w, label_smoothing=0.25),
        lambda n: (_logits(n, 5, 2), torch.rand(n, 5, 2).softmax(1), torch.rand(5)),
        _first_dims(2),
        "aten::cross_entropy_loss",
    ),
    "cross_entropy_unbatched": Case(
        lambda x, t: F.cross_entropy(x, t, reduction="none"),
        lambda n: (torch.randn(n), torch.tensor(n - 1)),
        lambda args: ({0: DYN}, None),
        "aten::cross_entropy_loss",
    ),
    "nll_loss_weight_ignore": Case(
        lambda x, t, w: F.nll_loss(x, t, w, ignore_index=-1),
        lambda n: (_logits(n).log_softmax(1), _targets(n, ignored=-1), torch.rand(5)),
        _first_dims(2),
        "aten::nll_loss",
    ),
    "nll_loss_forward": Case(
        lambda x, t, w: torch.ops.aten.nll_loss_forward(x, t, w, 2, 3),
        lambda n: (_logits(n).log_softmax(1), _targets(n, ignored=3), torch.rand(5)),
        _first_dims(2),
        "aten::nll_loss_forward",
    ),
    "embedding_bag_mean_padding": Case(
        lambda w, i, o: F.embedding_bag(i, w, o, mode="mean", padding_idx=-2),
        _bags,
        lambda args: (None, {0: DYN}, {0: DYN}),
        "aten::embedding_bag.padding_idx",
    ),
    "embedding_bag_max_last_offset": Case(
        lambda w, i, o: F.embedding_bag(i, w, o, mode="max", include_last_offset=True),
        lambda n: _closed(*_bags(n)),
        lambda args: ({0: DYN}, {0: DYN}, {0: DYN}),
        "aten::embedding_bag.padding_idx",
    ),
    "embedding_bag_weighted_sum": Case(
        lambda w, i, o, p: F.embedding_bag(i, w, o, mode="sum", per_sample_weights=p),
        lambda n: (*_bags(n), torch.rand(3 * n)),
        lambda args: (None, {0: DYN}, {0: DYN}, {0: DYN}),
        "aten::embedding_bag.padding_idx",
    ),
    "embedding_bag_direct": Case(
        lambda w, i, o: torch.ops.aten.embedding_bag(w, i, o, False, 1)[0],
        _bags,
        lambda args: ({0: DYN}, {0: DYN}, {0: DYN}),
        "aten::embedding_bag",
    ),
    "embedding_renorm": Case(
        lambda w, i: F.embedding(i, w.clone(), max_norm=1.5, norm_type=3.0),
        lambda n: (torch.randn(n + 4, 3), torch.randint(0, n + 4, (2, n))),
        _every_dim,
        "aten::embedding_renorm",
    ),
    "fake_quantize_per_tensor": Case(
        lambda x: torch.fake_quantize_per_tensor_affine(x, 0.25, 3, -2, 9),
        lambda n: (_halves(n),),
        None,  # torch.export has no fake kernel of the cachemask op it calls
        "aten::fake_quantize_per_tensor_affine",
    ),
    "fake_quantize_tensor_qparams": Case(
        lambda x, s, z: torch.fake_quantize_per_tensor_affine(x, s, z, 0, 255),
        lambda n: (
            torch.randn(n, 3) * 5,
            torch.tensor([0.1]),
            torch.tensor([100], dtype=torch.int32),
        ),
        None,  # torch.export has no fake kernel of the cachemask op it calls
        "aten::fake_quantize_per_tensor_affine.tensor_qparams",
    ),
    "fake_quantize_per_channel": Case(
        lambda x, s, z: torch.fake_quantize_per_channel_affine(x, s, z, 1, -8, 7),
        lambda n: (
            _halves(n).expand(3, -1).T.reshape(-1, 3, 1) * torch.tensor([1.0, 2.0, 0.5])[:, None],
            torch.tensor([0.25, 0.5, 0.125]),
            torch.tensor([0, 2, -1], dtype=torch.int32),
        ),
        None,  # torch.export has no fake kernel of the cachemask op it calls
        "aten::fake_quantize_per_channel_affine",
    ),
    "fake_quantize_per_channel_float_zero": Case(
        lambda x, s, z: torch.fake_quantize_per_channel_affine(x, s, z, 0, 0, 15),
        lambda n: (
            torch.randn(3, n) * 2,
            torch.tensor([0.25, 0.5, 0.3]),
            torch.tensor([7.5, 3.0, 8.25]),
        ),
        None,  # torch.export has no fake kernel of the cachemask op it calls
        "aten::fake_quantize_per_channel_affine",
    ),
    "instance_norm_running_stats": Case(
        lambda x, m, v, w, b: F.instance_norm(x, m, v, w, b, use_input_stats=False, eps=0.1),
        lambda n: (
            torch.randn(n, 3, n + 2),
            torch.randn(3),
            torch.rand(3) + 0.5,
            torch.randn(3),
            torch.randn(3),
        ),
        lambda args: ({0: DYN, 2: DYN}, None, None, None, None),
        "aten::instance_norm",
    ),
    "instance_norm_2d_affine": Case(
        lambda x, w, b: F.instance_norm(x, weight=w, bias=b),
        lambda n: (torch.randn(2, n, 3, n + 1), torch.randn(n), torch.randn(n)),
        lambda args: ({1: DYN, 3: DYN}, {0: DYN}, {0: DYN}),
        "aten::instance_norm",
    ),
    "group_norm_affine": Case(
        lambda x, w, b: F.group_norm(x, 2, w, b),
        lambda n: (torch.randn(n, 4, n + 1, 3), torch.randn(4), torch.randn(4)),
        lambda args: ({0: DYN, 2: DYN}, None, None),
        "aten::group_norm",
    ),
    "pixel_shuffle_batch_dims": Case(
        lambda x: F.pixel_shuffle(x, 2),
        lambda n: (torch.randn(2, n, 8, n + 1, 3),),
        lambda args: ({1: DYN, 3: DYN},),
        "aten::pixel_shuffle",
    ),
    "pixel_shuffle_int": Case(
        lambda x: F.pixel_shuffle(x, 2),
        lambda n: (torch.randint(0, 100, (n, 8, n + 1, 3)),),
        _every_dim,
        "aten::pixel_shuffle",
    ),
    "pixel_unshuffle_unbatched": Case(
        lambda x: F.pixel_unshuffle(x, 3),
        lambda n: (torch.randn(2, 3 * n, 6),),
        lambda args: ({1: DYN},),
        "aten::pixel_unshuffle",
    ),
    "grid_sample_nearest_reflection": Case(
        lambda x, g: F.grid_sample(x, g, "nearest", "reflection", align_corners=True),
        lambda n: (torch.randn(n, 2, 5, n + 3), torch.rand(n, 3, n, 2) * 2.4 - 1.2),
        lambda args: ({0: DYN, 3: DYN}, {0: DYN, 2: DYN}),
        "aten::grid_sampler",
    ),
    "im2col_padding_dilation": Case(
        lambda x: F.unfold(x, (2, 3), dilation=(2, 1), padding=(1, 2), stride=(1, 2)),
        lambda n: (torch.randn(n, 2, n + 4, 7),),
        lambda args: ({0: DYN, 2: DYN},),
        "aten::im2col",
    ),
    "im2col_unbatched": Case(
        lambda x: F.unfold(x, 2, stride=2),
        lambda n: (torch.randn(3, 2 * n, 6),),
        lambda args: ({1: DYN},),
        "aten::im2col",
    ),
    "max_pool1d_unbatched": Case(
        lambda x: F.max_pool1d(x, 3, 2, 1, return_indices=True),
        lambda n: (torch.randn(3, n + 5),),
        lambda args: ({1: DYN},),
        "aten::max_pool1d_with_indices",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_dynamic_export_matches_torch(name: str):
    case = CASES[name]
    torch.manual_seed(0)
    module = _Call(case.fn)
    inputs = [case.make(3), case.make(5)]
    if case.dims is None:
        inputs = inputs[:1]
        program = export(module, inputs[0], optimize=False)
    else:
        program = export(module, inputs[0], (case.dims(inputs[0]),), optimize=False)
    assert case.overload in graph_overloads(program.exported_program.graph)
    differences = check_at(program, module, inputs)
    assert all(d.ok for d in differences), differences


def _eager_matches(ours: Any, theirs: Any) -> None:
    flat = theirs if isinstance(theirs, (tuple, list)) else (theirs,)
    got = ours if isinstance(ours, (tuple, list)) else (ours,)
    assert len(got) == len(flat)
    for g, e in zip(got, flat):
        np.testing.assert_allclose(np.asarray(g), e.numpy(), rtol=1e-4, atol=1e-5)


def _np(*tensors: torch.Tensor) -> list[np.ndarray]:
    return [t.numpy() for t in tensors]


def test_eager_losses():
    torch.manual_seed(0)
    x, t, w = _logits(4, 5, 2), _targets(4, 5, 2), torch.rand(5)
    aten = torch.ops.aten
    for reduction in (0, 1, 2):
        expected = aten.cross_entropy_loss(x, t, w, reduction, -100, 0.2)
        _eager_matches(losses.cross_entropy_loss(*_np(x, t, w), reduction, -100, 0.2), expected)
    logp, target = x[:, :, 0].log_softmax(1), t[:, 0]
    expected = aten.nll_loss_forward(logp, target, w, 1, -100)
    _eager_matches(losses.nll_loss_forward(*_np(logp, target, w), 1, -100), expected)
    _eager_matches(losses.mse_loss(*_np(x, x * 0.5), 2), aten.mse_loss(x, x * 0.5, 2))


def test_eager_embedding_bags_and_renorm():
    torch.manual_seed(0)
    weight, indices, offsets = _bags(4)
    for mode in (0, 1, 2):
        expected = torch.ops.aten.embedding_bag.padding_idx(
            weight, indices, offsets, False, mode, False, None, False, 3
        )[0]
        ours = embedding.embedding_bag_padding_idx(
            *_np(weight, indices, offsets), False, mode, False, None, False, 3
        )[0]
        _eager_matches(ours, expected)
    rows = torch.randint(0, 10, (3, 2))
    expected = torch.ops.aten.embedding_renorm(weight, rows, 1.0, 2.0)
    _eager_matches(embedding.embedding_renorm(*_np(weight, rows), 1.0, 2.0), expected)


def test_eager_norms_and_rearrangements():
    torch.manual_seed(0)
    x, mean, var = torch.randn(3, 4, 5), torch.randn(4), torch.rand(4) + 0.5
    aten = torch.ops.aten
    for training in (True, False):
        expected = aten.native_batch_norm(x, None, mean, mean, var, training, 0.1, 1e-5)
        ours = nn.native_batch_norm(*_np(x), None, *_np(mean, mean, var), training, 0.1, 1e-5)
        _eager_matches(ours, expected)
    _eager_matches(nn.group_norm(x.numpy(), 2), aten.group_norm(x, 2))
    expected = aten.instance_norm(x, mean, None, None, None, True, 0.1, 1e-5, False)
    ours = nn.instance_norm(*_np(x, mean), None, None, None, True, 0.1, 1e-5, False)
    _eager_matches(ours, expected)
    doubled = x.double()
    _eager_matches(nn.group_norm(doubled.numpy(), 4), aten.group_norm(doubled, 4))
    image = torch.randn(2, 8, 4, 6)
    _eager_matches(rearrange.pixel_shuffle(image.numpy(), 2), aten.pixel_shuffle(image, 2))
    _eager_matches(rearrange.pixel_unshuffle(image.numpy(), 2), aten.pixel_unshuffle(image, 2))
    _eager_matches(
        rearrange.im2col(image.numpy(), [2, 2], [1, 1], [1, 0], [1, 2]),
        aten.im2col(image, [2, 2], [1, 1], [1, 0], [1, 2]),
    )
    _eager_matches(nn.max_pool1d(x.numpy(), [2]), aten.max_pool1d(x, [2]))


def test_eager_fake_quantize():
    x = _halves(6)
    aten = torch.ops.aten
    expected = aten.fake_quantize_per_tensor_affine(x, 0.25, 1, -4, 5)
    _eager_matches(
        fake_quantize.fake_quantize_per_tensor_affine(x.numpy(), 0.25, 1, -4, 5), expected
    )
    scale, zero = torch.tensor([0.3]), torch.tensor([2], dtype=torch.int32)
    expected = aten.fake_quantize_per_tensor_affine.tensor_qparams(x, scale, zero, 0, 7)
    ours = fake_quantize.fake_quantize_per_tensor_affine_tensor_qparams(*_np(x, scale, zero), 0, 7)
    _eager_matches(ours, expected)
    rows = x[:, :50].reshape(2, -1)
    scales, zeros = torch.tensor([0.25, 0.5]), torch.tensor([1, -2], dtype=torch.int32)
    expected = aten.fake_quantize_per_channel_affine(rows, scales, zeros, 0, -5, 5)
    ours = fake_quantize.fake_quantize_per_channel_affine(*_np(rows, scales, zeros), 0, -5, 5)
    _eager_matches(ours, expected)


def test_volumetric_grid_sampler_is_refused():
    with pytest.raises(NotImplementedError, match="opset 20"):
        nn.grid_sampler(
            np.zeros((1, 1, 2, 2, 2), np.float32),
            np.zeros((1, 1, 1, 1, 3), np.float32),
            0,
            0,
            False,
        )
