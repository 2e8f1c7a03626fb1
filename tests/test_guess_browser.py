"""Guess then reveal on the explorer, and what-if decoding, against one real `streamlit run app.py` under the guard
(tests/support/browser.py: no exception box, console error or server traceback).

Screenshots (1280×800): guess_*.png (the explorer's in en and zh: hidden, a guess clicked, revealed) under
SCREENSHOTS=DIR, when it is set, for a person to look at.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.chromium import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, key, open_session, point_on_plot, rerun, screenshot
from tests.support.layout_checks import FIRST_SCREEN_PX

pytestmark = pytest.mark.browser


def chart_top(page) -> float:
    return page.locator(f"{MAIN} .js-plotly-plot").first.evaluate("e => e.getBoundingClientRect().top")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_guess_by_click_on_the_hidden_map_then_its_reveal(browser, streamlit_server, translator, lang):
    """The explorer's default view (encoder self-attention, layer 1, the heads' average): "Guess first" hides it, a
    click on a hidden cell guesses that row and key (the controls under the map follow), Reveal marks the guess and
    the row's strongest key and says both weights."""
    context, page = open_session(browser, f"{streamlit_server}/translate?lang={lang}")
    text = strings(lang)
    try:
        rerun(page, page.locator(key("explorer.guess")).get_by_text(text["guess.toggle"]).click)
        hidden = page.locator(f"{MAIN} .js-plotly-plot").first
        expect(hidden).to_contain_text(text["guess.hidden"])
        assert chart_top(page) <= FIRST_SCREEN_PX  # the toggle sits on a controls row: the map did not move down
        expect(page.locator(key("explorer.what")).get_by_role("radio", name=text["view.grid"])).to_be_disabled()
        screenshot(page, f"guess_explorer_hidden_{lang}")
        result = translator.translate("I have a dream.")  # the app's default sentence
        row_index = 2
        row = result.encoder_self[0].mean(axis=0)[row_index]  # layer 1, average of heads
        guess = int(np.argmin(row))
        rerun(page, lambda: page.mouse.click(*point_on_plot(page, 0, guess, row_index)))
        expect(page.locator(key("explorer.guess.query")).get_by_role("combobox")).to_have_value(
            f"{row_index}: {result.source_tokens[row_index]}")  # the keyboard's controls show the clicked guess
        expect(page.locator(f"{key('explorer.guess.key')} [role=radio][aria-checked=true]")).to_have_text(
            result.source_tokens[guess])
        assert outline_dashes(page) == ["dash"]  # the pending guess, and no answer yet
        screenshot(page, f"guess_explorer_pending_{lang}", page.locator(f"{MAIN} .js-plotly-plot"))
        rerun(page, page.locator(f"{key('explorer.guess.reveal')} button").click)
        best = int(np.argmax(row))
        verdict = page.locator(f"{MAIN} [data-testid='stAlert']").first
        expect(verdict).to_contain_text(f"{row[guess]:.2f}")
        expect(verdict).to_contain_text(f"{row[best]:.2f}")
        expect(page.locator(f"{MAIN} .js-plotly-plot").first).not_to_contain_text(text["guess.hidden"])
        assert outline_dashes(page) == ["dash", "solid"]  # the guess and the row's strongest key
        screenshot(page, f"guess_explorer_revealed_{lang}", page.locator(f"{MAIN} .js-plotly-plot"))
    finally:
        context.close()


def outline_dashes(page) -> list[str]:
    """The line style of each cell outline the first chart draws (its layout shapes, as Plotly drew them), sorted."""
    return sorted(page.locator(f"{MAIN} .js-plotly-plot").first.evaluate(
        "gd => gd._fullLayout.shapes.map(s => s.line.dash)"))


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
