"""The guard every browser test runs under (tests/support/browser.Guard) sees what a user would see break:
an exception box (even one that a rerun removes again), a console error, an uncaught page error, a server
traceback; and it stays quiet on a page where nothing broke, and on Streamlit's own base-path probes."""

from __future__ import annotations

import re

import pytest

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.support.browser import GUARD, LOADED, TIMEOUT_MS, VIEWPORT, GuardedBrowser, Guard, open_session, rerun
from tests.support.browser import settle, watched_page

# An exception box that shows for 50 ms, as a fragment's error between two of its runs would.
FLASHING_ERROR = """<div id=app></div><script>
setTimeout(() => {
  const box = document.createElement('div');
  box.setAttribute('data-testid', 'stException');
  box.textContent = 'StreamlitAPIException: shown for a moment';
  document.getElementById('app').appendChild(box);
  setTimeout(() => box.remove(), 50);
}, 100);
</script>"""


@pytest.fixture
def watched(browser, tmp_path):
    """A guard of its own (not the suite's, which would fail this test) on a fresh context, with a server log."""
    guard = Guard()
    guard.log = tmp_path / "server.log"
    guard.log.write_text("server started\n")
    raw = browser._browser if isinstance(browser, GuardedBrowser) else browser
    context = raw.new_context()
    guard.attach(context)
    guard.start()
    yield guard, context.new_page()
    context.close()


def test_a_flashing_exception_box_is_caught(watched):
    guard, page = watched
    page.set_content(FLASHING_ERROR)
    page.wait_for_timeout(400)
    assert page.locator("[data-testid='stException']").count() == 0  # gone: a check of the final page misses it
    assert any("shown for a moment" in p for p in guard.problems())


def test_console_and_page_errors_are_caught(watched):
    guard, page = watched
    page.set_content("<script>console.error('broken widget'); setTimeout(() => { throw new Error('boom') }, 0);</script>")
    page.wait_for_timeout(200)
    problems = "\n".join(guard.problems())
    assert "console error" in problems and "broken widget" in problems
    assert "uncaught page error" in problems and "boom" in problems


def test_a_server_traceback_is_caught_and_only_a_new_one(watched):
    guard, _ = watched
    assert guard.problems() == []
    with open(guard.log, "a") as log:
        log.write("Uncaught app execution\nTraceback (most recent call last):\n  File \"app.py\"\nValueError: x\n")
    assert any("server traceback" in p and "ValueError" in p for p in guard.problems())
    guard.start()  # the next test starts after it
    assert guard.problems() == []


def test_a_working_page_passes_the_suite_guard(browser, streamlit_server):
    context, page = open_session(browser, f"{streamlit_server}/masks?lang=zh")  # a page path: base-path probes
    try:
        page.locator("[data-testid='stMain'] .js-plotly-plot .main-svg").first.wait_for()
        assert GUARD.problems() == []
    finally:
        context.close()


def test_a_page_whose_scripts_have_not_arrived_is_not_settled(browser, streamlit_server):
    """st.html's code is fetched on first use, and on a busy machine it can arrive after the run has finished and its
    charts are drawn: CI once pressed → on the replay page before the arrow-key script had run, and waited for a
    rerun that never came. Held back here, that code keeps the page from counting as settled until it runs."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page, held = watched_page(context), []
        page.route("**/static/js/Html.*.js", lambda route: held.append(route))
        page.goto(f"{streamlit_server}/replay?lang=en&snapshot=1&probe=1", wait_until="commit")
        page.locator("[data-testid='stMain'] .js-plotly-plot .main-svg").first.wait_for()
        page.locator("[data-testid='stSkeleton']").first.wait_for()  # an element waiting for its code
        assert held and not page.evaluate(LOADED) and not page.evaluate("() => window.attentionArrowKeys")
        page.set_default_timeout(2_000)
        with pytest.raises(PlaywrightTimeout):
            settle(page)
        for route in held:
            route.continue_()
        page.set_default_timeout(TIMEOUT_MS)
        settle(page)
        rerun(page, lambda: page.keyboard.press("ArrowRight"))  # → is Next now that its script has run
        expect(page).to_have_url(re.compile(r"[?&]snapshot=2(&|$)"))
    finally:
        context.close()
