"""Teacher controls: passcode guessing is slowed down per session and per address, and only a connected browser on
this machine is local (issue 53, items 6 and 9)."""

from __future__ import annotations

import pytest
import streamlit.runtime.context as context
from streamlit.testing.v1 import AppTest

from app_pages.state import server
from tests.support.paths import ROOT

APP = str(ROOT / "app.py")
RIGHT = "s3cret code"


class Clock:
    """A clock the test moves by hand: no test waits for real seconds."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_passcodes_are_free_up_to_a_point_then_each_locks_out_twice_as_long():
    clock = Clock()
    guesses = server.Guesses(clock)
    keys = ("session a", "address x")
    assert [guesses.wrong(keys) for _ in range(server.FREE_GUESSES)] == [0.0] * server.FREE_GUESSES
    waits = []
    for _ in range(4):
        waits.append(guesses.wrong(keys))
        clock.now += waits[-1]  # waits it out, then guesses wrong again
    assert waits == [server.LOCK_S * 2 ** i for i in range(4)]
    assert guesses.wait(("session b", "address x")) == 0  # the lock ran out, and a new session has no count yet
    guesses.wrong(keys)
    assert guesses.wait(("session b", "address x")) == server.LOCK_S * 2 ** 4  # ...but shares its address's lock
    assert guesses.wait(("session b", "address y")) == 0
    for _ in range(100):
        clock.now += guesses.wrong(keys)
    assert guesses.wrong(keys) == server.MAX_LOCK_S
    guesses.right(keys)
    assert guesses.wait(keys) == 0


@pytest.fixture()
def locked_server(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(server, "PASSCODE", RIGHT)
    shared = server.Guesses(clock)
    monkeypatch.setattr(server, "guesses", lambda: shared)
    return clock


def teacher_controls(at: AppTest) -> bool:
    return bool([s for s in at.selectbox if s.key == "teacher.device"])


def guess(at: AppTest, passcode: str) -> str:
    at.text_input(key="teacher.passcode").input(passcode).run()
    assert not at.exception
    return " ".join(c.value for c in at.sidebar.caption)


@pytest.mark.parametrize("lang, locked_words", [("en", "Too many wrong passcodes"), ("zh", "输错口令的次数太多")])
def test_twenty_wrong_guesses_lock_out_the_right_passcode_until_the_wait_is_over(locked_server, lang, locked_words):
    at = AppTest.from_file(APP, default_timeout=240)
    at.session_state["lang"] = lang
    at.run()
    said = [guess(at, f"guess {i}") for i in range(20)]
    assert all(locked_words not in s for s in said[:server.FREE_GUESSES])
    assert all(locked_words in s for s in said[server.FREE_GUESSES:])
    assert locked_words in guess(at, RIGHT) and not teacher_controls(at)  # the right one, while locked out: refused
    other_tab = AppTest.from_file(APP, default_timeout=240)  # a new session from the same address is locked too
    other_tab.session_state["lang"] = lang
    other_tab.run()
    assert locked_words in guess(other_tab, RIGHT) and not teacher_controls(other_tab)
    locked_server.now += server.MAX_LOCK_S  # the longest wait there is
    guess(at, RIGHT)
    assert teacher_controls(at)


class Client:
    """What Streamlit keeps of a session's connection: the TCP peer's address and the request's headers."""

    def __init__(self, remote_ip: str, headers: dict) -> None:
        self.remote_ip, self.headers = remote_ip, list(headers.items())


@pytest.mark.parametrize("client, teacher", [
    (Client("127.0.0.1", {"Host": "localhost:8501"}), True),  # a browser on this machine
    (Client("192.168.1.20", {"Host": "192.168.1.5:8501"}), False),  # a student's laptop
    (None, False),  # a session whose websocket dropped: Streamlit has no client to ask, and says None as for localhost
])
def test_without_a_passcode_only_a_connected_browser_on_this_machine_is_the_teacher(monkeypatch, client, teacher):
    monkeypatch.setattr(server, "PASSCODE", "")
    monkeypatch.setattr(context, "_get_client_context", lambda: client)
    assert server.is_teacher() is teacher
