"""onnxscript 0.7's ``onnxscript._internal.deprecation`` (a ``deprecated`` decorator for
its own API). This package has no deprecated API, so nothing stands here."""
