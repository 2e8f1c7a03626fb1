"""The classroom benchmark (benchmarks/classroom.py): its arithmetic, its own-result check and its merging of runs;
then one small class (2 students, 1 lab) through the whole script, so it cannot rot."""

import html
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from benchmarks import classroom, proc
from tests.support.chromium import CHROMIUM

EXPECTED = {"sentence": "Tom eats rice today.", "translation": "汤姆今天吃米饭。", "ticks": ["▁Tom", "▁eats", "</s>"]}


def test_sentences_are_distinct_and_none_is_the_pages_default():
    from app_pages.state.examples import DEFAULT_SENTENCE

    sentences = [classroom.sentence(i) for i in range(256)]
    assert len(set(sentences)) == 256 and DEFAULT_SENTENCE not in sentences
    assert classroom.sentence(0) == "I like green tea every day."


def test_summary_gives_median_95th_percentile_and_maximum():
    stats = classroom.summary([float(s) for s in range(1, 21)])  # 1 … 20 s
    assert stats == {"n": 20, "p50": 10.5, "p95": 19.05, "max": 20.0}
    assert classroom.summary([2.0]) == {"n": 1, "p50": 2.0, "p95": 2.0, "max": 2.0}
    assert classroom.summary([]) == {"n": 0, "p50": None, "p95": None, "max": None}


@pytest.mark.parametrize("change", [
    {},
    {"input": "I like green tea every day."},  # another student's sentence in the box
    {"translation": "我喜欢绿茶。"},  # another translation
    {"ticks": ["▁I", "▁like", "</s>"]},  # another sentence's map
    {"ticks": EXPECTED["ticks"][:2]},  # the map of a cut sentence
])
def test_own_result_needs_the_students_sentence_translation_and_map(change):
    shown = {"input": EXPECTED["sentence"], "translation": EXPECTED["translation"], "ticks": EXPECTED["ticks"], **change}
    assert classroom.own_result(EXPECTED, shown) is (not change)


def shown_by(browser, body: str) -> dict:
    """What the benchmark's SHOWN script reads off a page whose main area holds `body` (Streamlit's test ids)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(f"<div data-testid='stMain'>{body}</div>")
        page.evaluate(classroom.SHOWN)
        return page.evaluate("window.__shown()")
    finally:
        context.close()


def test_own_result_reads_the_students_page_and_refuses_one_that_shows_nothing(browser):
    """Through the benchmark's own SHOWN script in Chromium: the heading, the map's ticks (its x axis and the axis
    drawn over it) and the text box of a page with the student's result count; a page that shows nothing yet (what
    SHOWN really returns for it: empty texts, no ticks) does not."""
    ticks = "".join(f"<g class='{'xtick' if i % 2 else 'x2tick'}'><text>{html.escape(token)}</text></g>"
                    for i, token in enumerate(EXPECTED["ticks"]))
    own = shown_by(browser, f"<h3>{EXPECTED['translation']}</h3><div class='js-plotly-plot'><svg>{ticks}</svg></div>"
                            f"<textarea>{EXPECTED['sentence']}</textarea>")
    assert own == {"input": EXPECTED["sentence"], "translation": EXPECTED["translation"], "ticks": EXPECTED["ticks"]}
    assert classroom.own_result(EXPECTED, own)
    nothing = shown_by(browser, "<p>Translating…</p>")
    assert nothing == {"input": "", "translation": "", "ticks": []} and not classroom.own_result(EXPECTED, nothing)


def test_merge_keeps_other_counts_replaces_the_same_count_and_orders_by_count():
    earlier = {"60": {"students": 60, "minutes": 9}, "30": {"students": 30, "minutes": 3}}
    merged = classroom.merge(earlier, 8, {"students": 8, "minutes": 1})
    assert list(merged) == ["8", "30", "60"] and merged["60"] == earlier["60"]
    again = classroom.merge(merged, 30, {"students": 30, "minutes": 4})
    assert list(again) == ["8", "30", "60"] and again["30"] == {"students": 30, "minutes": 4}
    assert earlier["30"]["minutes"] == 3  # the caller's results are not changed in place


def test_tracebacks_are_counted_in_the_server_log():
    log = "started\nTraceback (most recent call last):\n  File x\nValueError\nok\nTraceback (most recent call last):\n"
    assert classroom.count_tracebacks(log) == 2 and classroom.count_tracebacks("all fine\n") == 0


# Streamlit 1.67's log when a tab closes while the server accepts its socket (seen in a full suite run, trimmed).
CLIENT_GONE_LOG = """Exception in ASGI application
Traceback (most recent call last):
  File "/x/streamlit/web/server/starlette/starlette_websocket.py", line 516, in _websocket_endpoint
    data = await websocket.receive_bytes()
starlette.websockets.WebSocketDisconnected: WebSocket is not connected. Need to call "accept" first.

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/x/uvicorn/protocols/websockets/websockets_sansio_impl.py", line 409, in run_asgi
  File "/x/streamlit/web/server/starlette/starlette_websocket.py", line 524, in _websocket_endpoint
    await websocket.close()
starlette.websockets.WebSocketDisconnected: Cannot call "send" once a close message has been sent.
"""
APP_ERROR_LOG = """Exception in ASGI application
Traceback (most recent call last):
  File "/work/app_pages/pages/translate.py", line 3, in <module>
ValueError: the app failed
"""


def test_a_closed_tabs_socket_is_a_websocket_error_not_a_server_traceback():
    assert classroom.count_tracebacks(CLIENT_GONE_LOG) == 0 and classroom.clients_gone(CLIENT_GONE_LOG) == 1
    both = CLIENT_GONE_LOG + APP_ERROR_LOG + CLIENT_GONE_LOG
    assert classroom.count_tracebacks(both) == 1 and classroom.clients_gone(both) == 2  # the app's own still counts
    assert classroom.count_tracebacks(APP_ERROR_LOG + CLIENT_GONE_LOG) == 1


def test_cpu_delta_counts_a_process_that_started_in_between_from_zero():
    assert classroom.cpu_delta({1: 2.0, 2: 5.0}, {1: 3.5, 2: 5.0, 3: 0.25}) == pytest.approx(1.75)


def test_proc_reads_this_process():
    assert proc.rss_mb() > 10 and proc.cpu_seconds() > 0
    import os
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in proc.descendants(os.getpid()) and child.pid in proc.cpu_of([child.pid])
    finally:
        child.kill()
        child.wait()


def test_the_server_measured_is_the_one_on_the_benchmarks_port():
    """On a test worker the browser tests' own server is a child too: the benchmark must not measure that one."""
    import subprocess
    import sys

    def fake_server(port: int) -> subprocess.Popen:  # a process whose command line reads like `streamlit run`
        return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", "streamlit", "run", "app.py",
                                 "--server.port", str(port)])

    servers = [fake_server(8701), fake_server(8702)]
    try:
        assert classroom.streamlit_pid("http://127.0.0.1:8702") == servers[1].pid
        assert servers[0].pid not in classroom.browser_processes(servers[1].pid, {servers[0].pid})
    finally:
        for server in servers:
            server.kill()
            server.wait()


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed (Debian package chromium)")
def test_two_students_and_a_lab_through_the_whole_benchmark(tmp_path, capsys):
    pytest.importorskip("playwright.sync_api")
    out = tmp_path / "classroom.json"
    # In a thread of its own: Playwright's sync API refuses a thread whose event loop is running, as the main thread's
    # is on a worker whose browser tests have started the shared Chromium.
    with ThreadPoolExecutor(1) as pool:
        run = pool.submit(classroom.main, ["--students", "2", "--labs", "1", "--timeout", "300", "--out", str(out)])
        assert run.result() == 0
    results = json.loads(out.read_text())
    assert list(results) == ["2"]
    row = results["2"]
    assert row["translate"]["own_results"] == 2 and row["translate"]["time_to_chart_s"]["n"] == 2
    assert (row["error_boxes"], row["console_errors"], row["server_tracebacks"], row["timed_out"]) == (0, 0, 0, False)
    assert row["during_labs"]["labs_started"] == 1 and row["during_labs"]["own_results"] == 1
    assert row["server_cpu_s_per_translation"] > 0 and row["browser_cpu_s_per_translation"] > 0, row
    assert 0 < row["rss_before_mb"] <= row["rss_peak_mb"] and row["rss_after_mb"] <= row["rss_peak_mb"]
    assert "| own result (the student's own translation shown) | 2 / 2 |" in capsys.readouterr().out
