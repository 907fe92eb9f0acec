"""Samples for the Core ATen gradient operators, taken from torch's own autograd.

OpInfo has no entries for ``aten::convolution_backward`` and the like, so each forward
OpInfo sample is run with ``requires_grad`` and differentiated with a random output
gradient while a dispatch mode records the gradient operator's exact call; that call,
with its tensors as inputs, is the sample.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

GRADIENT_OPS: dict[str, tuple[str, ...]] = {
    "convolution_backward": (
        "nn.functional.conv1d",
        "nn.functional.conv2d",
        "nn.functional.conv3d",
        "nn.functional.conv_transpose2d",
    ),
    "native_layer_norm_backward": ("nn.functional.layer_norm",),
    "native_group_norm_backward": ("nn.functional.group_norm",),
    "max_pool2d_with_indices_backward": ("nn.functional.max_pool2d",),
    "avg_pool2d_backward": ("nn.functional.avg_pool2d",),
    "_adaptive_avg_pool2d_backward": ("nn.functional.adaptive_avg_pool2d",),
    "embedding_dense_backward": ("nn.functional.embedding",),
}
"""Gradient operator (``aten::<name>.default``) -> forward OpInfo entries reaching it."""

PREFIX = "grad:"


class _Recorder(TorchDispatchMode):
    """Keeps the calls of one operator (by its packet name)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name, self.calls = name, []

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        if func.__name__.split(".")[0] == self.name:
            self.calls.append((func, args, kwargs))
        return func(*args, **kwargs)


class _GradientCall(torch.nn.Module):
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


def _forward_samples(info: Any, count: int) -> Iterator[Any]:
    for index, sample in enumerate(info.sample_inputs("cpu", torch.float32, requires_grad=True)):
        if index >= count:
            return
        yield sample


def _recorded_calls(info: Any, name: str, count: int) -> Iterator[tuple[Any, list[Any], dict]]:
    torch.manual_seed(0)
    for sample in _forward_samples(info, count):
        output = info.op(sample.input, *sample.args, **sample.kwargs)
        first = output[0] if isinstance(output, (tuple, list)) else output
        if not first.requires_grad:
            continue
        recorder = _Recorder(name)
        with recorder:
            first.backward(torch.randn_like(first))
        for func, args, kwargs in recorder.calls:
            plain = [a.detach() if isinstance(a, torch.Tensor) else a for a in args]
            yield func, plain, dict(kwargs)


def gradient_samples(
    entry: str, infos: dict[str, Any], count: int
) -> Iterator[tuple[int, torch.nn.Module, tuple[torch.Tensor, ...]]]:
    """Up to ``count`` samples per forward entry for ``grad:<operator>``."""
    name = entry.removeprefix(PREFIX)
    index = 0
    for forward in GRADIENT_OPS[name]:
        for func, args, kwargs in _recorded_calls(infos[forward], name, count):
            tensors = tuple(a for a in args if isinstance(a, torch.Tensor))
            yield index, _GradientCall(func, args, kwargs), tensors
            index += 1


ENTRIES = [PREFIX + name for name in GRADIENT_OPS]
"""The harness's names for the gradient operators' sample sets."""
