"""onnxscript 0.7's ``onnxscript._internal.version_utils`` (comparing installed package
versions, for its own tests). This package needs none of it, so nothing stands here."""
