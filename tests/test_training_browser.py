"""The "How it was trained" page in a real browser at 1280×800, in English and 中文: only the open tab's chart drawn,
no chart taller than the screen or with overlapping tick labels, with either model; a reference typed into the BLEU
section shows its breakdown's table. (What each tab says and computes, the score against sacrebleu's included:
tests/test_training_view.py.) Screenshots: training_<lang>_*.png under SCREENSHOTS=DIR, when it is set."""

from __future__ import annotations

import pytest

from i18n import strings
from tests.support.browser import MAIN, open_session, rerun, screenshot, settle_charts
from tests.support.layout_checks import CHART_PROBLEMS

REFERENCE = "我有一个梦。"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_training_page_fits_and_scores_a_typed_reference(browser, streamlit_server, lang):
    text = strings(lang)
    context, page = open_session(browser, f"{streamlit_server}/training?lang={lang}")
    try:
        page.locator(f"{MAIN} h1").filter(has_text=text["training.title"]).wait_for()
        settle_charts(page)
        assert page.locator(f"{MAIN} .js-plotly-plot").count() == 1  # the open tab's chart only: Adam's toy race
        assert not page.evaluate(CHART_PROBLEMS)
        screenshot(page, f"training_{lang}_top")
        for key, tab in (("training.toy", "adam"), ("training.batch", "batch")):
            tab = page.locator(MAIN).get_by_role("tab", name=text[f"training.tab.{tab}"])
            if tab.get_attribute("aria-selected") != "true":  # a click on another tab reruns the page to draw it
                rerun(page, tab.click)
            screenshot(page, f"training_{lang}_{key.split('.')[1]}", page.locator(f"{MAIN} .st-key-{key.replace('.', '-')}"))

        rerun(page, page.locator(MAIN).get_by_role("tab", name=text["training.tab.bleu"]).click)
        box = page.get_by_label(text["training.bleu.reference"].format(target=text["language.zh"]), exact=True)  # en-zh
        box.fill(REFERENCE)
        rerun(page, lambda: box.press("Enter"))
        settle_charts(page, charts=False)  # the BLEU tab, now on screen, has no chart
        page.locator(f"{MAIN} [data-testid='stAlertContentSuccess']").wait_for()
        table = page.locator(f"{MAIN} [data-testid='stTable']").filter(has_text=text["training.bleu.col.matched"])
        assert table.count() == 1
        screenshot(page, f"training_{lang}_bleu", table)
        assert not page.evaluate(CHART_PROBLEMS)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_training_page_of_the_chinese_model(browser, streamlit_server, lang):
    """zh-en: the smoothing tab, whose figure and sentences come from its own log, fits the screen (what it says of
    the dev loss against the last complete epoch's: tests/test_training_view.py)."""
    text = strings(lang)
    context, page = open_session(browser, f"{streamlit_server}/training?model=zh-en&lang={lang}")
    try:
        page.locator(f"{MAIN} h1").filter(has_text=text["training.title"]).wait_for()
        settle_charts(page)
        rerun(page, page.locator(MAIN).get_by_role("tab", name=text["training.tab.ls"]).click)
        settle_charts(page)
        chart = page.locator(f"{MAIN} .st-key-training-ls")
        chart.wait_for()
        assert not page.evaluate(CHART_PROBLEMS)
        screenshot(page, f"training_zh_en_{lang}_ls", chart)
    finally:
        context.close()
