"""The app's only HTML and JavaScript: two style sheets and the page scripts (the .js files beside this module), none
of them holding user or model text, and the skeleton of an exported slide deck (filled with escaped titles, Plotly's
own HTML and script-safe JSON).

Streamlit cannot scroll, bind keys or resize its root font itself; these do it in the page.
tests/test_bad_input.py checks that st.html appears nowhere else and is only given these constants.
"""

from __future__ import annotations

from pathlib import Path

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
# The page scripts: the JavaScript files beside this module, each read once, at import, into a <script> element of
# its own name (scroll_to_top.js → SCRIPTS["scroll_to_top"]); each file says what it does.
SCRIPTS = {path.stem: f"<script>\n{path.read_text(encoding='utf-8')}</script>"
           for path in sorted(Path(__file__).parent.glob("*.js"))}
SCROLL_TO_TOP = SCRIPTS["scroll_to_top"]
# The container a link's view lands in (scroll_to_linked_view.js scrolls it under the header).
LINKED_VIEW = "linked_view"
SCROLL_TO_LINKED_VIEW = SCRIPTS["scroll_to_linked_view"]
# Streamlit runs a script again only where the element changed: two snippets that differ in a comment take turns.
SCROLL_TO_DETAILS = SCRIPTS["scroll_to_details"]
SCROLL_TO_DETAILS_AGAIN = SCROLL_TO_DETAILS.replace("<script>", "<script>// again")
SCROLL_TURN = "page_scripts.scroll_turn"  # which of the two snippets the last scroll used
ARROW_KEYS = SCRIPTS["arrow_keys"]
LEAVE_DECK_MODE = SCRIPTS["leave_deck_mode"]
ONE_ENTRY_PER_PAGE = SCRIPTS["one_entry_per_page"]


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
    """every_run's script and the scroll to the top in one element: an element of its own, written on a new page
    only, would take a row of the layout and set the page 16 px lower than a link to it does."""
    st.html(NEW_PAGE_SCRIPTS, unsafe_allow_javascript=True)


def scroll_to_details() -> None:
    """Bring Inside the Transformer's open block into view (call it at the end of the run that opened it)."""
    again = st.session_state[SCROLL_TURN] = not st.session_state.get(SCROLL_TURN, False)
    if again:
        st.html(SCROLL_TO_DETAILS_AGAIN, unsafe_allow_javascript=True)
    else:
        st.html(SCROLL_TO_DETAILS, unsafe_allow_javascript=True)


# An exported slide deck (app_pages/components/decks.py): one document, each slide a section with its escaped title, a
# link to its view at the address students open (links.share_links, escaped) and the chart Plotly wrote (plotly.js
# inside the first), and the deck's views as JSON (lessons.deck.to_json: no "<" in it) that Import reads back. No
# script fetches anything: the file opens offline.
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
<p><a class="view" href="{href}">{link}</a></p>
{chart}
</section>
"""
