"""Decoding's what-if in a running page (streamlit.testing), opened by a link to a step as a student opens it: the
forced output's chips are the tokens the model writes from the forced prefix, the chips it dropped from the original
and the ones it added are red, the caption counts them, and the coverage bars are drawn. The browser is not needed
for any of it (tests/test_decoding_browser.py keeps the beam tree, whose layout it measures)."""

from __future__ import annotations

import pytest

from i18n import strings
from lessons.classroom import token_edits
from tests.support.apptest import chips_of, opened

DECODING = "app_pages/pages/decoding.py"
SISTER = "My sister bought a red bicycle yesterday."  # issue 51's example: 自 forced at step 10 drops 色


def forced_at(translator, sentence: str, step: int, token: str):
    """(the original, the output forced to `token` at 1-based `step` and continued by the same search)."""
    original = translator.translate(sentence)
    forced = translator.translate(sentence, beam=original.beam_size, forced_prefix=tuple(
        s.chosen.token_id for s in original.steps[:step - 1]) + (translator.target_token_id(token),))
    return original, forced


def what_if(sentence: str, step: int, token: str, lang: str):
    at = opened({"s": sentence, "step": str(step), "lang": lang}, DECODING)
    at.text_input(key="whatif.typed").input(token).run()
    at.button(key="whatif.run").click().run()
    assert not at.exception, [e.message for e in at.exception]
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_forcing_a_token_marks_what_it_dropped(translator, lang):
    """Forcing 自 at step 10 writes …红自行车 where the original had …红色自行车: 色 is marked in the original and the
    caption counts it, where a count of the forced output's new tokens alone said "0 of 14" (moved from
    test_decoding_browser)."""
    original, forced = forced_at(translator, SISTER, 10, "自")
    edits = token_edits(original.output_tokens, forced.output_tokens)
    dropped = [tok for tok, gone in zip(original.output_tokens, edits.dropped) if gone]
    added = [tok for tok, new in zip(forced.output_tokens, edits.added) if new]
    assert dropped or added  # the model still changes something here, or the example no longer shows the bug
    at = what_if(SISTER, 10, "自", lang)
    continued = chips_of(at, "whatif.continued")
    assert [text for _, text in continued] == forced.output_tokens
    assert [text for colour, text in chips_of(at, "whatif.original") if colour == "red"] == dropped
    assert [text for colour, text in continued if colour == "red"] == added
    text = strings(lang)
    opening = text["whatif.changed"].split("{")[0].strip()  # the caption's opening words, before any number
    (caption,) = [c.value for c in at.caption if c.value.startswith(opening)]
    assert (" ".join(dropped) or text["ex.none"]) in caption and str(len(dropped)) in caption


def test_forcing_a_token_changes_the_continuation(translator):
    """猫 forced at step 2 of the default sentence: the continuation is the model's from there, and its coverage bars
    are drawn (moved from test_guess_browser)."""
    original, forced = forced_at(translator, "I have a dream.", 2, "猫")
    assert forced.translation != original.translation
    at = what_if("I have a dream.", 2, "猫", "en")
    assert [text for _, text in chips_of(at, "whatif.continued")] == forced.output_tokens
    assert [chart for chart in at.get("plotly_chart") if chart.key == "whatif.coverage"]  # the coverage bars
