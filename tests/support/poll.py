"""A poll as the browser tests run it: a student's own browser on it, a vote, the teacher's tally by its count."""

from __future__ import annotations

import re

from tests.support.browser import MAIN, TIMEOUT_MS, VIEWPORT, rerun, wait_for_runs, watched_page

# The source tokens of "I have a dream." as a poll's options read them.
WORDS = ["I", "have", "a", "dream", ".", "⟨end⟩"]


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


def vote(page, choice: int) -> None:
    page.locator(MAIN).get_by_role("radio").nth(choice).check(force=True)
    rerun(page, page.locator(MAIN).get_by_role("button", name="Vote", exact=True).click)


def tally_title(page, n: int):
    # A fragment's rerun may briefly leave the previous chart beside the new one: look for the one that counts n.
    return page.locator(f"{MAIN} .gtitle").filter(has_text=re.compile(rf"^Votes so far: {n}$")).first
