"""The Core ATen IR of the installed torch (the overloads tagged ``core``), and the ones no
OpInfo sample can reach, with the reason (docs/torch_lib_ops.md lists both)."""

from __future__ import annotations

import torch

UNREACHED = {
    "aten::atan2.out": (
        "an out= overload: torch.export functionalizes them away, so no exported graph "
        "calls it (aten::atan2 is registered)"
    ),
    "aten::_native_batch_norm_legit": (
        "updates the running statistics in place: torch.export's functionalization "
        "replaces it with _native_batch_norm_legit_functional (registered; the "
        "_native_batch_norm_legit entry's samples reach that one)"
    ),
    "aten::resize_": (
        "not registered: in place, and torch.export's functionalization replaces it (the "
        "resize_ entry's graphs call as_strided and clone, which pass)"
    ),
    "aten::randperm": "no OpInfo entry (and random values, comparable by shape only)",
    "aten::sym_numel": "graphs call it only with dynamic shapes; the samples are static",
    "aten::sym_stride.int": "graphs call it only with dynamic shapes; the samples are static",
    "aten::sym_is_contiguous": (
        "not registered: a fact about memory layout, which ONNX tensors do not have; graphs "
        "call it only with dynamic shapes"
    ),
}
"""Core ATen overloads no sample reaches, and why."""


def core_overloads() -> list[str]:
    """The overloads torch tags ``core`` (the Core ATen IR), by qualified name."""
    found = set()
    # Every registered operator: dir(torch.ops.aten) lists only the packets loaded so far.
    for qualified in torch._C._dispatch_get_all_op_names():
        namespace, _, rest = qualified.partition("::")
        if namespace != "aten":
            continue
        packet_name, _, overload_name = rest.partition(".")
        try:
            value = getattr(getattr(torch.ops.aten, packet_name), overload_name or "default")
        except AttributeError:
            continue
        if torch.Tag.core in value.tags:
            found.add(value.name())
    return sorted(found)
