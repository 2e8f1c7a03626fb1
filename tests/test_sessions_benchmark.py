"""Bare sessions (benchmarks/bare_session.py) against a real server: a cold server opened by five students at once,
the class benchmark's own-result check (benchmarks/sessions.py), and the live lab training in its worker process."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from benchmarks import sessions
from benchmarks.bare_session import BareSession
from tests.support.app_server import running_app
from tests.support.paths import needs_checkpoint

pytestmark = [pytest.mark.slow, needs_checkpoint]


def run(coroutine):
    """asyncio.run in a thread of its own: in a pytest worker that has run browser tests, Playwright's sync API has
    an event loop running in this thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("sessions") / "server.log"
    with running_app(log) as url:
        yield url, log
    assert "Traceback (most recent call last)" not in log.read_text()


def test_a_cold_server_serves_five_different_pages_opened_at_once(tmp_path):
    """The first runs of a fresh server, in five sessions at once: each page draws with no error box (Plotly once
    found pandas half-imported by another session's thread here)."""
    async def one(url: str, page: str):
        async with BareSession(url) as session:
            await session.open(page, {"s": "I like green tea."}, timeout=300)
            return session.seen

    async def class_of_five(url: str):
        return await asyncio.gather(*(one(url, page) for page in ("guide", "translate", "decoding", "compare",
                                                                   "explanation")))

    with running_app(tmp_path / "server.log") as url:
        seen = run(class_of_five(url))
    assert all(not page.errors for page in seen), [page.errors for page in seen]
    assert all(page.charts for page in seen[1:]), [page.charts for page in seen]  # Start here has no chart
    assert "Traceback (most recent call last)" not in (tmp_path / "server.log").read_text()


def test_the_class_benchmark_sees_each_student_get_their_own_translation(server, translator):
    url, _ = server
    texts = [sessions.distinct_sentence(i) for i in (0, 300, 600)]
    expected = [translator.translate(text).translation for text in texts]
    distinct = run(sessions.measure(url, None, "translate", [{"s": t} for t in texts], expected))
    shared = run(sessions.measure(url, None, "translate", [{"s": texts[0]}] * 3, [expected[0]] * 3))
    for row in (distinct, shared):
        assert row["own_result"] == 3 and row["failed"] == 0 and not row["errors"], row
        assert 0 < row["p50"] <= row["p95"] <= row["max"]
    wrong = run(sessions.measure(url, None, "translate", [{"s": texts[1]}], [expected[2]]))
    assert wrong["own_result"] == 0  # another student's translation is not theirs


ENDED = ("Learned after", "Stopped at")  # the live lab's closing lines (i18n/en/lab.py)


def test_a_bare_lab_session_trains_in_the_worker_process(server):
    """Train pressed in the live lab: the run advances (the worker's chunks reach the page) until it stops."""
    url, _ = server

    async def train() -> list[str]:
        async with BareSession(url) as session:
            await session.open("lab")
            await session.press("lab.train")
            for _ in range(600):
                # The run ended once its closing line is drawn. Train coming back is not enough: the page's last run
                # draws the button before the progress bar, so a check between the two reads the last chunk's line.
                if session.seen.progress and session.seen.progress[-1].startswith(ENDED):
                    break
                await asyncio.sleep(0.1)
            return session.seen.progress, session.seen.enabled("lab.train")

    progress, train_is_back = run(train())
    steps = [int(m.group(1)) for text in progress if (m := re.match(r"Step (\d+) of", text))]
    assert steps and max(steps) > 0, progress[-3:]
    assert progress[-1].startswith(ENDED), progress[-1]
    assert train_is_back


def test_medians_put_each_row_beside_the_idle_one():
    def row(n, labs, p95, repeat):
        kind = {"p50": p95 / 2, "p95": p95, "max": p95, "server_cpu_s_per_run": 0.05, "load_avg_1min": 1.0,
                "own_result": n, "n": n, "failed": 0, "errors": []}
        return {"students": n, "labs": labs, "lab_runs": 1, "repeat": repeat, "shared": kind, "distinct": kind}

    rows = [row(10, 0, p, r) for r, p in enumerate((1.0, 2.0, 9.0))] + [row(10, 5, p, r) for r, p in
                                                                        enumerate((1.5, 3.0, 3.3))]
    idle, labs = sessions.medians(rows)
    assert idle["shared"]["p95"] == 2.0 and idle["shared"]["p95_vs_idle"] is None and idle["repeats"] == 3
    assert labs["distinct"]["p95"] == 3.0 and labs["distinct"]["p95_vs_idle"] == 1.5
    assert labs["shared"]["own_result"] == 30 and labs["shared"]["n"] == 30
