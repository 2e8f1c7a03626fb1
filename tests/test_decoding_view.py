"""The decoding page's view, computed without Streamlit (app_pages/pages/decoding_view.py): what a step says and
draws (its line, the mask row, the cross-attention, the candidates, the beam's tree), what Guess first hides, and the
length penalties' table, in both interface languages. No assertion on what the model writes: only on what the view
makes of the result it is given."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from app_pages.components import attention_view
from app_pages.pages import decoding_view
from app_pages.pages.decoding_view import Settings
from app_pages.shell.text import in_language, md_escape, t
from lessons.attention_maps import ALL, pick

SENTENCE = "I have a dream."
EN_ZH = ("en", "zh")


@pytest.fixture(scope="module")
def beamed(translator):
    return translator.translate(SENTENCE)


@pytest.fixture(scope="module")
def greedy(translator):
    return translator.translate(SENTENCE, beam=1)


def settings(position=0, layer=0, head=1, every_head=False, guessing=False, hidden=False) -> Settings:
    return Settings(position, layer, head, every_head, guessing, hidden, EN_ZH)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_step_names_its_token_layer_and_head_and_draws_that_heads_weights(beamed, lang):
    position = 1
    with in_language(lang):
        shown = decoding_view.step_view(beamed, settings(position=position, layer=2, head=3))
        which = t("decoding.which", layer=attention_view.layer_name(2), head=attention_view.head_name(3))
        chosen = beamed.steps[position].chosen
        assert shown.now == t("decoding.now", step=2, steps=len(beamed.steps), token=md_escape(chosen.token),
                              prob=f"{chosen.prob:.1%}")
    assert shown.prefix == beamed.target_tokens[:2] and shown.prefix[0] == "<s>"
    assert shown.mask_title.endswith(which) and shown.cross_title.endswith(which)
    bar = shown.cross.data[0]
    assert np.allclose(np.asarray(bar.x if bar.orientation == "h" else bar.y, dtype=float),
                       pick(beamed.cross[:, :, position], 2, 3))
    mask_keys = [str(k) for k in shown.mask.layout.xaxis.ticktext or shown.mask.data[0].x]
    assert mask_keys.count("·") == len(beamed.target_tokens) - position - 1  # the steps not written yet
    assert shown.candidates.figure is not None and shown.beam is not None and shown.beam.figure is not None


def test_every_heads_rows_are_the_steps_cross_attention_per_layer_and_head(beamed):
    shown = decoding_view.step_view(beamed, settings(position=0, layer=ALL, head=ALL, every_head=True))
    layers, heads = beamed.cross.shape[:2]
    z = np.asarray(shown.cross.data[0].z, dtype=float)
    assert z.shape == (layers * heads, len(beamed.source_tokens))
    assert np.allclose(z, beamed.cross[:, :, 0].reshape(layers * heads, -1))
    assert "·" not in shown.cross_title  # every head: no one layer and head to name
    with in_language("en"):
        assert decoding_view.step_view(beamed, settings(every_head=True)).cross_caption.startswith(
            t("decoding.every_head_help")[:20])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_guess_first_hides_the_token_the_candidates_chart_and_the_beams_tree(beamed, lang):
    with in_language(lang):
        shown = decoding_view.step_view(beamed, settings(guessing=True, hidden=True))
        assert shown.now == t("dguess.now", step=1, steps=len(beamed.steps))
        line = decoding_view.sentence_line(beamed, EN_ZH, guessing=True)
    assert beamed.steps[0].chosen.token not in shown.now
    assert shown.candidates.figure is None and shown.beam is None  # the guess panel draws the candidates
    assert line.endswith("?") and md_escape(beamed.translation) not in line
    revealed = decoding_view.step_view(beamed, settings(guessing=True, hidden=False))
    assert revealed.candidates.figure is None and revealed.beam is not None  # the guess told: the tree shows


def test_the_candidates_are_the_top_k_and_the_chosen_token_where_the_search_chose_outside_them():
    def candidate(token_id, token, prob):
        return SimpleNamespace(token_id=token_id, token=token, prob=prob)

    top = [candidate(1, "我", 0.6), candidate(2, "你", 0.2)]
    inside = SimpleNamespace(steps=[SimpleNamespace(candidates=top, chosen=top[1])])
    assert decoding_view.candidate_lists(inside, 0) == (["我", "你"], [0.6, 0.2], 1)
    outside = SimpleNamespace(steps=[SimpleNamespace(candidates=top, chosen=candidate(9, "他", 0.05))])
    assert decoding_view.candidate_lists(outside, 0) == (["我", "你", "他"], [0.6, 0.2, 0.05], 2)


def test_the_candidates_chart_marks_the_chosen_token(beamed):
    shown = decoding_view.step_view(beamed, settings()).candidates
    tokens, probs, chosen = decoding_view.candidate_lists(beamed, 0)
    assert (shown.tokens, shown.probs, shown.chosen) == (tokens, probs, chosen)
    assert shown.tokens[shown.chosen] == beamed.steps[0].chosen.token
    assert max(shown.probs) <= 1 and sum(shown.probs) <= 1 + 1e-6


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_beams_tree_says_how_many_hypotheses_each_status_holds(beamed, lang):
    record = beamed.beam_steps[0]
    with in_language(lang):
        beam = decoding_view.beam_view(beamed, 0)
        assert beam.title == t("decoding.beam_title", beam=beamed.beam_size)
        assert beam.caption.startswith(t("decoding.beam_help", last=1, step=1, top=2 * beamed.beam_size,
                                         kept=len(record.kept), finished=len(record.finished),
                                         dropped=len(record.dropped)))
        end, records = decoding_view.beam_view(beamed, len(beamed.steps) - 1), beamed.beam_steps
        final = records[min(len(beamed.steps) - 1, len(records) - 1)]
        assert end.figure is not None and end.caption.startswith(t(  # the whole search at the last step
            "decoding.beam_help", last=len(records), step=min(len(beamed.steps), len(records)),
            top=2 * beamed.beam_size, kept=len(final.kept), finished=len(final.finished), dropped=len(final.dropped)))


def test_a_greedy_search_has_no_tree_and_no_hypotheses_to_rescore(greedy, translator):
    with in_language("en"):
        beam = decoding_view.beam_view(greedy, 0)
        penalty = decoding_view.length_penalty_view(greedy, translator.generation_config)
        assert (beam.figure, beam.caption) == (None, t("decoding.beam_greedy"))
        assert penalty.columns is None and penalty.result == t("decoding.lp.greedy")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_length_penalty_picks_one_finished_hypothesis(beamed, translator, lang):
    with in_language(lang):
        shown = decoding_view.length_penalty_view(beamed, translator.generation_config)
        hypotheses = decoding_view.finished_hypotheses(beamed)
        scores = list(shown.columns)[3:]  # after the hypothesis, its length and its log-probability: one per α
        assert all(name.startswith(t("decoding.lp.col.score", alpha="")) for name in scores)
    assert hypotheses and all(tokens[-1] == "</s>" for tokens, _ in hypotheses)
    assert all(len(column) == len(hypotheses) for column in shown.columns.values())
    assert len(scores) >= 3 and all(sum("★" in cell for cell in shown.columns[name]) == 1 for name in scores)
    assert shown.result.count("\n- ") == len(scores) and shown.caveat
