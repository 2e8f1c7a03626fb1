"""Inside, a teaching page's live part and Start here with the Chinese → English model, opened by link
(?model=zh-en&s=我有一个梦想。) in a real browser at 1280×800, in English and 中文, under the browser guard (no error
box, no console error, no server traceback). Screenshots: teaching_zh_*.png under SCREENSHOTS=DIR."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.support.chromium import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from app_pages.state import server
from i18n import strings
from tests.support.browser import MAIN, choose, open_session, rerun, screenshot, settle

if "zh-en" not in server.model_folders():
    pytest.skip("no zh-en model folder is offered", allow_module_level=True)

SENTENCE = "我有一个梦想。"
ENGLISH = {"en": "English", "zh": "英文"}  # the target, as each interface names it
READS = {"en": "reads the Chinese sentence", "zh": "读入中文句子"}  # Inside's introduction, the encoder's source


@pytest.fixture(scope="module")
def page(browser, streamlit_server):
    context, page = open_session(browser, f"{streamlit_server}/?lang=en&model=zh-en")
    yield page
    context.close()


def visit(page, url: str) -> None:
    page.goto(url)
    settle(page)


def link(base: str, address: str, lang: str, **values: str) -> str:
    extra = "".join(f"&{k}={quote(v)}" for k, v in values.items())
    return f"{base}/{address}?lang={lang}&model=zh-en&s={quote(SENTENCE)}{extra}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_inside_with_a_chinese_source(page, streamlit_server, lang):
    visit(page, link(streamlit_server, "inside", lang))
    main = page.locator(MAIN)
    assert main.get_by_text(READS[lang], exact=False).count() >= 1
    assert main.get_by_text(SENTENCE, exact=False).count() >= 1  # the sentence banner
    screenshot(page, f"teaching_zh_inside_{lang}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_qkv_live_part_on_a_chinese_sentence(page, streamlit_server, lang):
    visit(page, link(streamlit_server, "qkv", lang))
    tab = page.locator(MAIN).get_by_role("tab", name=strings(lang)["qkv.tab.live"])
    rerun(page, tab.click)
    settle(page)
    assert page.locator(MAIN).get_by_text(SENTENCE, exact=False).count() >= 1
    screenshot(page, f"teaching_zh_qkv_live_{lang}")
    choose(page, strings(lang)["teach.pick.kind"], strings(lang)["kind.cross"])  # English queries, Chinese keys
    settle(page)
    screenshot(page, f"teaching_zh_qkv_cross_{lang}", page.locator(f"{MAIN} .js-plotly-plot"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_start_here_with_a_link_in_each_direction(page, streamlit_server, lang):
    visit(page, f"{streamlit_server}/?lang={lang}&model=zh-en")
    codes = page.locator(f"{MAIN} [data-testid='stCode']").all_inner_texts()
    translate = [c for c in codes if "/translate?" in c]
    assert any("model=en-zh" in c and "I+have+a+dream." in c for c in translate), translate
    assert any("model=zh-en" in c and f"s={SENTENCE}" in c for c in translate), translate  # readable on a slide
    screenshot(page, f"teaching_zh_start_{lang}")
    screenshot(page, f"teaching_zh_start_links_{lang}", page.locator(f"{MAIN} [data-testid='stCode']").nth(1))
    address = next(c for c in translate if "model=zh-en" in c).strip().replace("\n", "")
    visit(page, address.replace("http://localhost:8501", streamlit_server))  # the copied address opens its view
    assert "model=zh-en" in page.url
    assert page.locator(f"{MAIN} textarea, {MAIN} input").evaluate_all(
        f"els => els.some(e => e.value === {SENTENCE!r})")



@pytest.mark.parametrize("lang", ["en", "zh"])
def test_how_it_was_trained_scores_an_english_reference(page, streamlit_server, lang):
    text = strings(lang)
    visit(page, link(streamlit_server, "training", lang))
    rerun(page, page.locator(MAIN).get_by_role("tab", name=text["training.tab.bleu"]).click)
    settle(page)
    box = page.get_by_label(text["training.bleu.reference"].format(target=ENGLISH[lang]), exact=True)
    box.fill("I have a dream .")
    rerun(page, lambda: box.press("Enter"))
    check = page.locator(f"{MAIN} [data-testid='stAlertContentSuccess']")
    check.wait_for()
    screenshot(page, f"teaching_zh_training_bleu_{lang}", check)
    rerun(page, page.locator(MAIN).get_by_role("tab", name=text["training.tab.bleuzh"]).click)
    settle(page)
    table = page.locator(f"{MAIN} [data-testid='stTable']").first
    assert ENGLISH[lang] in table.inner_text()  # the column of the two English translations
    screenshot(page, f"teaching_zh_training_bleuzh_{lang}", table)
