"""Samples for ATen overloads that no OpInfo entry calls directly, taken from torch itself.

While torch runs the samples of a related OpInfo entry (forward, or differentiated with a
random output gradient for the gradient operators), a dispatch mode records the exact calls
of one overload; each recorded call, with its tensors as the module's inputs, is a sample.
Some overloads are reached only from another one's calls: the Scalar forms of binary ops
(torch's Python API wraps Python numbers as tensors) are called with the recorded second
operand as a Python number, and ``upsample_nearest2d.vec`` with the recorded output size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode


def _scalar_other(args: list[Any]) -> list[Any]:
    """The second operand as a Python number (its first element)."""
    return [args[0], args[1].flatten()[0].item(), *args[2:]]


def _scalar_self(args: list[Any]) -> list[Any]:
    """The first operand as a Python number (its first element)."""
    return [args[0].flatten()[0].item(), *args[1:]]


def _same(args: list[Any]) -> list[Any]:
    return args


def _first_two(args: list[Any]) -> list[Any]:
    """``_softmax(x, dim, half_to_float)`` as ``special_softmax(x, dim)``."""
    return args[:2]


def _weight_tensor(args: list[Any]) -> list[Any]:
    """``lerp.Scalar``'s weight as a tensor of self's shape (``lerp.Tensor``)."""
    self, end, weight = args[:3]
    return [self, end, torch.full_like(self, weight)]


def _output_size_only(args: list[Any]) -> list[Any]:
    """``upsample_nearest2d(input, output_size, scales...)`` as the ``.vec`` form's
    ``(input, output_size, scale_factors=None)``."""
    return [args[0], list(args[1]), None]


@dataclass(frozen=True)
class Recording:
    """Where the samples of one overload come from."""

    recorded: str  # the overload whose calls are recorded, by qualified name
    entries: tuple[str, ...]  # the OpInfo entries run
    backward: bool = False  # recorded while differentiating, not in the forward run
    convert: Callable[[list[Any]], list[Any]] | None = None  # recorded args -> target's


def _own(target: str, *entries: str, backward: bool = False) -> tuple[str, Recording]:
    """An overload whose own calls are recorded."""
    return target, Recording(target, entries, backward)


def _converted(
    target: str, recorded: str, convert: Callable[[list[Any]], list[Any]], *entries: str
) -> tuple[str, Recording]:
    """An overload called with the converted arguments of another one's calls."""
    return target, Recording(recorded, entries, convert=convert)


RECORDINGS: dict[str, Recording] = dict(
    [
        _own(
            "aten::convolution_backward",
            "nn.functional.conv1d",
            "nn.functional.conv2d",
            "nn.functional.conv3d",
            "nn.functional.conv_transpose2d",
            backward=True,
        ),
        _own("aten::native_layer_norm_backward", "nn.functional.layer_norm", backward=True),
        _own("aten::native_group_norm_backward", "nn.functional.group_norm", backward=True),
        _own("aten::max_pool2d_with_indices_backward", "nn.functional.max_pool2d", backward=True),
        _own("aten::avg_pool2d_backward", "nn.functional.avg_pool2d", backward=True),
        _own(
            "aten::_adaptive_avg_pool2d_backward",
            "nn.functional.adaptive_avg_pool2d",
            backward=True,
        ),
        _own("aten::embedding_dense_backward", "nn.functional.embedding", backward=True),
        _own("aten::col2im", "nn.functional.unfold", backward=True),
        _own("aten::_adaptive_avg_pool2d", "nn.functional.adaptive_avg_pool2d"),
        _own("aten::_adaptive_avg_pool3d", "nn.functional.adaptive_avg_pool3d"),
        _own("aten::_softmax", "softmax"),
        _own("aten::_log_softmax", "log_softmax"),
        _own("aten::any.dims", "any"),
        _own("aten::reflection_pad2d", "nn.functional.pad.reflect"),
        _own("aten::reflection_pad3d", "nn.functional.pad.reflect"),
        _own("aten::replication_pad3d", "nn.functional.pad.replicate"),
        _own("aten::scatter.value", "scatter"),
        _own("aten::_native_batch_norm_legit.no_stats", "_native_batch_norm_legit"),
        (
            "aten::_embedding_bag",
            Recording("aten::_embedding_bag_forward_only", ("nn.functional.embedding_bag",)),
        ),
        _converted(
            "aten::bitwise_and.Scalar", "aten::bitwise_and.Tensor", _scalar_other, "bitwise_and"
        ),
        _converted(
            "aten::bitwise_or.Scalar", "aten::bitwise_or.Tensor", _scalar_other, "bitwise_or"
        ),
        _converted(
            "aten::bitwise_xor.Scalar", "aten::bitwise_xor.Tensor", _scalar_other, "bitwise_xor"
        ),
        _converted(
            "aten::div.Scalar_mode",
            "aten::div.Tensor_mode",
            _scalar_other,
            "div.floor_rounding",
            "div.trunc_rounding",
        ),
        _converted(
            "aten::upsample_nearest2d.vec",
            "aten::upsample_nearest2d",
            _output_size_only,
            "nn.functional.interpolate.nearest",
        ),
    ]
)
"""Overload (qualified name) -> how its samples are recorded."""

_SHIFTS = [
    (target, f"aten::bitwise_{way}_shift.Tensor", convert, f"bitwise_{way}_shift")
    for way, short in (("left", "lshift"), ("right", "rshift"))
    for target, convert in (
        (f"aten::bitwise_{way}_shift.Tensor_Scalar", _scalar_other),
        (f"aten::bitwise_{way}_shift.Scalar_Tensor", _scalar_self),
        (f"aten::__{short}__.Scalar", _scalar_other),
    )
]

BREADTH_ELEMENTWISE: dict[str, Recording] = dict(
    [
        *(
            _converted(
                f"aten::bitwise_{name}.Scalar_Tensor",
                f"aten::bitwise_{name}.Tensor",
                _scalar_self,
                f"bitwise_{name}",
            )
            for name in ("and", "or", "xor")
        ),
        *(_converted(*shift) for shift in _SHIFTS),
        _converted("aten::clamp_max", "aten::clamp_max.Tensor", _scalar_other, "clamp_max"),
        _converted("aten::clamp_min", "aten::clamp_min.Tensor", _scalar_other, "clamp_min"),
        _converted("aten::divide.Tensor", "aten::div.Tensor", _same, "div.no_rounding_mode"),
        _converted(
            "aten::divide.Scalar", "aten::div.Tensor", _scalar_other, "div.no_rounding_mode"
        ),
        _converted("aten::true_divide.Scalar", "aten::div.Tensor", _scalar_other, "true_divide"),
        _converted("aten::multiply.Tensor", "aten::mul.Tensor", _same, "mul"),
        _converted("aten::multiply.Scalar", "aten::mul.Tensor", _scalar_other, "mul"),
        _converted("aten::subtract.Tensor", "aten::sub.Tensor", _same, "sub"),
        _converted("aten::subtract.Scalar", "aten::sub.Tensor", _scalar_other, "sub"),
        _converted("aten::greater.Tensor", "aten::gt.Tensor", _same, "gt"),
        _converted("aten::greater_equal.Tensor", "aten::ge.Tensor", _same, "ge"),
        _converted("aten::less.Tensor", "aten::lt.Tensor", _same, "lt"),
        _converted("aten::less_equal.Tensor", "aten::le.Tensor", _same, "le"),
        _converted("aten::special_erf", "aten::erf", _same, "erf"),
        _converted("aten::special_erfc", "aten::erfc", _same, "erfc"),
        _converted("aten::special_expm1", "aten::expm1", _same, "expm1"),
        _converted("aten::special_sinc", "aten::sinc", _same, "sinc"),
        _converted("aten::special_softmax", "aten::_softmax", _first_two, "softmax"),
        _converted("aten::special_log_softmax", "aten::_log_softmax", _first_two, "log_softmax"),
        _converted("aten::xlogy.Scalar_Other", "aten::xlogy.Tensor", _scalar_other, "xlogy"),
        _converted("aten::xlogy.Scalar_Self", "aten::xlogy.Tensor", _scalar_self, "xlogy"),
        _converted("aten::lerp.Tensor", "aten::lerp.Scalar", _weight_tensor, "lerp"),
        _converted(
            "aten::remainder.Scalar_Tensor", "aten::remainder.Tensor", _scalar_self, "remainder"
        ),
        _own("aten::hardtanh_backward", "nn.functional.hardtanh", backward=True),
        _own("aten::_prelu_kernel", "nn.functional.prelu"),
        _own("aten::repeat_interleave.Tensor", "repeat_interleave"),
    ]
)
"""Recordings of the overloads registered for 0.7.2's breadth that no entry reaches:
aliases (``divide``, ``special_erf``, ...) and the Scalar forms of binary ops."""

RECORDINGS.update(BREADTH_ELEMENTWISE)

PREFIX = "call:"
SCANNED = 40
"""Samples of each forward entry run to find the calls (the first few may not reach one)."""


def overload(qualified: str) -> Any:
    """``torch.ops`` overload of a qualified name (``aten::add.Tensor``, ``aten::add``)."""
    namespace, _, rest = qualified.partition("::")
    packet_name, _, overload_name = rest.partition(".")
    return getattr(getattr(getattr(torch.ops, namespace), packet_name), overload_name or "default")


class _Recorder(TorchDispatchMode):
    """Keeps the calls of one overload."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name, self.calls = name, []

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        if func.name() == self.name:
            self.calls.append((list(args), dict(kwargs)))
        return func(*args, **kwargs)


class _RecordedCall(torch.nn.Module):
    """``func(*args)`` with the tensors of ``args`` as the module's inputs; returns the
    outputs torch computes (``output_mask`` may leave some None)."""

    def __init__(self, func: Any, template: list[Any], kwargs: dict[str, Any]) -> None:
        super().__init__()
        self.func, self.template, self.kwargs = func, template, kwargs

    def forward(self, *tensors: torch.Tensor) -> Any:
        given = iter(tensors)
        args = [next(given) if isinstance(a, torch.Tensor) else a for a in self.template]
        result = self.func(*args, **self.kwargs)
        if isinstance(result, (tuple, list)):
            return tuple(r for r in result if r is not None)
        return result


def _samples_of(info: Any, backward: bool) -> Iterator[Any]:
    dtype = torch.float32 if torch.float32 in info.dtypes else sorted(info.dtypes, key=str)[0]
    grad = backward and dtype.is_floating_point
    for index, sample in enumerate(info.sample_inputs("cpu", dtype, requires_grad=grad)):
        if index >= SCANNED:
            return
        yield sample


def _recorded_calls(info: Any, recording: Recording) -> Iterator[tuple[list[Any], dict]]:
    torch.manual_seed(0)
    for sample in _samples_of(info, recording.backward):
        recorder = _Recorder(recording.recorded)
        if recording.backward:
            output = info.op(sample.input, *sample.args, **sample.kwargs)
            first = output[0] if isinstance(output, (tuple, list)) else output
            if not first.requires_grad:
                continue
            with recorder:
                first.backward(torch.randn_like(first))
        else:
            with recorder:
                info.op(sample.input, *sample.args, **sample.kwargs)
        for args, kwargs in recorder.calls:
            plain = [a.detach() if isinstance(a, torch.Tensor) else a for a in args]
            yield plain, kwargs


def recorded_samples(
    entry: str, infos: dict[str, Any], count: int
) -> Iterator[tuple[int, torch.nn.Module, tuple[torch.Tensor, ...]]]:
    """Up to ``count`` samples per OpInfo entry for ``call:<overload>``."""
    target = entry.removeprefix(PREFIX)
    recording = RECORDINGS[target]
    func = overload(target)
    index = 0
    for forward in recording.entries:
        calls = _recorded_calls(infos[forward], recording)
        for _, (args, kwargs) in zip(range(count), calls):
            if recording.convert is not None:
                args = recording.convert(args)
            tensors = tuple(a for a in args if isinstance(a, torch.Tensor))
            yield index, _RecordedCall(func, args, kwargs), tensors
            index += 1


ENTRIES = [PREFIX + name for name in RECORDINGS]
"""The harness's names for the recorded sample sets."""
