"""The browser benchmark's controls (benchmarks/browser.py) still find what they click: a teaching page's tab and
the training page's BLEU box, which sits on a tab that a new visit does not open; and its page clock times from
the user's own click to the page settled, inside the harness's time."""

from __future__ import annotations

import pytest

from benchmarks import browser as bench
from tests.support.browser import MAIN, open_session


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
            timed = bench.action_s(page, lambda: action(page), control.reruns)
            assert 0 < timed.felt_s <= timed.total_s
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
        timed = bench.from_sidebar_s(page, "masks")
        assert 0 < timed.felt_s <= timed.total_s
        assert page.url.split("?")[0].endswith("/masks")  # the click switched pages, in the same session
        assert page.locator(f"{MAIN} .js-plotly-plot .main-svg").count() > 0  # and the timing waited for its charts
        assert bench.from_sidebar_s(page, "start").felt_s > 0  # Start here is served at /
        assert page.url.split("?")[0] == f"{streamlit_server}/"
    finally:
        context.close()


def test_the_page_clock_needs_the_users_input_and_times_a_new_tab_from_its_navigation(browser, streamlit_server):
    """A wait with no click or key press in it has no felt time (an error, not a number); a new tab's felt time is
    counted from its navigation to its charts drawn, within the harness's own time."""
    context = browser.window()
    page = bench.watched_page(context)
    try:
        page.add_init_script(bench.CLOCK)
        timed = bench.first_chart_s(page, f"{streamlit_server}/translate?lang=en")
        assert 0 < timed.felt_s <= timed.total_s
        with pytest.raises(RuntimeError, match="no click or key press, or no change after it"):
            bench.action_s(page, lambda: page.wait_for_timeout(50), reruns=False)
    finally:
        page.close()


class TabsCounted:
    """The browser, with every tab its contexts open counted."""

    def __init__(self, browser) -> None:
        self.browser, self.tabs = browser, []

    def new_context(self, **options):
        context = self.browser.new_context(**options)
        context.on("page", lambda page: self.tabs.append(page))
        return context


def test_an_ab_run_measures_two_servers_turn_about(browser, streamlit_server):
    """--against: each repeat visits both servers, the one that goes first alternating, and each gets its own
    results (here the same server twice, so both are the same app); each repeat opens the page in a tab of its own,
    and again in the first tab."""
    assert bench.turns(0, 2) == [0, 1] and bench.turns(1, 2) == [1, 0]
    counted = TabsCounted(browser)
    after, before = bench.measure_pages(counted, [streamlit_server, streamlit_server], 2, names=("masks",))
    assert len(counted.tabs) == 2 * (1 + 2), counted.tabs  # per server: its first tab, then a new tab per repeat
    for found in (after, before):
        times = found["masks"]
        for way, seen, felt in bench.PAGE_TIMES:
            assert 0 < times[felt] <= times[seen], (way, times)
    ratio = bench.ratios({"pages": after, "controls": {}}, {"pages": before, "controls": {}})
    assert ratio.startswith("  page masks: new tab ") and ", same tab " in ratio and ", from the sidebar " in ratio


def test_a_pages_cell_names_each_way_it_was_opened_and_leaves_out_what_an_older_run_did_not_measure():
    now = {"cold_s": 4.0, "new_tab_s": 2.0, "median_s": 1.0, "sidebar_s": 0.5, "felt_cold_s": 3.9,
           "felt_new_tab_s": 1.9, "felt_s": 0.9, "felt_sidebar_s": 0.4}
    assert bench.page_cell(now) == ("felt: new tab 1.90 s, same tab 0.90 s, from the sidebar 0.40 s, cold 3.90 s; "
                                    "seen: new tab 2.00 s, same tab 1.00 s, from the sidebar 0.50 s, cold 4.00 s")
    older = {key: value for key, value in now.items() if "new_tab" not in key}
    assert bench.page_cell(older).startswith("felt: same tab 0.90 s, from the sidebar 0.40 s, cold 3.90 s; seen: ")
    oldest = {"cold_s": 4.0, "median_s": 1.0}
    assert bench.page_cell(oldest) == "same tab 1.00 s, cold 4.00 s"
