"""onnxscript 0.7's ``onnxscript._internal.type_annotation`` (what an annotation declares:
a tensor type, an attribute type, optional). Here that is
:mod:`onnxscript.language.annotations`."""

from onnxscript.language.annotations import (
    annotation_type,
    attribute_kind,
    is_tensor_annotation,
    output_annotations,
    unwrap_optional,
)

__all__ = [
    "annotation_type",
    "attribute_kind",
    "is_tensor_annotation",
    "output_annotations",
    "unwrap_optional",
]
