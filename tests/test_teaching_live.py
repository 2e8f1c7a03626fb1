"""The live walkthrough: attention recomputed by hand from TranslationResult.head equals what the model returned."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from lessons.attention_math import attention_steps
from lessons.live import recompute_weights, walk_query
from model import ATTENTION_KINDS, Translator
from tests.support.tiny import tiny_translator

SENTENCES = ("I have a dream.", "The dog saw the cat and the cat saw the dog.")


def check_walkthrough(translator: Translator, sentence: str) -> int:
    """Every kind, every layer, a spread of heads and query tokens; returns how many query rows were checked."""
    result = translator.translate(sentence)
    layers, heads = result.encoder_self.shape[:2]
    checked = 0
    for kind in ATTENTION_KINDS:
        for layer in range(layers):
            for head in sorted({0, heads // 2, heads - 1}):
                qkv = result.head(kind, layer, head)
                np.testing.assert_allclose(recompute_weights(qkv.q, qkv.k, qkv.mask), qkv.weights, atol=1e-5, rtol=0)
                for index in sorted({0, qkv.q.shape[0] // 2, qkv.q.shape[0] - 1}):
                    walk = walk_query(qkv.q, qkv.k, qkv.v, qkv.mask, qkv.weights, index)
                    assert walk.max_difference < 1e-5, (kind, layer, head, index)
                    np.testing.assert_allclose(walk.steps.weights[0].sum(), 1.0, atol=1e-9)
                    np.testing.assert_allclose(walk.contributions.sum(axis=0), walk.steps.output[0], atol=1e-9)
                    if kind == "decoder_self":  # the causal mask: nothing after the query gets weight
                        assert (walk.steps.weights[0][index + 1 :] == 0).all()
                    checked += 1
    return checked


@pytest.mark.parametrize("sentence", SENTENCES)
def test_shipped_model_walkthrough_equals_its_attention(translator, sentence):
    assert check_walkthrough(translator, sentence) >= 3 * 3 * 3


def test_tiny_model_walkthrough_equals_its_attention():
    """The same check without the shipped checkpoint, on a small random-weight model."""
    assert check_walkthrough(tiny_translator(), SENTENCES[1]) > 0


def test_weighted_sum_of_values_reproduces_the_layer_output(translator):
    """All heads' Σ weight·v, concatenated and projected by W_O, is what the model's attention sublayer output."""
    result = translator.translate(SENTENCES[0])
    layer = 1
    module = translator.model.decoder_layers[layer].cross_attn
    heads = [result.head("cross", layer, h) for h in range(translator.config.n_heads)]
    by_hand = np.concatenate([attention_steps(h.q, h.k, h.v, h.mask).output for h in heads], axis=1)  # (T, d_model)
    with torch.inference_mode():
        projected = module.out_proj(torch.from_numpy(by_hand.astype(np.float32))).numpy()
    np.testing.assert_allclose(projected, result.decoder_sublayers["cross_attn_out"][layer], atol=1e-4)


@pytest.mark.parametrize("kind", ATTENTION_KINDS)
def test_result_q_k_v_are_the_layer_inputs_projected_by_the_models_weights(translator, kind):
    """q = x W_Qᵀ + b_Q from the sublayer that feeds the queries; k, v from the one that feeds the keys."""
    result = translator.translate(SENTENCES[1])
    layer = 2
    enc, dec = result.encoder_sublayers, result.decoder_sublayers
    module, query_in, key_in = {
        "encoder_self": (translator.model.encoder_layers[layer].self_attn, enc["input"][layer], enc["input"][layer]),
        "decoder_self": (translator.model.decoder_layers[layer].self_attn, dec["input"][layer], dec["input"][layer]),
        "cross": (translator.model.decoder_layers[layer].cross_attn, dec["norm1"][layer], enc["output"][-1]),
    }[kind]
    with torch.inference_mode():
        q = module.split_heads(module.q_proj(torch.from_numpy(query_in)[None]))[0].numpy()
        kv = module.keys_values(torch.from_numpy(key_in)[None])
    np.testing.assert_allclose(result.queries[kind][layer], q, atol=1e-4)
    np.testing.assert_allclose(result.keys[kind][layer], kv.k[0].numpy(), atol=1e-4)
    np.testing.assert_allclose(result.values[kind][layer], kv.v[0].numpy(), atol=1e-4)
