"""The class poll's view without Streamlit (app_pages/components/poll_view.py): the question and options as a student
reads them, the answer with how many chose it, the tally chart, the join box and a refused vote's line, in both
languages; what a user typed (the sentence) kept as text."""

from __future__ import annotations

import pytest

from app_pages.components import poll_view
from app_pages.shell.text import in_language, md_escape, t
from app_pages.state.poll_store import Poll
from i18n import strings
from viz.options import Room

CROSS = Poll("ABCDE", 0.0, 1.0, {"kind": "cross", "layer": 1, "head": -1, "sentence": "I have a *dream* <b>.",
                                 "query": "有", "writes": "一", "row": 2, "weight": 0.4123, "source": "en"},
             ["▁I", "▁have", "▁a", "▁dream", ".", "</s>"], 3, False)
PATCHED = Poll("FGHIJ", 0.0, 1.0, {"kind": "patching", "clean": "我很累。", "corrupt": "我很饿。",
                                   "target": "▁tired", "foil": "▁hungry", "step": 4, "head": 3, "effect": 0.1234,
                                   "heads": 72, "source": "zh"},
               ["encoder_self:0", "cross:2"], 1, True)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_cross_attention_poll_reads_its_tokens_as_words_and_its_sentence_as_text(lang):
    with in_language(lang):
        question = poll_view.question_view(CROSS)
        labels = poll_view.option_labels(CROSS)
        answer = poll_view.answer_text(CROSS, [1, 0, 2, 5, 0, 0])
        agreed = t("poll.agreed", agreed=5, votes=8)
    assert labels[:4] == ["I", "have", "a", "dream"] and question.heading.startswith("#### ")
    assert md_escape("I have a *dream* <b>.") in question.caption and "<b>" not in question.caption
    assert agreed in answer and "0.41" in answer and "dream" in answer


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_patching_poll_names_kinds_and_layers_and_its_measured_answer(lang):
    s = strings(lang)
    with in_language(lang):
        labels = poll_view.option_labels(PATCHED)
        question = poll_view.question_view(PATCHED)
        answer = poll_view.answer_text(PATCHED, [3, 4])
        agreed = t("poll.agreed", agreed=4, votes=7)
    assert labels[1] == s["poll.patching.option"].format(kind=s["poll.patching.kind.cross"], layer=3)
    assert "tired" in question.heading and "hungry" in question.heading and "我很累。" in question.caption
    assert "0.12" in answer and agreed in answer


def test_the_tally_marks_the_answer_only_once_revealed():
    with in_language("en"):
        hidden = poll_view.tally_figure(CROSS, [1, 0, 2, 5, 0, 0], Room(460, 300))
        shown = poll_view.tally_figure(PATCHED, [3, 4], Room(460, 300))
    assert "8" in hidden.layout.title.text and "7" in shown.layout.title.text
    assert hidden.to_json() != poll_view.tally_figure(CROSS, [1, 0, 2, 5, 0, 1], Room(460, 300)).to_json()
    assert strings("en")["poll.answer_label"] not in hidden.to_json()
    assert strings("en")["poll.patching.answer_label"] in shown.to_json()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_join_box_says_how_to_join_or_that_no_other_device_can(lang):
    s = strings(lang)
    with in_language(lang):
        open_box = poll_view.join_view("ABCDE", ["http://192.0.2.1:8501/poll?code=ABCDE"], reachable=True)
        here_only = poll_view.join_view("ABCDE", ["http://127.0.0.1:8501/poll?code=ABCDE"], reachable=False)
    assert open_box.note == s["poll.host.join"] and "ABCDE" in open_box.heading
    assert here_only.note.endswith(s["poll.host.local_only"]) and here_only.addresses[0].startswith("http://127.")


@pytest.mark.parametrize(("outcome", "key"), [("twice", "poll.twice"), ("no_choice", "poll.no_choice"),
                                              ("closed", "poll.closed_vote"), ("no_poll", "poll.refused"),
                                              ("bad_choice", "poll.refused")])
def test_a_refused_vote_is_told_why_and_a_counted_one_nothing(outcome, key):
    with in_language("zh"):
        assert poll_view.refusal(outcome) == strings("zh")[key]
        assert poll_view.refusal("counted") is None and poll_view.refusal(None) is None
