"""What the class poll's screens say and show, computed without Streamlit: the question, the options as a student
reads them, the model's answer with how many chose it, the tally chart, the box students join by, and the line a
refused vote gets. polls.py draws them and keeps the widgets, the store and the cookie."""

from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from app_pages.components import attention_view
from app_pages.components.token_names import readable, readable_labels
from app_pages.shell.text import md_escape, sentences, t
from app_pages.state import direction
from app_pages.state.poll_store import Poll
from viz.options import Room
from viz.poll import tally_bars

PATCHING = "patching"  # a poll's question kind: which kind of attention, at which layer, carries the difference
REFUSALS = {"twice": "poll.twice", "no_choice": "poll.no_choice", "closed": "poll.closed_vote",
            "no_poll": "poll.refused", "bad_choice": "poll.refused"}  # a vote's outcome → what the student is told


@dataclass(frozen=True)
class QuestionView:
    heading: str  # Markdown, what the user typed escaped
    caption: str


@dataclass(frozen=True)
class JoinView:
    """The short code, the line above the addresses (how to join, or that no other device can reach this server),
    and the addresses, the first also as a QR code."""

    heading: str
    note: str
    addresses: tuple[str, ...]


def patching_option_name(option: str) -> str:
    """A patching poll's option ("cross:1") as a student reads it: "cross-attention · layer 2"."""
    kind, _, layer = option.partition(":")
    return t("poll.patching.option", kind=t(f"poll.patching.kind.{kind}"), layer=int(layer) + 1)


def option_labels(poll: Poll) -> list[str]:
    """The options as a student reads them: a cross-attention poll's tokens as words; a patching poll's kind and
    layer in this session's language."""
    if poll.question.get("kind") == PATCHING:
        return [patching_option_name(option) for option in poll.options]
    return readable_labels(poll.options)


def source_name(poll: Poll) -> str:
    """The language of the poll's sentence, in this session's language: the poll's own (its student may be reading
    with another model than the teacher's); English for a poll stored before polls said which."""
    code = poll.question.get("source")
    return direction.language_name(code if code in ("en", "zh") else "en")


def question_view(poll: Poll) -> QuestionView:
    q = poll.question
    if q.get("kind") == PATCHING:
        words = {name: md_escape(readable(q[name])) for name in ("target", "foil")}
        return QuestionView("#### " + t("poll.patching.question", **words),
                            t("poll.patching.about", clean=md_escape(q["clean"]), corrupt=md_escape(q["corrupt"]),
                              source=source_name(poll)))
    words = {name: md_escape(readable(q[name])) for name in ("writes", "query")}
    return QuestionView("#### " + t("poll.question", row=q["row"], source=source_name(poll), **words),
                        t("poll.about", kind=attention_view.kind_name(q["kind"]),
                          layer=attention_view.layer_name(q["layer"]), head=attention_view.head_name(q["head"]),
                          sentence=md_escape(q["sentence"]), source=source_name(poll)))


def answer_text(poll: Poll, counts: list[int]) -> str:
    """The model's answer (a patching poll's: the measured one) and how many votes chose it."""
    answer = md_escape(option_labels(poll)[poll.answer])
    if poll.question.get("kind") == PATCHING:
        text = t("poll.patching.answer", answer=answer, head=poll.question["head"] + 1,
                 effect=f"{poll.question['effect']:.2f}", n=poll.question["heads"])
    else:
        text = t("poll.answer", answer=answer, weight=f"{poll.question['weight']:.2f}")
    return sentences([text, t("poll.agreed", agreed=counts[poll.answer], votes=sum(counts))])


def voted_text(poll: Poll, chosen: int) -> str:
    return t("poll.voted", choice=md_escape(option_labels(poll)[chosen]))


def refusal(outcome: str | None) -> str | None:
    """What a student whose vote was not counted is told; None for a counted vote or none pressed."""
    return t(REFUSALS[outcome]) if outcome in REFUSALS else None


def tally_figure(poll: Poll, counts: list[int], room: Room) -> go.Figure:
    """The votes per option, the answer marked once revealed, within `room` (a patching poll's nine kind × layer
    names, too long to stand under upright bars, get a row each: viz.poll.tally_bars)."""
    patching = poll.question.get("kind") == PATCHING
    return tally_bars(option_labels(poll), counts, answer=poll.answer if poll.revealed else None, room=room,
                      title=t("poll.tally_title", n=sum(counts)),
                      option_title=t("poll.patching.axis") if patching else t("poll.axis.options",
                                                                            source=source_name(poll)),
                      votes_label=t("poll.axis.votes"),
                      answer_label=t("poll.patching.answer_label") if patching else t("poll.answer_label"))


def join_view(code: str, addresses: list[str], reachable: bool) -> JoinView:
    """The join box of poll `code`: `addresses` to open (links.share_links), `reachable` whether another device can
    reach this server (where it listens on this machine only, that is said above the address, in place of the
    instruction to open it: on a 1280×800 screen's first view)."""
    note = t("poll.host.join") if reachable else ":material/wifi_off: " + t("poll.host.local_only")
    return JoinView("## " + t("poll.host.code", code=md_escape(code)), note, tuple(addresses))
