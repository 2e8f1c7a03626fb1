"""The translate page is honest about its model (in-process, streamlit.testing): each output token with its
probability and the calibrated marks, a warning on an unsure translation, what the model knows with a link to
its card, and the pills' computed line of what to look for."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import models
from app_pages.shell.text import md_escape, narrow_tables
from app_pages.components.chips import _BADGE_SPECIAL
from i18n import strings
from model import Translator
from model.translation.confidence import assess
from tests.support.apptest import app

EN, ZH = strings("en"), strings("zh")
UNSURE = "My grandmother plants tulips in the garden every spring."  # the shipped model stumbles here (tests check it does)
PILL = "Tom bought three apples yesterday."


def badges(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if "-badge[" in m.value]


@pytest.fixture
def uncalibrated(monkeypatch):
    """The app's checkpoint loads without the "calibration" key in its training log (as a new checkpoint does)."""
    original = Translator.from_checkpoint.__func__

    def without_calibration(cls, *args, **kwargs):
        translator = original(cls, *args, **kwargs)
        translator.training_log = {k: v for k, v in (translator.training_log or {}).items() if k != "calibration"}
        return translator

    monkeypatch.setattr(Translator, "from_checkpoint", classmethod(without_calibration))
    models.load.clear()
    yield
    models.load.clear()


def test_every_output_token_shows_its_probability_and_low_ones_are_marked(translator):
    result = translator.translate(UNSURE)
    c = assess([s.chosen.prob for s in result.steps], translator.training_log)
    assert c.calibration is not None and any(c.low) and c.unsure  # the shipped checkpoint is calibrated
    at = app(UNSURE)
    confidence_chips = badges(at)[: len(result.steps)]  # the row under the translation
    expected = []
    for step, low in zip(result.steps, c.low):
        label = md_escape(f"{step.chosen.token} {step.chosen.prob:.0%}", _BADGE_SPECIAL)
        color = "red" if low else "gray" if step.chosen.token == "</s>" else "violet"
        expected.append(f":{color}-badge[{':material/warning: ' if low else ''}{label}]")
    assert confidence_chips == expected
    sentence = c.calibration["sentence"]
    values = dict(score=f"{c.score:.0%}", threshold=f"{sentence['threshold']:.0%}",
                  below_exact=f"{sentence['below']['exact']:.0%}", above_exact=f"{sentence['above']['exact']:.0%}")
    # A line, not a box (the map below stays on the first screen), in both modes.
    assert not at.warning
    assert any(m.value.startswith(":orange-background[:material/help: " + EN["confidence.unsure_short"].format(**values))
               for m in at.markdown)
    # The evidence behind the warning, in the tooltip of the translation above it.
    assert any(EN["confidence.unsure"].format(**values) in (m.proto.help or "") for m in at.markdown)


def test_a_sure_translation_says_so_without_a_warning(translator):
    at = app("I have a dream.", lang="zh")
    assert not at.warning
    sentence = translator.training_log["calibration"]["sentence"]
    assert any(ZH["confidence.sure_short"].split("{")[0] in c.value and f"{sentence['threshold']:.0%}" in c.value
               for c in at.caption)
    assert any(ZH["confidence.sure"].split("{")[0] in (m.proto.help or "") for m in at.markdown)


def test_an_uncalibrated_checkpoint_shows_probabilities_and_says_so(uncalibrated):
    at = app(UNSURE)
    assert not at.warning
    assert not [b for b in badges(at) if b.startswith(":red-badge")]
    assert any(c.value.startswith(EN["confidence.uncalibrated"].split("{")[0]) for c in at.caption)
    assert any("%]" in b for b in badges(at))  # the probabilities are still there


def test_what_the_model_knows_comes_from_its_training_log(translator):
    log = translator.training_log
    at = app()
    line = next(c.value for c in at.caption if c.value.startswith(EN["knows.data_unknown"].split(":")[0]))
    if "train_pairs" in log:
        assert f"{log['train_pairs']:,}" in line
    # The held-out test half's unseen part where the study scored it (it chose nothing), else the unseen part of dev
    # (not all of it: near-duplicates of training pairs flatter the score), and its beam.
    if "test" in log:
        key = "knows.set_test" if log["test"]["untouched"] else "knows.set_test_seen"  # the shipped one was chosen on it
        assert EN[key].format(pairs=f"{log['test']['unseen_pairs']:,}") in line
        assert f"BLEU {log['test']['dedup_bleu']} (beam {log['test']['beam']})" in line
    else:
        assert EN["knows.set_unseen"].format(pairs=f"{log['dedup_dev_pairs']:,}") in line
        assert f"BLEU {log['final']['dedup_bleu']} (beam {log['final']['beam']})" in line
    assert EN["knows.limits"] in line
    (link,) = at.get("page_link")
    assert link.proto.label == EN["knows.card_link"] and link.proto.page.endswith("model_card")


def test_a_wide_table_is_cut_into_tables_that_repeat_what_names_a_row_and_short_chinese_words_stay_whole():
    wide = ["| group | run | dev BLEU | dev chrF | test BLEU |", "|---|---|---|---|---|", "| 1 | a | 1.0 | 2.0 | 3.0 |"]
    assert narrow_tables(["text", *wide, "", "more"], max_columns=4) == [
        "text", "| group | run | dev BLEU | dev chrF |", "| --- | --- | --- | --- |", "| 1 | a | 1.0 | 2.0 |", "",
        "| group | run | test BLEU |", "| --- | --- | --- |", "| 1 | a | 3.0 |", "", "more"]
    assert narrow_tables(wide) == wide
    joined = "\u2060".join
    assert narrow_tables(["| 翻译方向 | 每个汉字一个词元（有益） |"]) == [f"| {joined('翻译方向')} | 每个汉字一个词元（{joined('有益')}） |"]


def test_a_pill_shows_what_to_look_for_and_opens_that_head(translator):
    """The line names the head found here from the model's cross-attention: the one that, over the rows writing 昨
    and 天, puts the most weight on ▁yesterday's column."""
    result = translator.translate(PILL)
    (start,) = [i for i in range(len(result.output_tokens)) if result.output_tokens[i : i + 2] == ["昨", "天"]]
    rows, column = [start, start + 1], result.source_tokens.index("▁yesterday")
    weights = result.cross[:, :, rows, column].mean(axis=-1)  # (layers, heads)
    layer, head = (int(i) for i in np.unravel_index(weights.argmax(), weights.shape))
    expected = (f"What to look for: ▁yesterday is the last English word; while writing 昨天, cross-attention layer "
                f"{layer + 1} · head {head + 1} looks there (weight {weights[layer, head]:.2f}, rows "
                f"{result.target_tokens[rows[0]]}, {result.target_tokens[rows[1]]}) — see where Chinese puts 昨天.")
    at = app()
    at.pills(key="translate.example").set_value(PILL).run()
    assert not at.exception
    assert [re.sub(r"\\(.)", r"\1", i.value) for i in at.info] == [expected]  # as shown: no Markdown escapes
    at.button(key="translate.show_head").click().run()
    assert (at.session_state["explorer.kind"], at.session_state["explorer.layer"], at.session_state["explorer.head"]) == (
        "cross", layer, head)
    (chart,) = at.get("plotly_chart")
    title = json.loads(chart.proto.spec)["layout"]["title"]["text"].replace("<br>", " ")  # long titles wrap
    assert title == EN["explorer.map_title"].format(
        kind=EN["kind.cross"], layer=f"layer {layer + 1}", head=f"head {head + 1}")


def test_no_hint_for_a_sentence_that_is_no_pill():
    at = app("The weather is nice today.")
    assert not at.info and not [b for b in at.button if b.key == "translate.show_head"]
