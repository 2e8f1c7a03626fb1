"""The app's only HTML and JavaScript: eight constant snippets, none of them holding user or model text, and the
skeleton of an exported slide deck (filled with escaped titles, Plotly's own HTML and script-safe JSON).

Streamlit cannot scroll, bind keys or resize its root font itself; these do it in the page.
tests/test_bad_input.py checks that st.html appears nowhere else and is only given these constants.
"""

from __future__ import annotations

import streamlit as st

PRESENT_SCALE = 1.3  # presentation mode: text and charts this much larger (16 px chart labels become 21 px)
# Its root size: Streamlit sizes its text in rem, so this scales all of it from Streamlit's 16 px.
PRESENT_FONT_PX = round(16 * PRESENT_SCALE)
# The explorer's first row (four attention views beside the three kinds) fits 1280 px with the sidebar open only with
# narrower buttons; on a second row it would push the map below the first screen. So do Compare's rows, plain and
# presenting: the comparison beside the kind, and two heads' two pairs of layer and head buttons.
NARROW_BUTTONS = (
    ".st-key-explorer-what [data-testid='stButtonGroup'] button, .st-key-compare-how [data-testid='stButtonGroup'] "
    "button, .st-key-compare-controls [data-testid='stButtonGroup'] button "
    "{ padding-left: 0.5rem; padding-right: 0.5rem; }"
)
# The translation beside the sentence box, a heading without a heading's room above and under it: the row of the
# box ends where the translation's confidence line does, and the explorer's map starts that much higher.
TRANSLATION_HEADING = ".st-key-translate-verdict h3 { padding-top: 0; padding-bottom: 0.25rem; }"
# The wide layout's 5rem side and 6rem top margins would take a third of a projector's width and room from the
# charts: 2rem leaves the explorer's view, layer and head pickers one row. A title's own 1.25rem top padding sits
# under the header already: a quarter of it is enough.
PRESENT_STYLE = (
    f"<style>html {{ font-size: {PRESENT_FONT_PX}px; }}"
    "[data-testid='stMainBlockContainer'] { padding: 3rem 2rem 2rem !important; }"
    "[data-testid='stMain'] h1 { font-size: 2.25rem; padding: 0.25rem 0 0.5rem; }" + NARROW_BUTTONS
    + TRANSLATION_HEADING + "</style>"
)
# The wide layout's 6rem top margin sits 2rem below Streamlit's 3.75rem header: at 1280×800 those 2rem are
# better spent on the chart (every page's main chart starts within the first screen), and so is most of a title's
# own padding (1.25rem above it, 1rem under it), as in presentation mode.
PAGE_STYLE = (
    "<style>[data-testid='stMainBlockContainer'] { padding-top: 4rem !important; }"
    "[data-testid='stMain'] h1 { font-size: 2.25rem; padding: 0.25rem 0 0.5rem; }"
    + NARROW_BUTTONS + TRANSLATION_HEADING +
    "</style>"
)
# Streamlit keeps the main area's scroll position across pages: a new page should start at its top.
SCROLL_TO_TOP = "<script>document.querySelector('[data-testid=stMain]')?.scrollTo(0, 0);</script>"
# A link that names a view (the explorer's kind and head, a decoding step) lands on that view, not on the page's
# title: once a chart is drawn, the main area scrolls the page's view (the container keyed LINKED_VIEW) up to just
# under Streamlit's header. It keeps it there for 30 s, because what is drawn after the first chart (the rest of the
# page, a taller chart, a late reflow) moves the view or first lets the page scroll that far. (It used to stop once
# the layout had held still for 2 s, which leaves a later reflow uncorrected: a link test in CI once found a view
# 6 px under the header, not reproduced here.) It stops at once when the user scrolls, clicks or presses a key, and
# only then: a scroll no one asked for (the browser clamping the scroll while a rerun shrinks the page, or keeping an
# anchor in view) is corrected like any other move. (It used to let go of any scroll it had not made itself: a link
# test once found the view 54 px under the header for good, the main area scrolled 280 px, not reproduced here.)
LINKED_VIEW = "linked_view"
SCROLL_TO_LINKED_VIEW = """<script>
(() => {
  const started = Date.now();
  let userMoved = false;
  const moved = () => { userMoved = true; };
  const types = ["wheel", "touchstart", "keydown", "pointerdown"];
  for (const type of types) addEventListener(type, moved, true);
  const done = () => { for (const type of types) removeEventListener(type, moved, true); };
  const land = () => {
    if (userMoved || Date.now() - started > 30000) return done();
    const main = document.querySelector("[data-testid=stMain]");
    const view = main && main.querySelector(".st-key-linked_view");
    if (view && main.querySelector(".js-plotly-plot .main-svg")) {
      const header = document.querySelector("[data-testid=stHeader]");
      const below = header ? header.getBoundingClientRect().bottom : 0;
      const gap = view.getBoundingClientRect().top - below - 8;
      if (Math.abs(gap) > 2) main.scrollTo(0, main.scrollTop + gap);
    }
    setTimeout(land, 100);
  };
  land();
})();
</script>"""
# Inside the Transformer: a click on a block of its diagram opens the block's section below it; this brings the section
# (the container keyed inside.details) to the top of the main area, under Streamlit's header. Streamlit runs a
# script again only where the element changed: two snippets that differ in their comment take turns.
SCROLL_TO_DETAILS = """<script>
(() => {
  const main = document.querySelector("[data-testid=stMain]");
  const details = document.querySelector(".st-key-inside-details");
  const header = document.querySelector("[data-testid=stHeader]");
  if (!main || !details) return;
  const below = header ? header.getBoundingClientRect().bottom : 0;
  main.scrollBy({top: details.getBoundingClientRect().top - below - 8});
})();
</script>"""
SCROLL_TO_DETAILS_AGAIN = SCROLL_TO_DETAILS.replace("<script>", "<script>// again")
SCROLL_TURN = "page_scripts.scroll_turn"  # which of the two snippets the last scroll used
# ← and → press the Previous and Next buttons of the page's stepper (app_pages/components/stepper.py: keys <prefix>.prev and
# <prefix>.next), unless the cursor is in a text box or on a slider, which use those keys themselves.
ARROW_KEYS = """<script>
if (!window.attentionArrowKeys) {
  window.attentionArrowKeys = true;
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey || target.closest("input, textarea, [role=slider]")) return;
    const name = {ArrowLeft: "prev", ArrowRight: "next"}[event.key];
    const holder = name && [...document.querySelectorAll("[class*='st-key-']")].find(
      (el) => [...el.classList].some((c) => c.startsWith("st-key-") && c.endsWith(`-${name}`)));
    const button = holder && holder.querySelector("button");
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  });
}
</script>"""
# Slide deck: the click on Present leaves the focus on the mode's radio buttons, where → would switch the deck back
# to Edit (a radio group's own keys) instead of showing the next slide: the focus leaves them, so ← → reach ARROW_KEYS.
LEAVE_DECK_MODE = """<script>
document.activeElement?.closest(".st-key-deck-mode") && document.activeElement.blur();
</script>"""
# One history entry per page visit: Streamlit pushes the new page's address with the old page's query string,
# then the app writes the new page's own view (another push), so Back would need two presses. A query-only push
# that follows a page's push before any click or key press is that write: it replaces the entry instead.
# The push of another page's address also scrolls the main area to its top, in the browser, as the page changes:
# SCROLL_TO_TOP alone, sent by the new page's first run, was lost when a rerun superseded that run (CI found
# Compare opened from the sidebar still scrolled where Decoding had been, twice).
ONE_ENTRY_PER_PAGE = """<script>
if (!window.attentionHistory) {
  window.attentionHistory = true;
  let pagePushed = false;
  for (const type of ["pointerdown", "keydown"]) addEventListener(type, () => { pagePushed = false; }, true);
  const push = history.pushState.bind(history);
  history.pushState = (state, title, url) => {
    const samePage = new URL(url, location.href).pathname === location.pathname;
    if (samePage && pagePushed) { pagePushed = false; return history.replaceState(state, title, url); }
    pagePushed = !samePage;
    if (!samePage) document.querySelector("[data-testid=stMain]")?.scrollTo(0, 0);
    return push(state, title, url);
  };
}
</script>"""


NEW_PAGE_SCRIPTS = ONE_ENTRY_PER_PAGE + SCROLL_TO_TOP


def page_style() -> None:
    st.html(PAGE_STYLE)


def present_style() -> None:
    st.html(PRESENT_STYLE)


def scroll_to_linked_view() -> None:
    st.html(SCROLL_TO_LINKED_VIEW, unsafe_allow_javascript=True)


def arrow_keys() -> None:
    st.html(ARROW_KEYS, unsafe_allow_javascript=True)


def leave_deck_mode() -> None:
    st.html(LEAVE_DECK_MODE, unsafe_allow_javascript=True)


def every_run() -> None:
    st.html(ONE_ENTRY_PER_PAGE, unsafe_allow_javascript=True)


def every_run_on_a_new_page() -> None:
    """every_run's script and the scroll to the top in one element: as an element of its own, written on a new page
    only, the scroll added a gap (16 px) above a page opened from the sidebar that a link to it did not have."""
    st.html(NEW_PAGE_SCRIPTS, unsafe_allow_javascript=True)


def scroll_to_details() -> None:
    """Bring Inside the Transformer's open block into view (call it at the end of the run that opened it)."""
    again = st.session_state[SCROLL_TURN] = not st.session_state.get(SCROLL_TURN, False)
    if again:
        st.html(SCROLL_TO_DETAILS_AGAIN, unsafe_allow_javascript=True)
    else:
        st.html(SCROLL_TO_DETAILS, unsafe_allow_javascript=True)


# An exported slide deck (app_pages/components/decks.py): one document, each slide a section with its escaped title and the chart
# Plotly wrote (plotly.js inside the first), and the deck's views as JSON (lessons.deck.to_json: no "<" in it) that
# Import reads back. No script fetches anything: the file opens offline.
DECK_DOCUMENT = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title>
<style>body {{ font-family: sans-serif; margin: 0; }} section {{ min-height: 100vh; padding: 1rem 2rem; box-sizing: border-box; }}
h2 {{ margin: 0 0 0.5rem; font-size: 1.4rem; }}</style></head>
<body>
{slides}
<script type="application/json" id="deck">{deck}</script>
</body></html>
"""
DECK_SLIDE = """<section class="slide"><h2>{number}. {title}</h2>
{chart}
</section>
"""
