"""Real architectures with random weights, exported with dynamic shapes.

Each entry of :func:`suite` is a tiny configuration of a transformers or torchvision
model (hidden 32-64, 2 layers, 4 heads, small vocabularies; nothing is downloaded), with
example inputs at two shapes (the export's and a second one where every dynamic size
differs), the ``dynamic_shapes`` of its inputs, the category it stands for and whether CI
runs it (``fast``). A model our export fails on carries the reason (``xfail``); one that
``torch.export`` itself cannot capture carries torch's (``torch_fails``) and is not ours
to count.

This module imports only torch, transformers and torchvision (not onnxscript), so that the
benchmark runs the same suite with onnxscript 0.7.2 in another environment.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

Sizes = Mapping[str, int]
Inputs = tuple[Any, ...]

SHAPES: tuple[dict[str, int], dict[str, int]] = (
    {"batch": 2, "seq": 8, "past": 5, "image": 32, "audio": 1600},
    {"batch": 3, "seq": 5, "past": 9, "image": 48, "audio": 2400},
)
"""The export's sizes and the second sizes the exported model is run at: batch, tokens,
past tokens of the KV cache, image side, audio samples (every one differs)."""

INTERPOLATED = (
    {**SHAPES[0], "image": 40},
    {**SHAPES[1], "image": 56},
)
"""Sizes for ViT-like models that interpolate their position embeddings: an image side
other than the configured 32 (at 32 the model skips the interpolation, and torch.export
records that branch with a guard the ONNX model cannot keep)."""

VOCAB = 256


@dataclass(frozen=True)
class RealModel:
    """One model of the suite.

    ``build`` makes the module (seeded, in eval mode, without gradients); ``make_inputs``
    its positional inputs at the given sizes; ``dynamic`` per input (in order, nested like
    the inputs) the axes that are dynamic; ``note`` why a size that could be dynamic is
    not.
    """

    name: str
    category: str
    build: Callable[[], nn.Module]
    make_inputs: Callable[[Sizes], Inputs]
    dynamic: tuple[Any, ...]
    fast: bool = False
    xfail: str = ""
    torch_fails: str = ""
    note: str = ""
    shapes: tuple[Sizes, Sizes] = field(default=SHAPES)

    def module(self) -> nn.Module:
        torch.manual_seed(0)
        module = self.build().eval()
        module.requires_grad_(False)
        return module

    def inputs(self, which: int) -> Inputs:
        """The inputs at the export's sizes (0) or at the second sizes (1)."""
        torch.manual_seed(1 + which)
        return self.make_inputs(self.shapes[which])

    def dynamic_shapes(self, module: nn.Module) -> tuple[Any, ...]:
        """The ``dynamic_shapes`` argument of ``torch.export`` for ``module``: every
        listed axis ``Dim.DYNAMIC``; inputs past the named parameters go to ``*args``."""
        specs = tuple(_spec(axes) for axes in self.dynamic)
        parameters = inspect.signature(module.forward).parameters.values()
        named = [p for p in parameters if p.kind != p.VAR_POSITIONAL]
        if len(named) == len(parameters):
            return specs
        return (*specs[: len(named)], specs[len(named) :])

    def flat_dynamic(self) -> list[tuple[int, ...]]:
        """The dynamic axes of each input tensor, flat in the exported model's order."""
        return [a for axes in self.dynamic for a in (axes if isinstance(axes, list) else [axes])]


def _spec(axes: Any) -> Any:
    """``{axis: Dim.DYNAMIC}`` for a tuple of axes; lists of them for lists of tensors."""
    if isinstance(axes, list):
        return [_spec(a) for a in axes]
    return {axis: torch.export.Dim.DYNAMIC for axis in axes}


# Inputs --------------------------------------------------------------------------------


def tokens(sizes: Sizes, vocab: int = VOCAB) -> torch.Tensor:
    return torch.randint(3, vocab, (sizes["batch"], sizes["seq"]))


def mask(sizes: Sizes, extra: int = 0) -> torch.Tensor:
    """An attention mask of ones, except a padded first token of the last sequence (left
    padding, so that the mask is not a no-op)."""
    result = torch.ones(sizes["batch"], sizes["seq"] + extra, dtype=torch.int64)
    result[-1, 0] = 0
    return result


def text(sizes: Sizes) -> Inputs:
    return tokens(sizes), mask(sizes)


def text_pair(sizes: Sizes) -> Inputs:
    """Encoder tokens and mask, and decoder tokens one shorter than the encoder's."""
    decoder = {**sizes, "seq": sizes["seq"] - 1}
    return tokens(sizes), mask(sizes), tokens(decoder)


def images(sizes: Sizes) -> Inputs:
    return (torch.randn(sizes["batch"], 3, sizes["image"], sizes["image"]),)


def images_32(sizes: Sizes) -> Inputs:
    """Images of side 32 (for models whose image size is static)."""
    return (torch.randn(sizes["batch"], 3, 32, 32),)


def audio(sizes: Sizes) -> Inputs:
    return (torch.randn(sizes["batch"], sizes["audio"]),)


BATCH_SEQ = (0, 1)
IMAGE = (0, 2, 3)


# Wrappers ------------------------------------------------------------------------------


class Outputs(nn.Module):
    """A model called with its inputs (positional, or by ``names`` in order) returning the
    tensors ``keys`` of its output (a tuple, which torch.export and ONNX both take)."""

    def __init__(self, model: nn.Module, names: Sequence[str], keys: Sequence[str], **fixed: Any):
        super().__init__()
        self.model = model
        self.names = tuple(names)
        self.keys = tuple(keys)
        self.fixed = fixed

    def forward(self, *args: torch.Tensor) -> tuple[torch.Tensor, ...]:
        if self.names:
            output = self.model(**dict(zip(self.names, args)), **self.fixed)
        else:
            output = self.model(*args, **self.fixed)
        return tuple(output[key] for key in self.keys)


class WithCache(nn.Module):
    """A decoder-only LM with its KV cache as inputs and outputs: ``past`` holds key and
    value per layer, ``[batch, kv_heads, past, head_dim]``; returns the logits and the
    present keys and values (past and new tokens), flat in the same order."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        position_ids: torch.Tensor,
        *past: torch.Tensor,
    ) -> tuple[torch.Tensor, ...]:
        from transformers import DynamicCache

        pairs = [(past[i], past[i + 1]) for i in range(0, len(past), 2)]
        cache = DynamicCache(ddp_cache_data=pairs, config=self.model.config)
        output = self.model(
            input_ids=input_ids,
            attention_mask=attention_mask,
            position_ids=position_ids,
            cache=cache,  # transformers 5.24's name (past_key_values is deprecated)
            use_cache=True,
        )
        present = output.cache
        flat = [t for layer in present.layers for t in (layer.keys, layer.values)]
        return (output.logits, *flat)


def cache_inputs(config: Any) -> Callable[[Sizes], Inputs]:
    """Inputs of :class:`WithCache` for ``config``: new tokens, a mask over past and new
    tokens, their positions, and random past keys and values."""
    kv_heads = config.num_key_value_heads
    head_dim = config.hidden_size // config.num_attention_heads

    def make(sizes: Sizes) -> Inputs:
        batch, seq, past = sizes["batch"], sizes["seq"], sizes["past"]
        positions = torch.arange(past, past + seq).expand(batch, seq).contiguous()
        pasts = [
            torch.randn(batch, kv_heads, past, head_dim)
            for _ in range(2 * config.num_hidden_layers)
        ]
        return (tokens(sizes), mask(sizes, past), positions, *pasts)

    return make


def cache_dynamic(config: Any) -> tuple[Any, ...]:
    past = [(0, 2)] * (2 * config.num_hidden_layers)
    return (BATCH_SEQ, BATCH_SEQ, BATCH_SEQ, *past)


# Transformers configurations ------------------------------------------------------------

SMALL = {
    "vocab_size": VOCAB,
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "max_position_embeddings": 128,
}
"""A tiny Llama-like configuration; most decoder-only configurations take these names."""


def _config(name: str, **values: Any) -> Any:
    import transformers

    return getattr(transformers, name)(**values)


def llama_config() -> Any:
    return _config("LlamaConfig", **SMALL, num_key_value_heads=2)


def qwen2_config() -> Any:
    return _config("Qwen2Config", **SMALL, num_key_value_heads=2)


def lm(config: Callable[[], Any]) -> Callable[[], nn.Module]:
    """A causal LM without cache: input_ids and attention_mask to logits."""

    def build() -> nn.Module:
        import transformers

        model = transformers.AutoModelForCausalLM.from_config(config())
        return Outputs(model, ("input_ids", "attention_mask"), ("logits",), use_cache=False)

    return build


def with_cache(config: Callable[[], Any]) -> Callable[[], nn.Module]:
    def build() -> nn.Module:
        import transformers

        return WithCache(transformers.AutoModelForCausalLM.from_config(config()))

    return build


def encoder(config: Callable[[], Any]) -> Callable[[], nn.Module]:
    """A bare encoder: input_ids and attention_mask to the last hidden state."""

    def build() -> nn.Module:
        import transformers

        model = transformers.AutoModel.from_config(config())
        return Outputs(model, ("input_ids", "attention_mask"), ("last_hidden_state",))

    return build


def seq2seq(config: Callable[[], Any]) -> Callable[[], nn.Module]:
    """An encoder-decoder LM: encoder tokens and mask, decoder tokens to logits."""

    def build() -> nn.Module:
        import transformers

        model = transformers.AutoModelForSeq2SeqLM.from_config(config())
        names = ("input_ids", "attention_mask", "decoder_input_ids")
        return Outputs(model, names, ("logits",), use_cache=False)

    return build


def vision(kind: str, config: Callable[[], Any], **fixed: Any) -> Callable[[], nn.Module]:
    """An image classifier ``transformers.<kind>``: pixel values to logits."""

    def build() -> nn.Module:
        import transformers

        model = getattr(transformers, kind)(config())
        return Outputs(model, ("pixel_values",), ("logits",), **fixed)

    return build


ENCODER = {
    "vocab_size": VOCAB,
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 64,
    "max_position_embeddings": 128,
}


def transformers_models() -> list[RealModel]:
    """Decoder-only LLMs, encoders, encoder-decoders, vision and speech models."""
    text_dynamic = (BATCH_SEQ, BATCH_SEQ)
    llama = llama_config
    qwen2 = qwen2_config
    return [
        RealModel("llama", "decoder", lm(llama), text, text_dynamic),
        RealModel("qwen2", "decoder", lm(qwen2), text, text_dynamic),
        RealModel(
            "mistral",
            "decoder",
            lm(lambda: _config("MistralConfig", **SMALL, num_key_value_heads=2)),
            text,
            text_dynamic,
        ),
        RealModel(
            "phi3",
            "decoder",
            lm(lambda: _config("Phi3Config", **SMALL, num_key_value_heads=2, pad_token_id=0)),
            text,
            text_dynamic,
        ),
        RealModel(
            "gemma",
            "decoder",
            lm(lambda: _config("GemmaConfig", **SMALL, num_key_value_heads=2, head_dim=8)),
            text,
            text_dynamic,
        ),
        RealModel(
            "gemma2",
            "decoder",
            lm(
                lambda: _config(
                    "Gemma2Config", **SMALL, num_key_value_heads=2, head_dim=8, sliding_window=4
                )
            ),
            text,
            text_dynamic,
        ),
        RealModel(
            "qwen3",
            "decoder",
            lm(lambda: _config("Qwen3Config", **SMALL, num_key_value_heads=2, head_dim=8)),
            text,
            text_dynamic,
        ),
        RealModel(
            "gpt2",
            "decoder",
            lm(
                lambda: _config(
                    "GPT2Config", vocab_size=VOCAB, n_embd=32, n_layer=2, n_head=4, n_positions=128
                )
            ),
            text,
            text_dynamic,
        ),
        RealModel(
            "gpt_neox",
            "decoder",
            lm(lambda: _config("GPTNeoXConfig", **SMALL)),
            text,
            text_dynamic,
        ),
        RealModel(
            "opt",
            "decoder",
            lm(
                lambda: _config(
                    "OPTConfig",
                    vocab_size=VOCAB,
                    hidden_size=32,
                    ffn_dim=64,
                    num_hidden_layers=2,
                    num_attention_heads=4,
                    word_embed_proj_dim=32,
                    max_position_embeddings=128,
                )
            ),
            text,
            text_dynamic,
        ),
        RealModel(
            "falcon",
            "decoder",
            lm(
                lambda: _config(
                    "FalconConfig",
                    vocab_size=VOCAB,
                    hidden_size=32,
                    num_hidden_layers=2,
                    num_attention_heads=4,
                )
            ),
            text,
            text_dynamic,
        ),
        RealModel(
            "bloom",
            "decoder",
            lm(
                lambda: _config(
                    "BloomConfig", vocab_size=VOCAB, hidden_size=32, n_layer=2, n_head=4
                )
            ),
            text,
            text_dynamic,
        ),
        RealModel(
            "llama_kv",
            "decoder-kv",
            with_cache(llama),
            cache_inputs(llama()),
            cache_dynamic(llama()),
            fast=True,
        ),
        RealModel(
            "qwen2_kv",
            "decoder-kv",
            with_cache(qwen2),
            cache_inputs(qwen2()),
            cache_dynamic(qwen2()),
        ),
        RealModel(
            "bert",
            "encoder",
            encoder(lambda: _config("BertConfig", **ENCODER)),
            text,
            text_dynamic,
            fast=True,
        ),
        RealModel(
            "roberta",
            "encoder",
            encoder(lambda: _config("RobertaConfig", **ENCODER, pad_token_id=1)),
            text,
            text_dynamic,
        ),
        RealModel(
            "distilbert",
            "encoder",
            encoder(
                lambda: _config(
                    "DistilBertConfig",
                    vocab_size=VOCAB,
                    dim=32,
                    n_layers=2,
                    n_heads=4,
                    hidden_dim=64,
                    max_position_embeddings=128,
                )
            ),
            text,
            text_dynamic,
        ),
        RealModel(
            "albert",
            "encoder",
            encoder(lambda: _config("AlbertConfig", **ENCODER, embedding_size=16)),
            text,
            text_dynamic,
        ),
        RealModel(
            "electra",
            "encoder",
            encoder(lambda: _config("ElectraConfig", **ENCODER, embedding_size=16)),
            text,
            text_dynamic,
        ),
        RealModel(
            "deberta_v2",
            "encoder",
            encoder(lambda: _config("DebertaV2Config", **ENCODER)),
            text,
            text_dynamic,
        ),
        RealModel(
            "t5",
            "encoder-decoder",
            seq2seq(
                lambda: _config(
                    "T5Config",
                    vocab_size=VOCAB,
                    d_model=32,
                    d_kv=8,
                    d_ff=64,
                    num_layers=2,
                    num_heads=4,
                    decoder_start_token_id=0,
                )
            ),
            text_pair,
            (BATCH_SEQ, BATCH_SEQ, BATCH_SEQ),
            fast=True,
        ),
        RealModel(
            "bart",
            "encoder-decoder",
            seq2seq(
                lambda: _config(
                    "BartConfig",
                    vocab_size=VOCAB,
                    d_model=32,
                    encoder_layers=2,
                    decoder_layers=2,
                    encoder_attention_heads=4,
                    decoder_attention_heads=4,
                    encoder_ffn_dim=64,
                    decoder_ffn_dim=64,
                    max_position_embeddings=128,
                )
            ),
            text_pair,
            (BATCH_SEQ, BATCH_SEQ, BATCH_SEQ),
        ),
        RealModel(
            "vit",
            "vision",
            vision(
                "ViTForImageClassification",
                lambda: _config(
                    "ViTConfig",
                    image_size=32,
                    patch_size=8,
                    hidden_size=32,
                    num_hidden_layers=2,
                    num_attention_heads=4,
                    intermediate_size=64,
                    num_labels=10,
                ),
                interpolate_pos_encoding=True,
            ),
            images,
            (IMAGE,),
            shapes=INTERPOLATED,
            fast=True,
        ),
        RealModel(
            "deit",
            "vision",
            vision(
                "DeiTForImageClassification",
                lambda: _config(
                    "DeiTConfig",
                    image_size=32,
                    patch_size=8,
                    hidden_size=32,
                    num_hidden_layers=2,
                    num_attention_heads=4,
                    intermediate_size=64,
                    num_labels=10,
                ),
                interpolate_pos_encoding=True,
            ),
            images,
            (IMAGE,),
            shapes=INTERPOLATED,
        ),
        RealModel(
            "swin",
            "vision",
            vision(
                "SwinForImageClassification",
                lambda: _config(
                    "SwinConfig",
                    image_size=32,
                    patch_size=4,
                    embed_dim=16,
                    depths=[2, 2],
                    num_heads=[2, 4],
                    window_size=4,
                    num_labels=10,
                ),
            ),
            images_32,
            ((0,),),
            note=SWIN_STATIC,
        ),
        RealModel(
            "convnext",
            "vision",
            vision(
                "ConvNextForImageClassification",
                lambda: _config(
                    "ConvNextConfig",
                    hidden_sizes=[16, 32],
                    depths=[1, 1],
                    num_stages=2,
                    num_labels=10,
                ),
            ),
            images,
            (IMAGE,),
        ),
        RealModel(
            "segformer",
            "vision",
            segformer,
            images,
            (IMAGE,),
        ),
        RealModel(
            "whisper",
            "speech",
            whisper,
            whisper_inputs,
            ((0,), BATCH_SEQ),
            note="Whisper's encoder raises on any other number of mel frames than "
            "2 * max_source_positions",
        ),
        RealModel(
            "wav2vec2",
            "speech",
            wav2vec2,
            audio,
            (BATCH_SEQ,),
            fast=True,
        ),
    ]


SWIN_STATIC = (
    "dynamic image size captures (and pads windows at run time) but torch.export takes "
    "73 s (transformers) / 28 s (torchvision) instead of 2 s / 1 s on it"
)

WHISPER_FRAMES = 64
"""Whisper's encoder takes exactly ``2 * max_source_positions`` mel frames (it raises on
any other length): the audio length is static, batch and decoder tokens are dynamic."""


def segformer() -> nn.Module:
    """SegFormer's semantic segmentation: pixel values to logits at a quarter of the
    image size."""
    config = _config(
        "SegformerConfig",
        num_encoder_blocks=2,
        depths=[1, 1],
        sr_ratios=[2, 1],
        hidden_sizes=[16, 32],
        num_attention_heads=[1, 2],
        decoder_hidden_size=32,
        num_labels=4,
    )
    import transformers

    model = transformers.SegformerForSemanticSegmentation(config)
    return Outputs(model, ("pixel_values",), ("logits",))


def whisper() -> nn.Module:
    config = _config(
        "WhisperConfig",
        vocab_size=VOCAB,
        num_mel_bins=16,
        d_model=32,
        encoder_layers=2,
        decoder_layers=2,
        encoder_attention_heads=4,
        decoder_attention_heads=4,
        encoder_ffn_dim=64,
        decoder_ffn_dim=64,
        max_source_positions=WHISPER_FRAMES // 2,
        max_target_positions=64,
        pad_token_id=0,
        decoder_start_token_id=1,
    )
    import transformers

    model = transformers.WhisperForConditionalGeneration(config)
    return Outputs(model, ("input_features", "decoder_input_ids"), ("logits",), use_cache=False)


def whisper_inputs(sizes: Sizes) -> Inputs:
    features = torch.randn(sizes["batch"], 16, WHISPER_FRAMES)
    return features, tokens(sizes)


def wav2vec2() -> nn.Module:
    config = _config(
        "Wav2Vec2Config",
        vocab_size=32,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        conv_dim=(16, 16, 16),
        conv_stride=(5, 2, 2),
        conv_kernel=(10, 3, 3),
        num_conv_pos_embeddings=16,
        num_conv_pos_embedding_groups=4,
    )
    import transformers

    return Outputs(transformers.Wav2Vec2ForCTC(config), ("input_values",), ("logits",))


# torchvision ---------------------------------------------------------------------------


def _torchvision(name: str, **options: Any) -> Callable[[], nn.Module]:
    def build() -> nn.Module:
        import torchvision

        return getattr(torchvision.models, name)(weights=None, **options)

    return build


def _segmentation(name: str) -> Callable[[], nn.Module]:
    def build() -> nn.Module:
        import torchvision

        model = getattr(torchvision.models.segmentation, name)(
            weights=None, weights_backbone=None, num_classes=4
        )
        return Outputs(model, (), ("out",))

    return build


def tiny_vit() -> nn.Module:
    from torchvision.models.vision_transformer import VisionTransformer

    return VisionTransformer(
        image_size=32,
        patch_size=8,
        num_layers=2,
        num_heads=4,
        hidden_dim=32,
        mlp_dim=64,
        num_classes=10,
    )


def tiny_swin() -> nn.Module:
    from torchvision.models.swin_transformer import SwinTransformer

    return SwinTransformer(
        patch_size=[4, 4],
        embed_dim=16,
        depths=[2, 2],
        num_heads=[2, 4],
        window_size=[4, 4],
        num_classes=10,
    )


class Detections(nn.Module):
    """A torchvision detector on one image ``[3, H, W]``: boxes, scores and labels (and
    masks for Mask R-CNN) of its detections."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, ...]:
        (found,) = self.model([image])
        return tuple(found.values())


def _detection(name: str, **options: Any) -> Callable[[], nn.Module]:
    def build() -> nn.Module:
        import torchvision

        model = getattr(torchvision.models.detection, name)(
            weights=None, weights_backbone=None, num_classes=3, **options
        )
        return Detections(model)

    return build


def one_image(sizes: Sizes) -> Inputs:
    side = 4 * sizes["image"]
    return (torch.rand(3, side, side + 16),)


NMS_EMPTY = (
    "torch.export (dynamic or static shapes): GuardOnDataDependentSymNode "
    "Eq(4*u, 0) at torchvision/ops/boxes.py:103 _batched_nms_coordinate_trick "
    "`if boxes.numel() == 0` (the boxes left after score filtering are data-dependent)"
)
NMS_LARGE = (
    "torch.export (dynamic or static shapes): GuardOnDataDependentSymNode "
    "4*u > 4000 at torchvision/ops/boxes.py:86 batched_nms "
    "`if boxes.numel() > 4000` (the boxes left after score filtering are data-dependent)"
)
DETECTION_REFUSED = {
    "fasterrcnn_mobilenet_v3_large_320_fpn": NMS_EMPTY,
    "retinanet_resnet50_fpn": NMS_LARGE,
    "ssdlite320_mobilenet_v3_large": NMS_EMPTY,
    "maskrcnn_resnet50_fpn": NMS_LARGE,
}
"""The detectors torch.export itself cannot capture, with torch's reason: not ours to
count (torch.onnx fails before our library is called)."""


def torchvision_models() -> list[RealModel]:
    """Classification with dynamic batch (and image size), segmentation with dynamic batch
    and image size, detection on one image of dynamic size."""
    vision_models = [
        ("resnet18", _torchvision("resnet18", num_classes=10), ""),
        ("mobilenet_v3_small", _torchvision("mobilenet_v3_small", num_classes=10), ""),
        ("efficientnet_b0", _torchvision("efficientnet_b0", num_classes=10), ""),
        ("vit_tiny", tiny_vit, "torchvision's VisionTransformer asserts its image size"),
        ("swin_tiny", tiny_swin, SWIN_STATIC),
    ]
    models = [
        RealModel(
            f"tv_{name}",
            "torchvision-classification",
            build,
            images_32 if static_size else images,
            ((0,),) if static_size else (IMAGE,),
            fast=name == "resnet18",
            note=static_size,
        )
        for name, build, static_size in vision_models
    ]
    models += [
        RealModel(
            f"tv_{name}",
            "torchvision-segmentation",
            _segmentation(name),
            images,
            (IMAGE,),
            fast=name == "lraspp_mobilenet_v3_large",
        )
        for name in ("fcn_resnet50", "deeplabv3_mobilenet_v3_large", "lraspp_mobilenet_v3_large")
    ]
    models += [
        RealModel(
            f"tv_{name}",
            "torchvision-detection",
            _detection(name),
            one_image,
            ((1, 2),),
            torch_fails=reason,
        )
        for name, reason in DETECTION_REFUSED.items()
    ]
    return models


def suite() -> dict[str, RealModel]:
    """Every model of the suite by name."""
    return {m.name: m for m in transformers_models() + torchvision_models()}
