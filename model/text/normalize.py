"""Text clean-up shared by training data and user input, so both look alike to the model."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .tokenizer import WORD_START

# Control (Cc), format (Cf: zero-width space/joiners, bidi marks), surrogate (Cs),
# private-use (Co) and unassigned (Cn) code points carry no meaning for translation.
_DROP_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn"}
_SPACE = re.compile(r"\s+")


def clean_text(text: str) -> str:
    """Drop invisible/control characters, read a literal "▁" as a space, collapse whitespace runs to one space.

    The tokenizer marks word starts with "▁" and decodes every "▁" back to a
    space, so a "▁" left in the text could never come back out as itself.
    """
    text = _SPACE.sub(" ", text.replace(WORD_START, " "))
    kept = "".join(ch for ch in text if unicodedata.category(ch) not in _DROP_CATEGORIES)
    return _SPACE.sub(" ", kept).strip()


def normalize_source(text: str, language: str = "en") -> str:
    """Input as the source tokenizer round-trips it exactly: NFKC, then clean_text; Chinese also in Simplified.

    decode(encode(normalize_source(x))) == normalize_source(x) for any string x
    (tests/test_property.py). NFKC as the English tokenizer's own normaliser does
    (full-width "Ａ" → "A", "ﬁ" → "fi"); for a Chinese source it also makes
    full-width and ASCII punctuation one ("，" → ","), so either way of typing reads
    the same, and OpenCC turns traditional characters into the simplified ones the
    model learned (the training sources went through this same function).
    """
    text = normalize(text, "NFKC")
    return normalize(to_simplified(text), "NFKC") if language == "zh" else text


def normalize(text: str, form: str) -> str:
    """Unicode normal form `form`, then clean_text, repeated until nothing changes.

    NFKC can make spaces ("¨" → " ̈"), and dropping an invisible character can
    leave a pair the normal form would compose, so one pass is not always
    enough (in practice two are).
    """
    for _ in range(4):
        cleaned = clean_text(unicodedata.normalize(form, text))
        if cleaned == text:
            break
        text = cleaned
    return text


@lru_cache(maxsize=1)
def _t2s():
    import opencc  # imported lazily: only training and scoring need it

    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """Traditional → Simplified Chinese (OpenCC t2s); the corpus mixes both scripts."""
    return _t2s().convert(text)
