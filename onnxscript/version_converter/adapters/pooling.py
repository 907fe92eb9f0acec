"""AveragePool-22 and MaxPool-22 ignore a last window that would start in the right
padding (with ceil_mode=1); before, it counted. Either way a node converts only when no
window starts there, which needs the input's spatial size."""

from __future__ import annotations

from onnxscript.version_converter._context import Rewrite
from onnxscript.version_converter.adapters._tables import Table, step


def _window_count(size: int, kernel: int, stride: int, dilation: int, begin: int, end: int) -> int:
    span = (kernel - 1) * dilation + 1
    return -(-(size + begin + end - span) // stride) + 1


def _same_windows(rewrite: Rewrite) -> None:
    if not rewrite.attr("ceil_mode", 0):
        return
    if rewrite.attr("auto_pad", "NOTSET") != "NOTSET":
        rewrite.fail("ceil_mode with auto_pad: the last window's handling changed at 22")
    dims = rewrite.dims(rewrite.input(0))
    kernel = rewrite.attr("kernel_shape")
    spatial = dims[2:] if dims is not None else None
    if spatial is None or any(d is None for d in spatial):
        rewrite.fail(
            "ceil_mode with an input of unknown spatial size: a last window starting "
            "in the padding counts before version 22, not after"
        )
    rank = len(kernel)
    strides = rewrite.attr("strides", [1] * rank)
    dilations = rewrite.attr("dilations", [1] * rank)
    pads = rewrite.attr("pads", [0] * 2 * rank)
    for axis, size in enumerate(spatial):
        assert size is not None
        count = _window_count(
            size, kernel[axis], strides[axis], dilations[axis], pads[axis], pads[rank + axis]
        )
        if (count - 1) * strides[axis] >= size + pads[axis]:
            rewrite.fail(
                f"with ceil_mode the last window along spatial axis {axis} starts in "
                "the padding: counted before version 22, ignored after"
            )


_SUMMARY = "ceil_mode: allowed when no window starts in the right padding (static shapes)"

ADAPTERS: Table = step("AveragePool", 22, _same_windows, _same_windows, _SUMMARY, _SUMMARY)
ADAPTERS |= step("MaxPool", 22, _same_windows, _same_windows, _SUMMARY, _SUMMARY)

__all__ = ["ADAPTERS"]
