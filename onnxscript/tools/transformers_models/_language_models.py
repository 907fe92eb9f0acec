"""What the four families share: the wrapper module, the inputs and their dynamic axes,
and choosing sizes by name."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from onnxscript.tools.transformers_models import get_input_dims_for_llm, ids_tensor

Built = tuple[Any, list[tuple[Any, ...]], dict[int, dict[int, str]]]
"""``(model, inputs, dynamic_shapes)``."""

_AXES = {0: "batch", 1: "length"}


def wrapped(base_model: Any, with_mask: bool, names: tuple[str, str]) -> Any:
    """``base_model`` (a transformers base model) in a ``torch.nn.Module`` whose forward
    takes ``input_ids`` (and ``attention_mask`` when ``with_mask``) and returns the
    outputs as a tuple (the last hidden state). ``names``: the wrapper class's name
    without, then with a mask (as 0.7 names them)."""
    import torch

    if with_mask:

        def forward(self: Any, input_ids: Any, attention_mask: Any) -> Any:
            return self.model(input_ids, attention_mask=attention_mask, use_cache=False).to_tuple()

    else:

        def forward(self: Any, input_ids: Any) -> Any:  # type: ignore[misc]
            return self.model(input_ids, use_cache=False).to_tuple()

    def init(self: Any, model: Any) -> None:
        torch.nn.Module.__init__(self)
        self.model = model

    name = names[1] if with_mask else names[0]
    cls = type(name, (torch.nn.Module,), {"__init__": init, "forward": forward})
    return cls(base_model)


def inputs_for(
    input_dims: Sequence[tuple[int, int]], vocab_size: int, with_mask: bool
) -> tuple[list[tuple[Any, ...]], dict[int, dict[int, str]]]:
    """One input tuple per ``(batch, length)``: random token ids (and a float mask whose
    row ``i`` attends to the first ``i + 1`` tokens), and the dynamic axes of each."""
    import torch

    inputs: list[tuple[Any, ...]] = []
    for batch, length in input_dims:
        ids = ids_tensor([batch, length], vocab_size)
        if with_mask:
            inputs.append((ids, torch.tril(torch.ones(batch, length, dtype=torch.float32))))
        else:
            inputs.append((ids,))
    dynamic = {0: dict(_AXES), 1: dict(_AXES)} if with_mask else {0: dict(_AXES)}
    return inputs, dynamic


def config_of(config_class: str, **values: Any) -> Any:
    """A transformers configuration (``"LlamaConfig"``, ...) with ``values``."""
    return getattr(importlib.import_module("transformers"), config_class)(**values)


def build(
    config: Any,
    implementation: str,
    model_class: str,
    input_dims: Sequence[tuple[int, int]],
    with_mask: bool,
    names: tuple[str, str],
) -> Built:
    """The transformers base model ``model_class`` of ``config`` (random weights) with
    the attention ``implementation``, wrapped, and its inputs."""
    transformers = importlib.import_module("transformers")
    config._attn_implementation = implementation
    base = getattr(transformers, model_class)(config)
    inputs, dynamic = inputs_for(input_dims, config.vocab_size, with_mask)
    return wrapped(base, with_mask, names), inputs, dynamic


def from_config(
    sizes: Mapping[str, Mapping[str, Any]],
    get_model: Callable[..., Built],
    warmup: int,
    repeat: int,
    config: str,
    num_hidden_layers: int,
    implementation: str,
    dynamic_shapes: bool,
    with_mask: bool,
) -> Built:
    """``get_model`` with the sizes named ``config`` and the inputs of
    :func:`get_input_dims_for_llm`."""
    if config not in sizes:
        raise ValueError(f"Unexpected configuration {config!r}.")
    return get_model(
        input_dims=get_input_dims_for_llm(dynamic_shapes, warmup, repeat),
        num_hidden_layers=num_hidden_layers,
        _attn_implementation=implementation,
        with_mask=with_mask,
        **sizes[config],
    )
