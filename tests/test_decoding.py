"""Incremental decoding, beam search and batching must not change what the model computes."""

import numpy as np
import torch

from model.decoding import beam_decode, greedy_decode, greedy_trace
from tests.tiny import ENGLISH, tiny_model, tiny_translator

SENTENCES = ["I have a dream.", "Who are you?", "The dog saw the cat and the cat saw the dog.", "I love you."]


def encode(model, text):
    translator = tiny_translator()
    _, ids, _ = translator.prepare(text)
    return model.encode(torch.tensor([ids]), trace=True)


def test_cached_steps_give_the_same_attention_as_recomputing_the_whole_decoder():
    model = tiny_model(seed=3)
    with torch.inference_mode():
        enc = encode(model, "The dog saw the cat and the cat saw the dog.")
        tgt = torch.tensor([[2, 11, 12, 13, 11, 14, 15]])
        full = model.decode(tgt, enc, trace=True)
        state = model.start_state(enc)
        for t in range(tgt.size(1)):
            step = model.decode(tgt[:, t : t + 1], enc, state, trace=True)
            state = step.state
            torch.testing.assert_close(step.logits[:, 0], full.logits[:, t], atol=1e-5, rtol=1e-5)
            # the cached step sees keys 0..t: its row equals the full pass's row up to t (zeros after)
            torch.testing.assert_close(step.self_attn[:, :, :, 0], full.self_attn[:, :, :, t, : t + 1], atol=1e-6, rtol=1e-5)
            assert torch.all(full.self_attn[:, :, :, t, t + 1 :] == 0)
            torch.testing.assert_close(step.cross_attn[:, :, :, 0], full.cross_attn[:, :, :, t], atol=1e-6, rtol=1e-5)


def test_cache_and_recompute_choose_the_same_tokens():
    for seed in range(3):
        model = tiny_model(seed=seed)
        with torch.inference_mode():
            for text in SENTENCES:
                enc = encode(model, text)
                assert greedy_decode(model, enc, 20, use_cache=True) == greedy_decode(model, enc, 20, use_cache=False)
                assert beam_decode(model, enc, 3, 20, use_cache=True)[0] == beam_decode(model, enc, 3, 20, use_cache=False)[0]


def test_beam_size_one_is_greedy():
    for seed in range(4):
        model = tiny_model(seed=seed)
        with torch.inference_mode():
            for text in SENTENCES:
                enc = encode(model, text)
                assert beam_decode(model, enc, 1, 20)[0] == greedy_decode(model, enc, 20)[0]


def test_beam_search_records_kept_and_dropped_hypotheses():
    result = tiny_translator(seed=1).translate("I have a dream.", beam=3)
    assert result.beam_size == 3 and result.beam_steps
    first = result.beam_steps[0]
    assert 1 <= len(first.kept) <= 3 and first.dropped
    kept_scores = [h.logprob for h in first.kept]
    assert max(h.logprob for h in first.dropped) <= min(kept_scores) + 1e-6


def test_attention_returned_equals_one_teacher_forced_pass():
    translator = tiny_translator(seed=2)
    result = translator.translate("Who are you?", beam=2)
    model = translator.model
    tgt_ids = [model.config.bos_id, *[s.chosen.token_id for s in result.steps[:-1]]]
    with torch.inference_mode():
        enc = encode(model, "Who are you?")
        dec = model.decode(torch.tensor([tgt_ids]), enc, trace=True)
    np.testing.assert_allclose(result.cross, dec.cross_attn[:, 0].numpy(), atol=1e-6)
    np.testing.assert_allclose(result.decoder_self, dec.self_attn[:, 0].numpy(), atol=1e-6)
    np.testing.assert_allclose(result.encoder_self, enc.self_attn[:, 0].numpy(), atol=1e-6)


def test_greedy_trace_keeps_exactly_what_one_teacher_forced_pass_computes():
    for seed in range(3):
        model = tiny_model(seed=seed)
        with torch.inference_mode():
            for text in SENTENCES:
                enc = encode(model, text)
                for limit in (20, 3, 0):  # 3 and 0 cut the output: the last position predicts nothing used
                    out, traced = greedy_trace(model, enc, limit)
                    assert [out] == greedy_decode(model, enc, limit)
                    full = model.decode(torch.tensor([[model.config.bos_id, *out]]), enc, trace=True)
                    for name in ("logits", "self_attn", "cross_attn", "self_inputs", "cross_inputs"):
                        got, want = getattr(traced, name), getattr(full, name)
                        assert got.shape == want.shape, name
                        torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-4)
                    assert torch.all(torch.triu(traced.self_attn[0, 0, 0], diagonal=1) == 0)


def test_sentence_alone_equals_sentence_in_padded_batch():
    translator = tiny_translator(seed=5)
    texts = ["Who are you?", "The dog saw the cat and the cat saw the dog.", "I love you.", ENGLISH[0]]
    batch = translator.translate_batch(texts)
    model = translator.model
    for text, in_batch in zip(texts, batch):
        alone = translator.translate(text)
        assert alone.output_tokens == in_batch.output_tokens
        for kind in ("encoder_self", "decoder_self", "cross"):
            np.testing.assert_allclose(alone.attention(kind), in_batch.attention(kind), atol=1e-5)
    # and inside the model: a padded encoder batch gives the same maps on the real positions
    ids = [translator.prepare(t)[1] for t in texts]
    width = max(map(len, ids))
    with torch.inference_mode():
        padded = model.encode(torch.tensor([i + [0] * (width - len(i)) for i in ids]), trace=True)
        for row, sent in enumerate(ids):
            alone = model.encode(torch.tensor([sent]), trace=True)
            n = len(sent)
            torch.testing.assert_close(padded.self_attn[:, row, :, :n, :n], alone.self_attn[:, 0], atol=1e-5, rtol=1e-4)
            torch.testing.assert_close(padded.memory[row, :n], alone.memory[0], atol=1e-5, rtol=1e-4)


def test_top_k_candidates_are_sorted_probabilities_and_hold_the_greedy_choice():
    result = tiny_translator(seed=4).translate("I have a dream.", top_k=4)
    cut = any(n.key == "output_cut" for n in result.notices)
    for step in result.steps[:-1] if cut else result.steps:  # a cut output's final </s> was not chosen by search
        probs = [c.prob for c in step.candidates]
        assert len(probs) == 4 and probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1 + 1e-6
        assert step.chosen.token_id == step.candidates[0].token_id  # greedy takes the most probable
