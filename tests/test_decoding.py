"""Incremental decoding, beam search and batching must not change what the model computes."""

import numpy as np
import pytest
import torch

from model.architecture.config import GenerationConfig
from model.translation.decoding import greedy_search
from tests.support.tiny import ENGLISH, tiny_model, tiny_translator

SENTENCES = ["I have a dream.", "Who are you?", "The dog saw the cat and the cat saw the dog.", "I love you."]


def encode(model, text):
    _, ids, _ = tiny_translator().prepare(text)
    return model.encode(torch.tensor([ids]), trace=True)


def greedy_recomputing_the_prefix(model, enc, limit):
    """Reference search without the cache: the whole prefix goes through the decoder at every step."""
    c = model.config
    ys = [c.bos_id]
    while len(ys) <= limit:
        nxt = int(GenerationConfig().never_next(model.decode(torch.tensor([ys]), enc).logits[0, -1], c).argmax())
        if nxt == c.eos_id:
            break
        ys.append(nxt)
    return ys[1:]


def test_cached_steps_compute_what_one_teacher_forced_pass_computes():
    model = tiny_model(seed=3)
    with torch.inference_mode():
        enc = encode(model, "The dog saw the cat and the cat saw the dog.")
        tgt = torch.tensor([[2, 11, 12, 13, 11, 14, 15]])
        full = model.decode(tgt, enc, trace=True)
        cache = model.start_decoding(enc)
        for t in range(tgt.size(1)):
            step = model.decode(tgt[:, t : t + 1], enc, cache, trace=True)
            cache = step.cache
            torch.testing.assert_close(step.logits[:, 0], full.logits[:, t], atol=1e-5, rtol=1e-5)
            for got, want in zip(step.layers, full.layers):
                # the cached step sees keys 0..t: its row equals the full pass's row up to t (zeros after)
                torch.testing.assert_close(got.self_attn.weights[..., 0, :], want.self_attn.weights[..., t, : t + 1],
                                           atol=1e-6, rtol=1e-5)
                assert torch.all(want.self_attn.weights[..., t, t + 1 :] == 0)
                torch.testing.assert_close(got.cross_attn.weights[..., 0, :], want.cross_attn.weights[..., t, :],
                                           atol=1e-6, rtol=1e-5)
                torch.testing.assert_close(got.self_attn.q[..., 0, :], want.self_attn.q[..., t, :], atol=1e-5, rtol=1e-5)
                torch.testing.assert_close(got.self_attn.k, want.self_attn.k[..., : t + 1, :], atol=1e-5, rtol=1e-5)
        assert cache.length == tgt.size(1)


def test_the_cached_search_chooses_what_recomputing_the_prefix_chooses():
    for seed in range(3):
        model = tiny_model(seed=seed)
        with torch.inference_mode():
            for text in SENTENCES:
                enc = encode(model, text)
                for limit in (20, 3, 0):
                    assert greedy_search(model, enc, [limit]) == [greedy_recomputing_the_prefix(model, enc, limit)]


def test_beam_search_records_kept_and_dropped_hypotheses():
    result = tiny_translator(seed=1).translate("I have a dream.", beam=3)
    assert result.beam_size == 3 and result.beam_steps
    first = result.beam_steps[0]
    assert 1 <= len(first.kept) <= 3 and first.dropped
    kept_scores = [h.logprob for h in first.kept]
    assert max(h.logprob for h in first.dropped) <= min(kept_scores) + 1e-6


def test_result_maps_are_what_the_decoding_steps_computed():
    """The result's maps come from one teacher-forced pass; the step-by-step cached path must agree with them."""
    translator = tiny_translator(seed=2)
    for beam in (1, 2):
        result = translator.translate("Who are you?", beam=beam)
        model = translator.model
        ids = [model.config.bos_id, *[s.chosen.token_id for s in result.steps[:-1]]]
        t = len(ids)
        with torch.inference_mode():
            enc = encode(model, "Who are you?")
            cache, self_rows, cross_rows = model.start_decoding(enc), [], []
            for i in range(t):
                step = model.decode(torch.tensor([ids[i : i + 1]]), enc, cache, trace=True)
                cache = step.cache
                row = torch.zeros(len(step.layers), step.layers[0].self_attn.weights.size(1), t)
                row[..., : i + 1] = torch.stack([layer.self_attn.weights[0, :, 0] for layer in step.layers])
                self_rows.append(row)
                cross_rows.append(torch.stack([layer.cross_attn.weights[0, :, 0] for layer in step.layers]))
        np.testing.assert_allclose(result.decoder_self, torch.stack(self_rows, dim=2).numpy(), atol=1e-5)
        np.testing.assert_allclose(result.cross, torch.stack(cross_rows, dim=2).numpy(), atol=1e-5)
        assert result.output_tokens[:-1] == result.target_tokens[1:]


def test_sentence_alone_equals_sentence_in_padded_batch():
    translator = tiny_translator(seed=5)
    texts = ["Who are you?", "The dog saw the cat and the cat saw the dog.", "I love you.", ENGLISH[0]]
    for beam in (1, 3):
        assert translator.translations(texts, beam=beam) == [translator.translate(t, beam=beam).translation for t in texts]
    # and inside the model: a padded encoder batch gives the same maps on the real positions
    model = translator.model
    ids = [translator.prepare(t)[1] for t in texts]
    width = max(map(len, ids))
    with torch.inference_mode():
        padded = model.encode(torch.tensor([i + [0] * (width - len(i)) for i in ids]), trace=True)
        for row, sent in enumerate(ids):
            alone = model.encode(torch.tensor([sent]), trace=True)
            n = len(sent)
            for p, a in zip(padded.layers, alone.layers):
                torch.testing.assert_close(p.self_attn.weights[row, :, :n, :n], a.self_attn.weights[0], atol=1e-5, rtol=1e-4)
            torch.testing.assert_close(padded.memory[row, :n], alone.memory[0], atol=1e-5, rtol=1e-4)


def test_top_k_candidates_are_sorted_probabilities_and_hold_the_greedy_choice():
    result = tiny_translator(seed=4).translate("I have a dream.", top_k=4)
    cut = any(n.key == "output_cut" for n in result.notices)
    for step in result.steps[:-1] if cut else result.steps:  # a cut output's final </s> was not chosen by search
        probs = [c.prob for c in step.candidates]
        assert len(probs) == 4 and probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1 + 1e-6
        assert step.chosen.token_id == step.candidates[0].token_id  # greedy takes the most probable


def test_teacher_forced_reads_the_reference_and_scores_each_of_its_tokens():
    translator = tiny_translator()
    free = translator.translate("I have a dream.", beam=1)
    forced = translator.teacher_forced("I have a dream.", "我有一个梦想。")
    assert forced.output_tokens == [*translator.tgt_tok.tokens(translator.tgt_tok.encode("我有一个梦想。")), "</s>"]
    assert forced.target_tokens[1:] == forced.output_tokens[:-1]  # each step reads the reference's prefix
    # the first step reads <s> alone in both: the same distribution
    assert [c.token for c in forced.steps[0].candidates] == [c.token for c in free.steps[0].candidates]
    assert [c.prob for c in forced.steps[0].candidates] == pytest.approx([c.prob for c in free.steps[0].candidates], abs=1e-5)
    assert all(s.candidates[0].prob >= s.chosen.prob - 1e-6 for s in forced.steps)


def test_first_divergence_finds_where_decoding_leaves_the_reference():
    from lessons.masks import first_divergence

    assert first_divergence(["猫", "坐", "在", "树"], ["猫", "坐", "在", "垫"]) == 3
    assert first_divergence(["猫", "。"], ["猫", "。"]) is None
    assert first_divergence(["猫"], ["猫", "。"]) == 1
