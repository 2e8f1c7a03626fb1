"""Teacher controls: passcode guessing is slowed down per browser and, far less, per address (issue 62, item 3); the
teacher cookie keeps a browser signed in until it expires or the passcode changes (item 2); only a connected browser
on this machine is local (issue 53, items 6 and 9)."""

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


def test_a_limit_is_free_up_to_a_point_then_doubles_up_to_its_most():
    limit = server.Limit(free=3, first_s=10, most_s=75)
    assert [limit.lock_s(n) for n in range(1, 9)] == [0, 0, 0, 10, 20, 40, 75, 75]
    assert limit.lock_s(10_000) == 75  # no overflow however long a script keeps going


def test_the_address_is_held_back_far_less_than_the_browser():
    browser, address = server.BROWSER_LIMIT, server.ADDRESS_LIMIT
    assert address.free >= 3 * browser.free  # a class's typos, and one student's six guesses, leave the address free
    assert address.most_s * 10 <= browser.most_s  # a locked address waits a minute at most, a browser 15
    assert sum(address.lock_s(n) for n in range(1, address.free + 1)) == 0


BROWSER = {"browser a": server.BROWSER_LIMIT, "address x": server.ADDRESS_LIMIT}
OTHER_BROWSER = {"browser b": server.BROWSER_LIMIT, "address x": server.ADDRESS_LIMIT}


def test_wrong_passcodes_lock_out_the_browser_not_another_browser_behind_the_same_address():
    clock = Clock()
    guesses = server.Guesses(clock)
    free = server.BROWSER_LIMIT.free
    assert [guesses.wrong(BROWSER) for _ in range(free)] == [0.0] * free
    waits = []
    for _ in range(4):
        waits.append(guesses.wrong(BROWSER))
        clock.now += waits[-1]  # waits it out, then guesses wrong again
    assert waits == [server.BROWSER_LIMIT.first_s * 2 ** i for i in range(4)]
    guesses.wrong(BROWSER)
    assert guesses.wait(BROWSER) == server.BROWSER_LIMIT.first_s * 2 ** 4
    assert guesses.wait(OTHER_BROWSER) == 0  # the teacher's browser behind the same address: not locked out
    for _ in range(100):
        clock.now += guesses.wrong(BROWSER)
    assert guesses.wrong(BROWSER) == server.BROWSER_LIMIT.most_s
    guesses.right(BROWSER)
    assert guesses.wait(BROWSER) == 0


def test_many_browsers_guessing_from_one_address_lock_it_out_for_a_minute_at_most():
    """A script that drops its cookies is a new browser every guess: the address's limit holds it back."""
    clock = Clock()
    guesses = server.Guesses(clock)
    limit = server.ADDRESS_LIMIT
    waits = [guesses.wrong({f"browser {i}": server.BROWSER_LIMIT, "address x": limit}) for i in range(limit.free + 6)]
    assert waits[:limit.free] == [0.0] * limit.free
    assert waits[limit.free:] == [limit.lock_s(n) for n in range(limit.free + 1, limit.free + 7)]
    assert max(waits) == limit.most_s
    assert guesses.wait({"browser new": server.BROWSER_LIMIT, "address x": limit}) == waits[-1]  # everyone there waits
    assert guesses.wait({"browser new": server.BROWSER_LIMIT, "address y": limit}) == 0


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
    free = server.BROWSER_LIMIT.free
    said = [guess(at, f"guess {i}") for i in range(20)]
    assert all(locked_words not in s for s in said[:free])
    assert all(locked_words in s for s in said[free:])
    assert locked_words in guess(at, RIGHT) and not teacher_controls(at)  # the right one, while locked out: refused
    other_browser = AppTest.from_file(APP, default_timeout=240)  # another browser at the same address: not locked
    other_browser.session_state["lang"] = lang
    other_browser.run()
    assert locked_words not in guess(other_browser, RIGHT) and teacher_controls(other_browser)
    locked_server.now += server.BROWSER_LIMIT.most_s  # the longest wait there is
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


@pytest.fixture()
def signing(monkeypatch, tmp_path):
    """A passcode, and the cookie secret in a data folder of this test's own (read afresh)."""
    monkeypatch.setattr(server, "PASSCODE", RIGHT)
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(tmp_path))
    monkeypatch.delenv(server.SECRET_ENV, raising=False)
    monkeypatch.setattr(server, "_secret", [])
    return tmp_path


def test_a_teacher_cookie_is_valid_until_it_expires_and_survives_a_restart(signing, monkeypatch):
    now = 1_800_000_000
    cookie = server.teacher_cookie(now)
    assert server.valid_teacher_cookie(cookie, now) and server.valid_teacher_cookie(cookie, now + 3600)
    assert not server.valid_teacher_cookie(cookie, now + server.TEACHER_COOKIE_S)  # expired
    assert (signing / server.SECRET_FILE).stat().st_mode & 0o077 == 0  # the secret: its owner's alone
    monkeypatch.setattr(server, "_secret", [])  # a new process reads the same secret from the data folder
    assert server.valid_teacher_cookie(cookie, now)


def test_a_changed_passcode_or_secret_or_a_forged_cookie_is_not_the_teacher(signing, monkeypatch):
    now = 1_800_000_000
    cookie = server.teacher_cookie(now)
    expires, mac = cookie.split(".")
    later = str(int(expires) + 10**6)
    assert not server.valid_teacher_cookie(f"{later}.{mac}", now)  # a longer life, with the old signature
    assert not server.valid_teacher_cookie(f"{expires}.{'0' * 64}", now)
    for forged in (None, "", "yes", "1", cookie + "0", cookie.upper(), f"{expires}.{mac[:-1]}"):
        assert not server.valid_teacher_cookie(forged, now)
    monkeypatch.setattr(server, "PASSCODE", "another code")  # the teacher changed the passcode and restarted
    assert not server.valid_teacher_cookie(cookie, now)
    monkeypatch.setattr(server, "PASSCODE", RIGHT)
    assert server.valid_teacher_cookie(cookie, now)
    monkeypatch.setenv(server.SECRET_ENV, "a secret the servers behind a proxy share")
    assert not server.valid_teacher_cookie(cookie, now)
    monkeypatch.setattr(server, "PASSCODE", "")  # no passcode: no cookie makes a teacher
    assert not server.valid_teacher_cookie(server.teacher_cookie(now), now)


def test_an_unwritable_data_folder_gives_a_secret_of_this_process_alone(signing, monkeypatch):
    blocked = signing / "blocked"
    blocked.write_text("not a folder")  # a folder under a file cannot be made, even by root
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(blocked / "data"))
    assert server.stored_secret(blocked / "data" / server.SECRET_FILE) is None
    cookie = server.teacher_cookie(1_800_000_000)
    assert server.valid_teacher_cookie(cookie, 1_800_000_000)
    monkeypatch.setattr(server, "_secret", [])
    assert not server.valid_teacher_cookie(cookie, 1_800_000_000)
