"""Conv and ConvInteger padding made explicit, and a constant Pad folded into them.

``normalize_pad_format_conv_rule`` (and ``_integer_``) turn ``auto_pad`` into explicit
``pads``: VALID always (no padding), SAME_UPPER / SAME_LOWER when the spatial input dims
and kernel are known sizes (``out = ceil(in / stride)``, the extra pad at the end for
SAME_UPPER, at the start for SAME_LOWER). ``fuse_pad_into_conv_rule`` (and ``_integer_``)
fold ``Pad`` (mode constant, constant non-negative pads on the spatial axes only) into
the following op's ``pads``, when the pad value is what the op pads with itself: 0 for
Conv, the input zero point (default 0) for ConvInteger."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.value_facts import (
    attr_ints,
    attr_str,
    constant_array,
    constant_ints,
    dims,
)
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.rules.common.node_copies import has_ref_attributes, rebuilt


def _kernel(node: ir.Node) -> list[int] | None:
    kernel = attr_ints(node, "kernel_shape")
    if kernel is not None:
        return kernel
    w_dims = dims(node.inputs[1])
    if w_dims is None or not all(isinstance(d, int) for d in w_dims[2:]):
        return None
    return [int(d) for d in w_dims[2:] if isinstance(d, int)]


def read_conv_attributes(conv: ir.Node) -> dict[str, Any]:
    """The padding-relevant attributes of a Conv node: ``kernel_shape`` (from the weight
    when not given), ``strides`` (default ones), ``auto_pad`` (default NOTSET) and
    ``pads`` when given."""
    found: dict[str, Any] = {"kernel_shape": _kernel(conv)}
    found["strides"] = attr_ints(conv, "strides") or [1] * len(found["kernel_shape"] or [])
    found["auto_pad"] = attr_str(conv, "auto_pad", "NOTSET")
    pads = attr_ints(conv, "pads")
    if pads is not None:
        found["pads"] = pads
    return found


def fill_pads_with_axes(pads: Sequence[int], axes: Sequence[int], rank: int) -> list[int]:
    """A Pad's ``pads`` over ``axes`` as pads over every axis of a rank-``rank`` input:
    ``[begin_0, ..., begin_{rank-1}, end_0, ..., end_{rank-1}]`` (axes not listed: 0)."""
    full = [0] * (2 * rank)
    for i, axis in enumerate(a % rank for a in axes):
        full[axis], full[axis + rank] = pads[i], pads[i + len(axes)]
    return full


def explicit_pads(node: ir.Node) -> list[int] | None:
    """The ``pads`` equivalent to ``node``'s ``auto_pad`` (None when shapes are unknown)."""
    found = _explicit_pads(node)
    return found if isinstance(found, list) else None


def _explicit_pads(node: ir.Node) -> list[int] | str:
    """:func:`explicit_pads`, or why they are unknown (in 0.7.2's words)."""
    mode = attr_str(node, "auto_pad", "NOTSET")
    x_dims, kernel = dims(node.inputs[0]), _kernel(node)
    if mode in ("NOTSET", "VALID"):
        rank = len(kernel) if kernel is not None else (len(x_dims) - 2 if x_dims else None)
        given = attr_ints(node, "pads") if mode == "NOTSET" else None
        if given is not None:
            return given
        return [0] * (2 * rank) if rank is not None else "the rank of the input is unknown"
    if not x_dims:
        return "Input shapes are not defined"
    if kernel is None or len(x_dims) != len(kernel) + 2:
        return "the weights must have the same length than kernel_shape (+2), known"
    spatial = x_dims[2:]
    if not all(isinstance(d, int) for d in spatial):
        return "Expected static spatial input shapes"
    strides = attr_ints(node, "strides") or [1] * len(kernel)
    dilations = attr_ints(node, "dilations") or [1] * len(kernel)
    begins, ends = [], []
    for size, k, s, d in zip(spatial, kernel, strides, dilations):
        assert isinstance(size, int)
        out = math.ceil(size / s)
        total = max(0, (out - 1) * s + (k - 1) * d + 1 - size)
        small, large = total // 2, total - total // 2
        begins.append(small if mode == "SAME_UPPER" else large)
        ends.append(large if mode == "SAME_UPPER" else small)
    return begins + ends


class NormalizePadFormatConv(RewriteRuleClassBase):
    """``Conv(x, w, auto_pad=...)`` -> ``Conv(x, w, pads=[...])``."""

    _op_type = "Conv"

    def pattern(self, op: Any, x: Any, w: Any) -> Any:
        return getattr(op, self._op_type)(x, w, _allow_other_inputs=True, _outputs=["out"])

    def check(self, context: Any, out: Any, **_: Any) -> MatchResult:
        result = MatchResult()
        node = out.producer()
        if has_ref_attributes(node) or attr_str(node, "auto_pad", "NOTSET") == "NOTSET":
            return result.fail("no auto_pad to make explicit", node)
        found = _explicit_pads(node)
        if isinstance(found, str):
            return result.fail(found, node)
        return result

    def rewrite(self, op: Any, out: Any, **_: Any) -> Any:
        node = out.producer()
        pads = explicit_pads(node)
        assert pads is not None
        return rebuilt(op, node, auto_pad="NOTSET", pads=pads)


def _pad_spatial(pad: ir.Node, rank: int) -> list[int] | str:
    """The pads a constant-mode Pad adds to the spatial axes of a rank-``rank`` input
    ([begins..., ends...]), or why it cannot be folded (in 0.7.2's words)."""
    if has_ref_attributes(pad) or attr_str(pad, "mode", "constant") != "constant":
        return "Pad mode must be 'constant'."
    inputs = [*pad.inputs, None, None][:4]
    pads = constant_ints(inputs[1])
    if pads is None:
        return "pads is not a constant/initializer."
    axes = list(range(rank)) if inputs[3] is None else constant_ints(inputs[3])
    if axes is None:
        return "axes is not a constant"
    if len(pads) != 2 * len(axes) or any(not -rank <= a < rank for a in axes):
        return "pads and axes do not fit the input's rank"
    if min(pads, default=0) < 0:
        return "pads must not contain negative values"
    full = fill_pads_with_axes(pads, axes, rank)
    if any(full[a] or full[a + rank] for a in (0, 1)):
        return "pads must be zero in non-spatial dimensions"
    return full[2:rank] + full[rank + 2 :]


def _pad_value_refusal(pad: ir.Node, conv: ir.Node) -> str | None:
    """Why Pad's constant value is not what ``conv`` pads with (0; ConvInteger: its input
    zero point), or None when it is."""
    value = pad.inputs[2] if len(pad.inputs) > 2 else None
    pad_value = 0 if value is None else constant_array(value)
    if pad_value is None:
        return "cval is not a constant"
    zero_point: Any = 0
    if conv.op_type == "ConvInteger" and len(conv.inputs) > 2 and conv.inputs[2] is not None:
        zero_point = constant_array(conv.inputs[2])
        if zero_point is None:
            return "the input zero point is not a constant"
    pad_value, zero_point = np.asarray(pad_value), np.asarray(zero_point)
    if pad_value.size > 1 or zero_point.size > 1 or not (pad_value == zero_point).all():
        return f"cval must be equal to {zero_point.ravel()[0] if zero_point.size else 0}."
    return None


class FuseConvPad(RewriteRuleClassBase):
    """``Conv(Pad(x, pads), w)`` -> ``Conv(x, w, pads=conv_pads + pads)``."""

    _op_type = "Conv"

    def pattern(self, op: Any, x: Any, pads: Any, w: Any) -> Any:
        padded = op.Pad(x, pads, _allow_other_inputs=True, _outputs=["padded"])
        return getattr(op, self._op_type)(padded, w, _allow_other_inputs=True, _outputs=["out"])

    def check(self, context: Any, padded: Any, out: Any, w: Any, **_: Any) -> MatchResult:
        result = MatchResult()
        pad, conv = padded.producer(), out.producer()
        if has_ref_attributes(conv) or attr_str(conv, "auto_pad", "NOTSET") not in (
            "NOTSET",
            "VALID",
        ):
            return result.fail("the op pads by auto_pad SAME", conv)
        w_dims = dims(w)
        if w_dims is None:
            return result.fail("the rank of the weights is unknown", w)
        added = _pad_spatial(pad, len(w_dims))
        if isinstance(added, str):
            return result.fail(added, pad)
        refusal = _pad_value_refusal(pad, conv)
        if refusal is not None:
            return result.fail(refusal, pad)
        if explicit_pads(conv) is None:
            return result.fail("the op's pads are unknown", conv)
        return result

    def rewrite(self, op: Any, x: Any, padded: Any, out: Any, w: Any, **_: Any) -> Any:
        pad, conv = padded.producer(), out.producer()
        added = _pad_spatial(pad, len(dims(w) or []))
        own = explicit_pads(conv)
        assert isinstance(added, list) and own is not None
        pads = [a + b for a, b in zip(own, added)]
        inputs = [x, *conv.inputs[1:]]
        return rebuilt(op, conv, inputs, auto_pad="NOTSET", pads=pads)


class NormalizePadFormatConvInteger(NormalizePadFormatConv):
    """The same for ``ConvInteger``."""

    _op_type = "ConvInteger"


class FuseConvIntegerPad(FuseConvPad):
    """The same for ``ConvInteger`` (the Pad value must be its input zero point)."""

    _op_type = "ConvInteger"


normalize_pad_format_conv_rule = NormalizePadFormatConv.rule()
normalize_pad_format_conv_integer_rule = NormalizePadFormatConvInteger.rule()
fuse_pad_into_conv_rule = FuseConvPad.rule()
fuse_pad_into_conv_integer_rule = FuseConvIntegerPad.rule()

__all__ = [
    "FuseConvIntegerPad",
    "FuseConvPad",
    "NormalizePadFormatConv",
    "NormalizePadFormatConvInteger",
    "explicit_pads",
    "fill_pads_with_axes",
    "fuse_pad_into_conv_integer_rule",
    "fuse_pad_into_conv_rule",
    "normalize_pad_format_conv_integer_rule",
    "normalize_pad_format_conv_rule",
    "read_conv_attributes",
]
