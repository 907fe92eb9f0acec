"""onnxscript 0.7's ``onnxscript.tools.transformers_models``: small transformers language
models (``llama``, ``mistral``, ``phi``, ``phi3``; random weights, nothing downloaded) with
inputs to run or export them, and their export to ONNX.

Each ``get_<family>_model(input_dims, ...)`` returns ``(model, inputs, dynamic_shapes)``:
a ``torch.nn.Module`` whose ``model`` is the transformers base model and whose forward
takes ``input_ids`` (and ``attention_mask`` unless ``with_mask=False``) and returns a
1-tuple of the last hidden state; a list of input tuples, one per ``(batch, length)`` of
``input_dims``; and the dynamic axes of each input (``{0: {0: "batch", 1: "length"}}``).
``get_<family>_model_from_config(config="small" | "medium" | "large", ...)`` chooses the
sizes, :func:`get_model_and_inputs` the family too.
"""

from __future__ import annotations

import contextlib
import importlib
import random
from collections.abc import Sequence
from typing import Any

import onnx

FAMILIES = ("llama", "mistral", "phi", "phi3")
"""The model families, each a module of this package."""


def ids_tensor(
    shape: Sequence[int],
    vocab_size: int,
    rng: random.Random | None = None,
    name: str | None = None,
) -> Any:
    """A random int64 ``torch.Tensor`` of ``shape`` with values in ``[0, vocab_size)``,
    drawn from ``rng`` (a new ``random.Random`` if None). ``name`` is not used."""
    import torch

    rng = rng or random.Random()
    total = 1
    for dim in shape:
        total *= dim
    values = [rng.randint(0, vocab_size - 1) for _ in range(total)]
    return torch.tensor(data=values, dtype=torch.long).view(tuple(shape)).contiguous()


_WARMUP_DIMS = ((2, 1024), (3, 1024), (2, 1096))
_REPEAT_DIMS = ((2, 1024), (3, 1024), (4, 1024), (2, 1096), (2, 1112))


def get_input_dims_for_llm(dynamic_shapes: bool, warmup: int, repeat: int) -> list[tuple[int, int]]:
    """The ``(batch, length)`` of ``warmup`` then ``repeat`` inputs of a language model:
    ``(2, 1024)`` each with static shapes; with dynamic shapes, the warmup inputs cycle
    through three sizes and the repeated ones through five."""
    if not dynamic_shapes:
        return [(2, 1024)] * (warmup + repeat)
    warm = [_WARMUP_DIMS[i % len(_WARMUP_DIMS)] for i in range(warmup)]
    rep = [_REPEAT_DIMS[i % len(_REPEAT_DIMS)] for i in range(repeat)]
    return warm + rep


def get_model_and_inputs(
    model: str,
    config: str,
    dynamic_shapes: bool,
    device: str = "cpu",
    num_hidden_layers: int = 1,
    with_mask: bool = True,
    implementation: str = "eager",
    dtype: str | None = None,
    warmup: int = 5,
    repeat: int = 10,
) -> tuple[Any, list[tuple[Any, ...]], dict[int, dict[int, str]] | None]:
    """The model of family ``model`` (``"llama"``, ``"mistral"``, ``"phi"``, ``"phi3"``)
    in size ``config`` (``"small"``, ``"medium"``, ``"large"``) with ``warmup + repeat``
    inputs (:func:`get_input_dims_for_llm`), on ``device``; with ``dtype``
    (``"float16"``, ...) the model and the floating-point inputs are cast to it. Returns
    ``(model, inputs, dynamic_shapes)``."""
    import torch

    if model not in FAMILIES:
        raise ValueError(f"Model {model!r} is unknown.")
    family = importlib.import_module(f"{__name__}.{model}")
    built, inputs, dynamic = getattr(family, f"get_{model}_model_from_config")(
        warmup=warmup,
        repeat=repeat,
        config=config,
        num_hidden_layers=num_hidden_layers,
        implementation=implementation,
        dynamic_shapes=dynamic_shapes,
        with_mask=with_mask,
    )
    built = built.to(device)
    inputs = [tuple(t.to(device) for t in sample) for sample in inputs]
    if dtype is not None:
        to = getattr(torch, dtype)
        built = built.to(to)
        inputs = [
            tuple(t.to(to) if t.dtype.is_floating_point else t for t in sample) for sample in inputs
        ]
    return built, inputs, dynamic


def export_to_onnx(
    model: Any,
    *args: Sequence[Any],
    optimize: bool = True,
    export_api: bool = True,
    no_grad: bool = False,
) -> onnx.ModelProto:
    """``model`` called on ``args`` exported with ``torch.onnx.export`` (torch's exporter
    that builds on ``torch.export``: torch no longer has the ``dynamo_export`` that 0.7 used
    for ``export_api=False``), under ``torch.no_grad()`` with ``no_grad``. With
    ``optimize``, the model then goes through ``onnxscript.optimizer.optimize``,
    ``onnxscript.rewriter.rewrite`` and ``onnx.inliner.inline_local_functions``."""
    import onnx.inliner
    import torch

    context = torch.no_grad() if no_grad else contextlib.nullcontext()
    with context:
        program = torch.onnx.export(model, tuple(args), dynamo=True)
    assert program is not None
    proto: onnx.ModelProto = program.model_proto
    if optimize:
        from onnxscript import optimizer, rewriter

        proto = optimizer.optimize(proto)
        proto = rewriter.rewrite(proto)
        proto = onnx.inliner.inline_local_functions(proto)
    return proto


__all__ = [
    "FAMILIES",
    "export_to_onnx",
    "get_input_dims_for_llm",
    "get_model_and_inputs",
    "ids_tensor",
]
