"""A class poll against one real `streamlit run app.py`: the teacher starts it from the explorer, two students vote
from their own browser contexts (each its own Streamlit session), the teacher's live tally counts both, Reveal marks
the model's answer; then the server is stopped and started again on the same data folder, and the teacher's tally
still counts both votes.

Screenshots (1280×800): poll_*.png under SCREENSHOTS=DIR, when it is set, for a person to look at.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import CHROMIUM, running_app

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from app_pages.poll_store import FILE_NAME, PollStore
from lessons.attention_maps import ALL, strongest_key
from lessons.attention_table import unique_labels
from tests.browser_support import MAIN, open_session, rerun, screenshot

SENTENCE = "I have a dream."
VOTES = (3, 4)  # the two students' choices: ▁dream, "."


def tally_title(page, n: int):
    # A fragment's rerun may briefly leave the previous chart beside the new one: look for the one that counts n.
    return page.locator(f"{MAIN} .gtitle").filter(has_text=re.compile(rf"^Votes so far: {n}$")).first


def test_two_students_vote_and_the_tally_survives_a_server_restart(browser, translator, tmp_path):
    data = {"ATTENTION_DATA_DIR": str(tmp_path / "data")}  # this test's own poll file, kept across the restart
    (tmp_path / "data").mkdir()
    result = translator.translate(SENTENCE)  # the app's default beam
    answer = strongest_key(result.cross, 0, ALL, 1)  # the explorer's first cross-attention view, the control's row
    labels = unique_labels(result.source_tokens)
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
            context, student = open_session(browser, f"{server}/poll?code={code}")
            contexts.append(context)
            expect(student.locator(MAIN).get_by_text("(row 1 of the map)", exact=False)).to_be_visible()
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
