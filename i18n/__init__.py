"""All user-facing text, one folder per language: i18n/en/ and i18n/zh/.

Each language folder merges its modules' STRINGS dicts; both languages must
hold the same keys (tests/test_i18n.py checks it). A count that can be 1 picks
its English noun with "{n} {n:slide|slides}" (translate_key's formatter).
"""

from __future__ import annotations

import string
from importlib import import_module

LANGUAGES = {"en": "English", "zh": "中文"}


def strings(lang: str) -> dict[str, str]:
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {sorted(LANGUAGES)}, got {lang!r}")
    return import_module(f"i18n.{lang}").STRINGS


class _Formatter(string.Formatter):
    """str.format plus English number agreement: "{n} {n:slide|slides}" reads "1 slide", "2 slides" (a count
    that can be 1 must not read "1 slides"). The spec's "|" is never part of Python's own format specs."""

    def format_field(self, value, format_spec: str) -> str:
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            return one if str(value).strip() in ("1", "-1") else many
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def translate_key(lang: str, key: str, **values) -> str:
    """The text for `key` in `lang`, with {placeholders} filled from `values`."""
    text = strings(lang)[key]
    return _FORMATTER.format(text, **values) if values else text
