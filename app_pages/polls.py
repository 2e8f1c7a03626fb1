"""The class poll's screens: the explorer's "Start a poll" control (a teacher's), the teacher's live tally and Reveal,
a student's join form and vote. What the sessions share lives in SQLite (poll_store.py), never in this process.

Who sees what: a teacher (server.is_teacher) starts polls and sees a poll's tally (link view=tally); everyone else
sees the question and votes once. Each browser session votes under its own random voter id.
"""

from __future__ import annotations

import secrets

import streamlit as st

from app_pages import attention_view, registry, server, widgets
from app_pages.link_values import BadLinkValue, Param, one_of
from app_pages.poll_store import CODE_LENGTH, EXPIRES_S, Poll, PollStore, read_code
from app_pages.text import md_escape, t
from lessons.attention_maps import pick, strongest_key
from lessons.attention_table import unique_labels
from model import TranslationResult
from viz.poll import tally_bars

CODE, VIEW, VOTER = "poll.code", "poll.view", "poll.voter"
JOIN_INPUT, BAD_CODE, CHOICE, OUTCOME, ROW = "poll.join_input", "poll.bad_code", "poll.choice", "poll.outcome", "poll.row"
TALLY_EVERY_S, REVEAL_CHECK_S = 2, 5  # how often the teacher's tally and a voter's wait for the answer look again


def store() -> PollStore:
    return PollStore()  # one short connection per call: nothing held between runs


def voter_id() -> str:
    return st.session_state.setdefault(VOTER, secrets.token_hex(16))


def read_link_code(text: str) -> str:
    code = read_code(text)
    if code is None:
        raise BadLinkValue("poll_code")
    return code


def link_params() -> dict[str, Param]:
    """The poll page's link: its code, and view=tally for a teacher's tally."""
    return {"code": Param(CODE, read_link_code), "view": Param(VIEW, one_of(("tally",)))}


# ---------------------------------------------------------------- the explorer's control (translate page)

def start(result: TranslationResult, layer: int, head: int, row: int) -> str:
    """A poll on cross-attention row `row` of this layer and head (or average): the options are the source tokens,
    the model's answer the row's largest weight."""
    weights = result.attention("cross")
    queries, keys = result.axis_tokens("cross")
    answer = strongest_key(weights, layer, head, row)
    question = {"kind": "cross", "layer": layer, "head": head, "sentence": result.source_text,
                "query": queries[row], "row": row, "weight": float(pick(weights, layer, head)[row, answer])}
    return store().create(question, list(keys), answer)


def start_control(result: TranslationResult, kind: str, layer: int, head: int) -> None:
    """Under a cross-attention map, for a teacher: choose a row, start a poll on it, open its tally."""
    if kind != "cross" or not server.is_teacher():
        return
    queries = result.axis_tokens("cross")[0]
    rows = list(range(len(queries)))
    chosen = widgets.kept(ROW, rows, min(1, len(rows) - 1))  # row 0 reads <s>: the first output token's row next
    with st.container(horizontal=True, vertical_alignment="bottom", key="poll.start"):
        row = st.selectbox(t("poll.start.row"), rows, format_func=lambda i: f"{i}: {queries[i]}", key=ROW,
                           width=260, index=chosen)
        if st.button(t("poll.start.button"), icon=":material/how_to_vote:", help=t("poll.start.help"),
                     key="poll.start.button"):
            code = start(result, layer, head, row)
            st.switch_page(registry.PAGE["poll"].script, query_params={"code": code, "view": "tally"})


# ---------------------------------------------------------------- the poll page

def join(code_text: str | None = None) -> None:
    code = read_code(st.session_state.get(JOIN_INPUT, "") if code_text is None else code_text)
    st.session_state[BAD_CODE] = code is None
    if code is not None:
        st.session_state[CODE] = code
        st.session_state.pop(OUTCOME, None)


def join_form() -> None:
    with st.form("poll.join", border=False):
        with st.container(horizontal=True, vertical_alignment="bottom"):
            st.text_input(t("poll.code"), key=JOIN_INPUT, max_chars=3 * CODE_LENGTH, width=220,
                          help=t("poll.code_help", n=CODE_LENGTH))
            st.form_submit_button(t("poll.join"), type="primary", on_click=join)
    if st.session_state.pop(BAD_CODE, False):
        st.error(t("poll.bad_code", n=CODE_LENGTH), icon=":material/error:")


def option_label(poll: Poll, index: int) -> str:
    return unique_labels(poll.options)[index]


def question(poll: Poll) -> None:
    q = poll.question
    st.markdown("#### " + t("poll.question", query=md_escape(q["query"]), row=q["row"]))
    st.caption(t("poll.about", kind=attention_view.kind_name(q["kind"]), layer=attention_view.layer_name(q["layer"]),
                 head=attention_view.head_name(q["head"]), sentence=md_escape(q["sentence"])))


def answer_line(poll: Poll, counts: list[int] | None = None) -> None:
    text = t("poll.answer", answer=md_escape(option_label(poll, poll.answer)), weight=f"{poll.question['weight']:.2f}")
    if counts is not None:
        text += " " + t("poll.agreed", agreed=counts[poll.answer], votes=sum(counts))
    st.success(text, icon=":material/smart_toy:")


def cast_vote(code: str) -> None:
    choice = st.session_state.get(CHOICE)
    st.session_state[OUTCOME] = "no_choice" if choice is None else store().vote(code, voter_id(), choice)


@st.fragment(run_every=REVEAL_CHECK_S)
def waiting_for_answer(code: str) -> None:
    poll = store().poll(code)
    if poll is None:
        st.info(t("poll.ended"), icon=":material/timer_off:")
    elif poll.revealed:
        answer_line(poll)
    else:
        st.caption(t("poll.wait"))


def student_view(poll: Poll) -> None:
    """The question; the vote form until this session has voted, then its vote and, once revealed, the answer."""
    question(poll)
    outcome = st.session_state.pop(OUTCOME, None)
    if outcome in ("twice", "no_choice", "no_poll", "bad_choice"):
        st.warning(t({"twice": "poll.twice", "no_choice": "poll.no_choice"}.get(outcome, "poll.refused")),
                   icon=":material/block:")
    chosen = store().choice_of(poll.code, voter_id())
    if chosen is None and outcome != "twice":
        with st.form("poll.vote", border=False):
            labels = unique_labels(poll.options)
            st.radio(t("poll.choose"), range(len(labels)), index=None, key=CHOICE, horizontal=True,
                     format_func=lambda i: md_escape(labels[i]))
            st.form_submit_button(t("poll.vote"), type="primary", on_click=cast_vote, args=(poll.code,))
    elif chosen is not None:
        st.success(t("poll.voted", choice=md_escape(option_label(poll, chosen))), icon=":material/how_to_vote:")
        waiting_for_answer(poll.code)
    if server.is_teacher():
        st.button(t("poll.show_tally"), key="poll.show_tally", on_click=show_tally)


def show_tally() -> None:
    st.session_state[VIEW] = "tally"


def reveal(code: str) -> None:
    store().reveal(code)


@st.fragment(run_every=TALLY_EVERY_S)
def tally(code: str) -> None:
    """The votes so far, redrawn every TALLY_EVERY_S seconds; Reveal marks the model's answer on them."""
    poll = store().poll(code)
    if poll is None:
        st.info(t("poll.ended"), icon=":material/timer_off:")
        return
    counts = store().counts(code)
    figure = tally_bars(unique_labels(poll.options), counts, answer=poll.answer if poll.revealed else None,
                        title=t("poll.tally_title", n=sum(counts)), option_title=t("poll.axis.options"),
                        votes_label=t("poll.axis.votes"), answer_label=t("poll.answer_label"))
    widgets.chart(figure, key="poll.tally")
    if poll.revealed:
        answer_line(poll, counts)
    else:
        st.button(t("poll.reveal"), type="primary", icon=":material/visibility:", on_click=reveal, args=(code,),
                  key="poll.reveal")


def join_address(code: str) -> str:
    """The address a student opens to vote: this server's poll page with the code."""
    base = (st.context.url or "").split("?")[0].rstrip("/")
    base = base.rsplit("/", 1)[0] if base.endswith("/" + registry.PAGE["poll"].address) else base
    return f"{base}/{registry.PAGE['poll'].address}?code={code}"


def host_view(poll: Poll) -> None:
    """What the teacher projects: the code and address to join by, the question, the live tally."""
    left, right = st.columns([2, 3], gap="medium")
    with left:
        st.markdown("## " + t("poll.host.code", code=md_escape(poll.code)))
        st.caption(t("poll.host.join"))
        st.code(join_address(poll.code), language=None, wrap_lines=True)
        question(poll)
    with right:
        tally(poll.code)


def page() -> None:
    """The poll page: the join form, or the poll its code names (a teacher's tally or a student's vote)."""
    code = st.session_state.get(CODE)
    poll = store().poll(code) if code else None
    if poll is None:
        if code:
            st.warning(t("poll.not_found", hours=EXPIRES_S // 3600), icon=":material/search_off:")
        join_form()
    elif st.session_state.get(VIEW) == "tally" and server.is_teacher():
        host_view(poll)
    else:
        student_view(poll)
