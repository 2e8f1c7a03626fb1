"""Translator.ffn_activations: each encoder layer's FFN hidden units, the numbers the FFN's second matrix reads;
and evaluation/coverage.py, which counts them over many sentences."""

from __future__ import annotations

import numpy as np
import pytest

from model import DEFAULT_CHECKPOINT

pytestmark = pytest.mark.skipif(
    not (DEFAULT_CHECKPOINT / "model.safetensors").is_file(), reason=f"needs the shipped checkpoint in {DEFAULT_CHECKPOINT}"
)
SENTENCE = "I have a dream."


def test_the_second_matrix_of_each_ffn_turns_them_into_the_ffn_output(translator):
    config = translator.config
    hidden = translator.ffn_activations(SENTENCE)
    result = translator.translate(SENTENCE, beam=1)
    assert hidden.shape == (config.n_encoder_layers, len(result.source_tokens), config.d_ff)
    assert (hidden >= 0).all() and (hidden == 0).any()  # ReLU: never below 0, and some units off
    for i in range(config.n_encoder_layers):
        w2, b2 = (translator.weight(f"encoder_layers.{i}.ffn.linear2.{name}") for name in ("weight", "bias"))
        np.testing.assert_allclose(hidden[i] @ w2.T + b2, result.encoder_sublayers["ffn_out"][i], atol=1e-4)


def test_coverage_counts_the_units_any_sentence_fires(translator):
    from evaluation.coverage import longest, units_fired
    from lessons.anatomy import dead_units

    sentences = [SENTENCE, "Who are you?"]
    counted = units_fired(translator, sentences)
    dead = dead_units([translator.ffn_activations(s) for s in sentences])
    assert counted == {"sentences": 2, "d_ff": translator.config.d_ff,
                       "used": (translator.config.d_ff - dead).tolist()}
    assert longest(translator, [(SENTENCE, "我有一个梦想。"), ("Who are you?", "你是谁？")]) == {
        "pairs": 2, "source_tokens": len(translator.translate(SENTENCE, beam=1).source_tokens),
        "target_tokens": 2 + len("我有一个梦想。")}  # <s>, one token per character, </s>
