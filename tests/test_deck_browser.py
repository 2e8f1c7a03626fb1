"""The slide deck in a real browser: three views pinned on the explorer, the deck saved as one HTML file and as a .zip
of PNGs, and that file opened with every network request refused: it shows three charts and asks for nothing. A pin
on Decoding, whose slide reopens that step.
Also the compare page's one-model modes at 1280×800: A, B and B − A start within the first screen.
Screenshots (1280×800): deck_*.png, decoding_pin_*.png and compare_*.png under SCREENSHOTS=DIR, when it is set.
"""

from __future__ import annotations

import zipfile

import pytest

from playwright.sync_api import expect

from app_pages.shell import registry
from i18n import strings
from tests.support.browser import (
    VIEWPORT, choose, chosen, in_one_session, main, nav_links, new_session, open_session, pin_three, rerun, screenshot,
    settle_charts,
)
from tests.support.layout_checks import FIRST_CHART_TOP, FIRST_SCREEN_PX

EN = strings("en")


def test_a_deck_of_three_pinned_views_saves_as_one_file_that_opens_offline(browser, streamlit_server, tmp_path):
    context, page = open_session(browser, f"{streamlit_server}/translate?lang=en&s=I+have+a+dream.")
    try:
        pin_three(page)
        rerun(page, nav_links(page).nth([p.name for p in registry.PAGES].index("deck")).click)
        expect(main(page).get_by_label("Title of slide 3")).to_have_value(
            "Cross-attention · layer 3 · head 1 — I have a dream.")
        screenshot(page, "deck_edit_en")
        with page.expect_download() as download:
            main(page).get_by_role("button", name=EN["deck.export"]).click()
        saved = tmp_path / "deck.html"
        download.value.save_as(saved)
        with page.expect_download(timeout=120_000) as pngs:  # a browser draws them on the server: seconds
            main(page).get_by_role("button", name=EN["deck.export_png"]).click()
        archive = zipfile.ZipFile(pngs.value.path())
        assert archive.namelist() == ["slide-01.png", "slide-02.png", "slide-03.png"]
        assert all(archive.read(name)[:8] == b"\x89PNG\r\n\x1a\n" for name in archive.namelist())
        hostile = tmp_path / "hostile.html"
        hostile.write_text('<script type="application/json" id="deck">{"format": "attention-deck/1", "slides": '
                           '[{"page": "model_card", "query": {}, "title": "x"}]}</script>')
        upload = main(page).locator("input[type=file]")
        rerun(page, lambda: upload.set_input_files(hostile))
        expect(main(page).get_by_text("This file cannot be imported: a slide names the page “model_card”")).to_be_visible()
        rerun(page, lambda: upload.set_input_files(saved))
        expect(main(page).get_by_text("Imported 3 slides.")).to_be_visible()
        expect(main(page).get_by_label("Title of slide 3")).to_have_value(
            "Cross-attention · layer 3 · head 1 — I have a dream.")  # listed in the run that imported them
        choose(page, EN["deck.mode"], EN["deck.mode.present"])
        settle_charts(page)
        heading = main(page).get_by_role("heading", level=4)  # the slide's title, above its chart
        expect(heading).to_contain_text("layer 1")
        rerun(page, lambda: page.keyboard.press("ArrowRight"))  # right after the click on Present, → presses Next
        expect(heading).to_contain_text("layer 2")
        box = main(page).locator(".js-plotly-plot").first.bounding_box()
        assert box["y"] + box["height"] <= VIEWPORT["height"], "a presented slide must fit the screen"
        assert not main(page).locator(".js-plotly-plot .gtitle").count()  # none under the mode bar
        prev, speed = (main(page).get_by_role("button", name=EN["decoding.prev"]).bounding_box(),
                       main(page).get_by_text(EN["stepper.speed.fast"], exact=True).bounding_box())
        assert abs(speed["y"] - prev["y"]) < prev["height"], "the slide controls must stay on one row"
        screenshot(page, "deck_present_en")
    finally:
        context.close()
    offline = browser.new_context(viewport=VIEWPORT)
    requests: list[str] = []
    offline.route("**/*", lambda route: (requests.append(route.request.url), route.abort()))
    try:
        deck = offline.new_page()
        deck.set_content(saved.read_text(encoding="utf-8"), wait_until="load")
        expect(deck.locator(".js-plotly-plot .main-svg").first).to_be_visible()
        assert deck.locator("section.slide .js-plotly-plot").count() == 3
        expect(deck.locator("section.slide h2")).to_have_text([
            f"{n}. Cross-attention · layer {n} · head 1 — I have a dream." for n in (1, 2, 3)])
        deck.wait_for_timeout(500)
        assert requests == []  # nothing was even asked for
        screenshot(deck, "deck_file_offline")
    finally:
        offline.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pin_on_decoding_makes_a_slide_that_reopens_that_step(browser, streamlit_server, translator, lang):
    text = strings(lang)
    context, page = open_session(browser, f"{streamlit_server}/decoding?lang={lang}")  # at the page's top
    try:
        for _ in range(2):  # step 3
            rerun(page, main(page).get_by_role("button", name=text["decoding.next"]).click)
        choose(page, text["explorer.layer"], "2")
        choose(page, text["explorer.head"], "1")
        pin = main(page).get_by_role("button", name=text["deck.pin"])
        expect(pin).to_be_visible()
        settle_charts(page)
        top = page.evaluate(FIRST_CHART_TOP)
        assert top <= FIRST_SCREEN_PX, f"the first chart starts at {top:.0f} px"  # the pin is under the charts
        screenshot(page, f"decoding_pin_{lang}", pin)
        rerun(page, pin.click)
        title = text["deck.decoding_title"].format(step=3, layer=text["explorer.layer_n"].format(n=2),
                                                   head=text["explorer.head_n"].format(n=1), sentence="I have a dream.")
        rerun(page, nav_links(page).nth([p.name for p in registry.PAGES].index("deck")).click)
        expect(main(page).get_by_label(text["deck.rename"].format(n=1))).to_have_value(title)
        rerun(page, main(page).get_by_role("link", name=text["deck.open"]).click)
        steps = len(translator.translate("I have a dream.").steps)
        now = text["decoding.now"].split("{token}")[0].format(step=3, steps=steps).replace("**", "").strip()
        expect(main(page).locator(".st-key-decoding-now")).to_contain_text(now)
        expect(chosen(page, text["explorer.layer"])).to_have_text("2")
        expect(chosen(page, text["explorer.head"])).to_have_text("1")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_model_comparisons_fit_the_first_screen(browser, streamlit_server, lang):
    """Two heads, then two sentences by Forward in the same session (each address names all that the check needs)."""
    context, page = new_session(browser)
    try:
        addresses = {mode: f"{streamlit_server}/compare?lang={lang}&mode={mode}" for mode in ("heads", "sentences")}
        for mode in in_one_session(page, addresses):
            settle_charts(page)
            assert main(page).locator(".js-plotly-plot").count() == 3, mode  # A, B and B − A
            top = page.evaluate(FIRST_CHART_TOP)
            screenshot(page, f"compare_{mode}_{lang}")
            assert top <= FIRST_SCREEN_PX, f"{mode}: the first chart starts at {top:.0f} px"
    finally:
        context.close()
