"""Models shaped like torch.onnx exports, for the optimizer's tests and benchmark.

ResNet-like and DenseNet-like CNNs and a transformer block, with what exporters leave
behind: Identity nodes, repeated Constants, shape arithmetic on static shapes
(Shape -> Gather -> Unsqueeze -> Concat -> Reshape), an unused node, and calls of a
model-local function. ``scale`` shrinks channel counts for fast tests; ``scale=1`` gives
the real sizes (resnet18: 11.7M weights).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import TensorProto, helper

LOCAL_DOMAIN = "pkg.exported"


@dataclass
class _Graph:
    """A graph being written: nodes, initializers, fresh names."""

    rng: np.random.Generator
    nodes: list[onnx.NodeProto] = field(default_factory=list)
    weights: list[onnx.TensorProto] = field(default_factory=list)
    count: int = 0

    def name(self, base: str) -> str:
        self.count += 1
        return f"{base}_{self.count}"

    def node(self, op: str, inputs: list[str], domain: str = "", **attrs: object) -> str:
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], domain=domain, **attrs))
        return out

    def weight(self, *shape: int, positive: bool = False) -> str:
        data = self.rng.standard_normal(shape).astype(np.float32) * 0.1
        if positive:
            data = np.abs(data) + 0.5
        name = self.name("w")
        self.weights.append(
            helper.make_tensor(name, TensorProto.FLOAT, shape, data.tobytes(), raw=True)
        )
        return name

    def constant(self, values: list[int]) -> str:
        """A Constant node, as exporters write one per use."""
        tensor = helper.make_tensor("v", TensorProto.INT64, [len(values)], values)
        return self.node("Constant", [], value=tensor)


def _conv_bn_relu(
    g: _Graph, x: str, cin: int, cout: int, stride: int = 1, relu: bool = True
) -> str:
    y = g.node("Conv", [x, g.weight(cout, cin, 3, 3)], pads=[1, 1, 1, 1], strides=[stride] * 2)
    bn = [
        g.weight(cout, positive=True),
        g.weight(cout),
        g.weight(cout),
        g.weight(cout, positive=True),
    ]
    y = g.node("BatchNormalization", [y, *bn])
    y = g.node("Identity", [y])
    return g.node("Relu", [y]) if relu else y


def _flatten_by_shape(g: _Graph, x: str) -> str:
    """Reshape to [batch, -1] through shape arithmetic, as tracing exporters write it."""
    batch = g.node("Gather", [g.node("Shape", [x]), g.constant([0])], axis=0)
    target = g.node("Concat", [batch, g.constant([-1])], axis=0)
    return g.node("Reshape", [x, target])


def _relu_function() -> onnx.FunctionProto:
    return helper.make_function(
        LOCAL_DOMAIN,
        "relu_block",
        ["x"],
        ["y"],
        [helper.make_node("Identity", ["x"], ["t"]), helper.make_node("Relu", ["t"], ["y"])],
        [helper.make_opsetid("", 18)],
    )


def _model(
    g: _Graph, x: str, y: str, in_shape: list[int], out_shape: list[object]
) -> onnx.ModelProto:
    g.node("Neg", [x])  # unused: nothing reads it
    graph = helper.make_graph(
        g.nodes,
        "exported",
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, in_shape)],
        [helper.make_tensor_value_info(y, TensorProto.FLOAT, out_shape)],
        g.weights,
    )
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid(LOCAL_DOMAIN, 1)]
    model = helper.make_model(graph, opset_imports=opsets, functions=[_relu_function()])
    model.ir_version = 10
    return model


def resnet_like(scale: float = 1.0, image: int = 32, seed: int = 0) -> onnx.ModelProto:
    """ResNet-18's layout: a stem, four stages of two basic blocks, pooling, a classifier."""
    g = _Graph(np.random.default_rng(seed))
    width = [max(2, int(c * scale)) for c in (64, 128, 256, 512)]
    x = "input"
    y = _conv_bn_relu(g, x, 3, width[0])
    y = g.node("MaxPool", [y], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    cin = width[0]
    for stage, cout in enumerate(width):
        for block in range(2):
            stride = 2 if stage > 0 and block == 0 else 1
            h = _conv_bn_relu(g, y, cin, cout, stride)
            h = _conv_bn_relu(g, h, cout, cout, relu=False)
            skip = (
                y
                if stride == 1 and cin == cout
                else _conv_bn_relu(g, y, cin, cout, stride, relu=False)
            )
            y = g.node("relu_block", [g.node("Add", [h, skip])], domain=LOCAL_DOMAIN)
            cin = cout
    y = _flatten_by_shape(g, g.node("GlobalAveragePool", [y]))
    y = g.node("Gemm", [y, g.weight(10, cin), g.weight(10)], transB=1)
    return _model(g, x, y, [1, 3, image, image], [1, 10])


def densenet_like(scale: float = 1.0, image: int = 32, seed: int = 0) -> onnx.ModelProto:
    """DenseNet-121's layout: dense blocks of (6, 12, 24, 16) layers that concatenate
    their inputs, with transitions between them."""
    g = _Graph(np.random.default_rng(seed))
    growth = max(2, int(32 * scale))
    x = "input"
    channels = 2 * growth
    y = _conv_bn_relu(g, x, 3, channels)
    for index, layers in enumerate((6, 12, 24, 16)):
        for _ in range(layers):
            h = _conv_bn_relu(g, y, channels, growth)
            y = g.node("Concat", [y, h], axis=1)
            channels += growth
        if index < 3:
            y = g.node("relu_block", [y], domain=LOCAL_DOMAIN)
            y = g.node("AveragePool", [y], kernel_shape=[2, 2], strides=[2, 2])
    y = _flatten_by_shape(g, g.node("GlobalAveragePool", [y]))
    y = g.node("Gemm", [y, g.weight(10, channels), g.weight(10)], transB=1)
    return _model(g, x, y, [1, 3, image, image], [1, 10])


def transformer_block(
    dim: int = 64, heads: int = 4, seq: int = 16, seed: int = 0
) -> onnx.ModelProto:
    """Self-attention and an MLP with residuals and layer norms, heads split by Reshape
    and Transpose, shapes computed from Shape like a traced export."""
    g = _Graph(np.random.default_rng(seed))
    x = "input"
    ln = g.node("LayerNormalization", [x, g.weight(dim, positive=True), g.weight(dim)], axis=-1)
    q, k, v = (g.node("MatMul", [ln, g.weight(dim, dim)]) for _ in range(3))
    head_dim = dim // heads
    split = [
        g.node(
            "Transpose",
            [g.node("Reshape", [t, g.constant([1, seq, heads, head_dim])])],
            perm=[0, 2, 1, 3],
        )
        for t in (q, k, v)
    ]
    scores = g.node("MatMul", [split[0], g.node("Transpose", [split[1]], perm=[0, 1, 3, 2])])
    scale = g.node(
        "Sqrt",
        [
            g.node(
                "Cast",
                [g.node("Gather", [g.node("Shape", [split[0]]), g.constant([3])], axis=0)],
                to=TensorProto.FLOAT,
            )
        ],
    )
    attn = g.node("Softmax", [g.node("Div", [scores, scale])], axis=-1)
    ctx = g.node("Transpose", [g.node("MatMul", [attn, split[2]])], perm=[0, 2, 1, 3])
    ctx = g.node("Reshape", [ctx, g.constant([1, seq, dim])])
    y = g.node("Add", [x, g.node("MatMul", [ctx, g.weight(dim, dim)])])
    ln2 = g.node("LayerNormalization", [y, g.weight(dim, positive=True), g.weight(dim)], axis=-1)
    hidden = g.node(
        "relu_block", [g.node("MatMul", [ln2, g.weight(dim, 4 * dim)])], domain=LOCAL_DOMAIN
    )
    y = g.node("Add", [y, g.node("Identity", [g.node("MatMul", [hidden, g.weight(4 * dim, dim)])])])
    return _model(g, x, y, [1, seq, dim], [1, seq, dim])


__all__ = ["LOCAL_DOMAIN", "densenet_like", "resnet_like", "transformer_block"]
