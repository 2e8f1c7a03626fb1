"""A class's first clicks in a real browser (Chromium, 1280×800, under the guard): Start here's prepared link opens
its view in this tab and this session and keeps presentation mode; the head view's query box shows its first option,
not "Choose an option"; Compare's "Where it goes wrong" pair puts the changed word on the difference map.
Screenshots: lesson_*.png under SCREENSHOTS=DIR, when it is set."""

from __future__ import annotations

import html
from urllib.parse import parse_qs, urlparse

import pytest

from playwright.sync_api import expect

from app_pages.state import examples
from i18n import strings
from tests.support.browser import main, open_session, rerun, screenshot, settle_charts

LANGS = ["en", "zh"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_prepared_link_opens_here_and_keeps_presentation_mode(browser, streamlit_server, lang):
    """The links opened a new tab, a new session: presentation mode off, the sidebar open, the deck empty."""
    context, page = open_session(browser, f"{streamlit_server}/?lang={lang}&present=1")
    try:
        settle_charts(page, charts=False)
        tabs = len(page.context.pages)
        link = main(page).locator("[data-testid='stPageLink'] a").first
        rerun(page, link.click)
        settle_charts(page)
        screenshot(page, f"lesson_start_link_present_{lang}")
        assert len(page.context.pages) == tabs  # no new tab
        url = urlparse(page.url)
        query = parse_qs(url.query)
        assert url.path.strip("/") == "translate" and query["present"] == ["1"] and query["kind"] == ["cross"]
        assert query["lang"] == [lang] and "layer" in query and "head" in query
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_head_views_query_box_shows_its_first_option(browser, streamlit_server, lang):
    context, page = open_session(browser, f"{streamlit_server}/translate?lang={lang}&kind=cross&view=lines")
    try:
        settle_charts(page)
        box = main(page).locator("[data-testid='stSelectbox']").first
        screenshot(page, f"lesson_head_view_query_{lang}")
        expect(box.get_by_role("combobox")).to_have_value(strings(lang)["explorer.focus_all"])  # not empty, showing
        expect(box).not_to_contain_text("Choose an option")  # Streamlit's placeholder, English in both languages
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_where_it_goes_wrong_is_labelled_and_its_changed_word_is_on_the_difference_map(browser, streamlit_server,
                                                                                      lang):
    text = strings(lang)
    context, page = open_session(browser, f"{streamlit_server}/compare?lang={lang}&mode=sentences")
    try:
        settle_charts(page)
        wrong = main(page).get_by_role("radiogroup", name=text["compare.goes_wrong"], exact=True)
        expect(wrong).to_be_visible()
        rerun(page, lambda: wrong.get_by_text(examples.WHERE_IT_GOES_WRONG[0].label(), exact=True).click())
        settle_charts(page)
        difference = main(page).locator(".st-key-compare-chart-difference .js-plotly-plot")
        labels = [html.unescape(t) for t in difference.evaluate("gd => gd._fullLayout.xaxis.ticktext")]
        screenshot(page, f"lesson_compare_wrong_pair_{lang}", difference)
        assert "▁tired/▁wide" in labels, labels
    finally:
        context.close()
