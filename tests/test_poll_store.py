"""The class poll's shared state (app_pages/state/poll_store.py): one SQLite file every session and a restarted server read,
or (ATTENTION_POLL_DB) one PostgreSQL database every replica shares. Every behaviour test runs on both: the
PostgreSQL runs on a throwaway cluster (tests/support/postgres.py) and skip, with the reason, where it cannot be made."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest

from app_pages.state.poll_store import (
    CODE, DB_ENV, EXPIRES_S, FILE_NAME, MAX_OPTIONS, PollStore, PostgresPollStore, data_dir, read_code,
)
from tests.support import postgres as postgres_support

QUESTION = {"kind": "cross", "layer": 1, "head": -1, "sentence": "I have a dream.", "query": "梦", "row": 5}
OPTIONS = ["▁I", "▁have", "▁a", "▁dream", ".", "</s>"]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()



@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path, clock, monkeypatch):
    """An empty store of each kind, as the pages get it: `PollStore()` with ATTENTION_DATA_DIR, or with
    ATTENTION_POLL_DB naming the cluster."""
    if request.param == "sqlite":
        monkeypatch.delenv(DB_ENV, raising=False)
        monkeypatch.setenv("ATTENTION_DATA_DIR", str(tmp_path))
        made = PollStore(clock=clock)
        assert made.path == tmp_path / FILE_NAME
    else:
        url = request.getfixturevalue("postgres_url")
        postgres_support.empty_tables(url)
        monkeypatch.setenv(DB_ENV, url)
        made = PollStore(clock=clock)
        assert isinstance(made, PostgresPollStore)
    return made


def reopened(store, clock):
    """A new store on the same file or database, as a restarted server makes."""
    return PollStore(store.path, clock=clock) if type(store) is PollStore else PostgresPollStore(store.url, clock)


def count(store, sql: str, *params) -> int:
    with store.transaction() as db:
        return db.execute(sql, params).fetchone()[0]


def test_a_new_poll_has_a_short_unambiguous_code(store):
    code = store.create(QUESTION, OPTIONS, answer=3)
    assert CODE.fullmatch(code) and not set(code) & set("0O1IL2Z5S8B")
    poll = store.poll(code)
    assert (poll.question, poll.options, poll.answer, poll.revealed) == (QUESTION, OPTIONS, 3, False)
    assert store.poll(code.lower()) == poll  # typed in lower case, with a space: the same poll
    assert store.poll(code[:2] + " " + code[2:]) == poll


def test_votes_are_counted_per_option(store):
    code = store.create(QUESTION, OPTIONS, answer=3)
    assert [store.vote(code, f"student{i}", choice) for i, choice in enumerate([3, 3, 0, 5])] == ["voted"] * 4
    assert store.counts(code) == [1, 0, 0, 2, 0, 1]
    assert store.choice_of(code, "student2") == 0 and store.choice_of(code, "nobody") is None


def test_a_voter_votes_once_per_poll(store):
    code, other = store.create(QUESTION, OPTIONS, answer=3), store.create(QUESTION, OPTIONS, answer=3)
    assert store.vote(code, "ana", 1) == "voted"
    assert store.vote(code, "ana", 2) == "twice"
    assert store.vote(other, "ana", 2) == "voted"  # another poll is another question
    assert store.counts(code) == [0, 1, 0, 0, 0, 0]


def test_a_vote_must_be_one_of_the_options(store):
    code = store.create(QUESTION, OPTIONS, answer=3)
    for bad in (-1, len(OPTIONS), "1", 1.0, True, None):
        assert store.vote(code, "ana", bad) == "bad_choice"
    assert store.vote(code, "x" * 65, 1) == "bad_voter"
    assert store.vote(code, "", 1) == "bad_voter"
    assert store.counts(code) == [0] * len(OPTIONS)


def test_bad_codes_find_nothing(store):
    store.create(QUESTION, OPTIONS, answer=3)
    for bad in ("<script>alert(1)</script>", "", "ABCD", "ABCDEF", "AAAA0", "' OR 1=1 --", "A" * 10_000, None, 3):
        assert read_code(bad) is None
        assert store.poll(bad) is None
        assert store.vote(bad, "ana", 0) == "no_poll"
    assert store.poll("ACDEF") is None  # well formed, never made


def test_polls_expire(store, clock):
    code = store.create(QUESTION, OPTIONS, answer=3)
    clock.now += EXPIRES_S - 1
    assert store.vote(code, "ana", 1) == "voted"
    clock.now += 2
    assert store.poll(code) is None
    assert store.vote(code, "bob", 1) == "no_poll"
    assert store.counts(code) == []


def test_long_expired_polls_are_deleted_with_their_votes(store, clock):
    old = store.create(QUESTION, OPTIONS, answer=3)
    store.vote(old, "ana", 1)
    clock.now += 3 * EXPIRES_S + 24 * 3600
    store.create(QUESTION, OPTIONS, answer=3)
    assert count(store, "SELECT COUNT(*) FROM polls WHERE code = ?", old) == 0
    assert count(store, "SELECT COUNT(*) FROM votes WHERE code = ?", old) == 0


def test_a_restart_loses_nothing(store, clock):
    """A new store on the same file or database (as a restarted server makes) sees the polls, votes and reveal; for
    PostgreSQL the database server itself is restarted too (the pool's old connections are then dead)."""
    code = store.create(QUESTION, OPTIONS, answer=3)
    store.vote(code, "ana", 3)
    store.vote(code, "bob", 1)
    store.reveal(code)
    if isinstance(store, PostgresPollStore):
        postgres_support.shared_cluster().stop()
        postgres_support.shared_cluster().start()
    again = reopened(store, clock)
    assert again.counts(code) == [0, 1, 0, 1, 0, 0]
    assert again.poll(code).revealed
    assert again.vote(code, "ana", 2) == "twice"
    if not isinstance(store, PostgresPollStore):
        with sqlite3.connect(store.path) as db:
            assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_poll_needs_options_and_an_answer_among_them(store):
    with pytest.raises(ValueError, match="options"):
        store.create(QUESTION, ["only one"], answer=0)
    with pytest.raises(ValueError, match="options"):
        store.create(QUESTION, ["x"] * (MAX_OPTIONS + 1), answer=0)
    with pytest.raises(ValueError, match="answer"):
        store.create(QUESTION, OPTIONS, answer=len(OPTIONS))
    code = store.create({"query": "q" * 5000}, ["x" * 5000, "y"], answer=None)
    poll = store.poll(code)
    assert len(poll.question["query"]) == 200 and len(poll.options[0]) == 200  # bounded in size


def test_the_folder_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv(DB_ENV, raising=False)
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(tmp_path / "class"))
    assert data_dir() == tmp_path / "class"
    assert PollStore().path == tmp_path / "class" / FILE_NAME
    assert (tmp_path / "class" / FILE_NAME).is_file()
    monkeypatch.delenv("ATTENTION_DATA_DIR")
    assert data_dir() == Path(tempfile.gettempdir())


def test_reveal_closes_voting_and_reopen_opens_it(store):
    """Issue 62: a student who joins after the answer is shown cannot pad the tally ("0 of 1" into "1 of 2")."""
    code = store.create(QUESTION, OPTIONS, answer=3)
    assert store.vote(code, "ana", 1) == "voted"
    store.reveal(code)
    assert store.vote(code, "late", 3) == "closed"
    assert store.vote(code, "ana", 3) == "twice"  # a second vote is still a second vote
    assert store.counts(code) == [0, 1, 0, 0, 0, 0] and store.choice_of(code, "late") is None
    store.reopen(code)
    assert not store.poll(code).revealed
    assert store.vote(code, "late", 3) == "voted"
    assert store.counts(code) == [0, 1, 0, 1, 0, 0]


def test_a_new_poll_on_the_same_question_starts_empty_and_open(store):
    code = store.create(QUESTION, OPTIONS, answer=3)
    store.vote(code, "ana", 1)
    store.reveal(code)
    fresh = store.again(code)
    assert fresh != code and store.counts(fresh) == [0] * len(OPTIONS)
    poll = store.poll(fresh)
    assert (poll.question, poll.options, poll.answer, poll.revealed) == (QUESTION, OPTIONS, 3, False)
    assert store.vote(fresh, "ana", 3) == "voted"
    assert store.again("ACDEF") is None
