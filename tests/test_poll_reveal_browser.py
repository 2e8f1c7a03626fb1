"""Issue 62 item 4 and issue 64's class poll, against one real `streamlit run app.py`, the teacher and each student
in a browser context of their own (own cookies), under the guard: Reveal closes voting — a student's open form gives
way to the answer and the tally by itself, a student who joins afterwards sees them too and cannot vote, the tally
still counts the votes cast before; Reopen voting brings the form back; a new poll on the same question gets a new
code. The patching page's guess starts a poll whose reveal names the measured answer; its tally (nine kind × layer
names, a row each) and a late student's ends on a 1280×800 screen's first view, no name turned. Item 6a: on the teacher's
screen (1280×800) the "listens on this machine only" note sits right above the address, on the first screen.

Screenshots (1280×800): poll_reveal_*.png under SCREENSHOTS=DIR, when it is set, for a person to look at.
"""

from __future__ import annotations

import re


from playwright.sync_api import expect

from app_pages.state.poll_store import PollStore
from lessons.attention_maps import ALL, strongest_key
from tests.support.browser import MAIN, VIEWPORT, open_session, rerun, screenshot
from tests.support.poll import WORDS, own_browser, tally_fits, tally_title, vote

SENTENCE = "I have a dream."
WATCH_MS = 20_000  # a student's page looks for the reveal every 5 s (polls.REVEAL_CHECK_S); a slow CPU adds more


def poll_on_row_1(translator) -> tuple[str, int]:
    from app_pages.components import polls

    result = translator.translate(SENTENCE)
    return polls.start(result, 0, ALL, 1), strongest_key(result.cross, 0, ALL, 1)


def answer_text(page, agreed: int, votes: int):
    return page.locator(MAIN).get_by_text(f"{agreed} of {votes} vote", exact=False)


def test_reveal_closes_voting_and_the_teacher_reopens_it(browser, streamlit_server, translator):
    code, answer = poll_on_row_1(translator)
    other = (answer + 1) % len(WORDS)
    url = f"{streamlit_server}/poll?code={code}"
    teacher_context, teacher = open_session(browser, f"{url}&view=tally")
    contexts = [teacher_context]
    try:
        early_context, early = own_browser(browser, url)  # votes before the reveal
        waiting_context, waiting = own_browser(browser, url)  # has the form open, does not vote
        contexts += [early_context, waiting_context]
        vote(early, other)
        expect(early.locator(MAIN).get_by_text(f"Your vote is in: {WORDS[other]}.")).to_be_visible()
        expect(waiting.locator(MAIN).get_by_role("radio")).to_have_count(len(WORDS))
        expect(tally_title(teacher, 1)).to_be_visible()
        rerun(teacher, teacher.locator(MAIN).get_by_role("button", name="Reveal the model's answer").click)
        expect(answer_text(teacher, 0, 1)).to_be_visible()
        expect(teacher.locator(MAIN).get_by_role("button", name="Reopen voting")).to_be_visible()
        screenshot(teacher, "poll_reveal_teacher")
        for page in (early, waiting):  # their pages follow the reveal by themselves
            expect(answer_text(page, 0, 1)).to_be_visible(timeout=WATCH_MS)
            expect(page.locator(MAIN).get_by_role("radio")).to_have_count(0)
        screenshot(waiting, "poll_reveal_open_form_closed")
        late_context, late = own_browser(browser, url)  # joins after the answer is shown
        contexts.append(late_context)
        expect(answer_text(late, 0, 1)).to_be_visible()
        expect(late.locator(MAIN).get_by_text("Voting closed when your teacher revealed the answer.")).to_be_visible()
        expect(tally_title(late, 1)).to_be_visible()
        expect(late.locator(MAIN).get_by_role("radio")).to_have_count(0)
        tally_fits(late)  # beside the answer, on the first screen
        screenshot(late, "poll_reveal_late_student")
        assert sum(PollStore().counts(code)) == 1  # no padding: still 0 of 1
        rerun(teacher, teacher.locator(MAIN).get_by_role("button", name="Reopen voting").click)
        expect(teacher.locator(MAIN).get_by_role("button", name="Reveal the model's answer")).to_be_visible()
        expect(late.locator(MAIN).get_by_role("radio")).to_have_count(len(WORDS), timeout=WATCH_MS)
        vote(late, answer)
        expect(late.locator(MAIN).get_by_text(f"Your vote is in: {WORDS[answer]}.")).to_be_visible()
        expect(tally_title(teacher, 2)).to_be_visible()
        rerun(teacher, teacher.locator(MAIN).get_by_role("button", name="Reveal the model's answer").click)
        expect(answer_text(teacher, 1, 2)).to_be_visible()
        rerun(teacher, teacher.locator(MAIN).get_by_role("button", name="New poll on this question").click)
        expect(teacher).to_have_url(re.compile(r"code=(?!" + code + r")[A-Z0-9]{5}"))
        fresh = re.search(r"code=([A-Z0-9]{5})", teacher.url).group(1)
        expect(teacher.locator(MAIN).get_by_text(f"Code: {fresh}")).to_be_visible()
        expect(tally_title(teacher, 0)).to_be_visible()
        late.locator(MAIN).get_by_role("textbox", name="Poll code").fill(fresh)  # the late student joins the next poll
        rerun(late, late.locator(MAIN).get_by_role("button", name="Join", exact=True).click)
        expect(late.locator(MAIN).get_by_role("radio")).to_have_count(len(WORDS))
        assert PollStore().counts(code) == [int(i == other) + int(i == answer) for i in range(len(WORDS))]
    finally:
        for context in contexts:
            context.close()


def test_the_local_only_note_sits_with_the_address_on_the_first_screen(browser, streamlit_server, translator):
    """The session's server listens on 127.0.0.1: other devices cannot open the address, and the teacher's screen
    says so right above it, in place of the instruction to open it, on the first screen (it started at the bottom
    edge of a 1280×800 screen, under the QR code)."""
    code, _ = poll_on_row_1(translator)
    context, teacher = open_session(browser, f"{streamlit_server}/poll?code={code}&view=tally")
    try:
        note = teacher.locator(MAIN).get_by_text("This server listens on this machine only", exact=False)
        expect(note).to_be_visible()
        box, address = note.bounding_box(), teacher.locator(f"{MAIN} [data-testid='stCode']").first.bounding_box()
        qr = teacher.locator(f"{MAIN} [data-testid='stImage']").first.bounding_box()
        screenshot(teacher, "poll_reveal_local_only_note")
        assert box["y"] + box["height"] <= VIEWPORT["height"], box
        assert 0 <= address["y"] - (box["y"] + box["height"]) <= 24 and box["y"] < qr["y"], (box, address, qr)
        expect(teacher.locator(MAIN).get_by_text("Students scan the QR code", exact=False)).to_have_count(0)
    finally:
        context.close()


def test_a_class_poll_on_the_patching_guess(browser, streamlit_server):
    teacher_context, teacher = open_session(browser, f"{streamlit_server}/patching?model=en-zh")
    contexts = [teacher_context]
    try:
        rerun(teacher, teacher.locator(MAIN).get_by_text("Guess first", exact=True).click)
        start = teacher.locator(MAIN).get_by_role("button", name="Poll the class on this guess")
        screenshot(teacher, "poll_reveal_patching_start", start)
        rerun(teacher, start.click)
        expect(teacher).to_have_url(re.compile(r"/poll\?.*code=[A-Z0-9]{5}.*view=tally"))
        code = re.search(r"code=([A-Z0-9]{5})", teacher.url).group(1)
        poll = PollStore().poll(code)
        assert len(poll.options) == 9 and poll.question["kind"] == "patching"
        student_context, student = own_browser(browser, f"{streamlit_server}/poll?code={code}")
        contexts.append(student_context)
        expect(student.locator(MAIN).get_by_text("Which head carries", exact=False)).to_be_visible()
        expect(student.locator(MAIN).get_by_role("radio")).to_have_count(9)
        screenshot(student, "poll_reveal_patching_student")
        vote(student, poll.answer)
        expect(tally_title(teacher, 1)).to_be_visible()
        rerun(teacher, teacher.locator(MAIN).get_by_role("button", name="Reveal the model's answer").click)
        expect(teacher.locator(MAIN).get_by_text("The measured answer:", exact=False)).to_be_visible()
        expect(answer_text(teacher, 1, 1)).to_be_visible()
        tally_fits(teacher)  # its nine kind × layer names, a row each
        screenshot(teacher, "poll_reveal_patching_teacher")
        expect(student.locator(MAIN).get_by_text("The measured answer:", exact=False)).to_be_visible(timeout=WATCH_MS)
        tally_fits(student)
        screenshot(student, "poll_reveal_patching_student_revealed")
    finally:
        for context in contexts:
            context.close()
