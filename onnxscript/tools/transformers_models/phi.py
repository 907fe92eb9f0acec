"""A small Phi model (``transformers.PhiModel``, random weights) and inputs for it (see
the package's docstring)."""

from __future__ import annotations

from collections.abc import Sequence

from onnxscript.tools.transformers_models._language_models import (
    Built,
    build,
    config_of,
    from_config,
)

SIZES = {
    "small": dict(hidden_size=32, vocab_size=99, intermediate_size=16,
                  max_position_embeddings=512, num_attention_heads=4, num_key_value_heads=2),
    "medium": dict(hidden_size=1024, vocab_size=1024, intermediate_size=1024,
                   max_position_embeddings=1024, num_attention_heads=4, num_key_value_heads=4),
    "large": dict(hidden_size=2048, vocab_size=51200, intermediate_size=8192,
                  max_position_embeddings=2048, num_attention_heads=32, num_key_value_heads=32),
}  # fmt: skip
"""The sizes of each configuration of :func:`get_phi_model_from_config`."""


def get_phi_model(
    input_dims: Sequence[tuple[int, int]] = ((13, 7), (14, 7), (15, 8)),
    hidden_size: int = 32,
    num_hidden_layers: int = 2,
    vocab_size: int = 99,
    intermediate_size: int = 16,
    max_position_embeddings: int = 512,
    num_attention_heads: int = 4,
    num_key_value_heads: int = 2,
    _attn_implementation: str = "eager",
    with_mask: bool = True,
) -> Built:
    """A ``PhiModel`` of these sizes, wrapped, with one input per ``(batch, length)`` of
    ``input_dims``: ``(model, inputs, dynamic_shapes)``."""
    config = config_of(
        "PhiConfig",
        hidden_size=hidden_size,
        num_hidden_layers=num_hidden_layers,
        vocab_size=vocab_size,
        intermediate_size=intermediate_size,
        max_position_embeddings=max_position_embeddings,
        num_attention_heads=num_attention_heads,
        num_key_value_heads=num_key_value_heads,
    )
    names = ("PhiModelWrapperNoMask", "PhiModelWrapper")
    return build(config, _attn_implementation, "PhiModel", input_dims, with_mask, names)


def get_phi_model_from_config(
    warmup: int = 5,
    repeat: int = 10,
    config: str = "small",
    num_hidden_layers: int = 1,
    implementation: str = "eager",
    dynamic_shapes: bool = False,
    with_mask: bool = True,
) -> Built:
    """:func:`get_phi_model` in the sizes of ``config`` (``"small"``, ``"medium"``,
    ``"large"``) with ``warmup + repeat`` inputs."""
    return from_config(
        SIZES, get_phi_model, warmup, repeat, config, num_hidden_layers, implementation,
        dynamic_shapes, with_mask,
    )  # fmt: skip


__all__ = ["get_phi_model", "get_phi_model_from_config"]
