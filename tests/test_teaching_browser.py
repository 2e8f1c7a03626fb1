"""A teaching page in its widest state at a projector's 1280×800 (test_tour_browser.py checks every page with CLIPPED,
in English and 中文 with the sidebar open, and in presentation mode).

Asserted from the DOM, as a student would notice it: a table whose last columns sit behind a scroll bar
(its grid is wider than its box), an equation running past the right edge, a row of options scrolled or
cut short. Screenshots go to SCREENSHOTS=DIR when it is set.
"""

from __future__ import annotations

import pytest

from tests.support.chromium import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, open_session, rerun, screenshot, settle

CLIPPED = """() => {
  const out = [], main = document.querySelector("[data-testid='stMain']");
  main.querySelectorAll("[data-testid='stTable']").forEach(table => {
    const grid = table.firstElementChild;  // st.table's scrolling box
    const header = [...table.querySelectorAll('thead th')].map(h => h.textContent).join(' ');
    if (grid && grid.scrollWidth > grid.clientWidth + 1)
      out.push(`table hides columns (${grid.scrollWidth} px in ${grid.clientWidth} px) ${header}`.trim());
  });
  main.querySelectorAll('.katex-display').forEach(eq => {
    if (eq.scrollWidth > eq.clientWidth + 3)
      out.push(`equation clipped (${eq.scrollWidth} px in ${eq.clientWidth} px): ${eq.textContent.slice(0, 60)}`);
  });
  main.querySelectorAll('[role=radiogroup]').forEach(group => {
    if (group.scrollWidth > group.clientWidth + 1)
      out.push(`options scrolled out of view: ${group.textContent.slice(0, 80)}`);
    group.querySelectorAll('[role=radio] *').forEach(label => {
      if (label.children.length === 0 && label.scrollWidth > label.clientWidth + 1)
        out.push(`option cut short: ${label.textContent}`);
    });
  });
  return out;
}"""


@pytest.fixture(scope="module")
def page(browser, streamlit_server):
    context, page = open_session(browser, f"{streamlit_server}/qkv")
    yield page
    context.close()


def visit(page, url: str, title: str) -> None:
    page.goto(url)
    page.locator(f"{MAIN} h1").filter(has_text=title).first.wait_for()
    settle(page)


def test_live_qkv_cross_attention_with_every_key_shown_fits(page, streamlit_server):
    """The widest state of the Q·K·V page: cross-attention chosen, every key and value opened."""
    s = strings("en")
    visit(page, f"{streamlit_server}/qkv?lang=en&present=0", s["qkv.title"])
    rerun(page, page.locator(MAIN).get_by_role("tab", name=s["qkv.tab.live"]).click)  # the live model: third tab
    rerun(page, page.locator(MAIN).get_by_role("radio", name=s["kind.cross"], exact=True).click)
    settle(page)
    # The query picker lists the decoder's tokens now, and shows one of them (it used to keep "0: ▁I").
    expect(page.locator(f"{MAIN} .st-key-qkv-live-cross-query input")).to_have_value("0: <s>")
    page.locator(MAIN).get_by_text(s["qkv.live.kv"], exact=True).click()
    page.locator(f"{MAIN} [data-testid='stExpander'] [data-testid='stTable']").last.wait_for(state="visible")
    screenshot(page, "teaching_en_qkv_cross", page.locator(MAIN).get_by_role("radiogroup", name=s["teach.pick.kind"]))
    assert not page.evaluate(CLIPPED)
