"""What the ATen op modules share and register nothing of their own: the layout of complex
tensors, constants torch.onnx's recorder accepts, facts read off symbolic inputs (rank,
static dims, element type), torch's type promotion and sizes that may be symbolic.

Kept apart from ``aten/`` so that every module there is an op module (found by walking it).
"""
