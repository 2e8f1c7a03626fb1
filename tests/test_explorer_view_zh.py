"""Translate & explore's view (app_pages/pages/translate_view.py) with the Chinese → English model, in both interface
languages, without Streamlit: the sentence box and the intro name Chinese as what is typed, English as what is
written; every map's axes and the numbers' labels name the right language's tokens; the captions explain ▁ only where
a map shows it; a sentence in traditional characters or in English is said so. What needs a running page (the
widgets, the hidden map of "Guess first", a rollout's numbers, a drawn warning) stays in tests/test_app_explorer_zh.py.
No assertion on what the zh-en model writes: its weights change with every training run."""

from __future__ import annotations

import html
import json
import re

import pytest

from app_pages.pages import translate_view
from app_pages.pages.translate_view import ExplorerSettings
from app_pages.shell.text import in_language, md_escape
from i18n import strings
from lessons.attention_maps import ALL
from model import assess
from viz.style import MAX_WIDTH_PX

SENTENCE = "我有一个梦想。"
LANGS = ["en", "zh"]
PLAIN = {"max_width": MAX_WIDTH_PX}  # screen.map_limits() outside presentation mode


@pytest.fixture(scope="module")
def dream(zh_translator):
    """The zh-en model's translation of SENTENCE, made once for the module (each test only reads it)."""
    return zh_translator.translate(SENTENCE)


def explorer(result, lang: str, kind: str = "encoder_self", view: str = "head", languages=("zh", "en")):
    """The explorer's view of `result` in `lang` on layer 1's heads averaged (layer 2, head 3 for the lines)."""
    layer, head = (1, 2) if view == "lines" else (0, ALL)
    choices = ExplorerSettings(kind, view, layer, head, False, None, 0.1, "-".join(languages), languages, PLAIN,
                               PLAIN, PLAIN, True)
    with in_language(lang):
        return translate_view.explorer_view(result, choices)


def axis(lang: str, role: str, side: str, language: str) -> str:
    """An axis title as the explorer writes it: "queries (Chinese source tokens)"."""
    s = strings(lang)
    named = s[f"axis.{side}_tokens"].format(language=s[f"language.{language}"])
    return s[f"axis.{role}_of"].format(tokens=named)


def figure_text(figure) -> str:
    """A figure as the browser gets it (JSON, Chinese kept as characters whichever JSON engine plotly finds: the
    standard library's escapes them, orjson does not), its titles' line breaks undone."""
    return re.sub(r"\s*<br>\s*", " ", json.dumps(json.loads(figure.to_json()), ensure_ascii=False))


def ticks(figure) -> tuple[list[str], list[str]]:
    """(rows, columns) of a heatmap's labels, as the browser shows them."""
    layout = figure.layout
    return ([html.unescape(t) for t in layout.yaxis.ticktext], [html.unescape(t) for t in layout.xaxis.ticktext])


@pytest.mark.parametrize("lang", LANGS)
def test_encoder_self_attention_reads_chinese_characters_one_per_token(dream, lang):
    """Moved from test_app_explorer_zh (AppTest, one page per language)."""
    s = strings(lang)
    shown = explorer(dream, lang)
    queries, keys = ticks(shown.one_head.figure)  # the default map: encoder self-attention
    assert queries == keys == [*SENTENCE, "</s>"]  # one character a token, no word-start marks
    text = figure_text(shown.one_head.figure)
    assert axis(lang, "queries", "source", "zh") in text and axis(lang, "keys", "source", "zh") in text
    help_text = s["kind.encoder_self.help"].format(source=s["language.zh"], target=s["language.en"])
    assert shown.caption.startswith(help_text)
    assert s["tokens.word_start"] not in shown.caption  # no ▁ on this map


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["cross", "decoder_self"])
def test_maps_of_the_english_output_name_its_tokens_english(dream, lang, kind):
    """Moved from test_app_explorer_zh (an AppTest per language and kind; the kind picker following the session's
    kind: test_app_explorer_zh's Guess-first run)."""
    s = strings(lang)
    shown = explorer(dream, lang, kind)
    queries, keys = ticks(shown.one_head.figure)
    assert queries[0] == "<s>" and any(q.startswith("▁") for q in queries)  # English pieces, ▁ word starts
    text = figure_text(shown.one_head.figure)
    assert axis(lang, "queries", "target", "en") in text
    key_side = ("source", "zh") if kind == "cross" else ("target", "en")
    assert axis(lang, "keys", *key_side) in text
    assert shown.caption.startswith(s[f"kind.{kind}.help"].format(source=s["language.zh"], target=s["language.en"]))
    assert s["tokens.word_start"] in shown.caption  # the English pieces' ▁ explained under the map that shows them


@pytest.mark.parametrize("view", ["grid", "lines"])
def test_the_grid_and_the_lines_of_cross_attention_name_both_languages(dream, view):
    """Moved from test_app_explorer_zh::test_every_view_of_cross_attention_names_both_languages (an AppTest a view;
    the rollout's stays there, its numbers being written where it is drawn): the map drawn names both languages, and
    the numbers to copy label each column with a Chinese character."""
    shown = explorer(dream, "zh", "cross", view)
    chart = shown.one_head if view == "grid" else shown.lines
    text = figure_text(chart.figure)
    assert axis("zh", "queries", "target", "en") in text and axis("zh", "keys", "source", "zh") in text
    header, labels = chart.numbers.tsv.splitlines()[:2]
    assert header.startswith("# kind=cross")
    assert labels.split("\t")[1:] == [f"{i}:{c}" for i, c in enumerate([*SENTENCE, "</s>"])]
    if view == "grid":
        assert sum(trace.type == "heatmap" for trace in shown.grid.data) == dream.cross.shape[0] * dream.cross.shape[1]


def page_view(translator, sentence: str, lang: str):
    result = translator.translate(sentence)
    with in_language(lang):
        return translate_view.view(translator, result, assess([step.chosen.prob for step in result.steps],
                                                              translator.training_log))


@pytest.mark.parametrize("lang", LANGS)
def test_traditional_characters_are_converted_and_said(zh_translator, lang):
    """Moved from test_app_explorer_zh (an AppTest per language): a note, not a warning (the page draws a note as
    st.info, a wrong language as st.warning: messages.draw_notices)."""
    (notice,) = page_view(zh_translator, "我有一個夢想。", lang).notices
    assert md_escape(strings(lang)["model.simplified"].split("{")[0]) in notice.text and not notice.wrong_language


@pytest.mark.parametrize("lang", LANGS)
def test_english_typed_into_the_chinese_model_is_a_warning(zh_translator, lang):
    """Moved from test_app_explorer_zh (an AppTest per language; the warning drawn in 中文 stays there)."""
    notices = page_view(zh_translator, "I have a dream.", lang).notices
    assert [n.text for n in notices if n.wrong_language] == [md_escape(strings(lang)["model.not_chinese"])]


@pytest.mark.parametrize("lang", LANGS)
def test_the_english_model_still_names_english_as_its_source(translator, lang):
    """Moved from test_app_explorer_zh (an AppTest per language): the box's label and the cross map's axes."""
    s = strings(lang)
    with in_language(lang):
        heading = translate_view.heading(translator)
    assert heading.input_label == s["translate.input_in"].format(source=s["language.en"])
    text = figure_text(explorer(translator.translate("I have a dream."), lang, "cross", languages=("en", "zh"))
                       .one_head.figure)
    assert axis(lang, "queries", "target", "zh") in text and axis(lang, "keys", "source", "en") in text
