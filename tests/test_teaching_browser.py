"""A teaching page in its widest state at a projector's 1280×800 (test_tour_browser.py checks every page with CLIPPED,
in English and 中文 with the sidebar open, and in presentation mode).

Asserted from the DOM, as a student would notice it: a table whose last columns sit behind a scroll bar
(its grid is wider than its box), an equation running past the right edge, a row of options scrolled or
cut short. Screenshots go to SCREENSHOTS=DIR when it is set. The query picker's value in this state is checked without
a browser (test_app_teaching.test_choosing_cross_attention_puts_the_query_picker_on_the_decoders_first_token).
"""

from __future__ import annotations

from i18n import strings
from tests.support.browser import MAIN, rerun, screenshot, settle, visit
from tests.support.layout_checks import CLIPPED


def test_live_qkv_cross_attention_with_every_key_shown_fits(shared_page, streamlit_server):
    """The widest state of the Q·K·V page: cross-attention chosen, every key and value opened."""
    s = strings("en")
    visit(shared_page, f"{streamlit_server}/qkv?lang=en&present=0", s["qkv.title"])
    main = shared_page.locator(MAIN)
    rerun(shared_page, main.get_by_role("tab", name=s["qkv.tab.live"]).click)  # the live model: third tab
    rerun(shared_page, main.get_by_role("radio", name=s["kind.cross"], exact=True).click)
    settle(shared_page)
    main.get_by_text(s["qkv.live.kv"], exact=True).click()
    shared_page.locator(f"{MAIN} [data-testid='stExpander'] [data-testid='stTable']").last.wait_for(state="visible")
    screenshot(shared_page, "teaching_en_qkv_cross", main.get_by_role("radiogroup", name=s["teach.pick.kind"]))
    assert not shared_page.evaluate(CLIPPED)
