"""Exports of the real-model suite (tests/function_libs/real_models.py) with dynamic
shapes and their inputs at two sizes, for the fusion tests' module fixtures."""

from __future__ import annotations

import pickle
from typing import Any

import onnx
import pytest


def export_with_feeds(name: str) -> tuple[onnx.ModelProto, list[dict[str, Any]]]:
    """The suite entry ``name`` exported with dynamic shapes, and its inputs at the two
    sizes as feeds by input name; skips without transformers."""
    pytest.importorskip("transformers")
    from tests.function_libs import dynamic_export, real_models

    entry = real_models.suite()[name]
    module = entry.module()
    program = dynamic_export.export(module, entry.inputs(0), entry.dynamic_shapes(module))
    proto = program.model_proto
    names = [i.name for i in proto.graph.input]
    feeds = [
        [dynamic_export.numpy_of(t) for t in dynamic_export.flat_tensors(entry.inputs(w))]
        for w in (0, 1)
    ]
    return proto, [dict(zip(names, f)) for f in pickle.loads(pickle.dumps(feeds))]
