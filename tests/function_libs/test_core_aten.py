"""Every overload of the Core ATen IR (as the installed torch tags it) is registered, or
docs/torch_lib_ops.md gives the reason it is not reached (tests/function_libs/core_aten.py)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from onnxscript._framework_apis.torch_2_11 import get_torchlib_ops  # noqa: E402

from tests.function_libs.core_aten import UNREACHED, core_overloads  # noqa: E402


def test_every_core_overload_is_registered_or_explained():
    core = core_overloads()
    assert len(core) > 180  # the whole IR is enumerated, not only the packets loaded so far
    registered = {record.qualified_name for record in get_torchlib_ops()}
    unexplained = [name for name in core if name not in registered and name not in UNREACHED]
    assert not unexplained
    assert not [name for name in UNREACHED if name not in core]  # no stale reasons
