"""onnxscript 0.7's module path of the type-constraint deducer
(:mod:`onnxscript.function_libs.type_constraints`)."""

from __future__ import annotations

from onnxscript.function_libs.type_constraints import (
    OnnxFunctionTypeConstraints,
    TypeConstraint,
    TypeConstraintDeducer,
    Value,
    deduce_type_constraints,
)

__all__ = [
    "OnnxFunctionTypeConstraints",
    "TypeConstraint",
    "TypeConstraintDeducer",
    "Value",
    "deduce_type_constraints",
]
