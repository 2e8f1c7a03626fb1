"""Hostile links in a real browser: what a link or a sentence carries never becomes a clickable link in the app."""

from __future__ import annotations

import pytest

from tests.support.browser import MAIN, in_one_session, open_session, wait_until

HOSTILE = [
    "translate?zzz=www.evil.example/reset",  # an unknown setting, quoted in the notice
    "translate?kind=https://evil.example/login",  # a bad value, quoted in the notice
    "decoding?s=Visit+https://evil.example/login+now.",  # a sentence, shown on the page
    "decoding?s=Write+to+someone@evil.example+today.",  # an e-mail address (Markdown makes it mailto:)
]


def test_no_text_from_a_link_becomes_a_clickable_link(shared_page, streamlit_server):
    """Each hostile address in turn in one session (by Forward after the first): the page shows what it carried as
    text, and no link of the page leads to it."""
    page = shared_page
    for path in in_one_session(page, {path: f"{streamlit_server}/{path}" for path in HOSTILE}, go_on=True):
        page.wait_for_selector(f"{MAIN} h1")
        hrefs = page.locator(f"{MAIN} a").evaluate_all("links => links.map(a => a.href)")
        assert not [h for h in hrefs if "evil.example" in h and not h.startswith(streamlit_server)], (path, hrefs)
        assert "evil" in page.locator(MAIN).inner_text(), path  # the text is still shown, as text


# A link that names a view, the view it names (its container, keyed page_scripts.LINKED_VIEW), and a link to the
# same page that names only the sentence (it opens at the page's top).
NAMED_VIEWS = [
    ("translate?s=Who+are+you%3F&kind=cross&view=head&layer=2&head=4", True),
    ("decoding?s=Who+are+you%3F&step=3", True),
    ("replay?snapshot=2", True),
    ("translate?s=Who+are+you%3F", False),
]
VIEW_TOP = """() => {
  const view = document.querySelector("[data-testid='stMain'] .st-key-linked_view").getBoundingClientRect();
  const header = document.querySelector("[data-testid='stHeader']").getBoundingClientRect();
  return [view.top - header.bottom, document.querySelector("[data-testid='stMain']").scrollTop];
}"""


@pytest.mark.parametrize("path, names_a_view", NAMED_VIEWS)
def test_a_link_to_a_view_lands_scrolled_to_it(browser, streamlit_server, path, names_a_view):
    """Start here's prepared links and shared views open with the view they name just under the header."""
    context, page = open_session(browser, f"{streamlit_server}/{path}")
    try:
        page.wait_for_selector(f"{MAIN} .st-key-linked_view")
        page.wait_for_selector(f"{MAIN} .js-plotly-plot .main-svg")
        if names_a_view:
            def where() -> str:  # seen in CI on decoding?step=3, not reproduced: say where the view was
                gap, scrolled = page.evaluate(VIEW_TOP)
                height = page.evaluate("document.querySelector(\"[data-testid='stMain']\").scrollHeight")
                return (f"the view is {gap:.0f} px below the header (0–16 wanted), the main area scrolled "
                        f"{scrolled:.0f} px of {height:.0f}")

            # The landing script gives up 30 s after it starts: 60 s is enough to know.
            wait_until(page, f"() => {{ const [gap] = ({VIEW_TOP})(); return gap >= 0 && gap <= 16; }}", 60_000, where)
        else:
            page.wait_for_timeout(1500)  # time the landing script would take to scroll
            gap, scrolled = page.evaluate(VIEW_TOP)
            assert scrolled == 0 and gap > 16
    finally:
        context.close()


def test_a_landed_view_stays_landed_while_the_page_grows_and_leaves_the_user_in_charge(browser, streamlit_server):
    """What is drawn after the first chart (here: 300 px pushed in above the view) does not leave a link's view
    below where it landed, nor does a scroll no user made (the browser clamping the scroll while a rerun shrinks the
    page); once the user scrolls, the landing script lets go."""
    context, page = open_session(browser, f"{streamlit_server}/{NAMED_VIEWS[1][0]}")
    try:
        page.wait_for_selector(f"{MAIN} .js-plotly-plot .main-svg")
        landed = f"() => {{ const [gap] = ({VIEW_TOP})(); return gap >= 0 && gap <= 16; }}"
        page.wait_for_function(landed)
        page.evaluate("""() => { const pad = document.createElement("div"); pad.style.height = "300px";
            const view = document.querySelector("[data-testid='stMain'] .st-key-linked_view");
            view.parentElement.insertBefore(pad, view); }""")
        page.wait_for_function(landed, timeout=5000)
        page.evaluate("() => { document.querySelector(\"[data-testid='stMain']\").scrollTop -= 54; }")
        wait_until(page, landed, 5000, lambda: f"the view stayed {page.evaluate(VIEW_TOP)[0]:.0f} px under the header "
                   "after a scroll no user made")
        page.mouse.move(640, 500)
        page.mouse.wheel(0, -250)
        page.wait_for_timeout(2500)
        gap, _ = page.evaluate(VIEW_TOP)
        assert gap > 100, f"the page scrolled back to the view after the user scrolled away (gap {gap})"
    finally:
        context.close()
