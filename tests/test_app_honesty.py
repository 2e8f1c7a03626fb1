"""The translate page is honest about its model (in-process, streamlit.testing): each output token with its
probability and the calibrated marks, a warning on an unsure translation, what the model knows with a link to
its card, and the pills' computed line of what to look for. What the view says of a sure, an uncalibrated and a
no-pill translation, and what the model knows: tests/test_translate_view_honesty.py."""

from __future__ import annotations

import json
import re

import numpy as np
from streamlit.testing.v1 import AppTest

from app_pages.shell.text import md_escape, narrow_tables
from app_pages.components.chips import _BADGE_SPECIAL
from i18n import strings
from model.translation.confidence import assess
from tests.support.apptest import app

EN = strings("en")
UNSURE = "My grandmother plants tulips in the garden every spring."  # the shipped model stumbles here (tests check it does)
PILL = "Tom bought three apples yesterday."


def badges(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if "-badge[" in m.value]


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
    sentence = c.calibration.sentence
    values = dict(score=f"{c.score:.0%}", threshold=f"{sentence.threshold:.0%}",
                  below_exact=f"{sentence.below.exact:.0%}", above_exact=f"{sentence.above.exact:.0%}")
    # A line, not a box (the map below stays on the first screen), in both modes.
    assert not at.warning
    assert any(m.value.startswith(":orange-background[:material/help: " + EN["confidence.unsure_short"].format(**values))
               for m in at.markdown)
    # The evidence behind the warning, in the tooltip of the translation above it.
    assert any(EN["confidence.unsure"].format(**values) in (m.proto.help or "") for m in at.markdown)
    # What the model knows, beside a link to its card (what the line says, a sure and an uncalibrated verdict, a
    # sentence with no hint: tests/test_translate_view_honesty.py).
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
