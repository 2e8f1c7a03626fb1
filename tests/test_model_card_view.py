"""The model card page's view, computed without Streamlit (app_pages/pages/model_card_view.py): the card in the
session's language under the page's title (its headings one level down, its wide tables cut, no table opening on an
empty row: issue 51's summary table, written without column names, showed its empty header as an empty row above
"direction"), an English card under a note where the language has none, and the calibration's numbers. The checks that
were AppTests of the page; tests/test_model_card_page.py keeps one AppTest per language of the page as drawn."""

from __future__ import annotations

import re

import pytest

from app_pages.components.parts import Heading, Notice, Text, texts
from app_pages.pages import model_card_view
from app_pages.pages.model_card_view import Code
from app_pages.shell.text import MAX_TABLE_COLUMNS, in_language, md_escape
from app_pages.state import direction
from i18n import strings
from model import TrainingLog
from model.loading.checkpoint import CARDS
from tests.support.paths import CHECKPOINT

TABLE_START = re.compile(r"^\|.*\|\s*$")
EMPTY_HEADER = re.compile(r"^\|(\s*\|)+\s*$")


def table_headers(markdown: str) -> list[str]:
    """The first line of every Markdown table in `markdown` (its column names)."""
    lines, headers = markdown.split("\n"), []
    for index, line in enumerate(lines):
        if TABLE_START.match(line) and (index == 0 or not TABLE_START.match(lines[index - 1])):
            headers.append(line)
    return headers


def card_of(translator, lang: str, cards: dict | None = None, log: dict | None = None) -> model_card_view.CardView:
    """The page's view of `translator` in `lang`, as model_card.py reads it (`cards` and `log` in place of its own)."""
    cards = translator.cards if cards is None else cards
    name = "zh-en" if translator.config.source_language == "zh" else "en-zh"
    with in_language(lang):
        return model_card_view.view(model_card_view.Model(
            direction.label(name), translator.capabilities.trained_here, cards.get(lang) or cards.get("en"),
            lang in cards, TrainingLog.from_dict(translator.training_log if log is None else log)))


def markdown(shown: model_card_view.CardView) -> str:
    return "\n".join(block.markdown for block in shown.card if isinstance(block, Text))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_table_of_the_card_opens_on_an_empty_row_and_the_summary_is_a_list(translator, lang):
    sent = markdown(card_of(translator, lang))
    headers = table_headers(sent)
    assert headers and not [h for h in headers if EMPTY_HEADER.match(h)], headers
    assert re.search(r"^- \*\*[^*]+\*\*: ", sent, re.M)  # the summary's rows are still there, as a list


def test_the_card_is_under_the_pages_title_with_the_calibrations_numbers(translator):
    shown = card_of(translator, "en")
    assert shown.before[0] == Heading(strings("en")["card.title"].format(name=md_escape("English → 中文 (en-zh)")), 1)
    text = markdown(shown)
    assert "## Dev-set scores" in text and "# Model card" not in text.replace("## ", "")  # the title is the page's
    calibration = texts(shown.calibration)
    token = translator.training_log["calibration"]["token"]
    assert f"{token['below']['tokens']:,}" in calibration and f"{token['below']['right']:.1%}" in calibration
    assert shown.calibration[0] == Heading(strings("en")["card.calibration.header"], 2)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_card_is_the_sessions_languages_with_its_headings_one_level_down_and_tables_cut(translator, lang):
    """README.md in English, README.zh.md in 中文: its headings one level down, and no note that it is English only."""
    shown = card_of(translator, lang)
    text = markdown(shown)
    other = "zh" if lang == "en" else "en"
    headings = {code: [line for line in (CHECKPOINT / CARDS[code]).read_text(encoding="utf-8").split("\n")
                       if line.startswith("## ")] for code in CARDS}
    assert all(f"#{heading}" in text for heading in headings[lang])
    assert not any(f"#{heading}" in text for heading in headings[other])
    assert strings(lang)["card.english_only"] not in texts(shown.before)
    rows = [line for line in text.split("\n") if line.startswith("|")]
    assert rows and max(row.count("|") - 1 for row in rows) <= MAX_TABLE_COLUMNS  # the study's 15 columns, cut
    assert any(isinstance(block, Code) and "python -m" in block.text for block in shown.card)  # retraining, wrapped


def test_a_checkpoint_without_a_chinese_card_shows_the_english_one_under_a_chinese_note(translator):
    shown = card_of(translator, "zh", cards={"en": translator.cards["en"]})
    assert strings("zh")["card.english_only"] in texts(shown.before)
    assert "## Dev-set scores" in markdown(shown)


def test_a_checkpoint_without_a_card_or_a_usable_calibration_says_so(translator):
    shown = card_of(translator, "en", cards={}, log={})
    assert shown.card == () and Notice(strings("en")["card.missing"], "warning") in shown.before
    assert shown.calibration[1] == Notice(strings("en")["card.calibration.missing"])
    broken = {"calibration": {**translator.training_log["calibration"], "token": {"threshold": 1.0}}}
    assert card_of(translator, "en", log=broken).calibration[1] == Notice(strings("en")["card.calibration.missing"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_model_card_is_named_by_its_direction(zh_translator, lang):
    title = card_of(zh_translator, lang).before[0].text
    assert "中文 → English" in title and "zh" in title  # (zh-en), Markdown-escaped
