"""The session's language and text in it: i18n strings looked up in the language the sidebar chose, and model or
user text made inert for Markdown. The lowest layer of app_pages reads it (state below shell, components and pages);
shell/text.py adds what running text needs (sentences, lists, tables)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import streamlit as st

from app_pages.state.state_keys import LANG
from i18n import translate_key

_SPOKEN: ContextVar[str | None] = ContextVar("spoken", default=None)  # in_language's choice, this thread's alone


def language() -> str:
    """The session's language: "en" or "zh" (the sidebar's choice), or in_language's while it lasts."""
    return _SPOKEN.get() or st.session_state.get(LANG, "en")


@contextmanager
def in_language(lang: str) -> Iterator[None]:
    """t() speaks `lang` inside the block (a title the app made in another language, recomputed to be recognised)."""
    token = _SPOKEN.set(lang)
    try:
        yield
    finally:
        _SPOKEN.reset(token)


def t(key: str, **values) -> str:
    """User-facing text in the session's language."""
    return translate_key(language(), key, **values)


# Markdown turns www.…, http(s)://… and e-mail addresses into links even when every character is escaped (GFM's
# autolink literals): a word joiner (U+2060, invisible) inside each trigger keeps them plain text.
AUTOLINK_TRIGGER = re.compile(r"(?i)(www)(?=\\\.)|(https?|ftp|mailto)(?=\\:)|(?=\\@)")
WORD_JOINER = "\u2060"


def md_escape(text: str, special: frozenset[str] = frozenset("\\`*_{}[]()<>#+-.!|~:$&=\"'%^@/;,?")) -> str:
    """Model or user text made inert for st.markdown-based elements: no formatting, links, auto-links, directives
    or LaTeX."""
    escaped = "".join("\\" + ch if ch in special else ch for ch in str(text))
    return AUTOLINK_TRIGGER.sub(lambda m: (m.group(0) or "") + WORD_JOINER, escaped)
