"""Decoding and the class poll with a Chinese source and an English target (the zh-en model), in a real browser under
the guard (tests/support/browser.py: no exception box, console error or server traceback), what only a browser shows:
the last step's beam tree fits 1280×800 with no label over another, in English and 中文; a poll started from the
explorer's map reaches a student's tab, whose vote shows on the teacher's tally (in 中文).

What the pages say in both languages is checked without a browser (tests/test_app_decoding_zh.py): the sentence line,
the cross-attention's heading and axes at the first, a middle and the last step, the poll's question, its options
(the characters) and its tally's axis.

Screenshots (1280×800) under SCREENSHOTS=DIR, when it is set, for a person to look at: decoding_zh_beam_tree_*.png,
poll_zh_student_zh.png, poll_zh_tally_zh.png.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, in_one_session, key, open_session, rerun, screenshot, settle_charts
from tests.support.layout_checks import TREE, overlapping
from tests.support.paths import ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                                reason=f"needs the Chinese → English checkpoint in {ZH_CHECKPOINT}")
SENTENCE = "我有一个梦想。"
SOURCE = {"en": "Chinese", "zh": "中文"}


def test_the_last_steps_beam_tree_fits(shared_page, streamlit_server, zh_translator):
    """The last step of decoding the Chinese sentence, in English then in 中文 (one session, by Forward)."""
    n = len(zh_translator.translate(SENTENCE).steps)
    walk = {lang: f"{streamlit_server}/decoding?model=zh-en&lang={lang}&present=0&s={quote(SENTENCE)}&step={n}"
            for lang in ("en", "zh")}
    for lang in in_one_session(shared_page, walk, go_on=True):
        settle_charts(shared_page)
        tree_fits(shared_page, lang)


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


def test_a_poll_on_a_chinese_sentence(browser, streamlit_server):
    """The teacher starts a poll from the explorer's cross-attention map of the Chinese sentence; a student reads
    a question about the Chinese sentence, its characters as the options, votes; the tally's axis names them."""
    lang = "zh"
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
