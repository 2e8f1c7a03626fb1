"""Start here: a teacher's guide to the app: what to show first, prepared links that open a view, and the sentences
the model gets wrong, offered as such. What it shows is computed in start_view.py (plain data); this script reads the
session and the server's addresses, and draws that."""

from __future__ import annotations

import streamlit as st

from app_pages.components.parts import draw_parts
from app_pages.pages import start_view
from app_pages.pages.start_view import PreparedLink
from app_pages.shell import links, presentation, registry
from app_pages.state import direction, server, state_keys, translations


def session() -> start_view.Session:
    return start_view.Session(
        st.session_state.get(state_keys.LANG, "en"), presentation.presenting(),
        st.session_state.get(state_keys.CHECKPOINT), direction.current(), tuple(server.model_folders()),
        links.student_bases()[0], links.browser_base(), links.local_only())


def draw_link(shown: PreparedLink) -> None:
    with st.container(border=True, key=shown.key):
        st.page_link(registry.PAGE[shown.page].script, label=shown.label, icon=shown.icon, query_params=shown.query)
        st.caption(shown.caption)
        if shown.address is not None:
            st.code(shown.address, language=None, wrap_lines=True)


def draw(shown: start_view.StartView) -> None:
    draw_parts(shown.before)
    for prepared in shown.lessons:
        draw_link(prepared)
    draw_parts(shown.wrong)
    for prepared in shown.mistakes:
        draw_link(prepared)
    draw_parts(shown.after)


draw(start_view.view(session(), lambda sentence, model: translations.translation_of(sentence, model=model)))
