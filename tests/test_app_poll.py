"""The class poll in-process (streamlit.testing): a teacher starts a poll from the explorer, students join by code or
link and vote once each, a bad code gets a plain message, and a map's numbers come out as CSV / TSV."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app_pages import polls, state_keys
from app_pages.poll_store import PollStore
from lessons.attention_maps import ALL, pick, strongest_key
from lessons.attention_table import read_table, unique_labels
from tests.conftest import ROOT

SENTENCE = "I have a dream."
HOSTILE = "<script>alert(1)</script>"


@pytest.fixture(autouse=True)
def data_dir(monkeypatch, tmp_path):
    """Each test's polls in a folder of its own (ATTENTION_DATA_DIR is read at every call)."""
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture
def poll(translator):
    """A poll on cross-attention layer 2, head 3, row 4, as the explorer's control starts it."""
    result = translator.translate(SENTENCE)
    return polls.start(result, 1, 2, 4), result


def app(page: str = "app_pages/pages/poll.py", query: dict | None = None, voter: str | None = None,
        lang: str = "en") -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[state_keys.SENTENCE] = SENTENCE
    at.session_state[state_keys.LANG] = lang
    if voter:
        at.session_state[polls.VOTER] = voter
    at.query_params.update(query or {})
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def press(at: AppTest, label: str) -> None:
    """Click the button labelled `label` (a form's submit button has no key of its own) and run."""
    (button,) = [b for b in at.button if b.label == label]
    button.click().run()
    assert not at.exception, [e.message for e in at.exception]


def texts(at: AppTest) -> str:
    return "\n".join(e.value for kind in ("markdown", "caption", "success", "warning", "error", "info")
                     for e in at.get(kind))


def test_the_poll_holds_the_models_answer(poll):
    code, result = poll
    stored = PollStore().poll(code)
    assert stored.options == result.source_tokens
    assert stored.answer == strongest_key(result.cross, 1, 2, 4)
    assert stored.question["weight"] == pytest.approx(float(result.cross[1, 2, 4].max()))
    assert stored.question["query"] == result.target_tokens[4]


def test_a_student_joins_by_code_and_votes_once(poll):
    code, result = poll
    at = app(voter="ana")
    at.text_input(key=polls.JOIN_INPUT).input(code.lower())
    press(at, "Join")
    assert "(row 4 of the map)" in texts(at)
    radio = at.radio(key=polls.CHOICE)
    assert radio.options == [polls.md_escape(label) for label in unique_labels(result.source_tokens)]
    radio.set_value(3)
    press(at, "Vote")
    assert "Your vote is in" in texts(at)
    assert not at.get("radio")  # voted: no second form
    assert PollStore().counts(code)[3] == 1


def test_a_second_vote_of_the_same_voter_is_refused(poll):
    """Two tabs of one voter open the form before either votes: the second vote is refused and not counted."""
    code, _ = poll
    first, second = app(query={"code": code}, voter="bob"), app(query={"code": code}, voter="bob")
    first.radio(key=polls.CHOICE).set_value(0)
    press(first, "Vote")
    second.radio(key=polls.CHOICE).set_value(1)
    press(second, "Vote")
    assert "already voted" in texts(second)
    assert PollStore().counts(code)[:2] == [1, 0]


def test_a_hostile_code_gets_a_plain_message(poll):
    at = app(query={"code": HOSTILE})
    shown = texts(at)
    assert "it is not a poll code" in shown
    assert "<script>" not in shown  # shown escaped, as text
    at.text_input(key=polls.JOIN_INPUT).input(HOSTILE[:15])
    press(at, "Join")
    assert "That is not a poll code" in texts(at)
    assert not at.get("radio")


def test_an_unknown_code_says_the_poll_is_not_open():
    at = app(query={"code": "ACDEF"})
    assert "No open poll has this code" in texts(at)


def test_the_teachers_tally_counts_votes_and_reveals_the_answer(poll):
    code, result = poll
    store = PollStore()
    for voter, choice in (("a", 1), ("b", 1), ("c", 0)):
        store.vote(code, voter, choice)
    at = app(query={"code": code, "view": "tally"}, lang="zh")
    (chart,) = at.get("plotly_chart")
    # The spec is JSON: Plotly writes non-ASCII text as \u escapes unless orjson is installed.
    assert "目前票数：3" in json.loads(chart.proto.spec)["layout"]["title"]["text"]
    at.button(key="poll.reveal").click().run()
    assert not at.exception
    answer = strongest_key(result.cross, 1, 2, 4)
    assert "模型的答案" in texts(at) and unique_labels(result.source_tokens)[answer] in texts(at).replace("\\", "")


def test_start_a_poll_from_the_explorer_opens_its_tally(translator):
    at = app(page="app_pages/pages/translate.py")
    at.segmented_control(key="explorer.kind").set_value("cross").run()
    at.selectbox(key=polls.ROW).set_value(2).run()
    at.button(key="poll.start.button").click().run()
    assert not at.exception
    code = at.session_state[polls.CODE]
    assert at.session_state[polls.VIEW] == "tally"
    assert PollStore().poll(code).question["row"] == 2
    assert f"Code: {code}" in texts(at)


def test_every_map_offers_its_numbers(translator):
    """The explorer's default map (encoder self-attention, layer 1, average of heads): the CSV is its weights."""
    at = app(page="app_pages/pages/translate.py")
    result = translator.translate(SENTENCE)
    assert len(at.get("download_button")) == 1  # its file is served by the media manager; the TSV is the same table
    (code,) = [c for c in at.code if c.value.startswith("# kind=encoder_self")]
    header, queries, keys, weights = read_table(code.value, delimiter="\t")
    assert header == f"# kind=encoder_self, layer=1, head=average, sentence={SENTENCE}"
    assert queries == keys == unique_labels(result.source_tokens)
    assert (weights == result.attention("encoder_self")[0].mean(0)).all()
    assert (weights == pick(result.encoder_self, 0, ALL)).all()


def test_a_teacher_finds_the_tally_again_by_the_code(poll):
    """After a restart the teacher's session is new: the code and "Show the class's tally" bring the tally back."""
    code, _ = poll
    PollStore().vote(code, "ana", 2)
    at = app()
    at.text_input(key=polls.JOIN_INPUT).input(code)
    press(at, "Join")
    press(at, "Show the class's tally")
    (chart,) = at.get("plotly_chart")
    assert "Votes so far: 1" in chart.proto.spec
