"""Text clean-up shared by training data and user input, so both look alike to the model."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Control (Cc), format (Cf: zero-width space/joiners, bidi marks), surrogate (Cs),
# private-use (Co) and unassigned (Cn) code points carry no meaning for translation.
_DROP_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn"}
_SPACE = re.compile(r"\s+")


def clean_text(text: str) -> str:
    """Drop invisible/control characters and collapse whitespace runs to one space."""
    text = _SPACE.sub(" ", text)
    kept = "".join(ch for ch in text if unicodedata.category(ch) not in _DROP_CATEGORIES)
    return _SPACE.sub(" ", kept).strip()


@lru_cache(maxsize=1)
def _t2s():
    import opencc  # imported lazily: only training and scoring need it

    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """Traditional → Simplified Chinese (OpenCC t2s); the corpus mixes both scripts."""
    return _t2s().convert(text)
