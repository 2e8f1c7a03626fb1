"""What a sentence's script says about the language it is in, for the notices under a translation.

A model here reads one language. Given the other one ("I have a dream." to the Chinese → English model) it still
writes something, which is not a translation: the result then carries a notice saying so, and the pages show it
above the output. Mixed scripts and traditional characters (converted with OpenCC) are said too.
"""

from __future__ import annotations

import re

from .messages import Notice

_HAN = re.compile(r"[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\U00020000-\U0003134F]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")  # one letter ("a", "I", "T恤") is not yet English


def script_notices(typed: str, used: str, language: str) -> list[Notice]:
    """Notices for a source in `language` ("en", "zh"): `typed` as given, `used` after normalisation."""
    han, latin = bool(_HAN.search(used)), bool(_LATIN_WORD.search(used))
    if language == "zh":
        notices = [Notice("simplified", {"text": used[:80]})] if _traditional(typed, used) else []
        if latin and not han:
            return [*notices, Notice("not_chinese")]
        return [*notices, Notice("mixed_latin")] if latin else notices
    if han and not latin:
        return [Notice("not_english")]
    return [Notice("mixed_chinese")] if han and latin else []


def _traditional(typed: str, used: str) -> bool:
    """Whether OpenCC changed a Chinese character (not only the punctuation NFKC makes one)."""
    return [c for c in typed if _HAN.match(c)] != [c for c in used if _HAN.match(c)]
