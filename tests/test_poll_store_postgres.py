"""The class poll past one machine (issue 52 §5): ATTENTION_POLL_DB=postgresql://… makes every app process share one
PostgreSQL database (app_pages/state/poll_store.PostgresPollStore). The store's behaviour tests run on it in
tests/test_poll_store.py; here: what a bad address, an unreachable server or a missing psycopg says (in words, never
the password), one vote per student when the same student's votes race, and two real app servers on two ports
sharing one poll through the real pages in Chromium — a student votes on server A, the teacher's tally on server B
counts it, server A is killed (SIGKILL) and nothing is lost, a restarted A serves the same poll.

The cluster is a throwaway one (tests/support/postgres.py: Debian's PostgreSQL, initdb in a temporary folder, a free
port); everything that needs it skips, saying why, where PostgreSQL's binaries or psycopg are missing.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading

import pytest

from app_pages.state import poll_store
from app_pages.state.poll_store import DB_ENV, FILE_NAME, PollStore, PostgresPollStore, StoreUnavailable
from tests.support import postgres as postgres_support
from tests.support.app_server import SERVER_START_S, app_server, free_port, wait_for_health
from tests.support.chromium import CHROMIUM
from tests.support.paths import ROOT

SECRET = "s3cr3t-Pa55"
QUESTION = {"kind": "cross", "layer": 0, "head": -1, "sentence": "I have a dream.", "query": "我", "row": 1}
OPTIONS = ["▁I", "▁have", "▁a", "▁dream", ".", "</s>"]



@pytest.fixture
def shared(postgres_url, monkeypatch):
    """ATTENTION_POLL_DB naming the cluster, its poll tables empty."""
    postgres_support.empty_tables(postgres_url)
    monkeypatch.setenv(DB_ENV, postgres_url)
    return postgres_url


def assert_said_without_password(problem: StoreUnavailable, *words: str) -> None:
    said = f"{problem} {problem.path} {problem.reason}"
    assert SECRET not in said and "s3cr3t" not in said, said
    assert problem.database
    for word in words:
        assert word in problem.reason, problem.reason


@pytest.mark.parametrize("url, words", [
    (f"postgresql://teacher:{SECRET}@127.0.0.1:1/polls", ["cannot be reached", "Connection refused"]),
    (f"postgresql://teacher:{SECRET}@127.0.0.1:notaport/polls", ["cannot be read"]),
    (f"postgresql://teacher:{SECRET}@[::1/polls", ["cannot be read"]),
    (f"postgresql://teacher:{SECRET}@127.0.0.1:1/polls?nonsense=1", ["cannot be read", "nonsense"]),
    (f"postgresql://teacher@127.0.0.1:1/polls?password={SECRET}", ["cannot be reached"]),
    (f"mysql://teacher:{SECRET}@127.0.0.1/polls", ["must be a postgresql:// address"]),
])
def test_a_bad_address_or_an_unreachable_server_is_said_in_words(monkeypatch, url, words):
    pytest.importorskip("psycopg")
    monkeypatch.setenv(DB_ENV, url)
    with pytest.raises(StoreUnavailable) as raised:
        PollStore()  # what the pages call
    assert_said_without_password(raised.value, *words)
    if "@127.0.0.1:1/" in url:
        assert raised.value.path == "postgresql://teacher@127.0.0.1:1/polls"  # where, without the password


def test_a_missing_driver_is_said_in_words(monkeypatch):
    """Without psycopg (as where it is not installed: the import fails) the store says so; the app itself imports
    poll_store without psycopg (it is imported only when ATTENTION_POLL_DB is set)."""
    monkeypatch.setitem(sys.modules, "psycopg", None)  # `import psycopg` raises ImportError
    monkeypatch.setenv(DB_ENV, f"postgresql://teacher:{SECRET}@db.school.example/polls")
    with pytest.raises(StoreUnavailable) as raised:
        PollStore()
    assert_said_without_password(raised.value, "no PostgreSQL driver", "psycopg")
    assert raised.value.path == "postgresql://teacher@db.school.example/polls"


def test_the_app_imports_the_store_without_psycopg():
    code = ("import sys; sys.modules['psycopg'] = None; from app_pages.state import poll_store; from app_pages.components import polls; "
            "assert type(poll_store.PollStore()) is poll_store.PollStore; print('ok')")
    env = {k: v for k, v in os.environ.items() if k != DB_ENV}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert done.stdout.strip().endswith("ok"), done.stderr[-2000:]


def test_unset_or_empty_means_sqlite(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(tmp_path))
    for value in (None, "", "  "):
        if value is None:
            monkeypatch.delenv(DB_ENV, raising=False)
        else:
            monkeypatch.setenv(DB_ENV, value)
        store = PollStore()
        assert type(store) is PollStore and store.path == tmp_path / FILE_NAME


def test_one_vote_per_student_when_votes_race(shared):
    """Two processes' worth of stores, 16 threads: the same student's 8 racing votes count once (the unique
    constraint decides), 8 other students' count once each, and a second store (another replica) agrees."""
    store, other = PollStore(), PostgresPollStore(shared)
    code = store.create(QUESTION, OPTIONS, answer=3)
    results: list[tuple[str, str]] = []
    lock = threading.Lock()

    def vote(which, voter, choice):
        said = which.vote(code, voter, choice)
        with lock:
            results.append((voter, said))

    threads = [threading.Thread(target=vote, args=((store, other)[i % 2], "ana", i % 6)) for i in range(8)]
    threads += [threading.Thread(target=vote, args=((store, other)[i % 2], f"student{i}", 3)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    ana = [said for voter, said in results if voter == "ana"]
    assert sorted(ana) == ["twice"] * 7 + ["voted"]
    assert [said for voter, said in results if voter != "ana"] == ["voted"] * 8
    first = other.choice_of(code, "ana")
    expected = [0] * 6
    expected[3] += 8
    expected[first] += 1
    assert store.counts(code) == other.counts(code) == expected


def test_tables_dropped_under_the_server_are_made_again(shared):
    """As the SQLite file deleted under the server: one call says what is wrong, the next store works."""
    PollStore().poll("ACDEF")
    import psycopg

    with psycopg.connect(shared, autocommit=True) as db:
        db.execute("DROP TABLE votes, polls")
    with pytest.raises(StoreUnavailable, match="does not exist"):
        PollStore().poll("ACDEF")
    assert PollStore().poll("ACDEF") is None


def test_the_pool_keeps_few_connections(shared):
    store = PollStore()
    store.poll("ACDEF")
    idle = poll_store._IDLE[shared]
    assert 1 <= len(idle) <= poll_store.POOL_IDLE
    code = store.create(QUESTION, OPTIONS, answer=1)
    threads = [threading.Thread(target=lambda i=i: store.vote(code, f"s{i}", 1)) for i in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert store.counts(code)[1] == 30 and len(poll_store._IDLE[shared]) <= poll_store.POOL_IDLE


# ---------------------------------------------------------------- two app servers, one database, the real pages


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed (Debian package chromium)")
def test_two_servers_share_one_poll_and_a_killed_server_loses_nothing(browser, shared, tmp_path):
    """Server B's teacher starts a poll from the explorer; a student on server A votes; B's live tally counts it.
    A is killed (SIGKILL, no clean shutdown): B still counts the vote; A restarted on its port serves the same poll,
    where a second student votes, and B's tally counts both. Each server has a data folder of its own, where no poll
    file is ever made: the poll lives only in PostgreSQL."""
    from playwright.sync_api import expect

    from tests.support.browser import MAIN, open_session, rerun, screenshot
    from tests.support.poll import WORDS, own_browser, tally_title, vote

    envs = {name: {DB_ENV: shared, "ATTENTION_DATA_DIR": str(tmp_path / f"data-{name}")} for name in "AB"}
    ports = {name: free_port() for name in "AB"}
    urls = {name: f"http://127.0.0.1:{port}" for name, port in ports.items()}
    contexts = []
    with app_server(tmp_path / "B.log", envs["B"], ports["B"]) as b, \
            app_server(tmp_path / "A.log", envs["A"], ports["A"]) as a:
        wait_for_health(urls["B"], b, SERVER_START_S)
        wait_for_health(urls["A"], a, SERVER_START_S)
        try:
            teacher_context, teacher = open_session(browser, f"{urls['B']}/translate?kind=cross&s=I+have+a+dream.")
            contexts.append(teacher_context)
            rerun(teacher, teacher.locator(MAIN).get_by_role("button", name="Start a poll", exact=True).click)
            expect(teacher).to_have_url(re.compile(r"/poll\?.*code=[A-Z0-9]{5}.*view=tally"))
            code = re.search(r"code=([A-Z0-9]{5})", teacher.url).group(1)
            expect(tally_title(teacher, 0)).to_be_visible()

            student_context, student = own_browser(browser, f"{urls['A']}/poll?code={code}")  # on the other server
            vote(student, 3)
            expect(student.locator(MAIN).get_by_text(f"Your vote is in: {WORDS[3]}.")).to_be_visible()
            student_context.close()  # before A goes: a tab left open on a dead server logs console errors
            expect(tally_title(teacher, 1)).to_be_visible()  # B's tally, redrawn by itself, counts A's vote
            screenshot(teacher, "replicas_tally_on_b")

            a.send_signal(signal.SIGKILL)
            a.wait(30)
            teacher.reload(wait_until="commit")  # a new session on B, after A died
            expect(tally_title(teacher, 1)).to_be_visible()
        except BaseException:
            for context in contexts:
                context.close()
            raise

        with app_server(tmp_path / "A-again.log", envs["A"], ports["A"]) as again:
            wait_for_health(urls["A"], again, SERVER_START_S)
            try:
                second_context, second = own_browser(browser, f"{urls['A']}/poll?code={code}")
                contexts.append(second_context)
                expect(second.locator(MAIN).get_by_role("radio")).to_have_count(len(WORDS))  # the same poll
                vote(second, 1)
                expect(second.locator(MAIN).get_by_text(f"Your vote is in: {WORDS[1]}.")).to_be_visible()
                expect(tally_title(teacher, 2)).to_be_visible()
                screenshot(teacher, "replicas_tally_after_restart")
            finally:
                while contexts:
                    contexts.pop().close()
    counts = PostgresPollStore(shared).counts(code)
    assert counts[3] == 1 and counts[1] == 1 and sum(counts) == 2
    for name in "AB":
        assert not (tmp_path / f"data-{name}" / FILE_NAME).exists()  # nothing in SQLite
    for log in ("A.log", "A-again.log", "B.log"):
        assert "Traceback (most recent call last)" not in (tmp_path / log).read_text()


def test_the_poll_page_says_an_unreachable_database_in_words_without_its_password(monkeypatch):
    """The page itself (AppTest, as tests/test_app_poll.py): joining a poll while ATTENTION_POLL_DB names a server
    that refuses connections shows the poll's store message with the address and the driver's reason, never the
    password, and no exception."""
    pytest.importorskip("psycopg")
    from streamlit.testing.v1 import AppTest

    from app_pages.components import polls
    from app_pages.state import state_keys

    monkeypatch.setenv(DB_ENV, f"postgresql://teacher:{SECRET}@127.0.0.1:1/polls")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[state_keys.LANG] = "en"
    at.switch_page("app_pages/pages/poll.py")
    at.run()
    at.text_input(key=polls.JOIN_INPUT).input("ACDEF")
    (join,) = [b for b in at.button if b.label == "Join"]
    join.click().run()
    assert not at.exception, [e.message for e in at.exception]
    shown = "\n".join(e.value for e in at.error).replace("\\", "").replace("\u2060", "")  # as Markdown escaped it
    assert "postgresql://teacher@127.0.0.1:1/polls" in shown and "cannot be reached" in shown, shown
    assert SECRET not in shown and "s3cr3t" not in shown
    assert "ATTENTION_POLL_DB" in shown and "ATTENTION_DATA_DIR" not in shown  # a database's message, not a file's
