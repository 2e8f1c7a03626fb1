"""How tokens appear in figures.

Plotly renders a subset of HTML in tick labels and hover text, so every token
is escaped before it reaches a figure: "<s>" must show as "<s>", and a user
who types "<b>" must see those three characters, not bold text. The
word-start marker ▁ stays visible, so "▁the" (a new word) and "the" (the end
of a longer word) remain different labels.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

WORD_START = "▁"  # the source tokenizer's word-start mark (model.WORD_START; viz does not import the model)
EMPTY = "∅"  # an empty string would leave an invisible tick
NEG_INF = "−∞"  # a masked score, written where a figure cannot draw the value


def token_label(token: str) -> str:
    """One token as figure text: HTML-escaped, never empty."""
    if not isinstance(token, str):
        raise ValueError(f"a token must be a string, got {type(token).__name__}: {token!r}")
    return html.escape(token, quote=False) if token else EMPTY


def token_labels(tokens: Sequence[str]) -> list[str]:
    return [token_label(t) for t in tokens]


# Tokens written over two lines where that keeps the labels beside them upright: a tokenizer's byte fallback ("<0xE9>",
# one byte of a character it never saw: "<0x" over "E9>") and the end of the sentence ("</" over "s>"). On one line
# each is two to four Chinese characters wide, and turned every label beside it on its side.
BREAKABLE = re.compile(r"<0x[0-9A-F]{2}>|</s>")


def halves(token: str) -> tuple[str, str]:
    """The two lines of a BREAKABLE token."""
    cut = 3 if token.startswith("<0x") else 2
    return token[:cut], token[cut:]


def broken_labels(tokens: Sequence[str]) -> list[str]:
    """token_labels, each BREAKABLE token on two lines."""
    return ["<br>".join(map(token_label, halves(t))) if BREAKABLE.fullmatch(t) else token_label(t) for t in tokens]


def joined_text(tokens: Sequence[str]) -> str:
    """Tokens read as text (▁ becomes a space), escaped: for a hypothesis or a prefix in one label."""
    return html.escape("".join(tokens).replace(WORD_START, " ").strip(), quote=False) or EMPTY


def plain_text(text: str) -> str:
    """A caption or title supplied by the caller, escaped like tokens (it may quote user text)."""
    return html.escape(text, quote=False)
