"""What a class sees first at a projector's 1280×800, measured in a real browser (issue 51, "smaller things"):
Translate & explore's map starts within the first screen's upper half, the slide deck's title boxes follow a slide moved
up, and popovers open over the main area, not over the sidebar (Guess first's Reveal on the first screen:
tests/test_guess_browser.py).

Every test runs under the guard (tests/support/browser.Guard). Screenshots: layout_*.png under SCREENSHOTS=DIR.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from app_pages.shell import registry
from i18n import strings
from tests.support.browser import (
    MAIN, SIDEBAR, VIEWPORT, choose, in_one_session, main, nav_links, open_session, pin_three, rerun, screenshot,
    settle_charts,
)
from tests.support.layout_checks import FIRST_CHART_TOP

# Where the explorer's map may start at 1280×800 (it started at 546 px, the head view's at 630 px: the first screen
# showed a third of the map). The view's own row of controls (the head view's query and threshold) comes on top.
MAP_TOP_PX = 400
HEAD_VIEW_TOP_PX = 480


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_the_explorer_map_starts_in_the_first_screen_upper_half(shared_page, streamlit_server):
    """The default view and the head view's lines, in English and 中文 (one session, each by its address)."""
    page = shared_page
    walk = {(lang, view): f"{streamlit_server}/translate?lang={lang}&present=0&view={view}&kind=encoder_self"
            f"&layer=1&head=average&s=I+have+a+dream." for lang in ("en", "zh") for view in ("head", "lines")}
    for lang, view in in_one_session(page, walk, go_on=True):
        settle_charts(page)
        top = page.evaluate(FIRST_CHART_TOP)
        if view == "head":
            assert top <= MAP_TOP_PX, f"the map starts at {top:.0f} px ({lang})"
            screenshot(page, f"layout_translate_{lang}")
        else:
            assert top <= HEAD_VIEW_TOP_PX, f"the head view starts at {top:.0f} px ({lang})"


def test_moving_a_slide_up_moves_its_title_box(browser, streamlit_server):
    """After Move up, each title box shows its own slide's title: the boxes kept the old order (the browser's copy of
    each box's value outlived the move), and renaming the first box renamed another slide."""
    en = strings("en")
    context, page = open_session(browser, f"{streamlit_server}/translate?lang=en&s=I+have+a+dream.")
    try:
        pin_three(page)
        rerun(page, nav_links(page).nth([p.name for p in registry.PAGES].index("deck")).click)
        title = "Cross-attention · layer {} · head 1 — I have a dream."
        boxes = [main(page).get_by_label(en["deck.rename"].format(n=n)) for n in (1, 2, 3)]
        rerun(page, main(page).locator(".st-key-deck-up-2 button").first.click)  # slide 3 up
        for box_, layer in zip(boxes, (1, 3, 2)):
            expect(box_).to_have_value(title.format(layer))
        boxes[1].fill("Layer three")
        rerun(page, lambda: boxes[1].press("Enter"))
        rerun(page, main(page).locator(".st-key-deck-up-1 button").first.click)  # it goes up again
        for box_, value in zip(boxes, ("Layer three", title.format(1), title.format(2))):
            expect(box_).to_have_value(value)
        screenshot(page, "layout_deck_moved")
    finally:
        context.close()


def test_popovers_open_over_the_main_area(shared_page, streamlit_server):
    """The examples beside Translate and a map's Copy as TSV open within the main area (Copy as TSV covered the
    sidebar from x = 91 px), in English and 中文."""
    page = shared_page
    walk = {lang: f"{streamlit_server}/translate?lang={lang}&present=0&view=lines&kind=encoder_self&layer=1"
            f"&head=average&s=I+have+a+dream." for lang in ("en", "zh")}
    for lang in in_one_session(page, walk, go_on=True):
        settle_charts(page)
        sidebar = box(page, SIDEBAR)
        for button in (".st-key-translate-examples", ".st-key-explorer-chart-lines-numbers"):
            page.locator(f"{MAIN} {button} [data-testid='stPopoverButton']").click()
            body = page.locator("[data-testid='stPopoverBody']")
            expect(body).to_be_visible()
            opened = body.bounding_box()
            assert opened["x"] >= sidebar["x"] + sidebar["width"], f"{button}'s popover starts at x={opened['x']:.0f}"
            assert opened["x"] + opened["width"] <= VIEWPORT["width"]
            screenshot(page, f"layout_popover_{button[8:]}_{lang}")
            page.keyboard.press("Escape")
            expect(body).to_have_count(0)


OVERLAPS = """([a, b]) => {
  const r = s => [...document.querySelectorAll(s)].map(e => e.getBoundingClientRect()).filter(x => x.width > 0);
  return r(a).some(p => r(b).some(q => Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1
                                       && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1));
}"""


@pytest.mark.parametrize("present", ["0", "1"])
def test_a_presented_slide_title_stays_clear_of_the_mode_bar(browser, streamlit_server, tmp_path, present):
    """A slide renamed to 80 characters, of every kind of view: its title is a heading above the chart, and the chart's
    mode bar (shown on hover) overlaps no text of the chart (the title ran under it: plain, one map, x 380-817 against
    the bar's 785-1009), and the chart ends within the screen, plain and presenting (presenting, it ran ~200 px past
    it under two rows of controls)."""
    en, sentence = strings("en"), "The animal didn't cross the street because it was too tired."
    title = ("A long title that a teacher typed to say what to look for on this slide, in full" * 2)[:80]
    view = {"s": sentence, "model": "en-zh", "layer": "2", "head": "3"}
    slides = [{"page": "translate", "query": {**view, "kind": "cross", "view": v}, "title": title}
              for v in ("head", "grid", "lines", "rollout")]
    slides.append({"page": "decoding", "query": {**view, "step": "3"}, "title": title})
    deck = tmp_path / "deck.html"
    deck.write_text('<script type="application/json" id="deck">'
                    + json.dumps({"format": "attention-deck/1", "slides": slides}) + "</script>")
    context, page = open_session(browser, f"{streamlit_server}/deck?lang=en&present={present}")
    try:
        rerun(page, lambda: main(page).locator("input[type=file]").set_input_files(deck))
        expect(main(page).get_by_text(f"Imported {len(slides)} slides.")).to_be_visible()
        choose(page, en["deck.mode"], en["deck.mode.present"])
        for index in range(len(slides)):
            settle_charts(page)
            expect(main(page).get_by_role("heading", level=4)).to_have_text(title)
            chart = main(page).locator(".js-plotly-plot").first
            chart.hover()
            expect(chart.locator(".modebar")).to_be_visible()
            assert not page.evaluate(OVERLAPS, [f"{MAIN} .modebar", f"{MAIN} .js-plotly-plot text"]), index
            box_ = chart.bounding_box()
            print(f"slide {index}, present={present}: chart {box_['y']:.0f}-{box_['y'] + box_['height']:.0f} px")
            assert box_["y"] + box_["height"] <= VIEWPORT["height"], (index, box_)  # plain and presenting
            screenshot(page, f"layout_slide_{index}_{present}")
            if index + 1 < len(slides):
                rerun(page, lambda: page.keyboard.press("ArrowRight"))
    finally:
        context.close()
