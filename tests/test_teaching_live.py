"""The live walkthrough: attention recomputed by hand from Translator.head_qkv equals what the model returned."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from lessons.attention_math import attention_steps
from lessons.live import recompute_weights, walk_query
from model import ATTENTION_KINDS, DEFAULT_CHECKPOINT, Translator
from tests.tiny import tiny_translator

SENTENCES = ("I have a dream.", "The dog saw the cat and the cat saw the dog.")


@pytest.fixture(scope="module")
def shipped() -> Translator:
    if not (DEFAULT_CHECKPOINT / "model.safetensors").is_file():
        pytest.skip(f"the shipped checkpoint is not in {DEFAULT_CHECKPOINT}")
    return Translator.from_checkpoint(DEFAULT_CHECKPOINT, device="cpu")


def check_walkthrough(translator: Translator, sentence: str) -> int:
    """Every kind, every layer, a spread of heads and query tokens; returns how many query rows were checked."""
    result = translator.translate(sentence)
    layers, heads = result.encoder_self.shape[:2]
    checked = 0
    for kind in ATTENTION_KINDS:
        for layer in range(layers):
            for head in sorted({0, heads // 2, heads - 1}):
                qkv = translator.head_qkv(result, kind, layer, head)
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
def test_shipped_model_walkthrough_equals_its_attention(shipped, sentence):
    assert check_walkthrough(shipped, sentence) >= 3 * 3 * 3


def test_tiny_model_walkthrough_equals_its_attention():
    """The same check without the shipped checkpoint, on a small random-weight model."""
    assert check_walkthrough(tiny_translator(), SENTENCES[1]) > 0


def test_weighted_sum_of_values_reproduces_the_layer_output(shipped):
    """All heads' Σ weight·v, concatenated and projected by W_O, is what the model's attention layer outputs."""
    result = shipped.translate(SENTENCES[0])
    layer = 1
    module = shipped.model.decoder_layers[layer].cross_attn
    heads = [shipped.head_qkv(result, "cross", layer, h) for h in range(shipped.config.n_heads)]
    by_hand = np.concatenate([attention_steps(h.q, h.k, h.v, h.mask).output for h in heads], axis=1)  # (T, d_model)
    with torch.inference_mode():
        query = torch.from_numpy(result.decoder_cross_inputs[layer])[None]
        memory = torch.from_numpy(result.memory)[None]
        out, _, _ = module(query, memory, None)
        expected = out[0].numpy()
        projected = module.out_proj(torch.from_numpy(by_hand.astype(np.float32))).numpy()
    np.testing.assert_allclose(projected, expected, atol=1e-4)
