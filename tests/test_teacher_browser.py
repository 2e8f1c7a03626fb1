"""The teacher against a real `streamlit run app.py` with a passcode, each person a browser of their own (a context:
its own cookies), all behind one address as a class behind one router is (issue 62):

- the teacher who typed the passcode stays the teacher across a reload and a server restart (a signed cookie), and
  stops being the teacher when the server restarts with another passcode (item 2);
- a student's wrong passcodes lock out the student's browser, even after a reload, while the teacher's browser at
  the same address still gets in with the right one (item 3);
- the shared links say ATTENTION_PUBLIC_URL where it is set (item 1; unset: tests/test_share_links_browser.py);
- where the poll's data folder cannot be written, the teacher reads the server's path and a student does not
  (item 6, second point).

Screenshots (1280×800): teacher_*.png under SCREENSHOTS=DIR, when it is set, for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.support.app_server import free_port, running_app

from playwright.sync_api import expect

from lessons.attention_maps import ALL
from tests.support.browser import MAIN, SIDEBAR, TIMEOUT_MS, VIEWPORT, screenshot
from tests.support.poll import own_browser, passcode_box, reload, tab, tally_title, type_passcode

PASSCODE = "lesson 7 passcode"
PUBLIC = "https://class.example.org/attention"
SENTENCE = "I have a dream."
TEACHER_HELP = "Server-wide: what you choose here applies to every student's session."
LOCKED = "Too many wrong passcodes"
TRACEBACK = "Traceback (most recent call last)"


def new_poll(translator, data) -> str:
    """A poll on SENTENCE's row 1, in the poll file of the data folder `data` (as the explorer's control starts one)."""
    from app_pages.components import polls

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ATTENTION_DATA_DIR", str(data))
        return polls.start(translator.translate(SENTENCE), 0, ALL, 1)


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    """A server with a passcode and a public address, its own data folder: (base URL, data folder)."""
    folder = tmp_path_factory.mktemp("teacher")
    data = folder / "data"
    data.mkdir()
    env = {"ATTENTION_TEACHER_PASSCODE": PASSCODE, "ATTENTION_DATA_DIR": str(data), "ATTENTION_PUBLIC_URL": PUBLIC}
    with running_app(folder / "server.log", env) as url:
        yield url, data
    assert TRACEBACK not in (folder / "server.log").read_text()


def is_student_view(page) -> None:
    expect(page.locator(MAIN).get_by_role("button", name="Vote", exact=True)).to_be_visible()
    expect(tally_title(page, 0)).to_have_count(0)


def is_tally(page) -> None:
    expect(tally_title(page, 0)).to_be_visible()
    expect(page.locator(MAIN).get_by_role("radio")).to_have_count(0)  # the teacher cannot vote


def test_the_teacher_stays_the_teacher_across_a_reload_and_a_student_does_not_become_one(
        browser, classroom, translator):
    server, data = classroom
    code = new_poll(translator, data)
    url = f"{server}/poll?code={code}&view=tally"
    teacher_context, teacher = own_browser(browser, url)
    student_context, student = own_browser(browser, url)  # a student who copied the teacher's address
    try:
        is_student_view(teacher)  # not signed in yet
        type_passcode(teacher, PASSCODE)
        is_tally(teacher)
        reload(teacher)  # a new session: the cookie, not the passcode, makes it the teacher
        is_tally(teacher)
        expect(teacher.locator(SIDEBAR).get_by_text(TEACHER_HELP)).to_be_attached()
        shown = teacher.locator(f"{MAIN} [data-testid='stCode'] code").first.inner_text().strip()
        assert shown == f"{PUBLIC}/poll?code={code}&lang=en"  # the join address: ATTENTION_PUBLIC_URL
        screenshot(teacher, "teacher_tally_after_reload")
        reload(student)
        is_student_view(student)
        assert not [c for c in student_context.cookies() if c["name"] == "attention_teacher"]
        cookie = next(c for c in teacher_context.cookies() if c["name"] == "attention_teacher")
        forged = cookie["value"][:-1] + ("1" if cookie["value"].endswith("0") else "0")  # one digit changed
        student_context.add_cookies([{**cookie, "value": forged}])
        reload(student)
        is_student_view(student)
    finally:
        teacher_context.close()
        student_context.close()


def test_a_students_wrong_passcodes_lock_out_that_browser_and_not_the_teacher_behind_the_same_address(
        browser, classroom):
    """Both browsers are on 127.0.0.1, as a class behind one router is. The teacher's page is open and idle before
    the student's guesses, so that the teacher's passcode comes within the student's 30 s lockout."""
    server, _ = classroom
    student_context, student = own_browser(browser, f"{server}/qkv")
    teacher_context, teacher = own_browser(browser, f"{server}/qkv")
    try:
        passcode_box(teacher)
        said = [type_passcode(student, f"guess {i}") for i in range(6)]
        assert all(LOCKED not in s for s in said[:5]) and LOCKED in said[5]
        student.locator(SIDEBAR).get_by_text(LOCKED).scroll_into_view_if_needed()
        screenshot(student, "teacher_student_locked_out")
        assert LOCKED not in type_passcode(teacher, PASSCODE)  # the same address, another browser: it gets in
        expect(teacher.locator(SIDEBAR).get_by_text(TEACHER_HELP)).to_be_visible()
        assert [c for c in student_context.cookies() if c["name"] == "attention_browser"]  # the guesser's id
        # A new session of the student's browser (a reload can outlast the 30 s on a busy machine) guesses as the
        # same browser: its 7th wrong passcode locks it out at once (a new browser's first would be free), and then
        # the right passcode is refused too.
        reload(student)
        assert LOCKED in type_passcode(student, "guess 6")
        assert LOCKED in type_passcode(student, PASSCODE)
        expect(student.locator(SIDEBAR).get_by_text(TEACHER_HELP)).to_have_count(0)
    finally:
        student_context.close()
        teacher_context.close()


def test_start_heres_links_use_the_public_address(browser, classroom):
    server, _ = classroom
    context, page = own_browser(browser, f"{server}/")
    try:
        links = [c.strip() for c in page.locator(f"{MAIN} [data-testid='stCode'] code").all_inner_texts()]
        assert len(links) >= 3 and all(link.startswith(f"{PUBLIC}/") for link in links), links
        caption = page.locator(MAIN).get_by_text("students open the same views at", exact=False)
        expect(caption).to_be_visible()
        said = caption.inner_text().replace("\u2060", "")  # md_escape's word joiners keep a URL from turning into a link
        assert f"starts with {server}, which only this machine opens" in said and f"views at {PUBLIC} " in said
    finally:
        context.close()


def test_a_restart_keeps_the_teacher_signed_in_until_the_passcode_changes(browser, translator, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    env, port = {"ATTENTION_TEACHER_PASSCODE": PASSCODE, "ATTENTION_DATA_DIR": str(data)}, free_port()
    code = new_poll(translator, data)
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        with running_app(tmp_path / "first.log", env, port=port) as server:
            teacher = tab(context, f"{server}/poll?code={code}&view=tally")
            type_passcode(teacher, PASSCODE)
            is_tally(teacher)
            teacher.close()  # closed before the server stops: an open tab logs the outage as console errors
        with running_app(tmp_path / "second.log", env, port=port) as server:  # restarted, the same passcode
            teacher = tab(context, f"{server}/poll?code={code}&view=tally")
            is_tally(teacher)
            screenshot(teacher, "teacher_tally_after_restart")
            teacher.close()
        changed = {**env, "ATTENTION_TEACHER_PASSCODE": "a new passcode"}
        with running_app(tmp_path / "third.log", changed, port=port) as server:  # restarted with another passcode
            teacher = tab(context, f"{server}/poll?code={code}&view=tally")
            is_student_view(teacher)
            expect(passcode_box(teacher)).to_be_visible()
            teacher.close()
    finally:
        context.close()
    for log in ("first.log", "second.log", "third.log"):
        assert TRACEBACK not in (tmp_path / log).read_text()


def test_the_data_folder_error_shows_the_path_to_the_teacher_only(browser, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("not a folder")  # a data folder under a file cannot be made, even by root
    env = {"ATTENTION_TEACHER_PASSCODE": PASSCODE, "ATTENTION_DATA_DIR": str(blocked / "data")}
    with running_app(tmp_path / "server.log", env) as server:
        student_context, student = own_browser(browser, f"{server}/poll?code=ACDEF")
        teacher_context, teacher = own_browser(browser, f"{server}/poll?code=ACDEF")
        try:
            expect(student.locator(MAIN).get_by_text("The class poll cannot be used on this server right now",
                                                     exact=False)).to_be_visible()
            assert str(blocked) not in student.locator(MAIN).inner_text()
            screenshot(student, "teacher_store_error_student")
            type_passcode(teacher, PASSCODE)
            error = teacher.locator(MAIN).get_by_text("The class poll cannot use its data file", exact=False)
            expect(error).to_be_visible()
            assert str(blocked / "data") in error.inner_text()
            screenshot(teacher, "teacher_store_error_teacher")
        finally:
            student_context.close()
            teacher_context.close()
    assert TRACEBACK not in (tmp_path / "server.log").read_text()
