"""What the browser tests share: how to open a session, wait for Streamlit, read what a user sees, and hover a map.

Waiting is always on a condition, never a fixed sleep:
- the app is connected: [data-testid=stApp][data-test-connection-state=CONNECTED];
- a rerun caused by an action has finished: the server has sent its "script finished" message on
  the page's websocket (counted here, per page) and the app shows data-test-script-state=notRunning.
  The DOM alone cannot tell: a click's rerun may not have started when the click returns, and a fast
  fragment rerun often never shows "running" at all (React renders both state changes at once);
- then the expected text or element, with Playwright's auto-retrying `expect`, since charts draw
  after the script has finished.

The browser fixture itself is in tests/conftest.py (one Chromium for the session). Every context it opens
is guarded (`Guard`): a test fails when, at any moment, a page showed Streamlit's exception box, the browser
logged a console error or an uncaught page error, or the server wrote a traceback.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from i18n import strings


# Screenshots are for a person to look at (nothing is asserted on pixels), so they are written only when asked for:
# SCREENSHOTS=DIR (e.g. SCREENSHOTS=screenshots) names the folder.
SHOTS = os.environ.get("SCREENSHOTS")
VIEWPORT = {"width": 1280, "height": 800}
TIMEOUT_MS = 180_000  # the CPU may be busy; a slow page is not a broken page
expect.set_options(timeout=TIMEOUT_MS)  # expect's own default is 5 s
APP = "[data-testid='stApp']"
MAIN = "[data-testid='stMain']"
SIDEBAR = "[data-testid='stSidebar']"
STREAM = "/_stcore/stream"  # the websocket of a Streamlit session
# Streamlit draws some elements (st.html among them) with code it fetches on first use and shows a skeleton until
# it arrives, which on a busy machine can be after the run has finished and its charts are drawn. Until then the
# page's own scripts (app_pages/shell/page_scripts: the ← → keys, the landing on a linked view) have not run.
LOADED = "() => !document.querySelector(\"[data-testid='stSkeleton']\")"
CHARTS_DRAWN = ("() => [...document.querySelectorAll(\"[data-testid='stMain'] [data-testid='stPlotlyChart']\")]"
                ".every(c => c.querySelector('.main-svg'))")

# Injected into every page of a guarded context: reports each exception box the moment it appears, even one
# that a later rerun removes again (an autoplay fragment's error box shows between two checks of the DOM).
EXCEPTION_WATCH = """(() => {
  const seen = new WeakSet();
  const report = () => document.querySelectorAll("[data-testid='stException']").forEach(box => {
    if (seen.has(box)) return;
    seen.add(box);
    window.__guardReport((box.innerText || "exception box").slice(0, 2000));
  });
  new MutationObserver(report).observe(document, {childList: true, subtree: true});
})()"""
# Injected into every page too: how many times Plotly calculated each chart (each calculation gives its graph div a
# new `calcdata` array; a redraw of the same data does not). Streamlit shows each figure once, so a chart calculated
# twice was drawn twice: tests/test_tour_browser.py fails then (viz.sent.sent_figure says why it was).
CALCULATIONS = """(() => {
  const count = new WeakMap(), value = new WeakMap();
  window.__calculations = (gd) => count.get(gd) || 0;
  Object.defineProperty(HTMLElement.prototype, "calcdata", {
    configurable: true,
    get() { return value.get(this); },
    set(calcdata) { value.set(this, calcdata); if (calcdata) count.set(this, (count.get(this) || 0) + 1); },
  });
})()"""
TRACEBACK = "Traceback (most recent call last)"
# Streamlit's client finds the server's base path by asking below the page's own path first (/qkv/_stcore/health)
# and then the root: those 404s are its way of looking, not a failure a user meets.
BASE_PATH_PROBE = re.compile(r"^https?://[^/]+/.+/_stcore/(health|host-config)$")


class Guard:
    """What went wrong on screen, in the browser's console or in the server's log while a test ran.

    `attach` wires a browser context; `start` marks the beginning of a test (and where the server's log stood);
    `problems` lists what went wrong since. The conftest fails every browser test that leaves a problem.
    """

    def __init__(self) -> None:
        self.log: Path | None = None  # the Streamlit server's stdout and stderr, once the server is started
        self.found: list[str] = []
        self._log_offset = 0

    def attach(self, context) -> None:
        context.expose_binding("__guardReport", lambda source, text: self.found.append(
            f"exception box on {source['page'].url}: {text}"))
        context.add_init_script(script=EXCEPTION_WATCH)
        context.on("page", self._watch_page)

    def _watch_page(self, page) -> None:
        def on_console(msg) -> None:
            source = msg.location.get("url", "")
            if msg.type == "error" and not ("404" in msg.text and BASE_PATH_PROBE.match(source)):
                self.found.append(f"console error on {page.url}: {msg.text} ({source})")

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.found.append(f"uncaught page error on {page.url}: {error}"))

    def start(self) -> None:
        self.found = []
        self._log_offset = self.log.stat().st_size if self.log and self.log.exists() else 0

    def problems(self) -> list[str]:
        found = list(self.found)
        if self.log and self.log.exists():
            with open(self.log, encoding="utf-8", errors="replace") as f:
                f.seek(self._log_offset)
                new = f.read()
            if TRACEBACK in new:
                found.append("server traceback:\n" + new[new.index(TRACEBACK) - 200:][:3000])
        return found


GUARD = Guard()
K = TypeVar("K")  # what names each address of in_one_session


class GuardedBrowser:
    """Chromium whose every new context is watched by GUARD (the one way browser tests open contexts), or by a
    guard of its own (a benchmark that starts its own server must leave the tests' GUARD alone)."""

    def __init__(self, browser, guard: Guard = GUARD) -> None:
        self._browser, self._guard = browser, guard
        self._window = None

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        self._guard.attach(context)
        context.add_init_script(script=CALCULATIONS)
        return context

    def window(self):
        """The one context (a window) whose tabs open_sessions opens: a tab is a Streamlit session of its own, as
        in a student's browser, and a tab after the first finds the app's scripts in the window's cache, as a
        student's second tab does (a context of its own per session made every test load and compile them anew:
        ~0.5 s of CPU per session, measured)."""
        if self._window is None:
            self._window = self.new_context(viewport=VIEWPORT)
            self._window.set_default_timeout(TIMEOUT_MS)
        return self._window

    def __getattr__(self, name):
        return getattr(self._browser, name)


_sockets: dict = {}  # page -> its session's websocket
_runs_finished: dict = {}  # page -> script runs (or fragment runs) the server reported finished
_full_runs: dict = {}  # page -> of those, runs of the whole page (not of a fragment alone)


def _finished_status(payload):
    """How a run ended, where a websocket frame from the server says a run finished (not one cut short by a newer
    rerun): ForwardMsg.FINISHED_SUCCESSFULLY for the whole page, FINISHED_FRAGMENT_RUN_SUCCESSFULLY for a fragment
    alone; else None."""
    if not isinstance(payload, bytes):
        return None
    msg = ForwardMsg.FromString(payload)
    if msg.WhichOneof("type") != "script_finished" or msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
        return None
    return msg.script_finished


def _script_finished(payload) -> bool:
    return _finished_status(payload) is not None


def watched_page(context):
    """A new page of `context` whose finished runs are counted from its first frame on (rerun and choose need it)."""
    page = context.new_page()
    _runs_finished[page] = _full_runs[page] = 0

    def on_frame(payload) -> None:
        status = _finished_status(payload)
        if status is not None:
            _runs_finished[page] += 1
            _full_runs[page] += status != ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY

    def on_socket(ws) -> None:
        if ws.url.endswith(STREAM):
            _sockets[page] = ws
            ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    page.on("close", lambda _: (_sockets.pop(page, None), _runs_finished.pop(page, None), _full_runs.pop(page, None)))
    return page


def runs_finished(page) -> int:
    return _runs_finished[page]


def full_runs(page) -> int:
    """Of the runs finished so far, those of the whole page: a control inside a fragment reruns only the fragment."""
    return _full_runs[page]


def wait_for_runs(page, n: int) -> None:
    """Block until the server has reported `n` finished runs to `page`, then until the page shows them.

    Playwright delivers events only while a call blocks, so nothing can arrive between a check of the
    count and the start of the wait that follows it: no frame is missed.
    """
    if page not in _sockets:
        page.wait_for_event("websocket", predicate=lambda ws: ws.url.endswith(STREAM))
    while _runs_finished[page] < n:
        _sockets[page].wait_for_event("framereceived", predicate=_script_finished)
    page.wait_for_selector(f"{APP}[data-test-connection-state='CONNECTED'][data-test-script-state='notRunning']")
    page.wait_for_function(LOADED)
    assert_no_exception(page)


def settle(page) -> None:
    """Wait until the run has finished, every element it sent is loaded and every chart is drawn."""
    page.wait_for_selector(f"{APP}[data-test-connection-state='CONNECTED'][data-test-script-state='notRunning']")
    page.wait_for_function(LOADED)
    page.wait_for_function(CHARTS_DRAWN)
    assert_no_exception(page)


def settle_charts(page, charts: bool = True) -> None:
    """settle, where a page shows charts: with `charts`, first until there is one (right after page.goto the app may
    not have started its run yet); then Plotly's automargin redraw."""
    if charts:
        page.wait_for_selector(f"{MAIN} .js-plotly-plot .main-svg")
    settle(page)
    page.wait_for_timeout(300)  # Plotly's automargin redraw


def visit(page, url: str, title: str) -> None:
    """`page` goes to `url` and settles once the page titled `title` shows."""
    page.goto(url)
    page.locator(f"{MAIN} h1").filter(has_text=title).first.wait_for()
    settle(page)


# The browser's Forward to an address the page's history holds: the address changes without loading the app again,
# and the app reads the link into the same session, as after Back or Forward (app_pages.shell.links.begin_run).
FORWARD = "url => { history.pushState(null, '', url); dispatchEvent(new PopStateEvent('popstate')); }"


def forward(page, url: str) -> None:
    """`page`'s session goes to `url` as the browser's Forward does, and the run it causes has finished: what a page
    opened by its address checks, for about half of Chromium's work (no new load of Streamlit, React and Plotly)."""
    rerun(page, lambda: page.evaluate(FORWARD, url))


def in_one_session(page, addresses: dict[K, str], go_on: bool = False) -> Iterator[K]:
    """Each key of `addresses` in turn, yielded once `page` shows its address: the first opened by its address (a new
    session), each after it by Forward in that session. A value an address leaves out keeps the one before, so the
    checks made on the way depend on nothing outside these addresses. With `go_on`, a page that already shows the app
    goes to the first address by Forward too (a module's tests in turn in one session: the `shared_page` fixture),
    and the address names every value the checks read."""
    for i, (name, url) in enumerate(addresses.items()):
        if i > 0 or (go_on and page in _sockets):
            forward(page, url)
        elif page in _sockets:  # a page that showed the app: the checks wait for what they need (settle_charts)
            page.goto(url)
        else:  # a new tab: as open_sessions opens one
            page.goto(url, wait_until="commit")
            wait_for_runs(page, 1)
        yield name


def new_session(browser):
    """(what closes it, a watched page not yet opened): a tab of a guarded browser's window (the tab closes itself),
    or a context of its own in a bare Playwright browser (the browser benchmark's)."""
    if isinstance(browser, GuardedBrowser):
        page = watched_page(browser.window())
        return page, page
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    return context, watched_page(context)


def open_sessions(browser, url: str, n: int) -> list:
    """n new Streamlit sessions (each student's tab is one), showing the app, idle.

    All n start loading before any is awaited. Returns [(tab or context, page)]; the caller closes them.
    """
    sessions = []
    try:
        for _ in range(n):
            sessions.append(new_session(browser))
        for _, page in sessions:
            page.goto(url, wait_until="commit")
        for _, page in sessions:
            wait_for_runs(page, 1)  # the first run has finished
    except BaseException:
        for context, _ in sessions:
            context.close()
        raise
    return sessions


def open_session(browser, url: str):
    """One new session showing the app, idle: (context, page)."""
    return open_sessions(browser, url, 1)[0]


def rerun(page, action: Callable[[], object]) -> None:
    """Do `action` (a click, a key press) and wait until the rerun it causes has finished."""
    before = runs_finished(page)
    action()
    wait_for_runs(page, before + 1)


def wait_until(page, condition: str, timeout_ms: float, where: Callable[[], str]) -> None:
    """Wait for the JavaScript `condition` to hold; if it has not within timeout_ms, fail saying where things stood
    (`where()`), rather than with Playwright's bare timeout."""
    try:
        page.wait_for_function(condition, timeout=timeout_ms)
    except PlaywrightTimeout:
        pytest.fail(where())


def assert_no_exception(page) -> None:
    exceptions = page.locator(f"{APP} [data-testid='stException']")
    assert exceptions.count() == 0, exceptions.first.inner_text()


def screenshot(page, name: str, element=None) -> None:
    """The 1280×800 viewport as SHOTS/`name`.png, when SCREENSHOTS is set; otherwise nothing.

    With `element` (a locator), the app's scrolling main area first brings it to the middle of the viewport.
    """
    if not SHOTS:
        return
    if element is not None:
        element.first.evaluate("e => e.scrollIntoView({block: 'center'})")
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def main(page):
    return page.locator(MAIN)


def key(name: str) -> str:
    """The CSS selector of the main area's widget or container keyed `name` (Streamlit's class for "whatif.run":
    st-key-whatif-run)."""
    return f"{MAIN} .st-key-{name.replace('.', '-')}"


def radio_group(page, label: str):
    """A segmented control or pills widget in the main area, by its label."""
    return main(page).get_by_role("radiogroup", name=label, exact=True)


def choose(page, group: str, option: str) -> None:
    """Click `option` of the main area's segmented control labelled `group`, and wait for the rerun."""
    button = radio_group(page, group).get_by_role("radio", name=option, exact=True)
    rerun(page, button.click)


def chosen(page, group: str):
    """The checked option of the main area's segmented control labelled `group` (a locator, for expect)."""
    return radio_group(page, group).locator("[role=radio][aria-checked=true]")


def choose_if_new(page, group: str, option: str) -> None:
    """choose(), where `option` is not already chosen (a click on the chosen one reruns nothing)."""
    if chosen(page, group).inner_text() != option:
        choose(page, group, option)


def pin_three(page, en: dict | None = None) -> None:
    """On the explorer, in English or in the language whose strings `en` holds: cross-attention, head 1, layers 1 to
    3, each pinned to the deck."""
    en = en or strings("en")
    choose_if_new(page, en["explorer.kind"], en["kind.cross"])
    for layer in ("1", "2", "3"):
        choose_if_new(page, en["explorer.layer"], layer)
        choose_if_new(page, en["explorer.head"], "1")
        rerun(page, main(page).get_by_role("button", name=en["deck.pin"]).click)


def submit_sentence(page, sentence: str, button: str = "Translate") -> None:
    page.locator(f"{MAIN} textarea").first.fill(sentence)
    rerun(page, main(page).get_by_role("button", name=button, exact=True).click)


def translation(page):
    """The translation as the translate page shows it (its only level-3 heading above the explorer)."""
    return page.locator(f"{MAIN} h3").first


def chips(page, column_heading: str):
    """The token chips of the translate page's column headed `column_heading` (a locator, for expect)."""
    column = main(page).locator("[data-testid='stColumn']").filter(has_text=column_heading).first
    # Streamlit also keeps a hidden copy of each badge (for measuring): only the visible ones count.
    return column.locator(".stMarkdownBadge").filter(visible=True)


def nav_links(page):
    return page.locator("[data-testid='stSidebarNav'] a")


def ending_with(texts: list[str]) -> list[re.Pattern]:
    """Patterns for expect(...).to_have_text: each text ends the element's (a nav link starts with its icon's name)."""
    return [re.compile(re.escape(text) + r"\s*$") for text in texts]


def wrapped(*titles: str) -> list[re.Pattern]:
    """Chart titles as expect() patterns: a long title wraps (<br>), so a space may be a line break, or nothing."""
    return [re.compile(r"\s*".join(map(re.escape, title.split(" ")))) for title in titles]


# The screen position of (x, y) in the axes `axes` ("" for the first, "15" for x15/y15) of the main area's
# plot number `index`: the SVG's offset, the axis' offset inside it, and Plotly's linear-to-pixel map.
# Scrolls the main area first when the point is outside the viewport (or under the page header).
POINT_ON_PLOT = """([index, axes, x, y]) => {
  const gd = document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot")[index];
  const point = () => {
    const L = gd._fullLayout, xa = L['xaxis' + axes], ya = L['yaxis' + axes], box = gd.getBoundingClientRect();
    return {x: box.left + xa._offset + xa.l2p(x), y: box.top + ya._offset + ya.l2p(y)};
  };
  let p = point();
  if (p.y < 120 || p.y > window.innerHeight - 60) {
    let s = gd.parentElement;
    const scrolls = e => e.scrollHeight > e.clientHeight && /(auto|scroll)/.test(getComputedStyle(e).overflowY);
    while (s && !scrolls(s)) s = s.parentElement;
    (s || document.scrollingElement).scrollBy(0, p.y - window.innerHeight / 2);
    p = point();
  }
  return p;
}"""


def point_on_plot(page, plot_index: int, x: float, y: float, axes: str = "") -> tuple[float, float]:
    """Where on the screen data point (x, y) of the main area's plot `plot_index` is drawn (scrolled into view)."""
    point = page.evaluate(POINT_ON_PLOT, [plot_index, axes, x, y])
    return point["x"], point["y"]


def hover(page, point: tuple[float, float]) -> list[str]:
    """Move the mouse to `point` and return the lines of the hover label Plotly shows there."""
    label = page.locator(".hoverlayer .hovertext")
    page.mouse.move(0, 0)  # away from every plot, so no earlier label is read
    expect(label).to_have_count(0)
    page.mouse.move(point[0] + 2, point[1] + 2)  # within the same cell even where cells are 10 px: Plotly may skip the last move
    page.mouse.move(*point, steps=4)  # Plotly finds the point under the mouse on mousemove
    label.first.wait_for()
    return [line.strip() for line in label.first.locator("tspan.line").all_text_contents()]
