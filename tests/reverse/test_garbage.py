"""Translation leaves no cyclic garbage: its graphs, nodes and values are freed when it
ends (a later garbage collection would otherwise scan every one of them)."""

from __future__ import annotations

import gc

import onnx
import onnx.helper as oh
import pytest

from onnxscript.reverse import TranslationError, proto2python
from tests.helpers import load_module
from tests.reverse.common import FLOAT, vi


def _with_function() -> onnx.ModelProto:
    imports = [oh.make_opsetid("", 18), oh.make_opsetid("local", 1)]
    fn = oh.make_function(
        "local", "f", ["a"], ["b"], [oh.make_node("Relu", ["a"], ["b"])], imports[:1]
    )
    graph = oh.make_graph(
        [oh.make_node("f", ["x"], ["y"], domain="local")],
        "g",
        [vi("x", FLOAT, [2])],
        [vi("y", FLOAT, [2])],
    )
    return oh.make_model(graph, opset_imports=imports, functions=[fn])


def _garbage_of(translate) -> int:
    """Objects the cyclic collector finds after ``translate()`` (run once before, so that
    first-use imports and caches do not count). Two collections first: objects an earlier
    test left (a compiled function whose lowering a weak-keyed cache holds) free the
    cache's value only in the first one's weakref callbacks."""
    translate()
    gc.collect()
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        translate()
        return gc.collect()
    finally:
        if enabled:
            gc.enable()


def test_translation_leaves_no_cyclic_garbage():
    bench = load_module("bench_reverse", "bench/reverse.py")
    model = bench.make_model(200, "mixed")  # If and Loop nodes, nested graphs
    assert _garbage_of(lambda: proto2python(model)) == 0
    assert _garbage_of(lambda: proto2python(_with_function())) == 0


def test_a_failed_translation_leaves_no_cyclic_garbage():
    node = oh.make_node("Relu", ["x"], ["y"], x=1)
    graph = oh.make_graph([node], "g", [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])])
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)])

    def translate() -> None:
        with pytest.raises(TranslationError):
            proto2python(model)

    assert _garbage_of(translate) == 0
