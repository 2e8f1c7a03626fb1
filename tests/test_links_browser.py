"""Hostile links in a real browser: what a link or a sentence carries never becomes a clickable link in the app."""

from __future__ import annotations

import pytest

from tests.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from tests.browser_support import MAIN, open_session

HOSTILE = [
    "translate?zzz=www.evil.example/reset",  # an unknown setting, quoted in the notice
    "translate?kind=https://evil.example/login",  # a bad value, quoted in the notice
    "decoding?s=Visit+https://evil.example/login+now.",  # a sentence, shown on the page
    "decoding?s=Write+to+someone@evil.example+today.",  # an e-mail address (Markdown makes it mailto:)
]


@pytest.mark.parametrize("path", HOSTILE)
def test_no_text_from_a_link_becomes_a_clickable_link(browser, streamlit_server, path):
    context, page = open_session(browser, f"{streamlit_server}/{path}")
    try:
        page.wait_for_selector(f"{MAIN} h1")
        hrefs = page.locator(f"{MAIN} a").evaluate_all("links => links.map(a => a.href)")
        assert not [h for h in hrefs if "evil.example" in h and not h.startswith(streamlit_server)], hrefs
        assert "evil" in page.locator(MAIN).inner_text()  # the text is still shown, as text
    finally:
        context.close()
