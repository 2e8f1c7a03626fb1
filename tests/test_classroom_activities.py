"""Classroom activities, parts 1 and 6: guess-then-reveal verdicts, the exercises' answers, decoding from a forced
prefix, and source coverage — the arithmetic and the model (unit tests), then the pages (AppTest)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from app_pages.state import examples
from i18n import strings
from lessons import classroom, worked_example
from lessons.attention_maps import pick
from lessons.positional import pe_table
from model import InputError
from model.translation.decoding import greedy_search
from tests.support.apptest import app, open_page
from tests.support.tiny import tiny_translator
from viz.heatmap import clicked_pair, guess_heatmap
from viz.options import Guess, Labels

# ---------------------------------------------------------------- the arithmetic


def test_guess_verdict_names_the_strongest_key_and_ranks_the_guess():
    w = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]])
    v = classroom.guess_verdict(w, query=2, guess=2, key_tokens=["a", "b", "c"], self_attention=False)
    assert (v.best, v.best_weight, v.guess_weight, v.rank, v.right) == (1, 0.5, 0.3, 2, False)
    assert classroom.guess_verdict(w, 2, 1, ["a", "b", "c"], False).right


def test_guess_verdict_reasons_come_from_the_numbers():
    keys = ["▁I", "▁dream", "</s>"]
    sink = np.array([[0.1, 0.1, 0.8], [0.2, 0.1, 0.7], [0.6, 0.3, 0.1]])  # </s> leads 2 of 3 rows
    assert classroom.guess_verdict(sink, 0, 0, keys, False).reason == "sink"
    assert classroom.guess_verdict(sink, 0, 0, keys, False).rows_led == 2
    flat = np.array([[0.4, 0.3, 0.3]])  # 0.4 < 1.5 × 1/3
    assert classroom.guess_verdict(flat, 0, 0, keys, False).reason == "flat"
    diagonal = np.eye(3) * 0.8 + 0.2 / 3
    assert classroom.guess_verdict(diagonal, 1, 0, ["a", "b", "c"], True).reason == "self"
    previous = np.array([[1.0, 0, 0], [0.9, 0.1, 0], [0.05, 0.85, 0.1]])  # each row's strongest: the one before
    mask = np.tril(np.ones((3, 3), bool))
    assert classroom.guess_verdict(previous, 2, 1, ["a", "b", "c"], True, mask).reason == "previous"
    # a masked key is never the strongest, whatever its (meaningless) number
    assert classroom.guess_verdict(np.array([[0.1, 0.9, 0.0]] * 3), 0, 0, ["a", "b", "c"], True, mask).best == 0


def test_coverage_sums_to_the_output_rows_and_flags_what_got_almost_nothing():
    cross = np.zeros((2, 2, 4, 3))
    cross[..., 0] = 0.6
    cross[..., 1] = 0.39
    cross[..., 2] = 0.01
    cov = classroom.coverage(cross)
    assert cov.received.sum() == pytest.approx(4)  # each of the 4 rows sums to 1
    assert cov.even == pytest.approx(4 / 3) and cov.threshold == pytest.approx(classroom.OMISSION_SHARE * 4 / 3)
    assert cov.omitted.tolist() == [False, False, True]


def test_token_edits_mark_what_the_alignment_does_not_match_on_both_sides():
    edits = classroom.token_edits(["我", "有", "梦"], ["猫", "有", "梦", "。"])  # 我 replaced by 猫, 。 added
    assert edits.dropped == [True, False, False] and edits.added == [True, False, False, True]
    shifted = classroom.token_edits(list("我有一个梦想。"), list("我猫有一个梦。"))  # 猫 inserted, 想 dropped
    assert shifted.added == [False, True, False, False, False, False, False]
    assert shifted.dropped == [False, False, False, False, False, True, False]


def test_a_dropped_token_is_a_change():
    """Issue 51: forcing 自 at step 10 of "My sister bought a red bicycle yesterday." wrote …红自行车 where the
    original had …红色自行车; a position-free count of what the forced output added read "0 of 14"."""
    original = ["我", "妹", "昨", "天", "买", "了", "一", "辆", "红", "色", "自", "行", "车", "。", "</s>"]
    forced = original[:9] + original[10:]
    edits = classroom.token_edits(original, forced)
    assert [t for t, gone in zip(original, edits.dropped) if gone] == ["色"] and not any(edits.added)


def test_exercise_answers_are_computed():
    assert classroom.hidden_keys(4, 1) == [2, 3] and classroom.hidden_keys(4, 3) == []
    ex = worked_example.thinking_machines()
    assert classroom.larger_score(ex.scores) == int(np.argmax(ex.scores)) == 0  # 112 against 96 in the notes
    assert classroom.nearest_rows(pe_table(10, 64), 4) == [3, 5]  # PE·PE depends only on |a − b|: both neighbours
    assert classroom.nearest_rows(pe_table(10, 64), 0) == [1]


def test_the_hidden_map_sends_no_weight_to_the_browser():
    w = np.array([[0.9, 0.1], [0.2, 0.8]])
    hidden = guess_heatmap(w, Labels(["a", "b"], ["x", "y"]), Guess(False))
    assert np.isnan(np.asarray(hidden.data[0].z, dtype=float)).all() and not hidden.layout.shapes
    shown = guess_heatmap(w, Labels(["a", "b"], ["x", "y"]), Guess(True, cell=(0, 1), best=(0, 0)))
    assert np.allclose(np.asarray(shown.data[0].z, dtype=float), w) and len(shown.layout.shapes) == 2


def test_a_hidden_cell_is_a_click_target_and_the_pending_guess_is_outlined():
    w = np.array([[0.9, 0.1], [0.2, 0.8]])
    lower = np.tril(np.ones((2, 2), bool))  # the decoder's mask: row 0 may not read key 1
    hidden = guess_heatmap(w, Labels(["a", "<b>"], ["x", "y"]), Guess(False, cell=(1, 0), click_hint="Click"),
                           mask=lower)
    (targets,) = [trace for trace in hidden.data if trace.customdata is not None]
    assert [list(cell) for cell in targets.customdata] == [[0, 0], [1, 0], [1, 1]]  # only the cells a query reads
    assert "&lt;b&gt; → x" in targets.text and "Click" in targets.hovertemplate  # tokens as text, never markup
    assert clicked_pair([{"curve_number": 1, "customdata": [1, 0]}]) == (1, 0) and clicked_pair([]) is None
    (mark,) = hidden.layout.shapes  # the guess, dashed; no strongest key before the reveal
    assert (mark.x0, mark.y0, mark.line.dash) == (-0.5, 0.5, "dash")
    shown = guess_heatmap(w, Labels(["a", "b"], ["x", "y"]), Guess(True, cell=(1, 0), best=(1, 1), click_hint="Click"))
    assert all(trace.customdata is None for trace in shown.data)  # revealed: the cells' hover tells their weights


# ---------------------------------------------------------------- the model: decoding from a forced prefix


@pytest.mark.parametrize("beam", [1, 3])
def test_forced_prefix_is_honoured_and_the_search_continues(beam):
    tr = tiny_translator()
    plain = tr.translate("I have a dream.", beam=beam)
    forced_id = next(c.token_id for c in plain.steps[0].candidates[1:] if c.token_id != tr.config.eos_id)
    second_id = plain.steps[1].candidates[-1].token_id
    forced = tr.translate("I have a dream.", beam=beam, forced_prefix=(forced_id, second_id))
    assert forced.forced == 2 and plain.forced == 0
    assert [s.chosen.token_id for s in forced.steps[:2]] == [forced_id, second_id]
    assert len(forced.steps) > 2 and forced.steps[-1].chosen.token == "</s>"  # it went on, and finished
    assert forced.cross.shape[2] == len(forced.target_tokens)  # every map is of the forced output


def test_forced_greedy_continuation_is_what_greedy_chooses_after_that_prefix():
    """The cache warmed on the prefix continues exactly as a search that had chosen the prefix itself."""
    tr = tiny_translator()
    _, ids, _ = tr.prepare("The dog saw the cat.")
    enc = tr.model.encode(torch.tensor([ids]))
    with torch.inference_mode():
        (free,) = greedy_search(tr.model, enc, [6])
        (forced,) = greedy_search(tr.model, enc, [6], prefix=tuple(free[:2]))
    assert forced == free


def test_a_bad_forced_prefix_is_refused():
    tr = tiny_translator()
    for prefix in [(tr.config.eos_id,), (tr.config.tgt_vocab_size,), (7,) * 200]:
        with pytest.raises(InputError):
            tr.translate("I love you.", forced_prefix=prefix)


def test_target_token_id_takes_one_vocabulary_token_only(translator):
    assert translator.target_token_id("猫") is not None
    assert translator.tgt_tok.tokens([translator.target_token_id("猫")]) == ["猫"]
    assert translator.target_token_id("cat and dog") is None
    assert translator.target_token_id("</s>") is None and translator.target_token_id("") is None


# ---------------------------------------------------------------- the pages


def buttons(at, key):
    return next(w for w in at.get("button_group") if getattr(w, "key", None) == key)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explorer_guess_hides_the_map_then_reveals_a_computed_verdict(lang, translator):
    at = app("I have a dream.", lang=lang)
    at.toggle(key="explorer.guess").set_value(True).run()
    hidden = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert all(cell is None for row in hidden["data"][0]["z"] for cell in row)  # no weight in the page
    at.selectbox(key="explorer.guess.query").set_value(2).run()
    buttons(at, "explorer.guess.key").set_value(0).run()
    at.button(key="explorer.guess.reveal").click().run()
    assert not at.exception
    result = translator.translate("I have a dream.")
    state = at.session_state
    row = pick(result.attention(state["explorer.kind"]), state["explorer.layer"], state["explorer.head"])[2]
    best = int(np.argmax(row))
    said = [m.value for m in (*at.success, *at.info)][0]
    assert f"{row[best]:.2f}" in said and f"{row[0]:.2f}" in said
    shown = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert len(shown["layout"]["shapes"]) >= 2  # the guess and the strongest key outlined


@pytest.mark.parametrize("view", ["grid", "lines"])
def test_guess_first_shows_one_hidden_head_whatever_the_view_was(view):
    sentence = examples.EXAMPLES[0].sentence  # an example: its hint names where a word looks most
    at = app(sentence)
    at.segmented_control(key="explorer.view").set_value(view).run()
    assert [b for b in at.button if b.key == "translate.show_head"]
    at.toggle(key="explorer.guess").set_value(True).run()
    assert not at.exception
    (chart,) = at.get("plotly_chart")  # no grid, no lines: the one map, every weight hidden
    assert all(cell is None for row in json.loads(chart.proto.spec)["data"][0]["z"] for cell in row)
    control = at.segmented_control(key="explorer.view")
    assert control.value == "head" and control.disabled and "one head" in control.help
    assert not [b for b in at.button if b.key == "translate.show_head"]  # the hint would tell
    at.toggle(key="explorer.guess").set_value(False).run()
    assert not at.segmented_control(key="explorer.view").disabled


def test_decoding_guess_hides_the_candidates_until_revealed():
    at = app("I have a dream.", page="app_pages/pages/decoding.py")
    length_penalty = strings("en")["decoding.lp.title"]
    assert length_penalty in [h.value for h in at.subheader]
    at.toggle(key="decoding.guess").set_value(True).run()
    assert not [c for c in at.get("plotly_chart") if "candidates" in c.proto.id]
    assert "我" not in at.markdown[0].value + at.markdown[1].value  # nor the sentence's line nor the step's names it
    assert not [b for b in at.button if b.key == "whatif.run"]  # what-if lists the candidates: after the guess
    pick = buttons(at, "decoding.guessing.pick")
    assert pick.options == sorted(pick.options) and pick.options[0] != "我"  # by their text, not by probability
    pick.set_value(0).run()  # the values are the candidates' places, most probable first: 我
    at.button(key="decoding.guessing.reveal").click().run()
    assert [c for c in at.get("plotly_chart") if "decoding.guessing.chart" in c.proto.id]
    assert "我" in at.success[0].value
    # The finished beams would give the whole translation away, which stays hidden after one step's guess.
    assert length_penalty not in [h.value for h in at.subheader]


def test_forcing_a_token_changes_the_continuation(translator):
    at = app("I have a dream.", page="app_pages/pages/decoding.py")
    at.text_input(key="whatif.typed").input("猫").run()
    at.button(key="whatif.run").click().run()
    assert not at.exception
    forced = translator.translate("I have a dream.", forced_prefix=(translator.target_token_id("猫"),))
    chips = [m.value for m in at.markdown if m.value.startswith(":red-badge[") or m.value.startswith(":violet-badge[")]
    assert ":red-badge[猫]" in chips and forced.translation != translator.translate("I have a dream.").translation
    assert [c for c in at.get("plotly_chart") if "whatif.coverage" in c.proto.id]
    at.text_input(key="whatif.typed").input("cat dog").run()
    at.button(key="whatif.run").click().run()
    assert "cat dog" in at.warning[0].value


# ---------------------------------------------------------------- the exercises: answers computed, verdicts said


def verdicts(at, kind: str, marker: str) -> list[str]:
    """The page's `kind` messages (success, info) that are an exercise's verdict: they contain `marker`."""
    return [m.value for m in getattr(at, kind) if marker in m.value]


def test_masks_exercise_checks_the_computed_masked_keys():
    at = open_page("masks", tab="try")  # the "Try it" tab
    at.selectbox(key="ex.masks.query").set_value(1).run()  # "have": "a" and "dream" are after it
    buttons(at, "ex.masks.keys").set_value([3]).run()
    at.button(key="ex.masks.check").click().run()
    assert not verdicts(at, "success", "every key after") and "**a**, **dream**" in verdicts(at, "info", "every key after")[0]
    buttons(at, "ex.masks.keys").set_value([2, 3]).run()
    assert not verdicts(at, "info", "every key after")  # a changed answer waits for Check again
    at.button(key="ex.masks.check").click().run()
    assert "**a**, **dream**" in verdicts(at, "success", "every key after")[0]


def test_qkv_exercise_compares_the_worked_example_scores():
    scores = worked_example.thinking_machines().scores
    at = open_page("qkv", tab="try")
    at.radio(key="ex.qkv.choice").set_value(1).run()
    at.button(key="ex.qkv.check").click().run()
    wrong = verdicts(at, "info", "q₁·k₁ =")[0]
    assert f"{scores[0]:g}" in wrong and f"{scores[1]:g}" in wrong and not verdicts(at, "success", "q₁·k₁ =")
    at.radio(key="ex.qkv.choice").set_value(classroom.larger_score(scores)).run()
    at.button(key="ex.qkv.check").click().run()
    assert verdicts(at, "success", "q₁·k₁ =")


def test_pe_exercise_accepts_either_nearest_neighbour():
    at = open_page("positional", "zh", tab="try")
    at.selectbox(key="ex.pe.pos").set_value(4).run()
    buttons(at, "ex.pe.pick").set_value(9).run()
    at.button(key="ex.pe.check").click().run()
    assert "3、5" in verdicts(at, "info", "最近的行")[0] and not verdicts(at, "success", "最近的行")
    buttons(at, "ex.pe.pick").set_value(5).run()
    at.button(key="ex.pe.check").click().run()
    assert "正确" in verdicts(at, "success", "最近的行")[0]
