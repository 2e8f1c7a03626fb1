"""What state raises, as the page says it (state/page_errors.py hands it here): a model that cannot load and a
sentence the model refuses each end the page with a message in the session's language, never a traceback; a
loaded model's doubts about its weights are warnings above the page. A translation's notices (state returns them:
translations.notice_lines) are drawn here too."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

import streamlit as st

from app_pages.state import page_errors
from app_pages.state.translations import NoticeLine, model_message
from app_pages.shell.text import md_escape, t
from model import RESTORE_COMMAND, CheckpointError, InputError, Notice


def stop(error: Exception) -> NoReturn:
    """Ends the page with `error` said: a CheckpointError as an error box (its git command as code, which Streamlit
    draws as typed: in text it draws a lone " -- " as an em dash, "git checkout — checkpoints/"), an InputError as a
    warning; anything else is raised on."""
    if isinstance(error, CheckpointError):
        said = md_escape(error).replace(md_escape(RESTORE_COMMAND), f"`{RESTORE_COMMAND}`")
        st.error(t("error.checkpoint", error=said))
    elif isinstance(error, InputError):
        st.warning(t("error.input", error=md_escape(model_message(error))))
    else:
        raise error
    st.stop()
    raise error  # outside a Streamlit run st.stop() returns: the error goes on


def warn(doubts: Sequence[Notice]) -> None:
    """A warning for each of a model's doubts (weights no checksum vouches for, and they look damaged)."""
    for doubt in doubts:
        st.warning(t(f"model.{doubt.key}", **{k: md_escape(v) for k, v in doubt.values.items()}),
                   icon=":material/warning:")


def draw_notices(notices: Sequence[NoticeLine]) -> None:
    """Each notice of a translation in a box: a warning where the sentence is in the language the model writes, a
    note where the input was cut."""
    for notice in notices:
        if notice.wrong_language:
            st.warning(notice.text, icon=":material/translate:")
        else:
            st.info(notice.text, icon=":material/content_cut:")


def handle_page_errors() -> None:
    """From now on, what state hands up (page_errors.stop, page_errors.warn) is drawn here."""
    page_errors.HANDLERS.update(stop=stop, warn=warn)
