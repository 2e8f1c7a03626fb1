"""The "How it was trained" page in a real browser at 1280×800, in English and 中文: no chart taller than the screen
or with overlapping tick labels; a reference typed into the BLEU section shows the breakdown, and the page's own
arithmetic and sacrebleu print the same score. Screenshots: training_<lang>_*.png under SCREENSHOTS=DIR, when it is set."""

from __future__ import annotations

import re

import pytest

from tests.support.chromium import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

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
        check = page.locator(f"{MAIN} [data-testid='stAlertContentSuccess']")
        check.wait_for()
        scores = re.findall(r"\d+\.\d{4}", check.inner_text())
        assert len(scores) == 2 and scores[0] == scores[1], check.inner_text()
        table = page.locator(f"{MAIN} [data-testid='stTable']").filter(has_text=text["training.bleu.col.matched"])
        assert table.count() == 1
        screenshot(page, f"training_{lang}_bleu", table)
        assert not page.evaluate(CHART_PROBLEMS)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_training_page_of_the_chinese_model(browser, streamlit_server, lang):
    """zh-en: the smoothing tab sets the dev loss against the last complete epoch's mean training loss (read from its
    log), and an English reference typed on the BLEU tab is said to be cleaned, not converted to Simplified."""
    import json

    from lessons.training import last_full_epoch_loss
    from tests.support.paths import ROOT

    text = strings(lang)
    log = json.loads((ROOT / "checkpoints" / "zh-en" / "training_log.json").read_text(encoding="utf-8"))
    epoch = last_full_epoch_loss(log)
    context, page = open_session(browser, f"{streamlit_server}/training?model=zh-en&lang={lang}")
    try:
        page.locator(f"{MAIN} h1").filter(has_text=text["training.title"]).wait_for()
        settle_charts(page)
        rerun(page, page.locator(MAIN).get_by_role("tab", name=text["training.tab.ls"]).click)
        settle_charts(page)
        loss = page.locator(MAIN).get_by_text(f"{epoch.mean:.3f}").first
        loss.wait_for()
        heading = "below the training loss" if lang == "en" else "低于训练损失"
        assert (heading in loss.inner_text()) == (log["dev"][-1]["loss"] < epoch.mean)
        screenshot(page, f"training_zh_en_{lang}_ls", loss)
        assert not page.evaluate(CHART_PROBLEMS)

        rerun(page, page.locator(MAIN).get_by_role("tab", name=text["training.tab.bleu"]).click)
        box = page.get_by_label(text["training.bleu.reference"].format(target=text["language.en"]), exact=True)
        box.fill("I have  a dream.")
        rerun(page, lambda: box.press("Enter"))
        settle_charts(page, charts=False)
        page.locator(f"{MAIN} [data-testid='stAlertContentSuccess']").wait_for()
        page.locator(MAIN).get_by_text(text["training.bleu.normalised.en"]).wait_for()
        assert "Simplified" not in page.locator(MAIN).inner_text() and "简体" not in page.locator(MAIN).inner_text()
        screenshot(page, f"training_zh_en_{lang}_bleu", page.locator(MAIN).get_by_text(text["training.bleu.normalised.en"]))
    finally:
        context.close()
