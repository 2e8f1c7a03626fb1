"""Tokens as chips (st.badge): a sentence's tokens with their positions, and the model's probability for each."""

from __future__ import annotations

import streamlit as st

from app_pages.shell.text import md_escape, t
from model import WORD_START


_BADGE_SPECIAL = frozenset("\\`*_{}()<>#+-.!|~:$&=\"'%^@/;,?")  # md_escape's set less brackets: st.badge escapes those


def token_chips(
    tokens: list[str], color: str = "blue", special_color: str = "gray", probs: list[float] | None = None,
    low: list[bool] | None = None, key: str | None = None, marked: list[bool] | None = None,
) -> None:
    """Tokens as a wrapped row of badges; hovering one shows its position, so repeated tokens stay distinguishable.

    With `probs`, each chip also shows the model's probability for its token (exact on hover), and the
    chips marked in `low` are red with a warning sign. The chips marked in `marked` are red (e.g. changed tokens).
    """
    with st.container(horizontal=True, gap="small", key=key):
        for i, token in enumerate(tokens):
            special = token.startswith("<") and token.endswith(">")
            label, tip = md_escape(token, _BADGE_SPECIAL), t("chips.position", n=i)
            chip_color, icon = special_color if special else color, None
            if probs is not None:
                label += " " + md_escape(f"{probs[i]:.0%}", _BADGE_SPECIAL)
                tip = t("chips.probability", prob=f"{probs[i]:.1%}", n=i)
                if low is not None and low[i]:
                    chip_color, icon = "red", ":material/warning:"
            if marked is not None and marked[i]:
                chip_color = "red"
            st.badge(label, color=chip_color, icon=icon, help=tip)


def word_start_note(tokens: list[str]) -> str:
    """The one explanation of ▁, for a caption under a chart whose labels show it (else nothing)."""
    return t("tokens.word_start") if any(token.startswith(WORD_START) for token in tokens) else ""
