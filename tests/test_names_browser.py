"""A name the model never learned, as a class sees it at 1280×800: with the page saying which name the model read
instead, the chart still starts on the first screen, on Translate & explore and on Decoding in presentation mode, in
English and 中文 (one session, each view by its address), under the guard. What the pages say about the names:
tests/test_app_names.py.

Screenshots (1280×800): names_translate_{en,zh}.png, names_decoding_{en,zh}_present.png under SCREENSHOTS=DIR.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import MAIN, in_one_session, screenshot, settle_charts
from tests.support.layout_checks import FIRST_CHART_TOP, FIRST_SCREEN_PX

SENTENCE = "Alice and Bob are friends."


def test_a_page_that_names_unknown_names_keeps_its_chart_on_the_first_screen(shared_page, streamlit_server):
    page, s = shared_page, SENTENCE.replace(" ", "+")
    walk = {(lang, name): f"{streamlit_server}/{name}?lang={lang}&model=en-zh&s={s}&present={present}"
            for lang in ("en", "zh") for name, present in (("translate", 0), ("decoding", 1))}
    for lang, name in in_one_session(page, walk, go_on=True):
        if name == "decoding":
            expect(page.locator(f"{MAIN} .st-key-decoding-sentence")).to_contain_text("Alice→Tom and Bob→Mary")
        settle_charts(page)  # where the chart starts once the page has loaded: a placeholder above it may still show
        assert page.evaluate(FIRST_CHART_TOP) <= FIRST_SCREEN_PX, (lang, name)
        screenshot(page, f"names_{name}_{lang}" + ("_present" if name == "decoding" else ""))
