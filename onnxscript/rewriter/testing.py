"""0.7.2's module path for comparing a model before and after a rewrite
(:mod:`onnxscript.testing.model_equality`)."""

from __future__ import annotations

from onnxscript.testing.model_equality import assert_numerically_equal, generate_random_inputs

__all__ = ["assert_numerically_equal", "generate_random_inputs"]
