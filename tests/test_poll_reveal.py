"""Issue 62 (item 4) and issue 64 (a class poll on the patching guess), in-process (streamlit.testing): Reveal closes
voting — a student who opens the poll afterwards sees the answer and the tally, not the form, and a vote sent from a
form opened before the reveal is refused and said, not counted; the teacher reopens voting or starts a new poll on
the same question. The patching page's guess starts a poll whose options are its head grids' kinds × layers and whose
answer is the one holding the largest measured effect."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from app_pages.components import poll_view, polls
from app_pages.state import state_keys
from app_pages.state.poll_store import PollStore
from i18n import strings
from lessons.attention_maps import strongest_key
from tests.support.paths import ROOT

from tests.support.poll_data import SENTENCE, WORDS, data_dir  # noqa: F401  (data_dir: autouse)


@pytest.fixture
def poll(translator):
    """A poll on cross-attention layer 1, average of heads, row 1, as the explorer's control starts it."""
    result = translator.translate(SENTENCE)
    return polls.start(result, 0, -1, 1), strongest_key(result.cross, 0, -1, 1)


def app(query: dict, voter: str | None = None, lang: str = "en", page: str = "app_pages/pages/poll.py",
        **state) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state[state_keys.SENTENCE] = SENTENCE
    at.session_state[state_keys.LANG] = lang
    for key, value in state.items():
        at.session_state[key] = value
    if voter:
        at.session_state[polls.VOTER] = voter
    at.query_params.update(query)
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def texts(at: AppTest) -> str:
    return "\n".join(e.value for kind in ("markdown", "caption", "success", "warning", "error", "info")
                     for e in at.get(kind))


def votes_title(at: AppTest) -> str:
    (chart,) = at.get("plotly_chart")
    return json.loads(chart.proto.spec)["layout"]["title"]["text"]


def test_a_student_who_opens_the_poll_after_the_reveal_sees_the_answer_and_the_tally(poll):
    code, answer = poll
    store = PollStore()
    store.vote(code, "ana", (answer + 1) % len(WORDS))  # "0 of 1 vote chose it"
    store.reveal(code)
    at = app({"code": code}, voter="late")
    assert not at.get("radio")  # no vote form
    shown = texts(at)
    assert f"The model's answer: **{WORDS[answer]}**" in shown.replace("\\", "")
    assert "0 of 1 vote chose it." in shown and "Voting closed when your teacher revealed the answer." in shown
    assert "Votes so far: 1" in votes_title(at)
    assert at.text_input(key=polls.JOIN_INPUT)  # where to type the next poll's code


def test_a_vote_from_a_form_opened_before_the_reveal_is_refused_and_said(poll):
    code, answer = poll
    PollStore().vote(code, "ana", (answer + 1) % len(WORDS))
    at = app({"code": code}, voter="late", lang="zh")
    at.radio(key=polls.CHOICE).set_value(answer)
    PollStore().reveal(code)  # the teacher reveals while the form is open
    (vote,) = [b for b in at.button if b.label == "投票"]
    vote.click().run()
    assert not at.exception
    assert "这张票没有计入" in texts(at)
    assert "1 票中有 0 票选了它" in texts(at)  # not padded into "2 票中有 1 票"
    assert sum(PollStore().counts(code)) == 1 and PollStore().choice_of(code, "late") is None
    assert not at.get("radio")


def test_the_teacher_reopens_voting_or_starts_a_new_poll_on_the_same_question(poll):
    code, answer = poll
    PollStore().vote(code, "ana", answer)
    at = app({"code": code, "view": "tally"})
    assert not [b for b in at.button if b.key in ("poll.reopen", "poll.again")]  # before the reveal
    at.button(key="poll.reveal").click().run()
    assert PollStore().poll(code).revealed
    at.button(key="poll.reopen").click().run()
    assert not at.exception and not PollStore().poll(code).revealed
    assert PollStore().vote(code, "ben", answer) == "voted"
    at.button(key="poll.reveal").click().run()
    at.button(key="poll.again").click().run()
    assert not at.exception
    fresh = at.session_state[polls.CODE]
    assert fresh != code and f"Code: {fresh}" in texts(at)
    assert PollStore().poll(fresh).question == PollStore().poll(code).question
    assert "Votes so far: 0" in votes_title(at) and at.button(key="poll.reveal")
    assert PollStore().counts(code)[answer] == 2  # the old poll keeps its votes


@pytest.fixture(scope="module")
def patched(translator):
    """The patching page's first built-in pair, measured as the page measures it (model.causal)."""
    from model.causal import measure, read_pair

    return measure(translator, read_pair(translator, "He bought a book.", "She bought a book.", None, None))


def test_a_patching_poll_offers_every_kind_and_layer_and_its_answer_is_the_largest_effect(patched):
    code = polls.start_patching(patched, "en")
    stored = PollStore().poll(code)
    kinds = ("encoder_self", "decoder_self", "cross")
    assert stored.options == [f"{k}:{layer}" for k in kinds for layer in range(patched.heads[k].shape[0])]
    assert len(stored.options) == 9
    best = max(((float(v), k, layer, head) for k in kinds for (layer, head), v in np.ndenumerate(patched.heads[k])))
    assert stored.options[stored.answer] == f"{best[1]}:{best[2]}"
    assert (stored.question["head"], stored.question["effect"]) == (best[3], pytest.approx(best[0]))
    assert stored.question["heads"] == 72


@pytest.mark.parametrize("lang, option, measured", [
    ("en", "cross · layer 1", "The measured answer:"), ("zh", "交叉注意力 · 第 1 层", "测得的答案："),
])
def test_students_vote_on_the_patching_guess_and_the_reveal_shows_the_measured_answer(patched, lang, option,
                                                                                      measured):
    code = polls.start_patching(patched, "en")
    answer = PollStore().poll(code).answer
    at = app({"code": code}, voter="ana", lang=lang)
    radio = at.radio(key=polls.CHOICE)
    assert len(radio.options) == 9 and option in radio.options
    radio.set_value(answer)
    (vote,) = [b for b in at.button if b.label == strings(lang)["poll.vote"]]
    vote.click().run()
    assert PollStore().counts(code)[answer] == 1
    teacher = app({"code": code, "view": "tally"}, lang=lang)
    teacher.button(key="poll.reveal").click().run()
    (line,) = [s.value for s in teacher.success if measured in s.value]
    kind, layer = PollStore().poll(code).options[answer].split(":")
    said = strings(lang)
    name = said["poll.patching.option"].format(kind=said[f"poll.patching.kind.{kind}"], layer=int(layer) + 1)
    assert f"**{name}**" in line.replace("\\", "")
    assert f"{PollStore().poll(code).question['effect']:.2f}" in line


def test_the_patching_page_starts_a_poll_on_its_guess(translator):
    at = app({}, page="app_pages/pages/patching.py", **{state_keys.CHECKPOINT: "en-zh"})
    assert not [b for b in at.button if b.key == "poll.patching.start"]  # only with Guess first on
    at.toggle(key="patching.guess").set_value(True).run()
    at.button(key="poll.patching.start").click().run()
    assert not at.exception, [e.message for e in at.exception]
    code = at.session_state[polls.CODE]
    assert PollStore().poll(code).question["kind"] == poll_view.PATCHING
    assert at.session_state[polls.VIEW] == "tally" and f"Code: {code}" in texts(at)
