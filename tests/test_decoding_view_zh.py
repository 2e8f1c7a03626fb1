"""The decoding page's view (app_pages/pages/decoding_view.py) with the Chinese → English model, in both interface
languages, without Streamlit: at the first, a middle and the last step, every line names Chinese as the source and
English as the target, the cross-attention's bars are the Chinese characters, the mask row's keys and the candidates
English pieces (▁ said under them), and the beam tree's chosen path at the last step spells the translation. The page
drawn in each language: tests/test_app_decoding_zh.py. No assertion on what the zh-en model writes: its weights
change with every training run."""

from __future__ import annotations

import re

import pytest

from app_pages.pages import decoding_view
from app_pages.pages.decoding_view import Settings
from app_pages.shell.text import in_language
from i18n import strings
from lessons.attention_maps import ALL
from model import WORD_START

SENTENCE = "我有一个梦想。"
LANGUAGES = {"en": ("Chinese", "English"), "zh": ("中文", "英文")}  # (source, target) named in each interface
ENGLISH_SENTENCE = re.compile(r"English sentence|英文句子")  # what no line may call a Chinese source


@pytest.fixture(scope="module")
def dream(zh_translator):
    """The zh-en model's translation of SENTENCE at the page's default beam, made once for the module."""
    return zh_translator.translate(SENTENCE)


def plain(title: str) -> str:
    """A title without its line breaks or spaces, to compare with the text it was made from."""
    return "".join(title.replace("<br>", "").split())


def keys_of(lang: str, side: str, language: str) -> str:
    words = strings(lang)
    return plain(words["axis.keys_of"].format(tokens=words[f"axis.{side}_tokens"].format(language=language)))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_decoding_names_chinese_as_the_source_and_english_as_the_target(dream, lang, where):
    """Moved from test_app_decoding_zh (an AppTest a step and language; a page per language stays there)."""
    n = len(dream.steps)
    step = {"first": 1, "middle": max(1, n // 2), "last": n}[where]
    words, (source, target) = strings(lang), LANGUAGES[lang]
    with in_language(lang):
        line = decoding_view.sentence_line(dream, ("zh", "en"), False)
        shown = decoding_view.step_view(dream, Settings(step - 1, 0, ALL, False, False, False, ("zh", "en")))
    colon = ":" if lang == "en" else "："
    assert f"**{source}{colon}** {SENTENCE} → **{target}{colon}**" in line
    assert words["decoding.cross_title"].format(source=source) in shown.cross_title
    said = [line, shown.now, shown.mask_title, shown.mask_caption, shown.cross_title, shown.cross_caption,
            shown.candidates.title, shown.candidates.caption, shown.beam.title, shown.beam.caption]
    assert not ENGLISH_SENTENCE.search("\n".join(said))
    # Where it looked: one bar per Chinese character of the source, the axis naming it; the mask row's keys English.
    cross = shown.cross.layout.xaxis
    assert list(cross.ticktext)[:len(SENTENCE)] == list(SENTENCE)
    assert plain(cross.title.text) == keys_of(lang, "source", source)
    assert plain(shown.mask.layout.xaxis.title.text) == keys_of(lang, "target", target)
    # The candidates are English pieces: ▁ is shown and said under them.
    candidates = list(shown.candidates.figure.layout.yaxis.ticktext)
    assert any(c.startswith(WORD_START) for c in candidates), candidates
    assert words["tokens.word_start"] in shown.candidates.caption
    # The beam tree's nodes are the same pieces, and at the last step the chosen path spells the translation.
    tree = shown.beam.figure
    labels = [label for trace in tree.data if trace.mode == "markers+text" for label in trace.text]
    assert any(label.startswith(WORD_START) for label in labels), labels
    if where == "last":
        written = {row[0] for trace in tree.data if trace.customdata is not None for row in trace.customdata}
        assert dream.translation.strip() in written
