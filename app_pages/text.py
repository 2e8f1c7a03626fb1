"""What the user reads: text in the session's language, model and user text made inert for Markdown, and the
training log's machine in words."""

from __future__ import annotations

import re

import streamlit as st

from app_pages.state_keys import LANG
from i18n import translate_key


def language() -> str:
    """The session's language: "en" or "zh" (the sidebar's choice)."""
    return st.session_state.get(LANG, "en")


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


def hardware_name(hardware: str | None) -> str:
    """The training log's machine ("x86_64 CPU, 2 threads", written by model/training/train.py) in the session's language;
    a GPU's name stays as its maker wrote it."""
    found = re.fullmatch(r"(\S+) CPU, (\d+) threads?(.*)", hardware or "")
    if not found:
        return hardware or "—"
    return t("hardware.cpu", machine=found[1], threads=found[2]) + found[3]
