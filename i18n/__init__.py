"""All user-facing text, one folder per language: i18n/en/ and i18n/zh/.

Each language folder merges its modules' STRINGS dicts; both languages must
hold the same keys (tests/test_i18n.py checks it).
"""

from __future__ import annotations

from importlib import import_module

LANGUAGES = {"en": "English", "zh": "中文"}


def strings(lang: str) -> dict[str, str]:
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {sorted(LANGUAGES)}, got {lang!r}")
    return import_module(f"i18n.{lang}").STRINGS


def translate_key(lang: str, key: str, **values) -> str:
    """The text for `key` in `lang`, with {placeholders} filled from `values`."""
    text = strings(lang)[key]
    return text.format(**values) if values else text
