"""State that survives, in a real browser: choices made with the explorer's widgets outlive a visit to another
page, Back undoes one change per press (a page visit included), and the root address opens Start here with
Translate one click away while links made for the old first screen still open the explorer.
"""

from __future__ import annotations

import re

import pytest

from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, choose, chosen, nav_links, open_session, rerun, wait_for_runs, runs_finished

EN = strings("en")
CROSS, ENCODER = EN["kind.cross"], EN["kind.encoder_self"]


@pytest.fixture
def page(browser, streamlit_server):
    context, page = open_session(browser, f"{streamlit_server}/translate?lang=en")
    yield page
    context.close()


def go(page, action) -> None:
    """A navigation (a nav link, Back, Forward): wait for the run it causes and for the page's charts."""
    rerun(page, action)
    page.wait_for_selector(f"{MAIN} h1")


def explorer_view(page) -> tuple[str, str, str]:
    for group in (EN["explorer.kind"], EN["explorer.layer"], EN["explorer.head"]):
        expect(chosen(page, group)).to_have_count(1)
    return tuple(chosen(page, g).inner_text() for g in (EN["explorer.kind"], EN["explorer.layer"], EN["explorer.head"]))


def visit(page, nav_title: str) -> None:
    go(page, nav_links(page).filter(has_text=re.compile(re.escape(nav_title) + r"\s*$")).click)


def test_explorer_choices_survive_a_visit_to_another_page(page):
    choose(page, EN["explorer.kind"], CROSS)
    choose(page, EN["explorer.layer"], "2")
    choose(page, EN["explorer.head"], "3")
    visit(page, EN["nav.decoding"])
    expect(page.locator(f"{MAIN} h1").first).to_have_text(EN["decoding.title"])
    visit(page, EN["nav.translate"])
    assert explorer_view(page) == (CROSS, "2", "3")
    assert re.search(r"kind=cross.*layer=2&head=3", page.url)  # the address says the same


def test_back_undoes_one_change_per_press(page):
    choose(page, EN["explorer.kind"], CROSS)
    choose(page, EN["explorer.layer"], "2")
    go(page, page.go_back)
    assert explorer_view(page)[:2] == (CROSS, "1")
    go(page, page.go_back)
    assert explorer_view(page)[:2] == (ENCODER, "1")
    go(page, page.go_forward)
    assert explorer_view(page)[:2] == (CROSS, "1")


def test_back_from_a_page_visit_returns_to_the_view_in_one_press(page):
    choose(page, EN["explorer.kind"], CROSS)
    visit(page, EN["nav.decoding"])
    go(page, page.go_back)
    expect(page.locator(f"{MAIN} h1").first).to_have_text(EN["translate.title"])
    assert explorer_view(page)[0] == CROSS


def test_the_root_address_opens_start_here_and_translate_is_one_click_away(browser, streamlit_server):
    context, page = open_session(browser, f"{streamlit_server}/?lang=en")
    try:
        expect(page.locator(f"{MAIN} h1").first).to_have_text(EN["start.title"])
        visit(page, EN["nav.translate"])
        expect(page.locator(f"{MAIN} h1").first).to_have_text(EN["translate.title"])
        page.wait_for_selector(f"{MAIN} .js-plotly-plot .main-svg")
    finally:
        context.close()


@pytest.mark.parametrize("link", ["?s=Who+are+you%3F&kind=cross&layer=2", "home?s=Who+are+you%3F&kind=cross&layer=2"])
def test_links_to_the_old_first_screen_still_open_the_explorer(browser, streamlit_server, link):
    context, page = open_session(browser, f"{streamlit_server}/{link}")
    try:
        before = runs_finished(page)
        page.locator(f"{MAIN} h1").filter(has_text=EN["translate.title"]).wait_for()
        wait_for_runs(page, before)
        assert explorer_view(page)[:2] == (CROSS, "2")
        assert "/translate?" in page.url
    finally:
        context.close()
