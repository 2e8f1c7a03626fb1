"""The sidebar every page shows: language, model, its target language, beam size, presentation mode, and the
teacher's server-wide controls (server.py)."""

from __future__ import annotations

import math

import streamlit as st

from app_pages.state import direction, models, server, widget_state
from app_pages.shell import cookies, links, messages, presentation
from app_pages.state.state_keys import (
    ADD_ERROR, ADD_INPUT, BEAM, CHECKPOINT, DEVICE, DEVICE_CHOICE, DOUBTS_SHOWN, LANG, PASSCODE_INPUT, PASSCODE_SESSION,
    LINK_WRITTEN, PRESENT, TARGET_LANGUAGE, WRONG_PASSCODE,
)
from app_pages.shell.text import md_escape, t
from app_pages.state.widget_state import kept
from i18n import LANGUAGES
from model import DEFAULT_BEAM, INSTALL_HINT, CheckpointError, marian_available

TEACHER_COOKIE_VALUE = "teacher.cookie"  # the teacher cookie this session's browser is given, signed once
BROWSER_COOKIE_S = 24 * 60 * 60  # a guessing browser keeps its id longer than its longest lockout


def draw() -> None:
    """Language, checkpoint, device, beam size and presentation mode: the settings every page uses."""
    messages.handle_page_errors()  # what state raises (a model that cannot load, a refused sentence) ends the page
    st.session_state.pop(DOUBTS_SHOWN, None)  # a new run: the page shows the model's doubts again
    with st.sidebar:
        # Each widget is drawn with the session's own value (widget_state.kept): a link may have set these keys, and a
        # browser that lost a widget's value would otherwise send its default as the user's choice.
        st.segmented_control(t("sidebar.language"), list(LANGUAGES), format_func=LANGUAGES.get, key=LANG, required=True,
                             default=kept(LANG, LANGUAGES))
        names = models.model_names()
        # A model no longer offered (evicted hub id, removed folder) falls back to en-zh, else the first.
        chosen = kept(CHECKPOINT, names, "en-zh" if "en-zh" in names else None) if names else None
        # Named by direction ("English → 中文 (en-zh)"); a change of direction carries the sentence across.
        st.selectbox(t("sidebar.checkpoint"), names, key=CHECKPOINT, format_func=direction.label,
                     index=names.index(chosen) if names else None, on_change=direction.carry_sentence)
        direction.remember_model()
        language_token_picker()
        st.session_state[DEVICE] = server.shared().device  # server-wide: only a teacher changes it
        st.session_state.setdefault(BEAM, DEFAULT_BEAM)
        # value= the session's own beam: a browser that lost the slider's value (a run cut short by the next click,
        # runner.fastReruns) redraws it from the element's default, which would otherwise be the minimum, 1, and
        # send that back as the user's choice. The key keeps the slider's identity (min, max and step make it).
        st.slider(t("sidebar.beam"), 1, 8, value=int(st.session_state[BEAM]), key=BEAM)
        st.toggle(t("sidebar.present"), key=PRESENT, help=t("sidebar.present_help"), value=kept(PRESENT, (False, True)))
        teacher_sidebar()
        keep_cookies()
    presentation.style()


def student_link(page: str) -> None:
    """The view on screen as a link students open (links.share_links: the address their devices reach, where the
    address bar may say 127.0.0.1), with the code box's copy button. Drawn after the page, from the link this run
    wrote; a picker inside a fragment moves the address bar at once and this box at the next full run."""
    link = links.share_links(page, st.session_state.get(LINK_WRITTEN, {}))[0]
    with st.sidebar:
        st.caption(t("sidebar.share"), help=t("sidebar.share_help"))
        st.code(link, language=None, wrap_lines=True)


def language_token_picker() -> None:
    """The target language of a multi-target (Marian) model."""
    if not marian_available():
        return
    name = st.session_state.get(CHECKPOINT)
    if not name:
        return  # the page says there is no model
    try:
        loaded = models.load(name, models.device())
    except CheckpointError:
        return  # the page says why the model cannot load
    if loaded.languages:
        if st.session_state.get(TARGET_LANGUAGE) not in loaded.languages:
            st.session_state[TARGET_LANGUAGE] = loaded.default_language
        st.selectbox(t("sidebar.language_token"), loaded.languages, key=TARGET_LANGUAGE)


def teacher_sidebar() -> None:
    """Server-wide controls (server.py): the device and, where allowed, hub models; behind a passcode if one is set."""
    teacher = server.is_teacher()
    if not teacher and not server.PASSCODE:
        return  # a student's browser on another machine: nothing to unlock
    with st.expander(t("teacher.title"), icon=":material/school:"):
        if not teacher:
            st.text_input(t("teacher.passcode"), type="password", key=PASSCODE_INPUT, on_change=try_passcode,
                          max_chars=200)
            if WRONG_PASSCODE in st.session_state:  # the wait the last wrong passcode earned, 0 while guesses are free
                wait = st.session_state.pop(WRONG_PASSCODE)
                st.caption(t("teacher.locked", seconds=math.ceil(wait)) if wait else t("teacher.wrong"))
            return
        st.caption(t("teacher.help"))
        st.session_state[DEVICE_CHOICE] = server.shared().device
        st.selectbox(t("sidebar.device"), server.devices(), key=DEVICE_CHOICE, on_change=choose_device)
        if not marian_available():
            st.caption(t("sidebar.marian_missing", command=INSTALL_HINT))
        elif server.ALLOW_HUB:
            st.text_input(t("sidebar.add_model"), key=ADD_INPUT, on_change=add_model, max_chars=200,
                          placeholder="Helsinki-NLP/opus-mt-en-zh", help=t("sidebar.add_model_help"))
        else:
            st.caption(t("teacher.folders", folder=md_escape(server.EXTRA_MODELS or server.CHECKPOINTS)))
        if ADD_ERROR in st.session_state:
            problem, name = st.session_state.pop(ADD_ERROR)
            st.caption(t(f"teacher.hub.{problem}", name=md_escape(name), minutes=server.RETRY_AFTER_S // 60))


def keep_cookies() -> None:
    """A teacher's browser keeps a signed teacher cookie (a reload or a restart then finds it the teacher, server.py);
    a browser that guessed a wrong passcode keeps its id, so that a reload guesses as the same browser. Each only
    where the browser did not send it when this session connected."""
    if not server.PASSCODE:
        return
    if server.is_teacher():
        if not server.valid_teacher_cookie(st.context.cookies.get(server.TEACHER_COOKIE)):
            value = st.session_state.setdefault(TEACHER_COOKIE_VALUE, server.teacher_cookie())
            cookies.keep(server.TEACHER_COOKIE, value, server.TEACHER_COOKIE_S)
    elif PASSCODE_SESSION in st.session_state and st.session_state[PASSCODE_SESSION] == server.browser_id():
        cookies.keep(server.BROWSER_COOKIE, server.browser_id(), BROWSER_COOKIE_S)


def try_passcode() -> None:
    entered = st.session_state.get(PASSCODE_INPUT, "")
    st.session_state[PASSCODE_INPUT] = ""
    unlocked, wait = server.unlock(entered)
    if not unlocked:
        st.session_state[WRONG_PASSCODE] = wait


def choose_device() -> None:
    if server.is_teacher() and st.session_state.get(DEVICE_CHOICE) in server.devices():
        server.shared().device = st.session_state[DEVICE_CHOICE]


def add_model() -> None:
    """The teacher's "add a hub model" box: a valid hub id that loads in time becomes every session's choice."""
    name = st.session_state.get(ADD_INPUT, "").strip()[:200]
    st.session_state[ADD_INPUT] = ""
    if not name or not server.is_teacher():
        return
    problem = server.hub_id_problem(name)
    if problem is None:
        try:
            server.load_in_time(lambda n: models.load(n, server.shared().device), name)
        except Exception:  # noqa: BLE001 (offline, unknown id, not a Marian model, too slow: all say the same)
            problem = "failed"
    if problem is not None:
        st.session_state[ADD_ERROR] = (problem, name)
        return
    server.add_hub_model(name)
    st.session_state[CHECKPOINT] = name
