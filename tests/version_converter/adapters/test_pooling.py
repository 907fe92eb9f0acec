"""AveragePool/MaxPool with ceil_mode: a last window starting in the right padding counts
before 22 and is dropped from 22, so such nodes are refused; others convert."""

from __future__ import annotations

import pytest

from onnxscript.version_converter import VersionConversionError
from tests.version_converter.conversion import FLOAT, convert, converts, info, make, node, out, rand


def _pool(op: str, opset: int, size: int, kernel: int = 3, pads: tuple = (1, 1)) -> object:
    return make(
        [node(op, ["x"], ["y"], kernel_shape=[kernel], strides=[2], pads=list(pads), ceil_mode=1)],
        [info("x", FLOAT, [1, 1, size])],
        [out("y", 3)],
        opset,
    )


@pytest.mark.parametrize(("op", "old"), [("AveragePool", 19), ("MaxPool", 12)])
def test_windows_not_starting_in_padding_convert(op: str, old: int):
    feeds = {"x": rand(1, 1, 6)}
    converts(_pool(op, old, 6), 22, feeds)
    converts(_pool(op, 22, 6), old, feeds)


@pytest.mark.parametrize(("op", "old"), [("AveragePool", 19), ("MaxPool", 12)])
def test_window_starting_in_padding_refused(op: str, old: int):
    """Size 4, kernel 2, stride 2, pads (0, 1): ceil gives 3 windows, the last one starting
    at 4, in the padding."""
    with pytest.raises(VersionConversionError, match="starts in the padding"):
        convert(_pool(op, old, 4, kernel=2, pads=(0, 1)), 22)
    with pytest.raises(VersionConversionError, match="starts in the padding"):
        convert(_pool(op, 22, 4, kernel=2, pads=(0, 1)), old)
