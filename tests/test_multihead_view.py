"""The multi-head page's view, computed without Streamlit (app_pages/pages/multihead_view.py): the notes'
walk-through with the student's numbers, the live model's shapes, and two heads against their average with Pin to
deck's slide, in both interface languages. The checks that were AppTests of the page's texts and numbers."""

from __future__ import annotations

import json

import pytest

from app_pages.components.parts import Notice, Table, texts
from app_pages.pages import multihead_view
from app_pages.shell.text import in_language
from lessons import shapes
from lessons.multihead import most_different_heads
from model import DEFAULT_BEAM
from tests.support.paths import needs_checkpoint

SENTENCE = "I have a dream."


def test_indivisible_heads_explain_themselves():
    with in_language("en"):
        parts = multihead_view.doc_parts({**shapes.DOC_EXAMPLE, "heads": 7}, "refused")
    (error,) = [p for p in parts if isinstance(p, Notice) and p.level == "error"]
    assert "300 / 7" in error.text and not [p for p in parts if isinstance(p, Table)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_notes_numbers_give_every_shape_and_the_notes_slips(lang):
    with in_language(lang):
        parts = multihead_view.doc_parts(dict(shapes.DOC_EXAMPLE), "embed_dim must be divisible by num_heads")
    (width, bugs) = [p for p in parts if isinstance(p, Notice)]
    assert width.level == "success" and "50" in width.text
    assert bugs.level == "info" and "embed_dim must be divisible by num_heads" in bugs.text
    (table,) = [p for p in parts if isinstance(p, Table)]
    assert len(table.data) == len(shapes.multihead_shapes(**shapes.DOC_EXAMPLE)) and table.hide_index


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_several_heads_shows_the_two_heads_the_model_computed_and_pins_them(translator, lang):
    result = translator.translate(SENTENCE, beam=DEFAULT_BEAM)
    with in_language(lang):
        shown = multihead_view.why_view(result, translator.config, "encoder_self", 0, "en-zh")
    pair = most_different_heads(result.encoder_self[0])
    (a, b), (wa, wb) = pair.heads, pair.peaks()
    text = texts((shown.text, shown.average))
    head = {"en": "head {n}", "zh": "第 {n} 个头"}[lang]
    assert head.format(n=a + 1) in text and head.format(n=b + 1) in text
    for number in (wa, wb, pair.average[pair.keys[0]], pair.average[pair.keys[1]]):
        assert f"{number:.2f}" in text, number
    names = [d.get("name") for d in json.loads(shown.chart.figure.to_json())["data"]]
    assert names == [head.format(n=a + 1), head.format(n=b + 1), {"en": "average of the two", "zh": "两者的平均"}[lang]]
    assert shown.pin.page == "multihead" and shown.pin.query == {"s": SENTENCE, "model": "en-zh", "tab": "why",
                                                                 "kind": "encoder_self", "layer": "1"}


@needs_checkpoint
def test_the_live_shapes_agree_with_the_attention_the_model_returned(translator):
    result = translator.translate(SENTENCE, beam=DEFAULT_BEAM)
    with in_language("en"):
        shown = multihead_view.shapes_view(result, translator.config, "cross", 1)
    assert shown.check.level == "success" and str(tuple(result.attention("cross").shape)) in shown.check.text
    assert shown.chart.key == "multihead.live.split" and shown.table.hide_index
