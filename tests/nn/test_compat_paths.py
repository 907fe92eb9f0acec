"""onnxscript 0.7's module paths of ``onnxscript.nn`` (``_module``, ``_module_list``,
``_parameter``, ``_sequential``): the same classes, so a model written against them builds
and runs as one written against ``onnxscript.nn``."""

from __future__ import annotations

import numpy as np
import onnxruntime

from onnxscript import nn
from onnxscript.nn._module import Module
from onnxscript.nn._module_list import ModuleList
from onnxscript.nn._parameter import Parameter
from onnxscript.nn._sequential import Sequential
from tests.nn.test_module import build, random_weights


def test_the_0_7_paths_name_the_same_classes():
    assert (Module, ModuleList, Parameter, Sequential) == (
        nn.Module,
        nn.ModuleList,
        nn.Parameter,
        nn.Sequential,
    )


class Scale(Module):
    def __init__(self, width: int):
        super().__init__()
        self.weight = Parameter([width])

    def forward(self, op, x):
        return op.Mul(x, self.weight)


class Stack(Module):
    def __init__(self):
        super().__init__()
        self.seq = Sequential(Scale(3), Scale(3))
        self.extra = ModuleList([Scale(3)])

    def forward(self, op, x):
        h = self.seq(op, x)
        for layer in self.extra:
            h = op.Relu(layer(op, h))
        return h


def test_a_model_written_against_the_0_7_paths_builds_and_runs():
    model = Stack()
    weights = random_weights(model)
    assert sorted(weights) == ["extra.0.weight", "seq.0.weight", "seq.1.weight"]
    model.load_state_dict(weights)
    proto, _ = build(model, [2, 3])
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    session = onnxruntime.InferenceSession(
        proto.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    (got,) = session.run(None, {"x": x})
    expected = np.maximum(
        x * weights["seq.0.weight"] * weights["seq.1.weight"] * weights["extra.0.weight"], 0
    )
    np.testing.assert_allclose(got, expected, rtol=1e-6)
