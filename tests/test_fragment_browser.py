"""A view switch reruns only the part of the page it changes (a Streamlit fragment), never the whole page: the
explorer's kind and layer, Decoding's Previous / Next and layer, Replay's Previous / Next and attention kind. The
server says which kind of run finished (tests/support/browser.full_runs); the address still follows each switch, since
every fragment run writes the link itself. What a switch costs is measured by `python -m benchmarks.browser`.
"""

from __future__ import annotations

import re

import pytest

from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, full_runs, main, open_session, radio_group, rerun, runs_finished

EN = strings("en")


def fragment_only(page, action) -> None:
    """Do `action` and assert that the one run it caused was a fragment's, not the whole page's."""
    full, runs = full_runs(page), runs_finished(page)
    rerun(page, action)
    assert (runs_finished(page) - runs, full_runs(page) - full) == (1, 0), "the whole page ran again"
    page.wait_for_selector(f"{MAIN} .js-plotly-plot .main-svg")


def click_radio(page, group: str, option: str):
    return lambda: radio_group(page, group).get_by_role("radio", name=option, exact=True).click()


def click_button(page, name: str):
    return lambda: main(page).get_by_role("button", name=name, exact=True).click()


@pytest.mark.parametrize("path, switches, address", [
    ("translate?lang=en", [("radio", "explorer.kind", "kind.decoder_self"), ("radio", "explorer.layer", "2")],
     r"kind=decoder_self.*layer=2"),
    ("decoding?lang=en&step=1", [("button", "decoding.next", None), ("radio", "explorer.layer", "3")],
     r"step=2.*layer=3"),
    ("replay?lang=en&snapshot=1", [("button", "decoding.next", None), ("radio", "explorer.kind", "kind.encoder_self")],
     r"kind=encoder_self.*snapshot=2"),
])
def test_a_view_switch_reruns_only_its_fragment(browser, streamlit_server, path, switches, address):
    context, page = open_session(browser, f"{streamlit_server}/{path}")
    try:
        page.wait_for_selector(f"{MAIN} .js-plotly-plot .main-svg")
        for kind, label, option in switches:
            if kind == "button":
                fragment_only(page, click_button(page, EN[label]))
            else:
                fragment_only(page, click_radio(page, EN[label], EN.get(option, option)))
        expect(page).to_have_url(re.compile(address))
        # The check can fail: a control outside every fragment (the sidebar's language) reruns the whole page.
        full = full_runs(page)
        rerun(page, page.locator("[data-testid='stSidebar']").get_by_role("radio", name="中文", exact=True).click)
        assert full_runs(page) == full + 1
    finally:
        context.close()
