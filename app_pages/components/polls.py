"""The class poll's screens: the explorer's "Start a poll" control (a teacher's), the teacher's live tally and Reveal,
a student's join form and vote. What the sessions share lives in SQLite (poll_store.py), never in this process.

Who sees what: a teacher (server.is_teacher) starts polls and sees a poll's tally (link view=tally); everyone else
sees the question and votes once. One vote per browser: its voter id lives in a cookie (VOTER_COOKIE), so a reload,
a second tab or a new session of the same browser votes as the same student, and the poll file's unique constraint
refuses a second vote ("you have already voted"; a vote is never changed). Streamlit can read cookies
(st.context.cookies, sent when a session connects) but not set them: a small component (COOKIE_JS) writes a new
browser's id and reports an id the browser already had. A browser that refuses cookies votes once per session.

A vote is read from the form's own values in the run its button starts, not from an on_click callback: after a server
restart the tab's open form reconnects to a new session, where Streamlit calls no callback of a widget it has not
drawn yet, so a vote taken by a callback would be lost without a word.
"""

from __future__ import annotations

import io
import os
import re
import secrets

import segno
import streamlit as st

from app_pages.components import charts, poll_view
from app_pages.state import direction, server, widget_state
from app_pages.shell import links, registry
from app_pages.shell.link_values import BadLinkValue, Param, one_of
from app_pages.state.poll_store import CODE_LENGTH, EXPIRES_S, Poll, PollStore, StoreUnavailable, read_code
from app_pages.shell.text import language, md_escape, t
from app_pages.components.token_names import row_names
from lessons.attention_maps import pick, strongest_key
from model import TranslationResult
from model.causal import Patching
from viz.options import Room

CODE, VIEW, VOTER, COOKIE = "poll.code", "poll.view", "poll.voter", "poll.cookie"
JOIN_INPUT, BAD_CODE, CHOICE, OUTCOME, ROW = "poll.join_input", "poll.bad_code", "poll.choice", "poll.outcome", "poll.row"
VOTE = "poll.vote_button"
TALLY_EVERY_S, REVEAL_CHECK_S = 2, 5  # how often the teacher's tally and a voter's wait for the answer look again
VOTER_COOKIE = "attention_voter"
VOTER_ID = re.compile(r"[0-9a-f]{32}")  # what secrets.token_hex(16) gives; any other cookie value is replaced
COOKIE_MAX_AGE_S = 180 * 24 * 60 * 60  # a school term: long after any poll closes
PUBLIC_URL = links.PUBLIC_URL
LOCAL_ONLY = ("localhost", "127.", "::1")  # a server listening here is reached from this machine only
QR_PX = 150
# The tally's room on a 1280×800 screen: the right column, beside the code and QR code on the teacher's screen (under
# the question and Reveal, then the answer and Reopen), beside the answer on a student's (under the question and the
# student's vote); tests/test_lesson_rehearsal_browser.py checks that both end on the first screen.
TEACHER_TALLY, STUDENT_TALLY = Room(460, 300), Room(460, 400)
# Constant (no user or model text): `data` carries the cookie's name, its lifetime and this session's fresh id.
COOKIE_JS = """export default function ({ data, setStateValue }) {
  const prefix = data.name + "=";
  const found = document.cookie.split("; ").find((c) => c.startsWith(prefix));
  let voter = found ? found.slice(prefix.length) : "";
  if (!/^[0-9a-f]{32}$/.test(voter)) {
    voter = data.fresh;
    document.cookie = `${prefix}${voter}; path=/; max-age=${data.maxAge}; SameSite=Lax`;
  }
  setStateValue("voter", voter);
}"""
voter_cookie = st.components.v2.component("attention.voter_cookie", js=COOKIE_JS)


def store() -> PollStore:
    """The poll file (made once per process); raises StoreUnavailable where it cannot be made, read or written."""
    return PollStore()


def store_error(problem: StoreUnavailable) -> None:
    """What is wrong with the poll's store: where and why for the teacher; a student, who cannot fix it, gets a
    sentence without the server's file path or database address."""
    if not server.is_teacher():
        st.error(t("poll.store_error.student"), icon=":material/database_off:")
        return
    key = "poll.store_error.database" if problem.database else "poll.store_error"  # ATTENTION_POLL_DB's server
    st.error(t(key, path=md_escape(str(problem.path)), reason=md_escape(problem.reason)),
             icon=":material/database_off:")


def fresh_voter() -> str:
    return st.session_state.setdefault(VOTER, secrets.token_hex(16))


def valid_voter(found) -> str | None:
    """`found` where it is a voter id (not a string at all under AppTest's stand-in runtime, which has no browser)."""
    return found if isinstance(found, str) and VOTER_ID.fullmatch(found) else None


def voter_id() -> str:
    """This browser's voter id: the cookie it sent when this session connected, else the one the cookie component
    found or wrote, else this session's fresh id (the one the component writes where the browser had none)."""
    reported = st.session_state.get(COOKIE)
    sent = valid_voter(st.context.cookies.get(VOTER_COOKIE))
    return sent or valid_voter(reported.get("voter") if reported else None) or fresh_voter()


def keep_voter_cookie() -> None:
    """Where this session connected without the cookie, the component writes it (or reports the one another tab
    wrote since), so that the next session of this browser sends it."""
    if valid_voter(st.context.cookies.get(VOTER_COOKIE)) is None:
        voter_cookie(key=COOKIE, data={"name": VOTER_COOKIE, "fresh": fresh_voter(), "maxAge": COOKIE_MAX_AGE_S},
                     on_voter_change=lambda: None, height=0)


def read_link_code(text: str) -> str:
    code = read_code(text)
    if code is None:
        raise BadLinkValue("poll_code")
    return code


def link_params() -> dict[str, Param]:
    """The poll page's link: its code, and view=tally for a teacher's tally."""
    return {"code": Param(CODE, read_link_code), "view": Param(VIEW, one_of(("tally",)))}


# ---------------------------------------------------------------- the explorer's control (translate page)

def start(result: TranslationResult, layer: int, head: int, row: int, source: str = "en") -> str:
    """A poll on cross-attention row `row` of this layer and head (or average): the options are the source tokens,
    the model's answer the row's largest weight. The question names the token the row writes (output_tokens[row])
    as well as the one it reads: the row labelled 我 writes 有. `source`: the sentence's language ("en", "zh"),
    kept with the question, which a student may read with another model than the teacher's."""
    weights = result.attention("cross")
    queries, keys = result.axis_tokens("cross")
    answer = strongest_key(weights, layer, head, row)
    question = {"kind": "cross", "layer": layer, "head": head, "sentence": result.source_text, "query": queries[row],
                "writes": result.output_tokens[row], "row": row,
                "weight": float(pick(weights, layer, head)[row, answer]), "source": source}
    return store().create(question, list(keys), answer)


def start_control(result: TranslationResult, kind: str, layer: int, head: int) -> None:
    """Under a cross-attention map, for a teacher: choose a row (named by the token it writes), start a poll on it,
    open its tally."""
    if kind != "cross" or not server.is_teacher():
        return
    names = row_names(result, "cross")
    rows = list(range(len(names)))
    chosen = widget_state.kept(ROW, rows, min(1, len(rows) - 1))  # row 0 reads <s>: the first output token's row next
    with st.container(horizontal=True, vertical_alignment="bottom", key="poll.start"):
        row = st.selectbox(t("poll.start.row"), rows, format_func=names.__getitem__, key=ROW, width=300, index=chosen)
        pressed = st.button(t("poll.start.button"), icon=":material/how_to_vote:", help=t("poll.start.help"),
                            key="poll.start.button")
    if pressed:
        try:
            code = start(result, layer, head, row, direction.current()[0])
        except StoreUnavailable as problem:
            store_error(problem)
            return
        st.switch_page(registry.PAGE["poll"].script, query_params={"code": code, "view": "tally"})


# ---------------------------------------------------------------- the patching page's control ("Which head carries it?")

HEAD_KINDS = ("encoder_self", "decoder_self", "cross")  # the page's three head grids, in its order


def start_patching(found: Patching, source: str = "en") -> str:
    """A poll on the patching page's guess: which kind of attention and layer holds the head whose patch restores the
    clean answer most. The options are every kind × layer of the page's head grids; the answer is the one holding
    the largest measured effect (the page's own verdict names that head too)."""
    options, best = [], []
    for kind in HEAD_KINDS:
        for layer, effects in enumerate(found.heads[kind]):
            options.append(f"{kind}:{layer}")
            best.append((float(effects.max()), int(effects.argmax())))
    answer = max(range(len(options)), key=lambda i: best[i][0])
    pair = found.pair
    question = {"kind": poll_view.PATCHING, "clean": pair.clean.text, "corrupt": pair.corrupt.text,
                "target": pair.target_token, "foil": pair.foil_token, "step": pair.step, "head": best[answer][1],
                "effect": best[answer][0], "heads": sum(found.heads[kind].size for kind in HEAD_KINDS),
                "source": source}
    return store().create(question, options, answer)


def patching_start_control(found: Patching, source: str) -> None:
    """For a teacher, beside the patching page's guess: start a class poll on it and open its tally."""
    if not server.is_teacher():
        return
    if st.button(t("poll.patching.start"), icon=":material/how_to_vote:", help=t("poll.patching.start_help"),
                 key="poll.patching.start"):
        try:
            code = start_patching(found, source)
        except StoreUnavailable as problem:
            store_error(problem)
            return
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


def question(poll: Poll) -> None:
    shown = poll_view.question_view(poll)
    st.markdown(shown.heading)
    st.caption(shown.caption)


def answer_line(poll: Poll, counts: list[int]) -> None:
    st.success(poll_view.answer_text(poll, counts), icon=":material/smart_toy:")


def vote_form(poll: Poll, voter: str) -> None:
    """The options and Vote; a press is counted in the run it starts (see the module's docstring), then the page is
    drawn again with its outcome."""
    with st.form("poll.vote", border=False):
        labels = poll_view.option_labels(poll)
        choice = st.radio(t("poll.choose"), range(len(labels)), index=None, key=CHOICE, horizontal=True,
                          format_func=lambda i: md_escape(labels[i]))
        pressed = st.form_submit_button(t("poll.vote"), type="primary", key=VOTE)
    if pressed:
        st.session_state[OUTCOME] = "no_choice" if choice is None else store().vote(poll.code, voter, choice)
        st.rerun()


@st.fragment(run_every=REVEAL_CHECK_S)
def watch(code: str, revealed: bool) -> None:
    """A student's page drawn again as a whole once the teacher reveals the answer (the form gives way to the answer
    and the tally), reopens voting (the form comes back), or the poll ends."""
    try:
        poll = store().poll(code)
    except StoreUnavailable as problem:
        store_error(problem)
        return
    if poll is None or poll.revealed != revealed:
        st.rerun(scope="app")


def student_view(poll: Poll) -> None:
    """The question; the vote form until this session has voted, then its vote; once the answer is revealed, voting
    is closed: the answer and the class's tally instead of the form, and where to type the next poll's code."""
    question(poll)
    voter = voter_id()
    outcome = st.session_state.pop(OUTCOME, None)
    if refused := poll_view.refusal(outcome):
        st.warning(refused, icon=":material/block:")
    chosen = store().choice_of(poll.code, voter)
    if st.session_state.get(VOTE) or (chosen is None and outcome != "twice" and not poll.revealed):
        vote_form(poll, voter)  # a press from a tab opened before (or before the reveal) is still answered
    elif chosen is not None:
        st.success(poll_view.voted_text(poll, chosen), icon=":material/how_to_vote:")
    if poll.revealed:
        results(poll)
    elif chosen is not None:
        st.caption(t("poll.wait"))
    watch(poll.code, poll.revealed)
    if server.is_teacher():
        st.button(t("poll.show_tally"), key="poll.show_tally", on_click=show_tally)


def show_tally() -> None:
    st.session_state[VIEW] = "tally"


def reveal(code: str) -> None:
    store().reveal(code)


def reopen(code: str) -> None:
    store().reopen(code)


def results(poll: Poll) -> None:
    """What a student sees once the answer is revealed: the answer, how many chose it and where to type the next
    poll's code, beside the class's votes (below them, the chart's foot would sit at a 1280×800 screen's bottom edge; a
    phone's narrow screen puts them one above the other)."""
    counts = store().counts(poll.code)
    left, right = st.columns([2, 3], gap="medium")
    with left:
        answer_line(poll, counts)
        st.caption(t("poll.closed"))
        st.caption(t("poll.next"))
        join_form()
    with right:
        charts.chart(poll_view.tally_figure(poll, counts, STUDENT_TALLY), key="poll.tally")


@st.fragment(run_every=TALLY_EVERY_S)
def tally(code: str) -> None:
    """The votes so far, redrawn every TALLY_EVERY_S seconds; Reveal marks the model's answer on them and closes
    voting, then Reopen voting or a new poll on the same question. Those controls (then the answer) come above the
    chart: under it, presentation mode's larger chart pushed them below a 1280×800 screen."""
    try:
        poll, counts = store().poll(code), store().counts(code)
    except StoreUnavailable as problem:
        store_error(problem)
        return
    if poll is None:
        st.info(t("poll.ended"), icon=":material/timer_off:")
        return
    if poll.revealed:
        answer_line(poll, counts)
        with st.container(horizontal=True, key="poll.after"):
            st.button(t("poll.reopen"), icon=":material/lock_open:", on_click=reopen, args=(code,),
                      help=t("poll.reopen_help"), key="poll.reopen")
            again = st.button(t("poll.again"), icon=":material/restart_alt:", help=t("poll.again_help"),
                              key="poll.again")
        if again:
            st.session_state[CODE] = store().again(code) or code
            st.rerun(scope="app")  # the code, address and QR code beside the tally are the new poll's
    else:
        st.button(t("poll.reveal"), type="primary", icon=":material/visibility:", on_click=reveal, args=(code,),
                  key="poll.reveal", help=t("poll.reveal_help"))
    charts.chart(poll_view.tally_figure(poll, counts, TEACHER_TALLY), key="poll.tally")


def join_addresses(code: str) -> list[str]:
    """The addresses a student opens to vote: links.share_links for the poll page, the code and the teacher's
    language (a class taught in 中文 votes in 中文; a student may still switch)."""
    return links.share_links("poll", {"code": code, "lang": language()})


def qr_png(text: str) -> bytes:
    """`text` as a QR code (PNG, medium error correction, so a projector's glare still scans)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=8, border=2)
    return out.getvalue()


def join_box(code: str) -> None:
    """The short code, the address(es) to open and a QR code of the first (poll_view.join_view)."""
    reachable = bool(os.environ.get(PUBLIC_URL)) or not (st.get_option("server.address") or "").startswith(LOCAL_ONLY)
    shown = poll_view.join_view(code, join_addresses(code), reachable)
    st.markdown(shown.heading)
    st.caption(shown.note)
    for address in shown.addresses:
        st.code(address, language=None, wrap_lines=True)
    st.image(qr_png(shown.addresses[0]), width=QR_PX, caption=t("poll.host.qr"), output_format="PNG")  # JPEG blurs it


def host_view(poll: Poll) -> None:
    """What the teacher projects: the question on top, then the code, address and QR code to join by beside the live
    tally."""
    question(poll)
    left, right = st.columns([2, 3], gap="medium")
    with left:
        join_box(poll.code)
    with right:
        tally(poll.code)


def page() -> None:
    """The poll page: the join form, or the poll its code names (a teacher's tally or a student's vote); where the poll
    file cannot be used, what is wrong and where."""
    try:
        poll_page()
    except StoreUnavailable as problem:
        store_error(problem)


def poll_page() -> None:
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
        keep_voter_cookie()
