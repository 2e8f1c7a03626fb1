"""python -m benchmarks.classroom --students N [--labs L] [--timeout S] [--out benchmarks/classroom_results.json]

A class on one server, as it really arrives: `streamlit run app.py` (the project's own config) and N Chromium
contexts (Debian's Chromium through Playwright), each its own Streamlit session as each student's tab is.

1. Every student opens the translate page; once all are idle, each types a sentence of their own and presses
   Translate, all of them before any result is awaited. Each student's time to chart runs from their click to the
   moment their page (timed inside the browser) shows their own translation, their own tokens on the map, every
   chart drawn and the run finished.
2. Lab contention: L of them open the live lab and press Train (the server's lab queue runs them one at a time)
   while the other N − L translate a second sentence each, timed the same way.

Reported: own-result rate (the student's page shows the translation of the sentence they typed, computed here by
the same model), error boxes and console errors in the pages, tracebacks in the server's log, server and browser
CPU seconds per translation, time to chart p50/p95, the server's resident memory before (model loaded, nobody
connected), at its peak and after every tab closed, and the second phase's times. --timeout bounds the whole
run: a student still waiting then counts as having no result. Results are merged by student count into --out and
printed as a table, one column per count.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sys
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
from playwright.sync_api import Error, sync_playwright

from benchmarks import proc
from benchmarks.browser import DRAWN, IDLE
from tests.support.browser import MAIN, TRACEBACK, VIEWPORT, Guard, GuardedBrowser, open_session
from tests.support.app_server import running_app
from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS

OUT = Path(__file__).with_name("classroom_results.json")
SETTLE_S = 5  # after the last tab closes, before "after" is read: the server drops closed sessions
# Distinct everyday sentences, one per student and phase (8 × 8 × 4 = 256 of them), none the page's default.
SUBJECTS = ("I", "You", "We", "They", "My mother", "Tom", "The teacher", "Our neighbours")
ACTIONS = ("like green tea", "read a book", "eat rice", "see the river", "buy three apples", "visit the museum",
           "play football", "write a letter")
WHEN = ("every day", "today", "on Sunday", "in the evening")

# Injected into each student's page: stamps (browser clock, ms) the click on Translate and the first moment after it
# that the page shows the expected result, so every student is timed as their own screen changed, not when this
# script got round to looking at their page.
TIMER = """(() => {
  window.__bench = {expect: null, clicked: null, drawn: null};
  document.addEventListener('click', () => {
    if (window.__bench.expect) { window.__bench.clicked = Date.now(); window.__bench.drawn = null; }
  }, true);
  const check = () => {
    const b = window.__bench;
    if (!b.expect || b.clicked === null || b.drawn !== null) return;
    const app = document.querySelector("[data-testid='stApp']");
    if (!app || app.dataset.testScriptState !== 'notRunning' || app.dataset.testConnectionState !== 'CONNECTED') return;
    const shown = window.__shown();
    if (shown.translation !== b.expect.translation || shown.ticks.join('\\u0001') !== b.expect.ticks.join('\\u0001')) return;
    const charts = [...document.querySelectorAll("[data-testid='stMain'] [data-testid='stPlotlyChart']")];
    if (charts.length && charts.every(c => c.querySelector('.main-svg'))) b.drawn = Date.now();
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})()"""
# What a student's translate page shows: the translation (the page's first level-3 heading), the map's token ticks
# (on the x axis, or the axis drawn over it where every k-th token is labelled), and the text box.
SHOWN = """window.__shown = () => ({
  translation: (document.querySelector("[data-testid='stMain'] h3") || {textContent: ''}).textContent.trim(),
  ticks: [...document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot .xtick text, "
          + "[data-testid='stMain'] .js-plotly-plot .x2tick text")].map(t => t.textContent),
  input: (document.querySelector("[data-testid='stMain'] textarea") || {value: ''}).value,
})"""


def sentence(i: int) -> str:
    """The i-th distinct classroom sentence (i < 256)."""
    subject, rest = SUBJECTS[i % len(SUBJECTS)], i // len(SUBJECTS)
    return f"{subject} {ACTIONS[rest % len(ACTIONS)]} {WHEN[rest // len(ACTIONS) % len(WHEN)]}."


def summary(seconds: list[float]) -> dict:
    """Median, 95th percentile and maximum of `seconds` (None each when nothing was measured)."""
    if not seconds:
        return {"n": 0, "p50": None, "p95": None, "max": None}
    return {"n": len(seconds), "p50": round(float(np.percentile(seconds, 50)), 2),
            "p95": round(float(np.percentile(seconds, 95)), 2), "max": round(max(seconds), 2)}


def own_result(expected: dict, shown: dict) -> bool:
    """Whether a page shows this student's own result: their sentence in the box, its translation, its tokens."""
    return (shown.get("input") == expected["sentence"] and shown.get("translation") == expected["translation"]
            and shown.get("ticks") == expected["ticks"])


# Streamlit's own websocket endpoint failing on a tab that closed while its socket was being accepted (a student's tab
# closed at the run's end on a busy server): a chain of starlette WebSocketDisconnected in its handler, nothing else.
# A client gone is not the app failing: counted as a websocket error, not a server traceback.
CHAIN = re.compile(r"Exception in ASGI application\n(?:Traceback \(most recent call last\):\n(?:  .*\n)*"
                   r"starlette\.websockets\.WebSocketDisconnected: .*\n"
                   r"(?:\nDuring handling of the above exception, another exception occurred:\n\n)?)+")


def _clients_gone(log: str) -> list[str]:
    endpoint = "streamlit/web/server/starlette/starlette_websocket.py"
    return [m.group(0) for m in CHAIN.finditer(log) if endpoint in m.group(0)]


def count_tracebacks(log: str) -> int:
    """Tracebacks in the server's log, leaving out a closed tab's socket failing in Streamlit's endpoint."""
    for gone in _clients_gone(log):
        log = log.replace(gone, "", 1)
    return log.count(TRACEBACK)


def clients_gone(log: str) -> int:
    return len(_clients_gone(log))


def merge(results: dict, students: int, row: dict) -> dict:
    """`results` with this run's row under its student count (replacing an earlier run of that count), by count."""
    merged = {**results, str(students): row}
    return dict(sorted(merged.items(), key=lambda item: int(item[0])))


@dataclass
class Deadline:
    at: float

    def ms(self, floor_s: float = 0.1) -> float:
        """Milliseconds left (at least `floor_s`, so a late wait still looks once)."""
        return max(floor_s, self.at - time.monotonic()) * 1000

    def passed(self) -> bool:
        return time.monotonic() >= self.at


class Server:
    """The streamlit process's resident memory, sampled in the background for its peak, and its CPU seconds."""

    def __init__(self, pid: int, before: set[int]) -> None:
        self.pid, self.peak_mb, self._stop = pid, proc.rss_mb(pid), threading.Event()
        self.before = before  # processes that ran before this script started its server and browser
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            self.peak_mb = max(self.peak_mb, proc.rss_mb(self.pid))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def streamlit_pid(base: str) -> int:
    """The `streamlit run` process this script started, serving `base` (in a test, the worker's own server for its
    browser tests is a child of the same process, on another port)."""
    port = urlparse(base).port
    for pid in proc.descendants(os.getpid()):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in argv and str(port).encode() in argv:
            return pid
    raise RuntimeError("the streamlit server process is not among this script's children")


def expectations(sentences: list[str]) -> list[dict]:
    """What each sentence should show: computed by the shipped model in this process, before the server starts (the
    app's default beam, as the translate page uses)."""
    from model import DEFAULT_CHECKPOINT, Translator, configure_torch_threads

    configure_torch_threads()  # as the server does: on a busy 2-core machine two threads per call run 20× slower
    translator = Translator.from_checkpoint(DEFAULT_CHECKPOINT, device="cpu")
    expected = []
    for text in sentences:
        result = translator.translate(text)
        expected.append({"sentence": text, "translation": result.translation or "∅",
                         "ticks": list(result.source_tokens)})
    return expected


class Students:
    """The class's tabs, opened at once; websocket errors (Streamlit's client reconnects and reruns) are counted."""

    def __init__(self, browser, url: str, n: int) -> None:
        self.socket_errors = 0
        self.tabs, self.ready = [], []  # every tab; those that opened (only they can type)
        for _ in range(n):
            context = browser.new_context(viewport=VIEWPORT)
            page = context.new_page()
            page.on("websocket", lambda ws: ws.on("socketerror", self._socket_error))
            self.tabs.append((context, page))
        for _, page in self.tabs:
            page.goto(url, wait_until="commit")

    def _socket_error(self, _) -> None:
        self.socket_errors += 1

    def wait_until_open(self, deadline: Deadline) -> int:
        """Waits until every tab shows the page idle with its charts drawn (within the deadline); returns how many do."""
        for tab in self.tabs:
            page = tab[1]
            try:
                page.wait_for_selector(f"{MAIN} h3", timeout=deadline.ms())
                page.wait_for_selector(IDLE, timeout=deadline.ms())
                page.wait_for_function(DRAWN, timeout=deadline.ms())
                page.evaluate(SHOWN)
                page.evaluate(TIMER)
                self.ready.append(tab)
            except Error as error:
                print(f"  a tab did not open: {str(error).splitlines()[0]}", file=sys.stderr)
        return len(self.ready)

    def close(self) -> None:
        for context, _ in self.tabs:
            context.close()


# One student's typing and click, inside their page: Playwright's own fill and click wait for each element to be
# stable in a renderer that shares two cores with thirty others (30 students took 3.4 minutes to send that way), so
# the class would not press at about the same time. The text box is in a form: its value is the form's on input.
SEND = """e => {
  window.__bench.expect = {translation: e.translation, ticks: e.ticks};
  window.__bench.clicked = null;
  const box = document.querySelector("[data-testid='stMain'] textarea");
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(box, e.sentence);
  box.dispatchEvent(new Event('input', {bubbles: true}));
  [...document.querySelectorAll("[data-testid='stMain'] button")].find(b => b.innerText.trim() === e.button).click();
}"""


def send(page, expected: dict, deadline: Deadline) -> None:
    """The student types their sentence and presses Translate; nothing is awaited (the class presses together)
    but the text box itself, which a tab that has just finished a run may be redrawing."""
    try:
        page.wait_for_selector(f"{MAIN} textarea", timeout=deadline.ms())
        page.evaluate(SEND, {**expected, "button": "Translate"})
    except Error as error:  # a tab that never opened: this student gets no result
        print(f"  could not send {expected['sentence']!r}: {str(error).splitlines()[0]}", file=sys.stderr)


def outcome(page, expected: dict, deadline: Deadline) -> dict:
    """Seconds from the student's click to their own result drawn (None if it never came), and whether the page
    shows their own result."""
    try:
        page.wait_for_function("() => window.__bench.drawn !== null", timeout=deadline.ms())
    except Error:
        pass
    try:
        bench = page.evaluate("() => ({...window.__bench, shown: window.__shown()})")
    except Error:
        return {"seconds": None, "own": False}
    drawn, clicked = bench["drawn"], bench["clicked"]
    seconds = (drawn - clicked) / 1000 if drawn is not None and clicked is not None else None
    return {"seconds": seconds, "own": own_result(expected, bench["shown"])}


def translate_round(students: list, ready: list, expected: list[dict], deadline: Deadline) -> dict:
    """Every student whose tab opened sends at once (until the deadline), then each one's result is collected; a
    student whose tab never opened, or who could not send in time, has no result."""
    sending, sent = time.monotonic(), []
    for tab, e in zip(students, expected):
        if tab in ready and not deadline.passed():
            send(tab[1], e, deadline)
            sent.append((tab[1], e))
    send_s = time.monotonic() - sending  # one script types for the whole class: the first click to the last
    outcomes = [outcome(page, e, deadline) for page, e in sent]
    return {"students": len(students), "sent": len(sent), "own_results": sum(o["own"] for o in outcomes),
            "send_s": round(send_s, 1),
            "time_to_chart_s": summary([o["seconds"] for o in outcomes if o["seconds"] is not None])}


def start_labs(labs: list, base: str, deadline: Deadline) -> int:
    """Each lab student opens the live lab and presses Train; returns how many runs started (queued or training)."""
    train = f"{MAIN} .st-key-lab-train button"
    started = 0
    for _, page in labs:
        try:
            page.goto(f"{base}/lab?lang=en", wait_until="commit")
            page.locator(f"{train}:not([disabled])").wait_for(timeout=deadline.ms())
            page.locator(train).click(timeout=deadline.ms())
            page.locator(f"{train}[disabled]").wait_for(timeout=deadline.ms())  # the run is queued or training
            started += 1
        except Error as error:
            print(f"  a lab did not start: {str(error).splitlines()[0]}", file=sys.stderr)
    return started


def labs_busy(labs: list) -> int:
    """Lab runs still queued or training (their Train button disabled) now."""
    return sum(page.locator(f"{MAIN} .st-key-lab-train button[disabled]").count() > 0 for _, page in labs)


def cpu_delta(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two readings of the same processes (one that started in between: all of it)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def browser_processes(server_pid: int, before: set[int]) -> list[int]:
    """Chromium's processes and Playwright's driver: everything this script started except the server (`before`:
    the processes that ran before it started, such as a test worker's own server and Chromium)."""
    return [pid for pid in proc.descendants(os.getpid()) if pid != server_pid and pid not in before]


def lessons(class_: Students, expected: list[dict], labs: int, base: str, deadline: Deadline, server: Server) -> dict:
    """The two phases on the open sessions: everyone translates, then `labs` train while the others translate."""
    row: dict = {}
    students = class_.tabs
    browsers = browser_processes(server.pid, server.before)
    cpu_before, browsers_before = proc.cpu_seconds(server.pid), proc.cpu_of(browsers)
    row["translate"] = translate_round(students, class_.ready, expected[:len(students)], deadline)
    server_cpu = proc.cpu_seconds(server.pid) - cpu_before
    browser_cpu = cpu_delta(browsers_before, proc.cpu_of(browser_processes(server.pid, server.before)))
    translations = row["translate"]["sent"]  # the server computed every one sent (a late one still counts)
    if translations:
        row["server_cpu_s_per_translation"] = round(server_cpu / translations, 2)
        row["browser_cpu_s_per_translation"] = round(browser_cpu / translations, 2)
    print(f"  everyone translates: {row['translate']}", flush=True)
    if labs and not deadline.passed():
        lab_students, translating = students[:labs], students[labs:]
        started = start_labs(lab_students, base, deadline)
        during = translate_round(translating, class_.ready, expected[len(students):len(students) + len(translating)],
                                 deadline)
        row["during_labs"] = {"labs": labs, "labs_started": started, **during,
                              "labs_busy_at_end": labs_busy(lab_students)}
        print(f"  during {labs} labs: {row['during_labs']}", flush=True)
    return row


def class_of(n: int, labs: int, timeout_s: float) -> dict:
    """One classroom run: the server started, warmed (the model loaded by one tab), n students, then every tab closed."""
    deadline = Deadline(time.monotonic() + timeout_s)
    expected = expectations([sentence(i) for i in range(2 * n)])
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"classroom-{os.getpid()}.log"
    guard = Guard()
    guard.log = log
    row: dict = {"students": n, "load_average_at_start": round(os.getloadavg()[0], 1)}
    before = set(proc.descendants(os.getpid()))
    started = time.monotonic()
    with running_app(log) as base, sync_playwright() as p:
        browser = GuardedBrowser(p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS), guard)
        guard.start()
        context, _ = open_session(browser, f"{base}/translate?lang=en")  # loads the model: "before" is a ready server
        context.close()
        server = Server(streamlit_pid(base), before)
        row["rss_before_mb"] = round(proc.rss_mb(server.pid))
        opening = time.monotonic()
        students = Students(browser, f"{base}/translate?lang=en", n)
        try:
            row["tabs_ready"] = students.wait_until_open(deadline)
            row["open_s"] = round(time.monotonic() - opening, 1)
            row.update(lessons(students, expected, min(labs, n - 1), base, deadline, server))
        except Error as error:  # what was measured so far is kept, with the reason the rest is missing
            row["aborted"] = str(error).splitlines()[0]
        finally:
            row["websocket_errors"] = students.socket_errors
            students.close()
        time.sleep(SETTLE_S)
        row["rss_peak_mb"], row["rss_after_mb"] = round(server.peak_mb), round(proc.rss_mb(server.pid))
        server.stop()
        browser.close()
    problems = guard.problems()
    row["problems_seen"] = [p[:300] for p in problems[:5]]  # the first few, for whoever reads the results
    row["error_boxes"] = sum(p.startswith("exception box") for p in problems)
    row["console_errors"] = sum(p.startswith(("console error", "uncaught page error")) for p in problems)
    server_log = log.read_text(encoding="utf-8", errors="replace")
    row["server_tracebacks"] = count_tracebacks(server_log)
    row["websocket_errors"] += clients_gone(server_log)
    row["timed_out"] = deadline.passed()
    row["minutes"] = round((time.monotonic() - started) / 60, 1)
    row["machine"] = f"{platform.machine()} CPU, {os.cpu_count()} cores, shared with other work"
    row["date"] = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    return row


def seconds_cell(stats: dict | None) -> str:
    if not stats or not stats.get("n"):
        return "–"
    return f"{stats['p50']:.1f} s / {stats['p95']:.1f} s"


def sent(row: dict) -> int:
    """Translations the class sent in the first phase (a run before "sent" was recorded: every student)."""
    return row["translate"].get("sent", row["translate"]["students"]) if "translate" in row else 0


def table(results: dict) -> str:
    """Markdown: one column per student count."""
    counts = list(results)
    rows = {
        "own result (the student's own translation shown)": lambda r: (
            f"{r['translate']['own_results']} / {r['translate']['students']}" if "translate" in r else "–"),
        "tabs that opened (page drawn)": lambda r: f"{r.get('tabs_ready', '–')} / {r['students']}",
        "error boxes / console errors / server tracebacks / websocket errors": lambda r: (
            f"{r['error_boxes']} / {r['console_errors']} / {r['server_tracebacks']} / {r.get('websocket_errors', '–')}"),
        "first click to last click (one script clicks for the class)": lambda r: (
            f"{r['translate']['send_s']} s" if sent(r) else "–"),
        "time to chart, p50 / p95": lambda r: seconds_cell(r.get("translate", {}).get("time_to_chart_s")),
        "server CPU per translation": lambda r: f"{r['server_cpu_s_per_translation']:.2f} s" if sent(r) else "–",
        "browsers' CPU per translation": lambda r: f"{r['browser_cpu_s_per_translation']:.2f} s" if sent(r) else "–",
        "server RSS before / peak / after": lambda r: (
            f"{r['rss_before_mb']} / {r['rss_peak_mb']} / {r['rss_after_mb']} MB"),
        "labs training; the others' time to chart p50 / p95 meanwhile": lambda r: (
            f"{r['during_labs']['labs']}; {seconds_cell(r['during_labs']['time_to_chart_s'])} "
            f"(own result {r['during_labs']['own_results']} / {r['during_labs']['students']}, "
            f"{r['during_labs']['labs_busy_at_end']} labs still queued or training at the end)"
            if "during_labs" in r else "–"),
        "opening every tab; whole run": lambda r: (
            f"{r.get('open_s', '–')} s; {r['minutes']} min{' (stopped by --timeout)' if r['timed_out'] else ''}"),
        "load average when it started (others' work)": lambda r: f"{r['load_average_at_start']}",
    }
    head = "| students | " + " | ".join(counts) + " |\n|---|" + "---|" * len(counts) + "\n"
    return head + "\n".join(f"| {name} | " + " | ".join(cell(results[c]) for c in counts) + " |"
                            for name, cell in rows.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--labs", type=int, default=5, help="students who train in the live lab in phase 2")
    parser.add_argument("--timeout", type=float, default=600, help="seconds for the whole run, server start included")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is not installed (Debian package chromium)", file=sys.stderr)
        return 2
    if not 1 <= args.students <= len(SUBJECTS) * len(ACTIONS) * len(WHEN) // 2:
        parser.error("--students must be between 1 and 128 (two distinct sentences each)")
    row = class_of(args.students, args.labs, args.timeout)
    results = merge(json.loads(args.out.read_text()) if args.out.exists() else {}, args.students, row)
    args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(table(results))
    return 0 if "aborted" not in row else 1


if __name__ == "__main__":
    raise SystemExit(main())
