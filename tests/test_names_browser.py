"""A name the model never learned, as a class sees it: the translation keeps it, the page says which name the model
read instead, and the chart stays on the first screen. Against one real `streamlit run app.py` under the guard.

Screenshots (1280×800): names_translate_{en,zh}.png, names_decoding_{en,zh}_present.png under SCREENSHOTS=DIR.
"""

from __future__ import annotations

import pytest

from tests.support.chromium import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, open_session, screenshot, settle
from tests.support.layout_checks import FIRST_SCREEN_PX

pytestmark = pytest.mark.browser
SENTENCE = "Alice and Bob are friends."
CHART_TOP = "e => e.getBoundingClientRect().top"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_unknown_names_survive_and_the_page_says_what_the_model_read(browser, streamlit_server, translator, lang):
    result = translator.translate(SENTENCE)
    assert [c.carrier for c in result.names] == ["Tom", "Mary"]
    swaps = "Alice → Tom, Bob → Mary"
    context, page = open_session(browser, f"{streamlit_server}/translate?lang={lang}&s={SENTENCE.replace(' ', '+')}")
    try:
        expect(page.locator(f"{MAIN} h3").first).to_have_text(result.translation)  # 爱丽丝和Bob是朋友。
        expect(page.locator(MAIN)).to_contain_text(strings(lang)["model.names_read_as"].format(swaps=swaps))
        expect(page.locator(f"{MAIN} .js-plotly-plot").first).to_contain_text("Tom")  # the map's tokens: what it read
        assert page.locator(f"{MAIN} .js-plotly-plot").first.evaluate(CHART_TOP) <= FIRST_SCREEN_PX
        screenshot(page, f"names_translate_{lang}")

        page.goto(f"{streamlit_server}/decoding?lang={lang}&present=1&s={SENTENCE.replace(' ', '+')}")
        expect(page.locator(f"{MAIN} .st-key-decoding-sentence")).to_contain_text("Alice→Tom and Bob→Mary")
        expect(page.locator(f"{MAIN} .js-plotly-plot").first).to_be_visible()
        settle(page)  # where the chart starts once the page has loaded: a placeholder above it may still be showing
        assert page.locator(f"{MAIN} .js-plotly-plot").first.evaluate(CHART_TOP) <= FIRST_SCREEN_PX
        screenshot(page, f"names_decoding_{lang}_present")
    finally:
        context.close()
