"""Rewrite rules, one module each: ``common`` (the optimizer's default rules and other
generic simplifications), ``fusion`` (ONNX ops of opset 23 from their decompositions)."""
