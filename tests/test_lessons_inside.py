"""lessons/inside.py against the shipped model: every step of every layer, recomputed in NumPy from the
checkpoint's weights, equals what the model returned for the sentence; and a wrong formula would not."""

from __future__ import annotations

import numpy as np
import pytest

from lessons import inside as li
from model import DEFAULT_CHECKPOINT

ATOL = 1e-4
SENTENCES = ("I have a dream.", "Tom bought three apples yesterday.")

pytestmark = pytest.mark.skipif(
    not (DEFAULT_CHECKPOINT / "model.safetensors").is_file(), reason=f"needs the shipped checkpoint in {DEFAULT_CHECKPOINT}"
)


@pytest.fixture(scope="module", params=SENTENCES)
def result(request, translator):
    return translator.translate(request.param)


def test_embedding_lookup_scale_and_positional_encoding_give_layer_one_input(translator, result):
    for side, emb, subs, table in (("src", result.source_embeddings, result.encoder_sublayers, "src_embed.weight"),
                                   ("tgt", result.target_embeddings, result.decoder_sublayers, "tgt_embed.weight")):
        e = li.embedding(translator.weight(table), emb.ids, emb.token, emb.positional, emb.scale, subs["input"][0])
        assert e.scale == np.sqrt(translator.config.d_model)
        assert e.one_hot.shape == (len(emb.token), translator.config.src_vocab_size if side == "src"
                                   else translator.config.tgt_vocab_size)
        assert (e.one_hot.sum(axis=1) == 1).all() and (e.one_hot.argmax(axis=1) == e.ids).all()
        assert e.lookup.max_difference == 0.0, side  # one-hot × E is exactly the row
        assert e.first_input.max_difference < ATOL, side


def test_target_ids_looked_up_are_the_decoder_inputs(translator, result):
    emb = result.target_embeddings
    e = li.embedding(translator.weight("tgt_embed.weight"), emb.ids, emb.token, emb.positional, emb.scale,
                     result.decoder_sublayers["input"][0])
    expected = [translator.config.bos_id] + [s.chosen.token_id for s in result.steps[:-1]]
    assert e.ids.tolist() == expected


@pytest.mark.parametrize("stack", ["encoder", "decoder"])
def test_every_step_of_every_layer_matches_the_model(translator, result, stack):
    c = translator.config
    layers = c.n_encoder_layers if stack == "encoder" else c.n_decoder_layers
    build = li.encoder_layer if stack == "encoder" else li.decoder_layer
    expected = {"self_attn.q", "self_attn.k", "self_attn.v", "self_attn.weights", "self_attn.out", "norm1", "ffn",
                "output"}
    if stack == "decoder":
        expected |= {"cross_attn.q", "cross_attn.k", "cross_attn.v", "cross_attn.weights", "cross_attn.out", "norm2"}
    for layer in range(layers):
        steps = build(result, layer, translator.weight, c.activation).steps()
        assert set(steps) == expected
        worst = {name: step.max_difference for name, step in steps.items()}
        assert all(d < ATOL for d in worst.values()), (stack, layer, worst)


def test_each_layers_output_is_the_next_layers_input(result):
    for subs in (result.encoder_sublayers, result.decoder_sublayers):
        np.testing.assert_array_equal(subs["output"][:-1], subs["input"][1:])


def test_a_dropped_residual_or_the_wrong_activation_would_be_caught(translator, result):
    """The checks can fail: LayerNorm(Sublayer(x)) without "+ x", or swish in place of ReLU, disagree with the model."""
    subs = result.encoder_sublayers
    no_residual = li.add_norm(np.zeros_like(subs["input"][0]), subs["self_attn_out"][0], subs["norm1"][0],
                              translator.weight, "encoder_layers.0.norm1")
    assert no_residual.step.max_difference > 0.1
    wrong = "swish" if translator.config.activation == "relu" else "relu"
    ffn = li.feed_forward(subs["norm1"][0], subs["ffn_out"][0], translator.weight, "encoder_layers.0.ffn", wrong)
    assert ffn.step.max_difference > 0.01
    no_norm = li.Step(subs["input"][0] + subs["self_attn_out"][0], subs["norm1"][0])
    assert no_norm.max_difference > 0.1


def test_output_projection_and_softmax_give_each_chosen_tokens_probability(translator, result):
    c = translator.config
    out = li.output(result.decoder_sublayers["output"][-1], translator.weight("tgt_embed.weight"),
                    translator.weight("output_bias") if c.output_bias else None, (c.pad_id, c.bos_id, c.unk_id),
                    [s.chosen.token_id for s in result.steps], [s.chosen.prob for s in result.steps])
    assert out.logits.shape == (len(result.target_tokens), c.tgt_vocab_size)
    np.testing.assert_allclose(out.probs.sum(axis=1), 1.0, atol=1e-9)
    assert (out.probs[:, [c.pad_id, c.bos_id, c.unk_id]] == 0).all()
    assert out.chosen.max_difference < ATOL
    for t, step in enumerate(result.steps):
        ids, probs = out.top(t, len(step.candidates))
        assert ids.tolist() == [cand.token_id for cand in step.candidates]
        np.testing.assert_allclose(probs, [cand.prob for cand in step.candidates], atol=ATOL)
    # without the mask on <s>, <unk> and padding the probabilities would be the softmax of other logits
    unmasked = li.output(result.decoder_sublayers["output"][-1], translator.weight("tgt_embed.weight"), None, (),
                         out.chosen_ids, out.chosen.returned)
    assert unmasked.probs[:, c.bos_id].max() > 0


def test_layer_norm_statistics_per_token():
    rng = np.random.default_rng(0)
    x = rng.normal(3.0, 5.0, size=(4, 16))
    mean, var = li.token_moments(li.standardised(x))
    np.testing.assert_allclose(mean, 0, atol=1e-12)
    np.testing.assert_allclose(var, 1, atol=1e-5)
    gamma, beta = np.full(16, 2.0), np.full(16, 0.5)
    y = li.layer_norm(x, gamma, beta)
    np.testing.assert_allclose(li.token_moments(y)[0], 0.5, atol=1e-5)


def test_layer_norm_ignores_the_batch_and_batch_norm_does_not():
    rng = np.random.default_rng(1)
    sentence, other = rng.normal(size=(5, 8)), rng.normal(2.0, 3.0, size=(9, 8))
    cmp = li.compare_norms(sentence, other)
    assert cmp.length == 5 and cmp.padding == 4  # the shorter sentence padded to 9
    assert cmp.layer_difference < 1e-12
    assert cmp.batch_difference > 0.1 and cmp.batch_real_difference > 0.1
    # the padded batch's statistics differ from those of its real tokens only: the padding counts
    assert np.abs(cmp.batch_in_batch - cmp.batch_real_tokens).max() > 0.01
    batch, real = li.pad_batch([sentence, other])
    assert batch.shape == (2, 9, 8) and real.sum() == 14 and (batch[0, 5:] == 0).all()


def test_widening_and_inputs_are_checked():
    assert li.widening(512, 2048) == "4×" and li.widening(256, 1024) == "4×" and li.widening(512, 1536) == "3×"
    with pytest.raises(ValueError, match="activation"):
        li.feed_forward(np.zeros((1, 2)), np.zeros((1, 2)), lambda n: np.zeros(1), "ffn", "gelu")
    with pytest.raises(ValueError, match="token ids"):
        li.one_hot([5], 3)
    with pytest.raises(ValueError, match="one shape"):
        li.Step(np.zeros(2), np.zeros(3))
