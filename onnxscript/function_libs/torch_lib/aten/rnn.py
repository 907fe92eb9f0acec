"""Recurrent layers as ONNX's LSTM and GRU ops (one node per layer) instead of the
hundred elementwise nodes their decomposition gives."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import TFloat

_LSTM_ORDER = (0, 3, 1, 2)
"""torch's gates (input, forget, cell, output) in ONNX's order (input, output, forget, cell)."""

_GRU_ORDER = (1, 0, 2)
"""torch's gates (reset, update, new) in ONNX's order (update, reset, hidden)."""


def _gates(weight: Any, hidden: int, order: Sequence[int]) -> Any:
    """Rows of a stacked gate weight (or bias) reordered, as torch stacks them by gate."""
    parts = [op.Slice(weight, [g * hidden], [(g + 1) * hidden], [0]) for g in order]
    return op.Concat(*parts, axis=0)


def _layer_weights(
    params: Sequence[Any], first: int, directions: int, has_biases: bool, order: Sequence[int]
) -> tuple[Any, Any, Any | None, int]:
    """W, R and B of one layer (both directions stacked on a first axis) from torch's
    flat parameter list starting at ``first``."""
    per = 4 if has_biases else 2
    hidden = static_dim(params[first + 1], 1)
    if hidden is None:
        raise NotImplementedError("recurrent layers need a static hidden size")
    ws, rs, bs = [], [], []
    for direction in range(directions):
        base = first + direction * per
        ws.append(op.Unsqueeze(_gates(params[base], hidden, order), [0]))
        rs.append(op.Unsqueeze(_gates(params[base + 1], hidden, order), [0]))
        if has_biases:
            both = op.Concat(
                _gates(params[base + 2], hidden, order),
                _gates(params[base + 3], hidden, order),
                axis=0,
            )
            bs.append(op.Unsqueeze(both, [0]))
    bias = op.Concat(*bs, axis=0) if bs else None
    return op.Concat(*ws, axis=0), op.Concat(*rs, axis=0), bias, hidden


def _merge_directions(y: Any, hidden: int, directions: int) -> Any:
    """ONNX's Y [seq, directions, batch, hidden] as torch's [seq, batch, directions*hidden]."""
    return op.Reshape(op.Transpose(y, perm=[0, 2, 1, 3]), [0, 0, directions * hidden])


def _state(hx: Any, layer: int, directions: int) -> Any:
    return op.Slice(hx, [layer * directions], [(layer + 1) * directions], [0])


@aten("aten::lstm.input")
def lstm(
    input: TFloat,
    hx: Sequence[TFloat],
    params: Sequence[TFloat],
    has_biases: bool,
    num_layers: int,
    dropout: float,
    train: bool,
    bidirectional: bool,
    batch_first: bool,
) -> tuple[TFloat, TFloat, TFloat]:
    """lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor, Tensor)"""
    directions = 2 if bidirectional else 1
    x = op.Transpose(input, perm=[1, 0, 2]) if batch_first else input
    per_layer = (4 if has_biases else 2) * directions
    hs, cs = [], []
    for layer in range(num_layers):
        w, r, b, hidden = _layer_weights(
            params, layer * per_layer, directions, has_biases, _LSTM_ORDER
        )
        y, h, c = op.LSTM(
            x,
            w,
            r,
            b,
            None,
            _state(hx[0], layer, directions),
            _state(hx[1], layer, directions),
            hidden_size=hidden,
            direction="bidirectional" if bidirectional else "forward",
            _outputs=3,
        )
        x = _merge_directions(y, hidden, directions)
        hs.append(h)
        cs.append(c)
    output = op.Transpose(x, perm=[1, 0, 2]) if batch_first else x
    return output, op.Concat(*hs, axis=0), op.Concat(*cs, axis=0)


@aten("aten::gru.input")
def gru(
    input: TFloat,
    hx: TFloat,
    params: Sequence[TFloat],
    has_biases: bool,
    num_layers: int,
    dropout: float,
    train: bool,
    bidirectional: bool,
    batch_first: bool,
) -> tuple[TFloat, TFloat]:
    """gru.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)"""
    directions = 2 if bidirectional else 1
    x = op.Transpose(input, perm=[1, 0, 2]) if batch_first else input
    per_layer = (4 if has_biases else 2) * directions
    hs = []
    for layer in range(num_layers):
        w, r, b, hidden = _layer_weights(
            params, layer * per_layer, directions, has_biases, _GRU_ORDER
        )
        y, h = op.GRU(
            x,
            w,
            r,
            b,
            None,
            _state(hx, layer, directions),
            hidden_size=hidden,
            direction="bidirectional" if bidirectional else "forward",
            linear_before_reset=1,  # torch applies the reset gate after the linear map
            _outputs=2,
        )
        x = _merge_directions(y, hidden, directions)
        hs.append(h)
    output = op.Transpose(x, perm=[1, 0, 2]) if batch_first else x
    return output, op.Concat(*hs, axis=0)
