"""Overloads of the linear algebra, unique, indexing, random, window and stft group that
no OpInfo entry reaches (or reaches with few of their options): small modules exported
(with dynamic dims where torch keeps them) and run in onnxruntime, and the functions run
eagerly, against torch. Random results are checked by shape, element type and range or
moments."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning"),
    pytest.mark.filterwarnings("ignore::FutureWarning"),
]

DYNAMIC = "dynamic"


def _export(
    module: torch.nn.Module, args: tuple[Any, ...], dynamic: dict[int, list[int]] | None = None
) -> tuple[Any, set[str]]:
    """The exported model's onnxruntime session and the overloads its graph calls;
    ``dynamic`` maps an argument's index to its dims kept dynamic."""
    import onnxruntime

    shapes = None
    if dynamic is not None:
        dims = [{d: torch.export.Dim.DYNAMIC for d in dynamic.get(i, [])} for i in range(len(args))]
        shapes = (tuple(dims),)  # forward(*args): one spec, per positional argument
    program = torch.onnx.export(
        module.eval(), args, dynamic_shapes=shapes, dynamo=True, optimize=False, verbose=False
    )
    graph = program.exported_program.graph
    called = {n.target.name() for n in graph.nodes if hasattr(n.target, "name")}
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), options)
    return session, called


def _run(session: Any, *args: torch.Tensor) -> list[np.ndarray]:
    feeds = {i.name: a.numpy() for i, a in zip(session.get_inputs(), args)}
    return session.run(None, feeds)


def _close(got: list[np.ndarray], expected: Any) -> None:
    expected = expected if isinstance(expected, (list, tuple)) else [expected]
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        e = e.numpy()
        assert g.shape == e.shape and g.dtype == e.dtype, (g.shape, g.dtype, e.shape, e.dtype)
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)


class _Call(torch.nn.Module):
    def __init__(self, fn: Any) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args: torch.Tensor) -> Any:
        return self.fn(*args)


def _windows(x: torch.Tensor) -> Any:
    n = x.shape[0]
    return (
        torch.hann_window(n) + x,
        torch.hamming_window(n, dtype=torch.float64),
        torch.blackman_window(n),
        torch.hann_window(1),
        torch.hamming_window(1),
    )


def test_windows_match_torch():
    """The length is an ``int`` (torch specializes it): static only."""
    x = torch.randn(7)
    session, called = _export(_Call(_windows), (x,))
    assert {"aten::hann_window", "aten::hamming_window", "aten::blackman_window"} <= called
    _close(_run(session, x), _windows(x))


def _exact(x: torch.Tensor, i: torch.Tensor, v: torch.Tensor) -> Any:
    return (
        torch.ops.aten.det(x),
        torch.ops.aten._linalg_det(x)[0],
        torch.ops.aten._unsafe_index(x, [i]),
        torch.ops.aten._unsafe_index(x, [None, i]),
        torch.ops.aten._unsafe_index_put(x, [i], v, True),
        torch.ops.aten._unsafe_index_put(x, [None, i], v[0, 0], False),
    )


@pytest.mark.parametrize("mode", ["static", DYNAMIC])
def test_det_and_unsafe_index_match_torch(mode: str):
    x, i, v = torch.randn(4, 4), torch.tensor([2, 0]), torch.randn(2, 4)
    dynamic = {0: [0, 1], 1: [0], 2: [0, 1]} if mode == DYNAMIC else None
    session, called = _export(_Call(_exact), (x, i, v), dynamic)
    assert {"aten::det", "aten::_linalg_det", "aten::_unsafe_index.Tensor"} <= called
    assert "aten::_unsafe_index_put" in called
    _close(_run(session, x, i, v), _exact(x, i, v))
    if mode == DYNAMIC:
        x, i, v = torch.randn(5, 5), torch.tensor([4, 1, 3]), torch.randn(3, 5)
        _close(_run(session, x, i, v), _exact(x, i, v))


def _uniques(x: torch.Tensor) -> Any:
    values, inverse = torch.ops.aten._unique(x.flatten(), True, True)
    return (values, inverse, *torch.unique(x, dim=0, return_inverse=True, return_counts=True))


@pytest.mark.parametrize("mode", ["static", DYNAMIC])
def test_unique_forms_match_torch(mode: str):
    x = torch.tensor([[2, 1, 2], [0, 1, 1], [2, 1, 2], [0, 1, 0]])
    session, called = _export(_Call(_uniques), (x,), {0: [0, 1]} if mode == DYNAMIC else None)
    assert {"aten::_unique", "aten::unique_dim"} <= called
    _close(_run(session, x), _uniques(x))
    consecutive = torch.tensor([[1, 1], [1, 1], [2, 3], [2, 3], [1, 1]])
    session, called = _export(
        _Call(lambda t: torch.unique_consecutive(t, True, True, dim=0)), (consecutive,)
    )
    assert "aten::unique_consecutive" in called
    _close(_run(session, consecutive), torch.unique_consecutive(consecutive, True, True, dim=0))


def _random(x: torch.Tensor) -> Any:
    positive = x.abs() + 0.1
    return (
        torch.rand_like(x),
        x.bernoulli(0.25),
        torch.normal(2.0, torch.full_like(x, 0.5)),
        torch.empty_like(x).normal_(3.0, 2.0),
        torch.randint(3, 9, (x.shape[0], 2)),
        torch.multinomial(positive, x.shape[1], replacement=True),
        torch.multinomial(positive, 2, replacement=False),
    )


@pytest.mark.parametrize("mode", ["static", DYNAMIC])
def test_random_overloads_have_torch_shapes_types_and_ranges(mode: str):
    x = torch.randn(300, 40)
    session, called = _export(_Call(_random), (x,), {0: [0, 1]} if mode == DYNAMIC else None)
    assert {
        "aten::rand_like",
        "aten::bernoulli.p",
        "aten::normal.float_Tensor",
        "aten::normal_functional",
        "aten::randint.low",
        "aten::multinomial",
    } <= called
    sizes = [x] if mode != DYNAMIC else [x, torch.randn(400, 30)]
    for given in sizes:
        got = _run(session, given)
        for g, e in zip(got, _random(given)):
            assert g.shape == tuple(e.shape) and g.dtype == e.numpy().dtype
        uniform, coin, normal, shifted, integers, drawn, distinct = got
        assert uniform.min() >= 0 and uniform.max() < 1 and abs(uniform.mean() - 0.5) < 0.02
        assert set(np.unique(coin)) <= {0.0, 1.0} and abs(coin.mean() - 0.25) < 0.02
        assert abs(normal.mean() - 2.0) < 0.02 and abs(normal.std() - 0.5) < 0.02
        assert abs(shifted.mean() - 3.0) < 0.05 and abs(shifted.std() - 2.0) < 0.05
        assert integers.min() == 3 and integers.max() == 8
        classes = given.shape[1]
        assert drawn.min() >= 0 and drawn.max() < classes
        assert distinct.min() >= 0 and distinct.max() < classes
        assert (distinct[:, 0] != distinct[:, 1]).all()


def test_multinomial_follows_the_weights():
    """Eagerly, with and without replacement: a class of weight 0 is never drawn and the
    frequencies follow the weights."""
    from onnxscript.function_libs.torch_lib.aten.random import multinomial

    weights = np.array([[0.0, 1.0, 3.0]] * 2000, np.float32)
    drawn = np.asarray(multinomial(weights, 4, replacement=True))
    assert drawn.shape == (2000, 4) and drawn.dtype == np.int64
    assert (drawn != 0).all() and abs((drawn == 2).mean() - 0.75) < 0.03
    without = np.asarray(multinomial(weights, 2, replacement=False))
    assert sorted(set(map(tuple, np.sort(without, axis=1)))) == [(1, 2)]
    assert abs((without[:, 0] == 2).mean() - 0.75) < 0.03


@pytest.mark.parametrize(
    ("ord", "dim", "keepdim"),
    [
        (math.inf, None, False),
        (-math.inf, [1], True),
        (0, [0], False),
        (3, None, True),
        (1, [1], False),
    ],
)
def test_vector_norm_orders_match_torch(ord: float, dim: list[int] | None, keepdim: bool):
    from onnxscript.function_libs.torch_lib.aten.linalg import linalg_vector_norm

    x = torch.randn(3, 4)
    x[0, 1] = 0
    got = linalg_vector_norm(x.numpy(), ord, dim, keepdim)
    expected = torch.linalg.vector_norm(x, ord, dim, keepdim)
    np.testing.assert_allclose(np.asarray(got), expected.numpy(), rtol=1e-5, atol=1e-6)


def _stfts(x: torch.Tensor, window: torch.Tensor) -> Any:
    return (
        torch.stft(x, 16, hop_length=3, win_length=10, return_complex=True).abs(),
        torch.view_as_real(
            torch.stft(x, 16, 5, 12, window, normalized=True, onesided=False, return_complex=True)
        ),
    )


@pytest.mark.parametrize("mode", ["static", DYNAMIC])
def test_stft_options_match_torch(mode: str):
    """Hop, a window shorter than n_fft (given or not), normalized, two-sided, batched."""
    x, window = torch.randn(2, 64), torch.hann_window(12)
    dynamic = {0: [1]} if mode == DYNAMIC else None
    session, called = _export(_Call(_stfts), (x, window), dynamic)
    assert "aten::stft" in called
    _close(_run(session, x, window), _stfts(x, window))
    if mode == DYNAMIC:
        longer = torch.randn(2, 90)
        _close(_run(session, longer, window), _stfts(longer, window))


def _grouped(a2: Any, b3: Any, a3: Any, b2: Any, grouped_mm: Any) -> list[Any]:
    rows = np.array([2, 2, a2.shape[0]], np.int32)
    columns = np.array([4, b2.shape[1]], np.int32)
    inner = np.array([4, a2.shape[1]], np.int32)
    return [
        grouped_mm(a2, b3, rows),  # [M, K] x [G, K, N], groups of rows
        grouped_mm(a3, b3[:2]),  # [G, M, K] x [G, K, N]
        grouped_mm(a3, b2, columns),  # [G, M, K] x [K, N], groups of columns
        grouped_mm(a2[:4], b2, inner),  # [M, K] x [K, N], groups of the inner dim
    ]


def _torch_grouped_mm(a: Any, b: Any, offs: Any = None) -> Any:
    given = None if offs is None else torch.from_numpy(offs)
    return torch._grouped_mm(torch.from_numpy(a), torch.from_numpy(b), given)


@pytest.mark.parametrize("rows", [6, 9])
def test_grouped_mm_matches_torch(rows: int):
    """Each form of the groups, eagerly (torch's CPU kernel takes float32; its export
    takes bfloat16 only, which numpy cannot feed onnxruntime: the export is checked below).
    Sizes are multiples of 4 where torch's kernel wants strides of 16 bytes."""
    from onnxscript.function_libs.torch_lib.aten.linalg import grouped_mm

    a2, b3 = (
        np.random.randn(rows, 8).astype(np.float32),
        np.random.randn(3, 8, 4).astype(np.float32),
    )
    a3, b2 = np.random.randn(2, 4, 8).astype(np.float32), np.random.randn(8, 8).astype(np.float32)
    got = _grouped(a2, b3, a3, b2, grouped_mm)
    expected = _grouped(a2, b3, a3, b2, _torch_grouped_mm)
    _close([np.asarray(g) for g in got], expected)


def test_grouped_mm_exports_with_dynamic_rows():
    """bfloat16 (the only type torch's meta kernel takes on CPU): the graph builds and
    passes the checker with the total row count dynamic."""
    import onnx

    class Grouped(torch.nn.Module):
        def forward(self, a: torch.Tensor, b: torch.Tensor, offs: torch.Tensor) -> torch.Tensor:
            return torch._grouped_mm(a, b, offs)

    a, b = torch.randn(6, 8, dtype=torch.bfloat16), torch.randn(3, 8, 8, dtype=torch.bfloat16)
    offs = torch.tensor([2, 2, 6], dtype=torch.int32)
    shapes = ({0: torch.export.Dim.DYNAMIC}, None, None)
    program = torch.onnx.export(Grouped(), (a, b, offs), dynamic_shapes=shapes, dynamo=True)
    graph = program.exported_program.graph
    assert "aten::_grouped_mm" in {
        n.target.name() for n in graph.nodes if hasattr(n.target, "name")
    }
    onnx.checker.check_model(program.model_proto, full_check=True)


def _eager_cases() -> list[tuple[str, Any, Any]]:
    """(id, our call on numpy arrays, torch's call) of the overloads whose OpInfo graphs,
    decomposed to the Core ATen IR for the harness's eager mode, do not reach them."""
    from onnxscript.function_libs.torch_lib.aten import fft, linalg, unique, windows

    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3, 4), np.float32), rng.standard_normal((2, 4, 5), np.float32)
    c = rng.standard_normal((2, 3, 5), np.float32)
    m, v = rng.standard_normal((3, 4), np.float32), rng.standard_normal(4, dtype=np.float32)
    s = rng.standard_normal((4, 4), np.float32)
    u, w = rng.standard_normal((5, 3), np.float32), rng.standard_normal((6, 3, 3), np.float32)
    ints = np.array([[1, 2], [0, 2], [1, 2]], np.int64)
    index = np.array([2, 0], np.int64)
    signal = rng.standard_normal(40, dtype=np.float32)
    t = torch.from_numpy
    return [
        ("einsum", lambda: linalg.einsum("bij, bjk -> bik", [a, b]), lambda: torch.einsum("bij,bjk->bik", t(a), t(b))),
        ("baddbmm", lambda: linalg.baddbmm(c, a, b, beta=0.5, alpha=2.0), lambda: torch.baddbmm(t(c), t(a), t(b), beta=0.5, alpha=2.0)),
        ("baddbmm beta 0", lambda: linalg.baddbmm(c[:1], a, b, beta=0.0), lambda: torch.baddbmm(t(c[:1]), t(a), t(b), beta=0.0)),
        ("dot", lambda: linalg.dot(v, v), lambda: torch.dot(t(v), t(v))),
        ("mv", lambda: linalg.dot(m, v), lambda: torch.mv(t(m), t(v))),
        ("addr", lambda: linalg.addr(m, m[:, 0], v, alpha=3.0), lambda: torch.addr(t(m), t(m[:, 0]), t(v), alpha=3.0)),
        ("cross", lambda: linalg.cross(u, u[::-1].copy()), lambda: torch.cross(t(u), t(u[::-1].copy()), dim=1)),
        ("linalg_cross", lambda: linalg.linalg_cross(u.T.copy(), u[:1].T.copy(), dim=0), lambda: torch.linalg.cross(t(u.T.copy()), t(u[:1].T.copy()), dim=0)),
        ("bilinear", lambda: linalg.bilinear(u, u, w, v[:1].repeat(6)), lambda: torch.nn.functional.bilinear(t(u), t(u), t(w), t(v[:1].repeat(6)))),
        ("det", lambda: linalg.det(w), lambda: torch.det(t(w))),
        ("logdet", lambda: linalg.logdet(s @ s.T), lambda: torch.logdet(t(s @ s.T))),
        ("_linalg_det", lambda: linalg.linalg_det_lu(w)[0], lambda: torch.ops.aten._linalg_det(t(w))[0]),
        ("hann_window", lambda: windows.hann_window(9), lambda: torch.hann_window(9)),
        ("hamming_window", lambda: windows.hamming_window(9), lambda: torch.hamming_window(9)),
        ("blackman_window", lambda: windows.blackman_window(9), lambda: torch.blackman_window(9)),
        ("stft", lambda: fft.stft(signal, 8, 2, 6, None, True), lambda: torch.view_as_real(torch.stft(t(signal), 8, 2, 6, None, center=False, normalized=True, return_complex=True))),
        ("_unique", lambda: unique.unique(ints, True, True), lambda: torch.ops.aten._unique(t(ints), True, True)),
        ("unique_dim", lambda: unique.unique_dim(ints, 0, True, True, True), lambda: torch.ops.aten.unique_dim(t(ints), 0, True, True, True)),
        ("_unsafe_index", lambda: unique.unsafe_index(m, [None, index]), lambda: torch.ops.aten._unsafe_index(t(m), [None, t(index)])),
        ("_unsafe_index_put", lambda: unique.unsafe_index_put(m, [index], v, True), lambda: torch.ops.aten._unsafe_index_put(t(m), [t(index)], t(v), True)),
    ]  # fmt: skip


EAGER = (
    "einsum",
    "baddbmm",
    "baddbmm beta 0",
    "dot",
    "mv",
    "addr",
    "cross",
    "linalg_cross",
    "bilinear",
    "det",
    "logdet",
    "_linalg_det",
    "hann_window",
    "hamming_window",
    "blackman_window",
    "stft",
    "_unique",
    "unique_dim",
    "_unsafe_index",
    "_unsafe_index_put",
)


@pytest.mark.parametrize("name", EAGER)
def test_eager_matches_torch(name: str):
    ours, theirs = {n: (o, t) for n, o, t in _eager_cases()}[name]
    got = ours()
    _close([np.asarray(g) for g in (got if isinstance(got, (list, tuple)) else [got])], theirs())
