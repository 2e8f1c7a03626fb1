"""Tokens as chips (st.badge): a sentence's tokens with their positions, and the model's probability for each."""

from __future__ import annotations

import streamlit as st

from app_pages.components.table_view import percents_apart
from app_pages.shell.text import listing, md_escape, t
from model import BYTE_TOKENS, WORD_START


_BADGE_SPECIAL = frozenset("\\`*_{}()<>#+-.!|~:$&=\"'%^@/;,?")  # md_escape's set less brackets: st.badge escapes those


def token_chips(
    tokens: list[str], color: str = "blue", special_color: str = "gray", probs: list[float] | None = None,
    low: list[bool] | None = None, key: str | None = None, marked: list[bool] | None = None,
    threshold: float | None = None,
) -> None:
    """Tokens as a wrapped row of badges; hovering one shows its position, so repeated tokens stay distinguishable.

    With `probs`, each chip also shows the model's probability for its token (exact on hover), and the
    chips marked in `low` are red with a warning sign; with the `threshold` that marks them, a chip's probability
    has the digits that show it on its side (a red 10% beside a legend's "below 10%" read as a mistake). The chips
    marked in `marked` are red (e.g. changed tokens).
    """
    with st.container(horizontal=True, gap="small", key=key):
        for i, token in enumerate(tokens):
            special = token.startswith("<") and token.endswith(">")
            label, tip = md_escape(token, _BADGE_SPECIAL), t("chips.position", n=i)
            chip_color, icon = special_color if special else color, None
            if probs is not None:
                shown = f"{probs[i]:.0%}" if threshold is None else percents_apart(probs[i], threshold)[0]
                label += " " + md_escape(shown, _BADGE_SPECIAL)
                exact = shown if "." in shown else f"{probs[i]:.1%}"  # as many digits as the chip, at least one
                tip = t("chips.probability", prob=exact, n=i)
                if low is not None and low[i]:
                    chip_color, icon = "red", ":material/warning:"
            if marked is not None and marked[i]:
                chip_color = "red"
            st.badge(label, color=chip_color, icon=icon, help=tip)


def word_start_note(tokens: list[str]) -> str:
    """The one explanation of ▁, for a caption under a chart whose labels show it (else nothing)."""
    return t("tokens.word_start") if any(token.startswith(WORD_START) for token in tokens) else ""


_BYTES = frozenset(BYTE_TOKENS)  # the tokenizer's byte fallback: "<0xE9>", one byte of a character it never saw


def byte_runs(tokens: list[str]) -> list[tuple[str, str]]:
    """Each run of byte tokens in `tokens`, once: (its tokens as written, "<0xE9> <0xA5> <0xBA>", and the text those
    UTF-8 bytes spell, "饺"; a broken sequence spells "�")."""
    runs: dict[str, str] = {}
    run: list[str] = []
    for token in [*tokens, ""]:
        if token in _BYTES:
            run.append(token)
        elif run:
            runs.setdefault(" ".join(run), bytes(int(b[3:5], 16) for b in run).decode("utf-8", errors="replace"))
            run = []
    return list(runs.items())


def byte_note(tokens: list[str]) -> str:
    """What byte tokens are, naming the characters they spell, for a caption under a chart or chips that show them
    (else nothing): 饺 on the axes as <0xE9> <0xA5> <0xBA> explained nowhere read as a fault of the app."""
    runs = byte_runs(tokens)
    if not runs:
        return ""
    return t("tokens.bytes", runs=listing(md_escape(f"{spelled} = {text}") for spelled, text in runs))
