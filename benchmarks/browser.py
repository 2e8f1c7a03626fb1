"""python -m benchmarks.browser [--repeats N] [--app DIR] [--label NAME] [--against DIR [--against-label NAME]]
                              [--out benchmarks/browser_results.json]

What a class feels, measured in a real browser (Debian's Chromium through Playwright) against `streamlit run
app.py` on this machine: for every page, its time to its first chart four ways — in a new browser (its cache empty:
the first visit after the server started, "cold"); in a new tab of a browser that has opened the app before (its
cache holds the app's scripts, but the tab is a renderer process of its own that evaluates them anew: a student
opening a shared link); with its address entered again in a tab that shows the app (the same renderer process);
and from a click on its link in the sidebar (the way a class moves between pages: the session kept) — medians of
--repeats but the cold visit; and for the controls a class uses most, click → the chart redrawn (median of
--repeats). Times are from the action to the moment the server has reported the run finished and every chart on the
page is drawn, twice over: as the page felt it (its own clock, from the click or key press, or a tab's navigation,
to the app's last change drawn) and as this harness saw it (from the call that clicks, which first waits for the
button to hold still, or that opens the tab, to the moment Python has checked that the page settled). A new tab's
or a cold visit's navigation sometimes starts well after the tab was asked for (a renderer starting): for those,
the seen time is the one a user waits. The results are written (merged by --label) to --out and printed as a table.

--app DIR runs the app in another checkout (e.g. a git worktree of an older commit) to compare before and after.
--against DIR serves a second checkout beside it and measures the two turn about in one run, one Chromium, every
visit and click of one alternating with the other's (an A/B): on a VM whose speed drifts by more than a change moves
a page, runs made one after the other do not tell the change from the drift. Both are written, under --label and
--against-label, and the ratios printed.
Goals (issue "Nothing breaks or hides"): every page ≤ 1 s to its first chart, every view switch ≤ 300 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from app_pages.shell import registry
from i18n import strings
from lessons.masks import DOC_SENTENCE
from tests.support.browser import MAIN, TIMEOUT_MS, VIEWPORT, open_session, rerun, watched_page
from tests.support.app_server import free_port, wait_for_health
from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = Path(__file__).resolve().parent / "browser_results.json"
PAGES = tuple(page.name for page in registry.PAGES)  # by name: /start opens Start here (registry.MOVED)
DRAWN = ("() => [...document.querySelectorAll(\"[data-testid='stMain'] [data-testid='stPlotlyChart']\")]"
         ".every(c => c.querySelector('.main-svg'))")
EN = strings("en")
IDLE = "[data-testid='stApp'][data-test-connection-state='CONNECTED'][data-test-script-state='notRunning']"


# The page's own clock, installed before a page's scripts run (a new tab) or before an action: when the user's
# click or key press came (the event's own time stamp), and when the app's last change (its run state, a chart drawn,
# text replaced) was on screen: after the frame that drew it. (The run state alone is not enough: a run that starts
# and ends between two of the page's renders never changes the state the page shows. A change counts once the frame
# that holds it has been styled, laid out and painted, not when the DOM changed.) Times are the page's
# performance.now(): milliseconds since its navigation started.
CLOCK = """(() => {
  if (!window.benchClock) {
    const clock = window.benchClock = {};
    for (const type of ["pointerdown", "keydown"])
      addEventListener(type, (e) => { if (clock.input === null) clock.input = e.timeStamp; }, true);
    new MutationObserver((records) => {
      const changed = records.some((r) =>
        (r.target.nodeType === 1 ? r.target : r.target.parentElement)?.closest("[data-testid='stApp']"));
      // On screen once the frame that holds the change is drawn: the task after that frame's rendering.
      if (changed) requestAnimationFrame(() => setTimeout(() => { clock.changed = performance.now(); }));
    }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  }
  Object.assign(window.benchClock, {input: null, changed: null});
})()"""
# Seconds the page felt: from the input (a new tab: from its navigation, 0) to its last change.
FELT = """async (fromNavigation) => {
  await new Promise((drawn) => requestAnimationFrame(() => setTimeout(drawn)));  // the last change's frame, drawn
  const c = window.benchClock;
  if (fromNavigation) return c.changed / 1000;
  return c.input === null || c.changed === null || c.changed < c.input ? null : (c.changed - c.input) / 1000;
}"""


@dataclass(frozen=True)
class Timed:
    """One measurement: as the page felt it (felt_s) and as the harness saw it (total_s)."""

    felt_s: float
    total_s: float


def drawn(page) -> None:
    page.wait_for_selector(IDLE)
    page.wait_for_function(DRAWN)


def felt_s(page, from_navigation: bool = False) -> float:
    found = page.evaluate(FELT, from_navigation)
    if found is None:
        raise RuntimeError("the page saw no click or key press, or no change after it, before it settled")
    return found


def first_chart_s(page, url: str) -> Timed:
    """From opening `url` to its first chart drawn (a page without charts: to its title, run finished); `page`
    has the clock installed for every document it opens (page.add_init_script(CLOCK))."""
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.wait_for_selector(f"{MAIN} h1")
    page.wait_for_selector(f"{MAIN} .js-plotly-plot .main-svg, {MAIN} [data-testid='stMarkdown']")
    drawn(page)
    felt = felt_s(page, from_navigation=True)  # read before the harness's clock stops: felt_s <= total_s
    return Timed(felt, time.perf_counter() - start)


def nav_link(page, name: str):
    """The sidebar's link to the page `name` (Start here is served at /)."""
    address = "" if name == registry.FIRST else registry.PAGE[name].address
    return page.locator(f"[data-testid='stSidebarNav'] a[href$='/{address}']")


def from_sidebar_s(page, name: str) -> Timed:
    """From a click on `name`'s sidebar link to its run finished and every chart on it drawn."""
    return action_s(page, nav_link(page, name).click)


def action_s(page, action: Callable[[], object], reruns: bool = True) -> Timed:
    """From `action` (a click, a key press) to its rerun finished and every chart drawn; without `reruns` (a tab,
    which an older app switched in the browser alone), to the action's own wait and every chart drawn."""
    page.evaluate(CLOCK)
    start = time.perf_counter()
    if reruns:
        rerun(page, action)
    else:
        action()
    drawn(page)
    felt = felt_s(page)
    return Timed(felt, time.perf_counter() - start)


# The open tab's panel (Streamlit keeps only the selected one in the page) holds a drawn chart.
TAB_DRAWN = """id => {
  const panel = document.querySelector(`[data-testid='stMain'] [role=tabpanel][aria-labelledby='${id}']`);
  return panel !== null && panel.querySelector('.js-plotly-plot .main-svg') !== null;
}"""


@dataclass(frozen=True)
class Control:
    """A measured control: the page it is on, actions that alternate so every repeat changes the view, what to do
    once before timing (open the tab the control is on), and whether its actions rerun the app."""

    path: str
    actions: list[Callable]
    setup: Callable | None = None
    reruns: bool = True


def radio(page, group: str, option: str):
    return page.locator(MAIN).get_by_role("radiogroup", name=group, exact=True).get_by_role(
        "radio", name=option, exact=True)


def controls() -> dict[str, Control]:
    """Each measured control, by what the table calls it."""
    def click(group: str, option: str):
        return lambda page: radio(page, group, option).click()

    def button(name: str):
        return lambda page: page.locator(MAIN).get_by_role("button", name=name, exact=True).click()

    def submit(sentence: str):
        def act(page):
            page.locator(f"{MAIN} textarea").first.fill(sentence)
            page.locator(MAIN).get_by_role("button", name="Translate", exact=True).click()
        return act

    def reference(text: str):
        def act(page):
            box = page.locator(f"{MAIN} .st-key-training-bleu-reference input").first
            box.fill(text)
            box.press("Enter")
        return act

    def tab(label: str):
        def act(page):
            tab = page.locator(MAIN).get_by_role("tab", name=label, exact=True)
            tab.click()
            page.wait_for_function(TAB_DRAWN, arg=tab.get_attribute("id"))
        return act

    def bleu_tab(page):
        page.locator(MAIN).get_by_role("tab", name=EN["training.tab.bleu"], exact=True).click()
        page.locator(f"{MAIN} .st-key-training-bleu-reference input").first.wait_for()

    masks_tabs = [EN["masks.tab.pad"], EN["masks.tab.doc"].format(n=len(DOC_SENTENCE))]
    return {
        "translate a sentence": Control("translate", [submit("Where is the station?"), submit("I like my dog.")]),
        "explorer: attention kind": Control("translate", [click("Attention", "Decoder masked self-attention"),
                                                          click("Attention", "Encoder self-attention")]),
        "explorer: layer": Control("translate", [click("Layer", "2"), click("Layer", "1")]),
        "decoding: Next / Previous": Control("decoding?step=1", [button("Next"), button("Previous")]),
        "replay: Next / Previous": Control("replay?snapshot=2", [button("Next"), button("Previous")]),
        "masks: another tab": Control("masks", [tab(label) for label in masks_tabs], reruns=False),
        "training: BLEU recomputed": Control("training", [reference("我有一个梦。"), reference("我有一个梦想。")],
                                             setup=bleu_tab),
    }


def median(times: list[Timed]) -> Timed:
    return Timed(round(statistics.median(t.felt_s for t in times), 3),
                 round(statistics.median(t.total_s for t in times), 3))


def turns(repeat: int, n: int) -> list[int]:
    """The order in which `n` servers take their turn in repeat number `repeat`: forwards, then backwards, so that
    none is always measured first (the VM's speed drifts within a run: an A/B measures both side by side)."""
    order = list(range(n))
    return order if repeat % 2 == 0 else order[::-1]


def clocked_tab(context):
    """A new tab of `context` with the page clock installed for every document it opens."""
    page = watched_page(context)
    page.add_init_script(CLOCK)
    return page


def new_tab(browser):
    """A context of its own with the page clock: (context, page)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)  # a machine busy with other work makes a page slow, not broken
    return context, clocked_tab(context)


def in_new_tab_s(context, url: str) -> Timed:
    """`url` opened in a new tab of `context` (closed again): its time to its first chart."""
    page = clocked_tab(context)
    try:
        return first_chart_s(page, url)
    finally:
        page.close()


# A page's times in a run's results: felt_* as the page felt them, the others as the harness saw them. "median_s"
# and "felt_s" are the same tab's; runs before 2026-11-27's last measured no new tab, and runs before 2026-11-26
# neither the sidebar nor felt times.
PAGE_TIMES = (("new tab", "new_tab_s", "felt_new_tab_s"), ("same tab", "median_s", "felt_s"),
              ("from the sidebar", "sidebar_s", "felt_sidebar_s"), ("cold", "cold_s", "felt_cold_s"))


def measure_pages(browser, bases: list[str], repeats: int, names: tuple[str, ...] = PAGES) -> list[dict]:
    """Per server in `bases` (taking turns), per page: a new browser's first visit (cold), then new tabs of it, the
    address again in its first tab, and the way back to the page from the sidebar; each as felt and as seen (the
    results' felt_* and *_s; "median_s" and "felt_s" are the same tab's, as in runs that measured no new tab)."""
    results: list[dict] = [{} for _ in bases]
    for name in names:
        urls = [f"{base}/{name}?lang=en" for base in bases]
        tabs = [new_tab(browser) for _ in bases]
        cold = [first_chart_s(page, url) for (_, page), url in zip(tabs, urls)]
        fresh, again, switched = [[] for _ in bases], [[] for _ in bases], [[] for _ in bases]
        elsewhere = "translate" if name == registry.FIRST else registry.FIRST
        for repeat in range(repeats):
            for i in turns(repeat, len(bases)):
                fresh[i].append(in_new_tab_s(tabs[i][0], urls[i]))
                again[i].append(first_chart_s(tabs[i][1], urls[i]))
        for repeat in range(repeats):
            for i in turns(repeat, len(bases)):
                from_sidebar_s(tabs[i][1], elsewhere)  # away (not counted), then back by the sidebar
                switched[i].append(from_sidebar_s(tabs[i][1], name))
        for (context, _), found, first, opened, visits, back in zip(tabs, results, cold, fresh, again, switched):
            context.close()
            ways = {"new tab": median(opened), "same tab": median(visits), "from the sidebar": median(back),
                    "cold": median([first])}
            found[name] = {key: getattr(ways[way], field) for way, seen, felt in PAGE_TIMES
                           for key, field in ((seen, "total_s"), (felt, "felt_s"))}
        print(f"  {name:<12} felt: " + " | ".join(
            ", ".join(f"{way} {r[name][felt]:5.2f} s" for way, _, felt in PAGE_TIMES) for r in results), flush=True)
    return results


def measure_controls(browser, bases: list[str], repeats: int) -> list[dict]:
    """Per server in `bases` (taking turns), per control: click → rerun finished and every chart drawn."""
    results: list[dict] = [{} for _ in bases]
    for label, control in controls().items():
        path, actions = control.path, control.actions
        sessions = [open_session(browser, f"{base}/{path}{'&' if '?' in path else '?'}lang=en") for base in bases]
        for _, page in sessions:
            drawn(page)
            if control.setup:
                control.setup(page)
                drawn(page)
        times = [[] for _ in bases]
        for repeat in range(repeats):
            for i in turns(repeat, len(bases)):
                page = sessions[i][1]
                times[i].append(action_s(page, lambda: actions[repeat % len(actions)](page), control.reruns))
        for (context, _), found, measured in zip(sessions, results, times):
            context.close()
            timed = median(measured)
            found[label] = {"median_s": timed.total_s, "felt_s": timed.felt_s}
        print(f"  {label:<28} felt " + " | ".join(f"{r[label]['felt_s']:5.2f} s" for r in results), flush=True)
    return results


def serve(app: Path, port: int, log) -> subprocess.Popen:
    """`streamlit run app.py` in `app`, its output (a traceback, if the app fails) written to the open file `log`."""
    return subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=app, stdout=log, stderr=subprocess.STDOUT)


def page_cell(found: dict) -> str:
    """Each way of opening the page that the run measured, as felt where it measured that, then as seen."""
    def cell(felt: bool) -> str:
        return ", ".join(f"{way} {found[keys[felt]]:.2f} s" for way, *keys in PAGE_TIMES if keys[felt] in found)
    return f"felt: {cell(True)}; seen: {cell(False)}" if "felt_s" in found else cell(False)


def control_cell(found: dict) -> str:
    seen = f"{found['median_s']:.2f} s"
    return f"felt {found['felt_s']:.2f} s; seen {seen}" if "felt_s" in found else seen


def table(runs: dict) -> str:
    """Markdown: one column per labelled run, pages then controls."""
    labels = list(runs)
    head = "| | " + " | ".join(labels) + " |\n|---|" + "---|" * len(labels) + "\n"
    rows = []
    for name in PAGES:
        cells = [page_cell(runs[l]["pages"][name]) if name in runs[l]["pages"] else "–" for l in labels]
        rows.append(f"| page `{name}` → first chart | " + " | ".join(cells) + " |")
    for control in controls():
        cells = [control_cell(runs[l]["controls"][control]) if control in runs[l]["controls"] else "–"
                 for l in labels]
        rows.append(f"| {control} | " + " | ".join(cells) + " |")
    return head + "\n".join(rows)


@contextmanager
def servers(apps: list[Path]):
    """`streamlit run app.py` in each checkout of `apps`, each on a port of its own: yields their base URLs; prints
    a server's last output if anything fails (what failed on its side), and always stops them."""
    logs = [tempfile.TemporaryFile(mode="w+") for _ in apps]
    ports: list[int] = []
    while len(ports) < len(apps):  # a port freed by free_port may be handed out again: each server its own
        port = free_port()
        ports += [] if port in ports else [port]
    running = [serve(app, port, log) for app, port, log in zip(apps, ports, logs)]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for base, server in zip(bases, running):
            wait_for_health(base, server, 180)
        yield bases
    except BaseException:
        for app, log in zip(apps, logs):
            log.seek(0)
            print(f"the last output of the server of {app}:\n" + log.read()[-4000:], file=sys.stderr)
        raise
    finally:
        for server, log in zip(running, logs):
            server.terminate()
            server.wait(timeout=20)
            log.close()


def ratios(after: dict, before: dict) -> str:
    """Lines of after / before for an A/B run, a new tab as seen, the rest as felt: below 1 the --app checkout was
    faster."""
    ways = (("new tab", "new_tab_s"), ("same tab", "felt_s"), ("from the sidebar", "felt_sidebar_s"))

    def page(name: str, found: dict) -> str:
        return f"  page {name}: " + ", ".join(
            f"{way} {found[key] / before['pages'][name][key]:.2f}" for way, key in ways)
    lines = [page(name, found) for name, found in after["pages"].items()]
    lines += [f"  {label}: {found['felt_s'] / before['controls'][label]['felt_s']:.2f}"
              for label, found in after["controls"].items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--app", type=Path, default=ROOT, help="the checkout whose app.py to serve")
    parser.add_argument("--label", default="now")
    parser.add_argument("--against", type=Path, help="another checkout, measured in the same run, turn about (A/B)")
    parser.add_argument("--against-label", default="before")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is not installed (Debian package chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    labels = [args.label] + ([args.against_label] if args.against else [])
    with servers([args.app] + ([args.against] if args.against else [])) as bases, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        print(" | ".join(labels) + ": pages", flush=True)
        pages = measure_pages(browser, bases, args.repeats)
        print(" | ".join(labels) + ": controls", flush=True)
        measured = measure_controls(browser, bases, args.repeats)
        browser.close()
    runs = json.loads(args.out.read_text()) if args.out.exists() else {}
    for label, found, controlled in zip(labels, pages, measured):
        runs[label] = {"pages": found, "controls": controlled, "repeats": args.repeats,
                       "machine": f"{platform.machine()} CPU, {os.cpu_count()} cores",
                       "date": datetime.now(timezone.utc).strftime("%Y-%m-%d")}
    args.out.write_text(json.dumps(runs, indent=1) + "\n")
    print(table(runs))
    if args.against:
        print(f"{args.label} / {args.against_label} (measured turn about in one run):")
        print(ratios(runs[args.label], runs[args.against_label]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
