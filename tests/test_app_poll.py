"""The class poll in-process (streamlit.testing): a teacher starts a poll from the explorer, students join by code or
link and vote once each, a bad code gets a plain message, the question names the token its row writes, the options
read as words, the join address is one other devices reach, an unusable data folder is named in words, and a map's
numbers come out as CSV / TSV."""

from __future__ import annotations

import json
import sqlite3

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import poll_store, server, state_keys
from app_pages.components import polls
from app_pages.shell import link_values
from app_pages.state.poll_store import FILE_NAME, PollStore
from app_pages.components.token_names import readable_labels
from lessons.attention_maps import ALL, pick, strongest_key
from lessons.attention_table import read_table, unique_labels
from tests.support.paths import ROOT
from tests.support.poll_data import SENTENCE, WORDS, data_dir  # noqa: F401  (data_dir: autouse)

HOSTILE = "<script>alert(1)</script>"


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
    assert "row 4 of the map" in texts(at)
    radio = at.radio(key=polls.CHOICE)
    assert result.source_tokens == ["▁I", "▁have", "▁a", "▁dream", ".", "</s>"]  # what WORDS spells
    assert radio.options == [polls.md_escape(label) for label in WORDS]
    radio.set_value(3)
    press(at, "Vote")
    assert "Your vote is in" in texts(at)
    assert not at.get("radio")  # voted: no second form
    assert PollStore().counts(code)[3] == 1


def test_a_link_whose_first_run_was_interrupted_is_still_read(poll):
    """A student's click right after a reconnection interrupts the new session's first run after it read the shared
    part of the link and before the poll page read its code: the next run reads the code, and the student votes (the
    browser test of a restart under open vote forms saw the join form instead)."""
    code, _ = poll
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[state_keys.SENTENCE] = SENTENCE
    at.session_state[state_keys.LINK_READ] = True  # what the interrupted run left: the link read, nothing written
    at.session_state[state_keys.LINK_PENDING] = {"code": code}
    at.query_params["code"] = code
    at.switch_page("app_pages/pages/poll.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    at.radio(key=polls.CHOICE).set_value(2)
    press(at, "Vote")
    assert "Your vote is in: **a**." in texts(at)


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
    shown = WORDS[answer].replace("⟨end⟩", "⟨结尾⟩")
    assert "模型的答案" in texts(at) and f"**{shown}**" in texts(at).replace("\\", "")
    (line,) = [s.value for s in at.success if "模型的答案" in s.value]
    agreed = sum(choice == answer for choice in (1, 1, 0))
    assert line.endswith(f"）。3 票中有 {agreed} 票选了它。"), "Chinese sentences run on, no space after 。"


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


@pytest.mark.parametrize("lang, wording", [
    ("en", "While writing **有** (the token after **我**: row 1 of the map)"),
    ("zh", "写出 **有**（紧跟在 **我** 之后的词元：图中第 1 行）"),
])
def test_the_question_names_the_token_its_row_writes(translator, lang, wording):
    """Issue 48: the row labelled 我 (the decoder's input) writes 有 and looks at "have"; asked about "我 (row 1)", a
    class that answered "I" was marked wrong."""
    result = translator.translate(SENTENCE)
    assert result.target_tokens[1] == "我" and result.output_tokens[1] == "有"  # the sentence the wording is about
    code = polls.start(result, 1, ALL, 1)
    at = app(query={"code": code}, lang=lang)
    assert wording in texts(at)


def test_start_a_poll_names_each_row_by_the_token_it_writes(translator):
    at = app(page="app_pages/pages/translate.py", query={"kind": "cross"})
    names = at.selectbox(key=polls.ROW).options
    assert names[:3] == ["0: <s> → writes 我", "1: 我 → writes 有", "2: 有 → writes 一"]
    assert names[-1] == "7: 。 → writes </s>"


def test_options_read_as_words_and_repeats_say_which():
    assert readable_labels(["▁The", "▁dog", "▁saw", "▁the", "▁dog", ".", "</s>"]) == [
        "The", "dog (no. 1)", "saw", "the", "dog (no. 2)", ".", "⟨end⟩"]
    assert readable_labels(["▁dre", "am", "▁I"]) == ["dre", "-am", "I"]  # a piece of a word is not read as a word
    assert readable_labels(["我", "有", "一", "个"]) == ["我", "有", "一", "个"]


def test_the_join_address_is_one_other_devices_reach():
    bases = link_values.app_bases  # where every shared link points (tests/test_share_links.py)
    assert bases("https://class.example.org/att/", "http://localhost:8501/poll", ["192.0.2.7"], 8501, "") == [
        "https://class.example.org/att"]  # ATTENTION_PUBLIC_URL wins
    assert bases(None, "http://192.0.2.9:8501/poll?code=X", ["192.0.2.7"], 8501, "") == ["http://192.0.2.9:8501"]
    assert bases(None, "http://localhost:8501/poll", ["192.0.2.7", "10.0.0.3"], 8501, "/att") == [
        "http://192.0.2.7:8501/att", "http://10.0.0.3:8501/att"]
    assert bases(None, "http://127.0.0.1:8501/poll", [], 8501, "") == ["http://127.0.0.1:8501"]  # nothing better


@pytest.mark.parametrize("public, shown", [
    (None, "http://192.0.2.7:8501/poll?code={code}&lang=en"),
    ("https://class.example.org/attention", "https://class.example.org/attention/poll?code={code}&lang=en"),
])
def test_the_teachers_screen_shows_the_join_address_and_its_qr_code(poll, monkeypatch, public, shown):
    code, _ = poll
    monkeypatch.setattr(server, "lan_addresses", lambda: ["192.0.2.7"])
    if public:
        monkeypatch.setenv(polls.PUBLIC_URL, public)
    at = app(query={"code": code, "view": "tally"})
    address = shown.format(code=code)
    assert [c.value for c in at.main.code] == [address]
    assert len(at.get("image")) == 1  # the QR code (its content: test_the_qr_code_spells_the_address)
    assert "localhost" not in address


def test_the_poll_file_is_made_once_per_process(tmp_path, monkeypatch):
    calls = []
    migrate = PollStore._migrate
    monkeypatch.setattr(PollStore, "_migrate", lambda self: (calls.append(self.path), migrate(self)))
    for _ in range(3):
        PollStore(tmp_path / "once" / FILE_NAME).poll("ACDEF")
    assert calls == [tmp_path / "once" / FILE_NAME]


@pytest.mark.parametrize("lang, words", [("en", "The class poll cannot use its data file"),
                                         ("zh", "课堂投票无法使用它的数据文件")])
def test_a_data_folder_that_cannot_be_made_is_named_and_other_pages_work(translator, tmp_path, monkeypatch, lang,
                                                                            words):
    """A data folder that cannot be made (its path runs through a file: this holds even for root, where a chmod'ed
    read-only folder would still be written): Start a poll and Join say what and where; the explorer keeps working."""
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(blocked / "polls"))
    at = app(page="app_pages/pages/translate.py", query={"kind": "cross"}, lang=lang)
    at.button(key="poll.start.button").click().run()
    assert not at.exception
    shown = "\n".join(e.value for e in at.error)
    assert words in shown and "a\\-file" in shown  # the path, escaped for Markdown
    assert at.get("plotly_chart")  # the map is still drawn
    at = app(lang=lang)
    at.text_input(key=polls.JOIN_INPUT).input("ACDEF")
    (submit,) = [b for b in at.button if b.label in ("Join", "加入")]
    submit.click().run()
    assert not at.exception and words in "\n".join(e.value for e in at.error)


def test_a_vote_the_disk_refuses_is_said_not_lost(poll, monkeypatch):
    """A full disk: SQLite's "disk I/O error" (sqlite3.connect made to raise it, as a full disk would on write)."""
    code, _ = poll
    at = app(query={"code": code}, voter="ana")
    at.radio(key=polls.CHOICE).set_value(1)

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(poll_store.sqlite3, "connect", full)
    press(at, "Vote")
    shown = "\n".join(e.value for e in at.error)
    assert "The class poll cannot use its data file" in shown and "disk I\\/O error" in shown


def test_the_qr_code_spells_the_address():
    """The PNG's modules, sampled at their centres (8 px each, 2 of quiet border), are segno's QR matrix of the
    address, and differ from another code's."""
    import io

    import numpy as np
    import segno
    from PIL import Image

    def modules(address: str) -> np.ndarray:
        pixels = np.asarray(Image.open(io.BytesIO(polls.qr_png(address))).convert("L"))
        return pixels[2 * 8 + 4::8, 2 * 8 + 4::8][:-2, :-2] < 128  # dark modules

    address = "http://192.0.2.7:8501/poll?code=ACDEF"
    expected = np.array(segno.make(address, error="m").matrix, dtype=bool)
    assert (modules(address) == expected).all()
    assert modules("http://192.0.2.7:8501/poll?code=ACDEX").shape != expected.shape or \
        (modules("http://192.0.2.7:8501/poll?code=ACDEX") != expected).any()


@pytest.mark.parametrize("lang, row_1", [("en", "1: 我 → writes 有"), ("zh", "1：我 → 写出 有")])
def test_guess_first_names_a_decoder_row_by_the_token_it_writes(translator, lang, row_1):
    at = app(page="app_pages/pages/translate.py", query={"kind": "cross"}, lang=lang)
    at.toggle(key="explorer.guess").set_value(True).run()
    assert not at.exception
    assert at.selectbox(key="explorer.guess.query").options[1] == row_1


def test_a_poll_file_deleted_under_the_server_is_made_again(tmp_path):
    """Made once per process, the file is made again after it was deleted (a temporary folder cleaned): one call
    says what is wrong, the next store works."""
    path = tmp_path / FILE_NAME
    PollStore(path).poll("ACDEF")
    path.unlink()
    with pytest.raises(poll_store.StoreUnavailable, match="no such table"):
        PollStore(path).poll("ACDEF")
    assert PollStore(path).poll("ACDEF") is None  # open again, and no poll has that code
