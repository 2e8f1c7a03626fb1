"""The browser benchmark's controls (benchmarks/browser.py) still find what they click: a teaching page's tab and
the training page's BLEU box, which sits on a tab that a new visit does not open."""

from __future__ import annotations

import pytest

from tests.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from benchmarks import browser as bench
from tests.browser_support import MAIN, open_session


@pytest.mark.parametrize("name", ["masks: another tab", "training: BLEU recomputed"])
def test_a_tab_control_is_timed_on_its_own_tab(browser, streamlit_server, name):
    control = bench.controls()[name]
    context, page = open_session(browser, f"{streamlit_server}/{control.path}?lang=en")
    try:
        bench.drawn(page)
        if control.setup:
            control.setup(page)
            bench.drawn(page)
        for action in control.actions:
            assert bench.action_s(page, lambda: action(page), control.reruns) > 0
            if name.startswith("masks"):  # each action opens the tab it names
                selected = page.locator(f"{MAIN} [role=tab][aria-selected=true]").inner_text()
                assert selected in (bench.EN["masks.tab.pad"], bench.EN["masks.tab.doc"].format(n=4))
        if name.startswith("training"):
            assert page.locator(f"{MAIN} [data-testid='stAlertContentSuccess']").count() == 1  # the score, recomputed
    finally:
        context.close()


def test_a_page_is_timed_from_its_sidebar_link(browser, streamlit_server):
    context, page = open_session(browser, f"{streamlit_server}/?lang=en")
    try:
        bench.drawn(page)
        assert bench.from_sidebar_s(page, "masks") > 0
        assert page.url.split("?")[0].endswith("/masks")  # the click switched pages, in the same session
        assert page.locator(f"{MAIN} .js-plotly-plot .main-svg").count() > 0  # and the timing waited for its charts
        assert bench.from_sidebar_s(page, "start") > 0  # Start here is served at /
        assert page.url.split("?")[0] == f"{streamlit_server}/"
    finally:
        context.close()
