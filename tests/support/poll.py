"""A poll as the browser tests run it: a student's own browser on it, a vote, the teacher's tally by its count, the
teacher's passcode typed into the sidebar; in English unless a test passes another language's strings (`text`)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, SIDEBAR, TIMEOUT_MS, VIEWPORT, rerun, settle_charts, wait_for_runs, watched_page

# The source tokens of "I have a dream." as a poll's options read them.
WORDS = ["I", "have", "a", "dream", ".", "⟨end⟩"]
EN = strings("en")


def own_browser(browser, url: str):
    """A student's own browser (a context: its own cookies) with one tab showing `url`, idle: (context, page)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    return context, tab(context, url)


def tab(context, url: str):
    """A new tab of a student's browser showing `url`, idle (a tab is a Streamlit session of its own)."""
    page = watched_page(context)
    page.goto(url, wait_until="commit")
    wait_for_runs(page, 1)
    return page


def reload(page) -> None:
    """A reload: a new Streamlit session of the same browser (its cookies sent as it connects)."""
    page.reload(wait_until="commit")
    wait_for_runs(page, 1)


def vote(page, choice: int, text: dict = EN) -> None:
    page.locator(MAIN).get_by_role("radio").nth(choice).check(force=True)
    rerun(page, page.locator(MAIN).get_by_role("button", name=text["poll.vote"], exact=True).click)


def tally_title(page, n: int, text: dict = EN):
    # A fragment's rerun may briefly leave the previous chart beside the new one: look for the one that counts n.
    title = re.escape(text["poll.tally_title"]).replace(re.escape("{n}"), str(n))
    return page.locator(f"{MAIN} .gtitle").filter(has_text=re.compile(f"^{title}$")).first


def tally_fits(page) -> None:
    """The tally chart ends on the first screen (1280×800, not scrolled), no option's name turned on its side."""
    settle_charts(page)
    box = page.locator(f"{MAIN} .js-plotly-plot").first.bounding_box()
    assert box["y"] + box["height"] <= VIEWPORT["height"], f"the tally ends at {box['y'] + box['height']} px"
    assert page.locator(f"{MAIN} .js-plotly-plot .xtick text[transform*=rotate]").count() == 0
    assert page.locator(f"{MAIN} .js-plotly-plot .ytick text[transform*=rotate]").count() == 0


def passcode_box(page, text: dict = EN):
    """The sidebar's passcode box, its expander opened where it is closed."""
    box = page.locator(SIDEBAR).get_by_label(text["teacher.passcode"])
    if not box.is_visible():
        page.locator(SIDEBAR).get_by_text(text["teacher.title"], exact=True).click()
    expect(box).to_be_visible()
    return box


def type_passcode(page, passcode: str, text: dict = EN) -> str:
    """Type `passcode` into the sidebar and press Enter; returns what the sidebar then says."""
    box = passcode_box(page, text)
    box.fill(passcode)
    rerun(page, lambda: box.press("Enter"))
    return page.locator(SIDEBAR).inner_text()
