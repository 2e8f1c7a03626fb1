"""A class poll against one real `streamlit run app.py`: the teacher starts it from the explorer, two students vote
from their own browser contexts (each a browser of its own, with its own cookies), the teacher's live tally counts
both, Reveal marks the model's answer; then the server is stopped and started again on the same data folder, and the
teacher's tally still counts both votes. One browser votes once however many tabs and reloads it uses; a server
restart under open vote forms loses no vote; the join address the teacher's screen shows is one other devices reach.

Screenshots (1280×800): poll_*.png under SCREENSHOTS=DIR, when it is set, for a person to look at.
"""

from __future__ import annotations

import re


from tests.support.app_server import running_app

from playwright.sync_api import expect

from app_pages.state.poll_store import FILE_NAME, PollStore
from lessons.attention_maps import ALL, strongest_key
from tests.support.browser import MAIN, STREAM, open_session, rerun, runs_finished, screenshot, wait_for_runs
from tests.support.poll import WORDS, own_browser, tab, tally_title, vote

SENTENCE = "I have a dream."
VOTES = (3, 4)  # the two students' choices: dream, "."


def reload(page) -> None:
    """Reload `page` (a new Streamlit session on a new socket) and wait for the new session's first run."""
    before = runs_finished(page)
    with page.expect_websocket(predicate=lambda ws: ws.url.endswith(STREAM)):
        page.reload(wait_until="commit")
    wait_for_runs(page, before + 1)


def test_two_students_vote_and_the_tally_survives_a_server_restart(browser, translator, tmp_path):
    data = {"ATTENTION_DATA_DIR": str(tmp_path / "data")}  # this test's own poll file, kept across the restart
    (tmp_path / "data").mkdir()
    result = translator.translate(SENTENCE)  # the app's default beam
    answer = strongest_key(result.cross, 0, ALL, 1)  # the explorer's first cross-attention view, the control's row
    assert result.source_tokens == ["▁I", "▁have", "▁a", "▁dream", ".", "</s>"]  # what WORDS spells
    labels = WORDS
    with running_app(tmp_path / "first.log", data) as server:
        code = poll_with_two_votes(browser, server, labels, answer)
    with running_app(tmp_path / "second.log", data) as server:  # the same poll file, a new process
        context, teacher = open_session(browser, f"{server}/poll?code={code}&view=tally")
        try:
            expect(tally_title(teacher, 2)).to_be_visible()
            expect(teacher.locator(f"{MAIN} .legendtext").filter(has_text="the model's answer")).to_be_visible()
            screenshot(teacher, "poll_teacher_after_restart")
        finally:
            context.close()
    counts = PollStore(tmp_path / "data" / FILE_NAME).counts(code)
    assert [counts[c] for c in VOTES] == [1, 1] and sum(counts) == 2
    for log in ("first.log", "second.log"):  # the guard watches the session's server; these two are watched here
        assert "Traceback (most recent call last)" not in (tmp_path / log).read_text()


def poll_with_two_votes(browser, server: str, labels: list[str], answer: int) -> str:
    """The teacher starts a poll from the explorer, two students vote, the tally counts both, Reveal marks the
    model's answer; returns the poll's code."""
    teacher_context, teacher = open_session(browser, f"{server}/translate?kind=cross&s=I+have+a+dream.")
    contexts = [teacher_context]
    try:
        start = teacher.locator(MAIN).get_by_role("button", name="Start a poll", exact=True)
        rerun(teacher, start.click)
        expect(teacher).to_have_url(re.compile(r"/poll\?.*code=[A-Z0-9]{5}.*view=tally"))
        code = re.search(r"code=([A-Z0-9]{5})", teacher.url).group(1)
        expect(teacher.locator(MAIN).get_by_text(f"Code: {code}")).to_be_visible()
        expect(tally_title(teacher, 0)).to_be_visible()
        for i, choice in enumerate(VOTES):
            context, student = own_browser(browser, f"{server}/poll?code={code}")
            contexts.append(context)
            expect(student.locator(MAIN).get_by_text("While writing 有 (the token after 我: row 1 of the map)",
                                                     exact=False)).to_be_visible()
            student.locator(MAIN).get_by_role("radio").nth(choice).check(force=True)
            screenshot(student, f"poll_student{i + 1}_choosing")
            rerun(student, student.locator(MAIN).get_by_role("button", name="Vote", exact=True).click)
            expect(student.locator(MAIN).get_by_text(f"Your vote is in: {labels[choice]}.")).to_be_visible()
            expect(student.locator(MAIN).get_by_role("radio")).to_have_count(0)  # no second vote
        expect(tally_title(teacher, 2)).to_be_visible()  # the fragment redraws the tally by itself
        screenshot(teacher, "poll_teacher_tally")
        rerun(teacher, teacher.locator(MAIN).get_by_role("button", name="Reveal the model's answer").click)
        expect(teacher.locator(f"{MAIN} .legendtext").filter(has_text="the model's answer")).to_be_visible()
        expect(teacher.locator(MAIN).get_by_text(f"The model's answer: {labels[answer]}", exact=False)).to_be_visible()
        screenshot(teacher, "poll_teacher_revealed")
        return code
    finally:
        for context in contexts:
            context.close()


def test_a_hostile_code_in_the_link_is_plain_text(browser, streamlit_server):
    context, page = open_session(browser, f"{streamlit_server}/poll?code=%3Cscript%3Ealert(1)%3C/script%3E")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        expect(page.locator(MAIN).get_by_text("it is not a poll code", exact=False)).to_be_visible()
        expect(page.locator(MAIN).get_by_text("<script>alert(1)</script>", exact=False)).to_be_visible()  # as text
        assert not page.evaluate("[...document.scripts].some(s => s.textContent.includes('alert('))")
        assert not dialogs
    finally:
        context.close()


def poll_on_row_1(translator) -> tuple[str, int]:
    """A poll as the explorer's control starts one on SENTENCE's row 1 (layer 1, average of heads): (code, answer)."""
    from app_pages.components import polls

    result = translator.translate(SENTENCE)
    return polls.start(result, 0, ALL, 1), strongest_key(result.cross, 0, ALL, 1)


def test_one_browser_votes_once_across_reloads_and_tabs(browser, streamlit_server, translator):
    """Issue 51: a reload, a second tab and a tab opened before the vote all count as the same student (the cookie);
    the tally counts 1 until another browser votes. The poll file is the server's default one, as the test's."""
    code, _ = poll_on_row_1(translator)
    url = f"{streamlit_server}/poll?code={code}"
    context, first = own_browser(browser, url)
    contexts = [context]
    try:
        first.wait_for_function("document.cookie.includes('attention_voter=')")  # written by the poll page
        early = tab(context, url)  # opened before the vote: its form is still there
        vote(first, 3)
        voted = "Your vote is in: dream."
        expect(first.locator(MAIN).get_by_text(voted)).to_be_visible()
        reload(first)  # a new session of the same browser
        expect(first.locator(MAIN).get_by_text(voted)).to_be_visible()
        expect(first.locator(MAIN).get_by_role("radio")).to_have_count(0)
        second = tab(context, url)
        expect(second.locator(MAIN).get_by_text(voted)).to_be_visible()
        expect(second.locator(MAIN).get_by_role("radio")).to_have_count(0)
        screenshot(second, "poll_second_tab_already_voted")
        vote(early, 1)
        expect(early.locator(MAIN).get_by_text("You have already voted in this poll: one vote each.")).to_be_visible()
        expect(early.locator(MAIN).get_by_text(voted)).to_be_visible()  # the vote that counts is the first
        screenshot(early, "poll_early_tab_refused")
        assert PollStore().counts(code) == [0, 0, 0, 1, 0, 0]
        other_context, other = own_browser(browser, url)  # another student's browser
        contexts.append(other_context)
        vote(other, 1)
        expect(other.locator(MAIN).get_by_text("Your vote is in: have.")).to_be_visible()
        assert PollStore().counts(code) == [0, 1, 0, 1, 0, 0]
    finally:
        for context in contexts:
            context.close()


# What Chromium logs while the server is down (the socket, the health checks, a fragment's timer cannot reach it) is
# expected during a restart: console errors between the stop and every tab's reconnection are taken out of what the
# guard saw. An exception box or a page error then, and anything after the reconnection, still fails the test.
CONSOLE = "console error on "


def test_a_restart_under_open_vote_forms_loses_no_vote_and_students_reach_the_shown_address(
        browser, translator, tmp_path, monkeypatch):
    """Issues 51 and 53: the server listens on every interface and the teacher's browser uses 127.0.0.1; the address
    the teacher's screen shows is this machine's LAN address (not localhost), and three students open exactly that.
    The server is then stopped and started again on the same port and data folder under their open vote forms; each
    votes, and each vote counts (it used to be lost without a word)."""
    import subprocess
    from urllib.parse import urlsplit

    from tests.support.app_server import free_port
    from tests.support.browser import APP, GUARD

    data = tmp_path / "data"
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(data))
    env, port = {"ATTENTION_DATA_DIR": str(data)}, free_port()
    code, _ = poll_on_row_1(translator)
    lan = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    contexts = []
    try:
        with running_app(tmp_path / "first.log", env, port=port, address="0.0.0.0") as server:
            teacher_context, teacher = open_session(browser, f"{server}/poll?code={code}&view=tally")
            contexts.append(teacher_context)
            shown = teacher.locator(f"{MAIN} [data-testid='stCode'] code").first.inner_text().strip()
            host = urlsplit(shown).hostname
            assert host in lan and shown == f"http://{host}:{port}/poll?code={code}&lang=en"  # this machine on its LAN
            expect(teacher.locator(f"{MAIN} [data-testid='stImage'] img")).to_be_visible()  # the QR code
            screenshot(teacher, "poll_teacher_lan_address")
            students = [own_browser(browser, shown) for _ in range(3)]
            contexts += [context for context, _ in students]
            for _, page in students:
                expect(page.locator(MAIN).get_by_role("radio")).to_have_count(len(WORDS))
            seen = len(GUARD.found)
        pages = [teacher] + [page for _, page in students]
        for page in pages:  # the server is down
            page.wait_for_selector(f"{APP}:not([data-test-connection-state='CONNECTED'])")
        with running_app(tmp_path / "second.log", env, port=port, address="0.0.0.0"):
            for page in pages:
                page.wait_for_selector(f"{APP}[data-test-connection-state='CONNECTED']")
            outage = [found for found in GUARD.found[seen:] if found.startswith(CONSOLE)]
            GUARD.found[seen:] = [found for found in GUARD.found[seen:] if not found.startswith(CONSOLE)]
            print(f"{len(outage)} console errors while the server was down, expected: {outage[:3]}")
            for i, (_, page) in enumerate(students):
                vote(page, i)
                expect(page.locator(MAIN).get_by_text(f"Your vote is in: {WORDS[i]}.")).to_be_visible()
            screenshot(students[0][1], "poll_vote_after_restart")
            while contexts:  # closed while the server is up: a tab left open after it stops would log the outage too
                contexts.pop().close()
    finally:
        for context in contexts:
            context.close()
    assert PollStore(data / FILE_NAME).counts(code) == [1, 1, 1, 0, 0, 0]
    for log in ("first.log", "second.log"):
        assert "Traceback (most recent call last)" not in (tmp_path / log).read_text()
