"""A small Llama model (``transformers.LlamaModel``, random weights) and inputs for it
(see the package's docstring)."""

from __future__ import annotations

from collections.abc import Sequence

from onnxscript.tools.transformers_models._language_models import (
    Built,
    build,
    config_of,
    from_config,
)

SIZES = {
    "small": dict(hidden_size=16, vocab_size=1024, intermediate_size=16,
                  max_position_embeddings=1024, num_attention_heads=2),
    "medium": dict(hidden_size=1024, vocab_size=1024, intermediate_size=1024,
                   max_position_embeddings=1024, num_attention_heads=2),
    "large": dict(hidden_size=4096, vocab_size=32000, intermediate_size=11008,
                  max_position_embeddings=2048, num_attention_heads=32),
}  # fmt: skip
"""The sizes of each configuration of :func:`get_llama_model_from_config`."""


def get_llama_model(
    input_dims: Sequence[tuple[int, int]] = ((2, 8), (4, 7), (9, 15)),
    hidden_size: int = 16,
    num_hidden_layers: int = 1,
    vocab_size: int = 1024,
    intermediate_size: int = 16,
    max_position_embeddings: int = 1024,
    num_attention_heads: int = 2,
    _attn_implementation: str = "eager",
    with_mask: bool = True,
) -> Built:
    """A ``LlamaModel`` of these sizes (as many key/value heads as attention heads),
    wrapped, with one input per ``(batch, length)`` of ``input_dims``: ``(model, inputs,
    dynamic_shapes)``."""
    config = config_of(
        "LlamaConfig",
        hidden_size=hidden_size,
        num_hidden_layers=num_hidden_layers,
        vocab_size=vocab_size,
        intermediate_size=intermediate_size,
        max_position_embeddings=max_position_embeddings,
        num_attention_heads=num_attention_heads,
    )
    names = ("LlamaModelWrapper", "LlamaModelWrapperMask")
    return build(config, _attn_implementation, "LlamaModel", input_dims, with_mask, names)


def get_llama_model_from_config(
    warmup: int = 5,
    repeat: int = 10,
    config: str = "small",
    num_hidden_layers: int = 1,
    implementation: str = "eager",
    dynamic_shapes: bool = False,
    with_mask: bool = True,
) -> Built:
    """:func:`get_llama_model` in the sizes of ``config`` (``"small"``, ``"medium"``,
    ``"large"``) with ``warmup + repeat`` inputs."""
    return from_config(
        SIZES, get_llama_model, warmup, repeat, config, num_hidden_layers, implementation,
        dynamic_shapes, with_mask,
    )  # fmt: skip


__all__ = ["get_llama_model", "get_llama_model_from_config"]
