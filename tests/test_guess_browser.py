"""Guess then reveal on the explorer's map, against one real `streamlit run app.py` under the guard
(tests/support/browser.py: no exception box, console error or server traceback), at a projector's 1280×800: a click on
the hidden map guesses, Reveal sits beside it on the first screen, revealing moves nothing and marks the guess and the
row's strongest key. What-if on Decoding, which needs no browser: tests/test_app_decoding_whatif.py.

Screenshots (1280×800): guess_*.png (hidden, a guess clicked, revealed) under SCREENSHOTS=DIR, when it is set.
"""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, VIEWPORT, key, open_session, point_on_plot, rerun, screenshot
from tests.support.layout_checks import FIRST_SCREEN_PX

MAIN_SCROLL = "() => document.querySelector(\"[data-testid='stMain']\").scrollTop"


def chart_top(page) -> float:
    return page.locator(f"{MAIN} .js-plotly-plot").first.evaluate("e => e.getBoundingClientRect().top")


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


@pytest.mark.parametrize(("lang", "present"), [("en", "0"), ("zh", "1")])
def test_a_guess_by_click_on_the_hidden_map_then_its_reveal(browser, streamlit_server, translator, lang, present):
    """The explorer's default view (encoder self-attention, layer 1, the heads' average): "Guess first" hides it
    without moving it down, a click on a hidden cell guesses that row and key (the controls under the map follow),
    Reveal sits beside the map within the first screen (it was at 1,070 px, under the map); clicking it scrolls
    nothing, the map keeps its place, and the verdict marks the guess and the row's strongest key and says both
    weights. Plainly in English, in presentation mode in 中文."""
    context, page = open_session(browser, f"{streamlit_server}/translate?lang={lang}&present={present}")
    text = strings(lang)
    try:
        rerun(page, page.locator(key("explorer.guess")).get_by_text(text["guess.toggle"]).click)
        hidden = page.locator(f"{MAIN} .js-plotly-plot").first
        expect(hidden).to_contain_text(text["guess.hidden"])
        assert chart_top(page) <= FIRST_SCREEN_PX  # the toggle sits on a controls row: the map did not move down
        expect(page.locator(key("explorer.what")).get_by_role("radio", name=text["view.grid"])).to_be_disabled()
        screenshot(page, f"guess_explorer_hidden_{lang}_{present}")
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
        reveal = f"{key('explorer.guess.reveal')} button"
        expect(page.locator(reveal)).to_be_enabled()
        before, button = box(page, f"{MAIN} .js-plotly-plot"), box(page, reveal)
        assert button["y"] + button["height"] <= VIEWPORT["height"], f"Reveal ends at {button['y'] + button['height']:.0f} px"
        assert page.evaluate(MAIN_SCROLL) == 0
        screenshot(page, f"guess_explorer_pending_{lang}_{present}")
        rerun(page, page.locator(reveal).click)
        best = int(np.argmax(row))
        verdict = page.locator(f"{MAIN} [data-testid='stAlert']").first
        expect(verdict).to_contain_text(f"{row[guess]:.2f}")
        expect(verdict).to_contain_text(f"{row[best]:.2f}")
        expect(page.locator(f"{MAIN} .js-plotly-plot").first).not_to_contain_text(text["guess.hidden"])
        assert outline_dashes(page) == ["dash", "solid"]  # the guess and the row's strongest key
        after = box(page, f"{MAIN} .js-plotly-plot")
        assert page.evaluate(MAIN_SCROLL) == 0 and after["y"] == before["y"], (before, after)
        verdict_box = box(page, f"{key('explorer.guess.controls')} [data-testid='stAlert']")
        assert verdict_box["y"] < VIEWPORT["height"], "the verdict starts on the first screen"
        screenshot(page, f"guess_explorer_revealed_{lang}_{present}")
    finally:
        context.close()


def outline_dashes(page) -> list[str]:
    """The line style of each cell outline the first chart draws (its layout shapes, as Plotly drew them), sorted."""
    return sorted(page.locator(f"{MAIN} .js-plotly-plot").first.evaluate(
        "gd => gd._fullLayout.shapes.map(s => s.line.dash)"))
