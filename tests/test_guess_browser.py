"""Guess then reveal on the explorer, and what-if decoding, against one real `streamlit run app.py` under the guard
(tests/browser_support.py: no exception box, console error or server traceback).

Screenshots (1280×800): guess_*.png under SCREENSHOTS=DIR, when it is set, for a person to look at.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from tests.browser_support import MAIN, open_session, rerun, screenshot

pytestmark = pytest.mark.browser
FIRST_SCREEN_PX = 560  # tests/test_tour_browser.py: a page's main chart starts within the first screen


def key(name: str) -> str:
    """The CSS class Streamlit gives a keyed widget or container ("explorer.guess.key" → st-key-explorer-guess-key)."""
    return f"{MAIN} .st-key-{name.replace('.', '-')}"


def chart_top(page) -> float:
    return page.locator(f"{MAIN} .js-plotly-plot").first.evaluate("e => e.getBoundingClientRect().top")


def test_guess_on_the_explorer_then_its_reveal(browser, streamlit_server, translator):
    context, page = open_session(browser, f"{streamlit_server}/translate")
    try:
        rerun(page, page.locator(key("explorer.guess")).get_by_text("Guess first").click)
        hidden = page.locator(f"{MAIN} .js-plotly-plot").first
        expect(hidden).to_contain_text("hidden until you reveal")
        assert chart_top(page) <= FIRST_SCREEN_PX  # the toggle sits on a controls row: the map did not move down
        screenshot(page, "guess_explorer_hidden")
        result = translator.translate("I have a dream.")  # the app's default sentence, encoder self-attention
        row = result.encoder_self[0].mean(axis=0)[0]  # layer 1, average of heads, row 0 ("▁I")
        guess = int(np.argmin(row))
        rerun(page, page.locator(f"{key('explorer.guess.key')} button").nth(guess).click)
        rerun(page, page.locator(f"{key('explorer.guess.reveal')} button").click)
        best = int(np.argmax(row))
        verdict = page.locator(f"{MAIN} [data-testid='stAlert']").filter(has_text="strongest key")
        expect(verdict).to_contain_text(f"weight {row[guess]:.2f}")
        expect(verdict).to_contain_text(f"{result.source_tokens[best]} (weight {row[best]:.2f})")
        expect(page.locator(f"{MAIN} .js-plotly-plot").first).not_to_contain_text("hidden until you reveal")
        screenshot(page, "guess_explorer_revealed", verdict)
    finally:
        context.close()


def test_forcing_a_token_on_decoding_changes_the_continuation(browser, streamlit_server, translator):
    context, page = open_session(browser, f"{streamlit_server}/decoding?step=2")
    try:
        original = translator.translate("I have a dream.")
        forced = translator.translate("I have a dream.", forced_prefix=(
            original.steps[0].chosen.token_id, translator.target_token_id("猫")))
        assert forced.translation != original.translation
        page.locator(f"{key('whatif.typed')} input").fill("猫")
        rerun(page, lambda: page.keyboard.press("Enter"))
        rerun(page, page.locator(f"{key('whatif.run')} button").click)
        continued = page.locator(key("whatif.continued"))
        expect(continued.locator(".stMarkdownBadge").filter(visible=True)).to_have_text(forced.output_tokens)
        expect(page.locator(key("whatif.coverage"))).to_be_visible()
        screenshot(page, "guess_whatif", page.locator(key("whatif.continued")))
    finally:
        context.close()
