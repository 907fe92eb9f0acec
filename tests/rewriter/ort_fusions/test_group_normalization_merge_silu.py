"""A ``torch.nn.SiLU`` module's function after the channels-last GroupNorm merged into
the op's ``activation=1``: same outputs (``onnx.reference``, with the model-local
function before and the contrib op evaluated by ``group_norm_reference``); refused for
other functions, a GroupNorm with an activation already, or another permutation."""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript.rewriter.ort_fusions import group_normalization_merge_silu as merge
from tests.rewriter.ort_fusions.fusing import check_model
from tests.rewriter.ort_fusions.group_norm_reference import evaluate

DOMAIN = "pkg.torch.2.5"


def model(
    op_type: str = "torch_nn_modules_activation_SiLU_act_1",
    activation: int = 0,
    perm: tuple[int, ...] = (0, 3, 1, 2),
) -> onnx.ModelProto:
    nodes = [
        helper.make_node(
            "GroupNorm",
            ["x", "w", "b"],
            ["gn"],
            domain="com.microsoft",
            activation=activation,
            channels_last=1,
            epsilon=1e-5,
            groups=4,
        ),
        helper.make_node("Transpose", ["gn"], ["t"], perm=list(perm)),
        helper.make_node(op_type, ["t"], ["y"], domain=DOMAIN),
    ]
    silu = helper.make_function(
        DOMAIN,
        op_type,
        ["a"],
        ["s"],
        [helper.make_node("Sigmoid", ["a"], ["g"]), helper.make_node("Mul", ["a", "g"], ["s"])],
        [helper.make_opsetid("", 18)],
    )
    rng = np.random.default_rng(0)
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 5, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8, 3, 5])],
        [
            onnx.numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "w"),
            onnx.numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "b"),
        ],
    )
    opsets = [helper.make_opsetid(d, v) for d, v in (("", 18), ("com.microsoft", 1), (DOMAIN, 1))]
    return helper.make_model(graph, opset_imports=opsets, functions=[silu])


def test_silu_module_goes_into_the_group_norm() -> None:
    before = model()
    fused = ir.from_proto(before)
    assert merge.rules.apply_to_model(fused) == 1
    (group_norm,) = [n for n in fused.graph if n.op_type == "GroupNorm"]
    assert group_norm.attributes.get_int("activation") == 1
    assert [n.op_type for n in fused.graph] == ["GroupNorm", "Transpose"]
    after = ir.to_proto(fused)
    check_model(after)
    x = np.random.default_rng(1).standard_normal((2, 3, 5, 8)).astype(np.float32)
    np.testing.assert_allclose(
        evaluate(after, {"x": x})[0], evaluate(before, {"x": x})[0], rtol=1e-5, atol=1e-6
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"op_type": "torch_nn_modules_activation_GELU_act"},
        {"activation": 1},
        {"perm": (0, 2, 3, 1)},
    ],
)
def test_other_subgraphs_are_refused(changes: dict[str, object]) -> None:
    assert merge.rules.apply_to_model(ir.from_proto(model(**changes))) == 0  # type: ignore[arg-type]
