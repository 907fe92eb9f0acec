"""Testing helpers: compiled-equals-eager assertions and proto comparison up to renaming.

``assert_eager_matches_compiled(fn, *inputs)`` runs a script function eagerly and as a
compiled model on the same inputs and compares the outputs. ``assert_isomorphic(a, b)``
compares two models, functions or graphs up to value names and independent node order;
``assert_onnx_proto_equal(a, b)`` compares two protos field by field (0.7's).
``run_model`` runs a model with onnxruntime and ``first_mismatch`` compares outputs.
"""

from __future__ import annotations

from onnxscript.testing.eager_vs_compiled import (
    assert_eager_matches_compiled,
    assert_same_values,
    compiled_outputs,
)
from onnxscript.testing.isomorphism import (
    Mismatch,
    assert_isomorphic,
    assert_isomorphic_function,
    assert_isomorphic_graph,
    is_isomorphic,
)
from onnxscript.testing.proto_equality import assert_onnx_proto_equal
from onnxscript.testing.values import first_mismatch, model_runner, run_model

__all__ = [
    "Mismatch",
    "assert_eager_matches_compiled",
    "assert_isomorphic",
    "assert_isomorphic_function",
    "assert_isomorphic_graph",
    "assert_onnx_proto_equal",
    "assert_same_values",
    "compiled_outputs",
    "first_mismatch",
    "is_isomorphic",
    "model_runner",
    "run_model",
]
