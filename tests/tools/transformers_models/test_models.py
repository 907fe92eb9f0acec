"""``onnxscript.tools.transformers_models``: small transformers models with inputs, as
onnxscript 0.7.2 builds them (configurations compared with those 0.7.2 made, recorded in
tests/data/transformers_models_072_configs.json; class names, inputs, dynamic axes and
outputs as 0.7.2 gives them)."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from tests.helpers import ROOT

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

import onnxscript.tools.transformers_models as tm  # noqa: E402

RECORDED = json.loads(
    (ROOT / "tests" / "data" / "transformers_models_072_configs.json").read_text()
)
FAMILIES = ["llama", "mistral", "phi", "phi3"]
WRAPPERS = {  # 0.7.2's class names: (without mask, with mask)
    "llama": ("LlamaModelWrapper", "LlamaModelWrapperMask"),
    "mistral": ("MistralModelWrapper", "MistralModelWrapperWithMask"),
    "phi": ("PhiModelWrapperNoMask", "PhiModelWrapper"),
    "phi3": ("Phi3ModelWrapper", "Phi3ModelWrapperNoMask"),
}
AXES = {0: "batch", 1: "length"}


def _family(name: str):
    return importlib.import_module(f"onnxscript.tools.transformers_models.{name}")


def _diff(config) -> dict:
    found = json.loads(json.dumps(config.to_diff_dict(), default=str))
    found.pop("transformers_version", None)
    return found


def _same_transformers() -> bool:
    return transformers.__version__ == RECORDED["transformers"]


def test_ids_tensor_draws_from_the_given_generator():
    ids = tm.ids_tensor([2, 3], 10, rng=random.Random(0))
    assert ids.dtype == torch.int64 and ids.tolist() == [[6, 6, 0], [4, 8, 7]]  # as 0.7.2
    ids = tm.ids_tensor((4, 50), 7)
    assert ids.shape == (4, 50) and int(ids.min()) >= 0 and int(ids.max()) < 7


def test_input_dims_as_0_7_2_chooses_them():
    assert tm.get_input_dims_for_llm(False, 3, 4) == [(2, 1024)] * 7
    assert tm.get_input_dims_for_llm(True, 0, 0) == []
    assert tm.get_input_dims_for_llm(True, 7, 7) == [
        (2, 1024), (3, 1024), (2, 1096), (2, 1024), (3, 1024), (2, 1096), (2, 1024),
        (2, 1024), (3, 1024), (4, 1024), (2, 1096), (2, 1112), (2, 1024), (3, 1024),
    ]  # fmt: skip


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("with_mask", [True, False])
def test_model_inputs_and_dynamic_axes(family, with_mask):
    torch.manual_seed(0)
    model, inputs, dynamic = getattr(_family(family), f"get_{family}_model")(
        input_dims=((3, 5), (2, 4)), with_mask=with_mask
    )
    assert type(model).__name__ == WRAPPERS[family][with_mask]
    assert isinstance(model, torch.nn.Module) and model.training
    assert type(model.model).__name__ == {"llama": "LlamaModel", "mistral": "MistralModel",
                                          "phi": "PhiModel", "phi3": "Phi3Model"}[family]  # fmt: skip
    assert [tuple(t.shape) for sample in inputs for t in sample] == (
        [(3, 5), (3, 5), (2, 4), (2, 4)] if with_mask else [(3, 5), (2, 4)]
    )
    ids = inputs[0][0]
    assert ids.dtype == torch.int64 and int(ids.max()) < model.model.config.vocab_size
    assert dynamic == ({0: AXES, 1: AXES} if with_mask else {0: AXES})
    if with_mask:
        mask = inputs[0][1]
        assert mask.dtype == torch.float32
        assert torch.equal(mask, torch.tril(torch.ones(3, 5)))
    with torch.no_grad():
        outputs = model(*inputs[0])
        direct = model.model(
            *inputs[0][:1], attention_mask=inputs[0][1] if with_mask else None, use_cache=False
        )
    assert isinstance(outputs, tuple) and len(outputs) == 1
    assert tuple(outputs[0].shape) == (3, 5, model.model.config.hidden_size)
    assert torch.equal(outputs[0], direct.last_hidden_state)


@pytest.mark.parametrize("family", FAMILIES)
def test_default_and_small_medium_configs_are_0_7_2s(family):
    module = _family(family)
    model, inputs, _ = getattr(module, f"get_{family}_model")(input_dims=((1, 2),))
    expected = RECORDED["configs"][family]
    if _same_transformers():
        assert _diff(model.model.config) == expected["default"]
    for config in ("small", "medium"):
        model, inputs, dynamic = getattr(module, f"get_{family}_model_from_config")(
            warmup=1, repeat=1, config=config
        )
        found = _diff(model.model.config)
        for key in ("hidden_size", "num_hidden_layers", "vocab_size", "intermediate_size",
                    "num_attention_heads", "num_key_value_heads", "pad_token_id"):  # fmt: skip
            assert found.get(key) == expected[config].get(key), (config, key)
        if _same_transformers():
            assert found == expected[config]
        assert [tuple(t.shape) for t in inputs[0]] == [(2, 1024), (2, 1024)]


@pytest.mark.parametrize("family", FAMILIES)
def test_large_configs_are_0_7_2s(family, monkeypatch):
    built = []
    module = _family(family)
    # the configuration only: the model would take GBs
    monkeypatch.setattr(module, "build", lambda config, *a: built.append(config) or (None, [], {}))
    getattr(module, f"get_{family}_model_from_config")(warmup=0, repeat=1, config="large")
    (config,) = built
    expected = RECORDED["configs"][family]["large"]
    found = _diff(config)
    assert found["hidden_size"] == expected["hidden_size"]
    assert found["vocab_size"] == expected["vocab_size"]
    if _same_transformers():
        assert found == expected
    with pytest.raises(ValueError, match="Unexpected configuration 'huge'"):
        getattr(_family(family), f"get_{family}_model_from_config")(config="huge")


def test_model_and_inputs_by_family_size_dtype():
    model, inputs, dynamic = tm.get_model_and_inputs(
        "mistral", "small", True, warmup=1, repeat=2, implementation="sdpa", dtype="float16"
    )
    assert type(model).__name__ == "MistralModelWrapperWithMask"
    assert model.model.config._attn_implementation == "sdpa"
    assert next(model.parameters()).dtype == torch.float16
    assert [tuple(t.shape) for t, _ in inputs] == [(2, 1024), (2, 1024), (3, 1024)]
    assert {t.dtype for _, t in inputs} == {torch.float16}
    assert {t.dtype for t, _ in inputs} == {torch.int64}
    model, inputs, dynamic = tm.get_model_and_inputs(
        "phi", "small", False, warmup=0, repeat=1, with_mask=False, num_hidden_layers=2
    )
    assert model.model.config.num_hidden_layers == 2 and dynamic == {0: AXES}
    with pytest.raises(ValueError, match="Model 'gpt2' is unknown"):
        tm.get_model_and_inputs("gpt2", "small", False)


def test_has_phi3():
    assert _family("phi3").has_phi3() is hasattr(transformers, "Phi3Config")
