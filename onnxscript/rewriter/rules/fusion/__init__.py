"""Rules fusing decompositions into ONNX ops of opset 23, one module per op:
``rms_normalization`` (RMSNormalization), ``layer_normalization`` (LayerNormalization),
``rotary_embedding`` (RotaryEmbedding, full and partial), ``attention`` (Attention with
grouped-query heads and a KV cache); ``onnxscript.rewriter.onnx_fusions.fuse`` applies
them."""
