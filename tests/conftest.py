"""Shared fixtures and hooks: the shipped checkpoint's Translator, a headless Streamlit server and one Chromium.
What the fixtures are made with, and every helper tests share, is in tests/support/ (no test imports this file).

The server and the browser are session-wide: every browser test talks to the same
`streamlit run app.py` through the same Chromium, each session a tab of its own (a tab is a separate Streamlit
session, as a student's is; tests/support/browser.open_sessions opens them in one window, whose cache spares each tab
after the first the loading of the app's scripts).
"""

from __future__ import annotations

import os

import pytest

from tests.support.app_server import running_app
from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.paths import CHECKPOINT, ZH_CHECKPOINT

# No test reaches the network: loading a hub id offline waits out the hub's retries (25–48 s). Set before anything
# imports huggingface_hub, which reads it once; the Streamlit server of the browser tests inherits it.
os.environ["HF_HUB_OFFLINE"] = "1"


@pytest.fixture(scope="session", autouse=True)
def one_component_scan():
    """Streamlit's AppTest scans every installed package's metadata for custom components once per AppTest (~0.2 s:
    78 s of CPU over the suite's 378 AppTests, measured); the packages do not change during a run, so each worker
    scans once and every AppTest reuses what it found."""
    from streamlit.components.v2 import manifest_scanner

    found = manifest_scanner.scan_component_manifests()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", lambda: found)
        yield


@pytest.fixture(scope="session", autouse=True)
def one_script_cache():
    """AppTest makes a new ScriptCache on every run, so every run parses app.py and its page again and rewrites them
    for Streamlit's magic (ast.parse and add_magic: ~28 of the quick loop's ~225 CPU-seconds, py-spy); the scripts
    do not change during a run, so each worker compiles each once, as the server does. Keyed by path, as before."""
    from streamlit.runtime.scriptrunner import script_cache
    from streamlit.testing.v1 import app_test, local_script_runner

    shared = script_cache.ScriptCache()
    with pytest.MonkeyPatch.context() as patch:
        for module in (app_test, local_script_runner):
            patch.setattr(module, "ScriptCache", lambda: shared)
        yield


@pytest.fixture(scope="session")
def translator():
    """The shipped model, loaded once for the session and shared by every module (tests check structure, never
    translation quality). Read only: a test that needs a changed model builds its own."""
    if not (CHECKPOINT / "model.safetensors").is_file():
        pytest.skip(f"the shipped checkpoint is not in {CHECKPOINT}")
    from model import Translator

    return Translator.from_checkpoint(CHECKPOINT, device="cpu")


@pytest.fixture(scope="session")
def zh_translator():
    """The shipped Chinese → English model, loaded once for the session (read only, as `translator`)."""
    if not (ZH_CHECKPOINT / "model.safetensors").is_file():
        pytest.skip(f"the shipped checkpoint is not in {ZH_CHECKPOINT}")
    from model import Translator

    return Translator.from_checkpoint(ZH_CHECKPOINT, device="cpu")


@pytest.fixture(scope="module")
def postgres_url():
    """A running throwaway PostgreSQL cluster's address (skips, saying why, where none can be made)."""
    from tests.support import postgres as postgres_support

    why = postgres_support.unavailable()
    if why:
        pytest.skip(why)
    return postgres_support.shared_cluster().url


@pytest.fixture(scope="session")
def streamlit_server(tmp_path_factory):
    """Base URL of `streamlit run app.py` on a free local port; the server is always stopped afterwards."""
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    from tests.support.browser import GUARD

    GUARD.log = log
    try:
        with running_app(log) as url:
            yield url
    finally:
        if log.exists():
            print(log.read_text()[-3000:])


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for every browser test (skipped where Chromium or Playwright is missing)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.support.browser import GuardedBrowser

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield GuardedBrowser(b)
        finally:
            b.close()


@pytest.fixture(scope="module")
def shared_page(browser, streamlit_server):
    """A tab that a module's tests use in turn, not opened until the first of them goes somewhere: each test goes to
    its own page by its address (a new session: tests.support.browser.visit), or from view to view by Forward in the
    module's one session (tests.support.browser.in_one_session with go_on), so that the module pays for one load of
    the app, not one a test."""
    from tests.support.browser import new_session

    tab, page = new_session(browser)
    yield page
    tab.close()


# The longest browser modules, longest first (--durations, summed per module: the tour 112 s, the explorer's layout
# 53, the poll 47, Inside 42, the browser benchmark's test 41, links 39, the deck 37): pytest-xdist hands out each
# module whole in the order collected, so these start first and the short ones fill in at the end on whichever
# worker is free, instead of one worker still running a long module while the other idles.
LONGEST_FIRST = ("tests.test_tour_browser", "tests.test_explorer_layout_browser", "tests.test_poll_browser",
                 "tests.test_inside_browser", "tests.test_browser_benchmark", "tests.test_links_browser",
                 "tests.test_deck_browser")
AUTOPLAY = "tests.test_play_browser"


def _guarded(item) -> bool:
    return "browser" in getattr(item, "fixturenames", ())


@pytest.hookimpl(tryfirst=True)  # before -m selects by marker and pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    """Every test that uses Chromium is marked `browser`; every module goes to a worker whole (an xdist group of its
    own), so its module-scoped fixtures (a training run, a saved Marian model, a shared page) are built once. Each
    worker starts its own Streamlit server and Chromium for the first browser test it gets.

    A worker runs other modules after browser tests, while Playwright's sync API leaves its event loop marked as
    running in the main thread: a test there cannot call asyncio.run or start Playwright's sync API in that thread
    (none does; the classroom benchmark's test runs it in a thread of its own)."""
    for item in items:
        if _guarded(item):
            item.add_marker(pytest.mark.browser)
        item.add_marker(pytest.mark.xdist_group(item.module.__name__))
    # The autoplay tests last: by then the other worker has usually finished. Autoplay is timer-driven and stalls or
    # skips when the CPU is starved (a known bug, not hidden: they still fail under load), so running them beside the
    # other worker's tests would make them fail more often than in a run on one worker (-n0).
    items.sort(key=lambda item: (item.module.__name__ == AUTOPLAY, order(item.module.__name__)))


def order(module: str) -> int:
    """Where a module's tests go in the order pytest-xdist hands modules out: LONGEST_FIRST, then the rest."""
    return LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if _guarded(item):
        from tests.support.browser import GUARD

        GUARD.start()  # before the test's fixtures open their pages: what they show is checked too


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A browser test fails on an exception box, a console error or a server traceback seen while it set up
    and ran (tests/support/browser.Guard), even where its own assertions passed."""
    if not _guarded(item):
        return (yield)
    from tests.support.browser import GUARD

    result = yield
    problems = GUARD.problems()
    if problems:
        pytest.fail("the user saw something break:\n" + "\n".join(problems), pytrace=False)
    return result
