"""The compare page's views (app_pages/pages/compare_view.py) with the Chinese → English model, in both interface
languages, without Streamlit: Both directions titles the right map's axes turned round, in the session's language;
two heads and two sentences of a Chinese sentence say under their maps that Chinese is read and English written.
What needs a running page (the mode it opens on, the toggle, the pickers and pills, a change of direction) stays in
tests/test_app_compare_zh.py. No assertion on what the zh-en model writes: its weights change with every training
run."""

from __future__ import annotations

import re

import pytest

from app_pages.components.attention_view import short_axis_titles
from app_pages.pages import compare_view
from app_pages.pages.compare_view import Room, Side
from app_pages.shell.text import in_language, md_escape
from app_pages.state import examples
from i18n import strings

SENTENCES = {"en-zh": "I have a dream.", "zh-en": "我有一个梦想。"}
LABELS = {"en-zh": "English → 中文 (en-zh)", "zh-en": "中文 → English (zh-en)"}
LANGS = ["en", "zh"]
ZH_EN = ("zh", "en")


def room() -> Room:
    """A MapRoom's limits outside presentation mode, the axes titled short in the session's language, as the page
    lays out its maps (compare_view.MapRoom.limits)."""
    return Room({"max_width": 400, "max_height": 370, "compact_scale": True, **short_axis_titles()}, 370, True)


def axis_title(figure, axis_name: str) -> str:
    """A figure's title of `axis_name` ("x" or "y"; its second axes where it has them), its line breaks undone."""
    layout = figure.to_plotly_json()["layout"]
    title = (layout.get(f"{axis_name}axis2") or layout[f"{axis_name}axis"])["title"]
    return re.sub(r"\s*<br>\s*", " ", title["text"] if isinstance(title, dict) else title)


def side(translator, name: str, result) -> Side:
    config = translator.config
    return Side(name, LABELS[name], LABELS[name], (config.source_language, config.target_language), config, result)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("model", SENTENCES)
def test_both_directions_name_the_right_maps_axes_turned_round(translator, zh_translator, lang, model):
    """Transposed, the right map has the keys (what the right model read: the left one's output) down the side and
    its queries across (moved from test_app_compare_zh, an AppTest a language and model; the drawn titles and the
    toggle's label: its smoke run per language)."""
    models = {"en-zh": translator, "zh-en": zh_translator}
    other = "zh-en" if model == "en-zh" else "en-zh"
    left = models[model].translate(SENTENCES[model])
    right = models[other].translate(left.translation)
    s = strings(lang)
    with in_language(lang):
        shown = compare_view.directions_view((side(models[model], model, left), side(models[other], other, right)),
                                             ("cross", 2, 0), room(), True)
    left_map, right_map = (one.chart.figure for one in shown.sides)
    assert axis_title(left_map, "y") == s["axis.queries"]
    assert (axis_title(right_map, "y"), axis_title(right_map, "x")) == (s["axis.keys"], s["axis.queries"])


def axes_note(lang: str) -> str:
    """The caption's note on the short axis titles for the zh-en model: English target queries, Chinese source keys."""
    s = strings(lang)
    tokens = {side_name: s[f"axis.{side_name}_tokens"].format(language=s[f"language.{code}"])
              for side_name, code in (("target", "en"), ("source", "zh"))}
    return s["axis.note"].format(queries=s["axis.queries_of"].format(tokens=tokens["target"]),
                                 keys=s["axis.keys_of"].format(tokens=tokens["source"]))


@pytest.mark.parametrize("lang", LANGS)
def test_two_heads_and_two_sentences_of_a_chinese_sentence_name_its_languages(zh_translator, lang):
    """Moved from test_app_compare_zh::test_every_comparison_works_with_the_chinese_model_in_the_sidebar (its heads
    and sentences modes, an AppTest each per language; the sentences' pills and the two models' picker stay there):
    the maps drawn, and the caption under them names English as the queries' and Chinese as the keys' language."""
    a, b = (zh_translator.translate(sentence) for sentence in examples.SENTENCE_PAIRS_ZH[0].sentences)
    with in_language(lang):
        heads = compare_view.heads_view(a, "cross", ((0, 0), (0, 1)), "zh-en", room(), ZH_EN)
        pair = compare_view.sentences_view(a, b, ("cross", 0, 0), "zh-en", room(), ZH_EN)
    note = axes_note(lang)
    for caption in (heads.caption, pair.caption):
        assert note in caption or md_escape(note) in caption
    assert len([*heads.maps, heads.difference]) == 3 and pair.difference.chart.figure.data
