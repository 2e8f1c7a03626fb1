"""Decoding and the class poll with a Chinese source and an English target (the zh-en model), in a real browser under
the guard (tests/support/browser.py: no exception box, console error or server traceback), in English and 中文.

Screenshots (1280×800) under SCREENSHOTS=DIR, when it is set, for a person to look at: decoding_zh_{middle,last}_*.png,
decoding_zh_beam_tree_*.png, poll_zh_student_*.png, poll_zh_tally_*.png.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from tests.support.chromium import CHROMIUM
from tests.support.paths import ZH_CHECKPOINT

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, in_one_session, key, new_session, open_session, rerun, screenshot
from tests.support.layout_checks import TREE, overlapping

NO_MODEL = f"needs the Chinese → English checkpoint in {ZH_CHECKPOINT}"
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(), reason=NO_MODEL)]
SENTENCE = "我有一个梦想。"
SOURCE = {"en": "Chinese", "zh": "中文"}


def decoding_url(server: str, lang: str, step: int) -> str:
    return f"{server}/decoding?model=zh-en&lang={lang}&s={quote(SENTENCE)}&step={step}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_decoding_writes_english_from_a_chinese_sentence(browser, streamlit_server, zh_translator, lang):
    """A middle step and the last: the sentence line and the cross-attention's heading name Chinese as the source,
    its bars are the characters, the candidates English pieces; at the last step the beam tree fits 1280×800 with no
    label over another."""
    result = zh_translator.translate(SENTENCE)
    text = strings(lang)
    n = len(result.steps)
    steps = {"middle": max(1, n // 2), "last": n}
    context, page = new_session(browser)  # one session: the middle step's link, then Forward to the last step's
    try:
        for where in in_one_session(page, {where: decoding_url(streamlit_server, lang, step)
                                           for where, step in steps.items()}):
            sentence = page.locator(key("decoding.sentence"))
            expect(sentence).to_contain_text(SENTENCE)
            expect(sentence).to_contain_text(SOURCE[lang])
            heading = text["decoding.cross_title"].format(source=SOURCE[lang])
            expect(page.locator(MAIN).get_by_text(heading, exact=False).first).to_be_visible()
            assert not page.locator(MAIN).get_by_text(re.compile("English sentence|英文句子")).count()
            screenshot(page, f"decoding_zh_{where}_{lang}")
            if where == "last":
                tree_fits(page, lang)
    finally:
        context.close()


def tree_fits(page, lang: str) -> None:
    chart = page.locator(f"{key('decoding.chart.beam')} .js-plotly-plot")
    page.mouse.wheel(0, 10)  # a user's scroll: the link's view stops holding the step's controls at the top
    chart.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_selector(f"{key('decoding.chart.beam')} .textpoint text")
    tree = chart.evaluate(TREE)
    box = tree["box"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1280 and box["height"] <= 800, box
    assert not overlapping(tree["labels"]), overlapping(tree["labels"])[:3]
    screenshot(page, f"decoding_zh_beam_tree_{lang}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_poll_on_a_chinese_sentence(browser, streamlit_server, lang):
    """The teacher starts a poll from the explorer's cross-attention map of the Chinese sentence; a student reads
    a question about the Chinese sentence, its characters as the options, votes; the tally's axis names them."""
    text = strings(lang)
    teacher_context, teacher = open_session(
        browser, f"{streamlit_server}/translate?model=zh-en&lang={lang}&kind=cross&s={quote(SENTENCE)}")
    contexts = [teacher_context]
    try:
        rerun(teacher, teacher.locator(MAIN).get_by_role("button", name=text["poll.start.button"], exact=True).click)
        expect(teacher).to_have_url(re.compile(r"/poll\?.*code=[A-Z0-9]{5}"))
        code = re.search(r"code=([A-Z0-9]{5})", teacher.url).group(1)
        context, student = open_session(browser, f"{streamlit_server}/poll?code={code}&lang={lang}")
        contexts.append(context)
        question = text["poll.question"].split("{source}")[1].rstrip("?？")
        heading = student.locator(MAIN).locator("h4").filter(has_text=question)
        expect(heading).to_contain_text(SOURCE[lang])
        radios = student.locator(MAIN).get_by_role("radio")
        expect(radios.first).to_be_attached()
        labels = [label.strip() for label in student.locator(f"{MAIN} [role='radiogroup'] label").all_inner_texts()]
        assert labels[:len(SENTENCE)] == list(SENTENCE), labels
        radios.nth(3).check(force=True)
        screenshot(student, f"poll_zh_student_{lang}")
        rerun(student, student.locator(MAIN).get_by_role("button", name=text["poll.vote"], exact=True).click)
        axis = text["poll.axis.options"].format(source=SOURCE[lang])
        expect(teacher.locator(f"{MAIN} .xtitle").filter(has_text=axis).first).to_be_visible()
        expect(teacher.locator(f"{MAIN} .gtitle").filter(has_text=re.compile(r"1$")).first).to_be_visible()
        screenshot(teacher, f"poll_zh_tally_{lang}")
    finally:
        for context in contexts:
            context.close()
