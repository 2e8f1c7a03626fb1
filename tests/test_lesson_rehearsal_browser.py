"""Issue 62's rehearsal of a lesson, end to end, in English and in 中文 ("Done when"): one real `streamlit run app.py`
with a teacher passcode, listening on every interface as a teacher's laptop in a classroom does; the teacher and each
student in a browser context of their own (own cookies), under the guard.

The teacher signs in with the passcode and starts a poll from the explorer; two students open the address the
teacher's screen shows (this machine's LAN address, in the teacher's language) and vote; the teacher reloads and is
still the teacher (the tally, not the vote form); Reveal; a student who joins late sees the answer and the tally but
no vote form. Each tally ends on the first 1280×800 screen. Then the deck: three views pinned, presented to the last
slide, exported (each slide links to its view at the students' address), imported, and Present opens on slide 1.

Screenshots (1280×800): rehearsal_{en,zh}_*.png under SCREENSHOTS=DIR, when it is set.
"""

from __future__ import annotations

import json
import re
import subprocess
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.support.app_server import free_port, running_app

from playwright.sync_api import expect

from app_pages.shell import registry
from app_pages.state.poll_store import FILE_NAME, PollStore
from i18n import strings, translate_key
from lessons.attention_maps import ALL, strongest_key
from lessons.deck import json_in_html
from tests.support.browser import MAIN, choose, forward, main, nav_links, pin_three, rerun, screenshot, settle_charts
from tests.support.poll import WORDS, own_browser, reload, tally_fits, tally_title, type_passcode, vote

PASSCODE = "rehearsal passcode"
SENTENCE = "I have a dream."
VOTES = (3, 4)  # the two students' choices: dream, "."
TRACEBACK = "Traceback (most recent call last)"


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    """A server with a passcode on every interface, its own data folder: (base URL on 127.0.0.1, LAN addresses,
    data folder, server log)."""
    lan = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    if not lan:
        pytest.skip("this machine has no LAN address")
    folder = tmp_path_factory.mktemp("rehearsal")
    data = folder / "data"
    data.mkdir()
    env = {"ATTENTION_TEACHER_PASSCODE": PASSCODE, "ATTENTION_DATA_DIR": str(data)}
    with running_app(folder / "server.log", env, port=free_port(), address="0.0.0.0") as url:
        yield url, lan, data, folder / "server.log"


def bold_free(text: str) -> str:
    return text.replace("**", "")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_lesson_poll_then_deck(browser, classroom, translator, tmp_path, lang):
    server, lan, data, log = classroom
    text = strings(lang)
    answer = strongest_key(translator.translate(SENTENCE).cross, 0, ALL, 1)  # the control's first row and view
    teacher_context, teacher = own_browser(browser, f"{server}/translate?lang={lang}&kind=cross&s=I+have+a+dream.")
    contexts = [teacher_context]
    try:
        type_passcode(teacher, PASSCODE, text)
        rerun(teacher, main(teacher).get_by_role("button", name=text["poll.start.button"], exact=True).click)
        expect(teacher).to_have_url(re.compile(r"/poll\?.*code=[A-Z0-9]{5}.*view=tally"))
        code = re.search(r"code=([A-Z0-9]{5})", teacher.url).group(1)
        address = teacher.locator(f"{MAIN} [data-testid='stCode'] code").first.inner_text().strip()
        port = urlsplit(server).port
        assert urlsplit(address).hostname in lan and address.startswith(f"http://{urlsplit(address).hostname}:{port}/")
        assert parse_qs(urlsplit(address).query) == {"code": [code], "lang": [lang]}, address
        screenshot(teacher, f"rehearsal_{lang}_address_block")

        for choice in VOTES:  # two students open exactly the address shown, and vote
            context, student = own_browser(browser, address)
            contexts.append(context)
            vote(student, choice, text)
            voted = bold_free(translate_key(lang, "poll.voted", choice=WORDS[choice]))
            expect(main(student).get_by_text(voted)).to_be_visible()
            expect(main(student).get_by_role("radio")).to_have_count(0)
        expect(tally_title(teacher, 2, text)).to_be_visible()

        reload(teacher)  # a new session of the teacher's browser: still the teacher, by the signed cookie
        expect(tally_title(teacher, 2, text)).to_be_visible()
        expect(main(teacher).get_by_role("radio")).to_have_count(0)
        expect(main(teacher).get_by_role("button", name=text["poll.vote"], exact=True)).to_have_count(0)
        tally_fits(teacher)
        screenshot(teacher, f"rehearsal_{lang}_tally_after_reload")
        rerun(teacher, main(teacher).get_by_role("button", name=text["poll.reveal"]).click)
        agreed = translate_key(lang, "poll.agreed", agreed=int(answer in VOTES), votes=2)
        expect(main(teacher).get_by_text(agreed, exact=False)).to_be_visible()
        tally_fits(teacher)

        late_context, late = own_browser(browser, address)  # joins after the answer is shown
        contexts.append(late_context)
        expect(main(late).get_by_text(agreed, exact=False)).to_be_visible()
        expect(main(late).get_by_text(text["poll.closed"])).to_be_visible()
        expect(tally_title(late, 2, text)).to_be_visible()
        expect(main(late).get_by_role("radio")).to_have_count(0)
        expect(main(late).get_by_role("button", name=text["poll.vote"], exact=True)).to_have_count(0)
        tally_fits(late)
        screenshot(late, f"rehearsal_{lang}_late_student")
        counts = PollStore(data / FILE_NAME).counts(code)
        assert [counts[c] for c in VOTES] == [1, 1] and sum(counts) == 2

        forward(teacher, f"{server}/translate?lang={lang}&kind=cross&s=I+have+a+dream.")
        deck_lesson(teacher, text, urlsplit(address), tmp_path, lang)
    finally:
        for context in contexts:
            context.close()
    assert TRACEBACK not in log.read_text()


def deck_lesson(teacher, text: dict, students, folder, lang: str) -> None:
    """Three views pinned, presented to the last slide, exported, imported: Present then opens on slide 1; every
    exported slide links to its view at the students' address (`students`, the poll's join address split)."""
    pin_three(teacher, text)
    rerun(teacher, nav_links(teacher).nth([p.name for p in registry.PAGES].index("deck")).click)
    choose(teacher, text["deck.mode"], text["deck.mode.present"])
    for _ in range(2):
        rerun(teacher, main(teacher).get_by_role("button", name=text["decoding.next"]).click)
    heading = main(teacher).get_by_role("heading", level=4)
    expect(heading).to_contain_text(text["explorer.layer_n"].format(n=3))
    choose(teacher, text["deck.mode"], text["deck.mode.edit"])
    with teacher.expect_download() as download:
        main(teacher).get_by_role("button", name=text["deck.export"]).click()
    saved = folder / "deck.html"
    download.value.save_as(saved)
    document = saved.read_text(encoding="utf-8")
    slides = json.loads(json_in_html(document.encode()))["slides"]
    assert [s["query"]["layer"] for s in slides] == ["1", "2", "3"]
    hrefs = re.findall(r'<a class="view" href="([^"]+)"', document)
    assert len(hrefs) == 3 and all(h.startswith(f"{students.scheme}://{students.netloc}/translate?") for h in hrefs)
    upload = main(teacher).locator("input[type=file]")
    rerun(teacher, lambda: upload.set_input_files(saved))
    expect(main(teacher).get_by_text(translate_key(lang, "deck.imported", n=3))).to_be_visible()
    choose(teacher, text["deck.mode"], text["deck.mode.present"])
    settle_charts(teacher)
    expect(heading).to_contain_text(text["explorer.layer_n"].format(n=1))
    expect(main(teacher).get_by_role("slider")).to_have_attribute(
        "aria-valuetext", text["deck.slide_of"].format(n=1, count=3))
    screenshot(teacher, f"rehearsal_{lang}_deck_presented_after_import")
