"""The teaching pages' strings: both languages hold the same keys with the same {placeholders}."""

from __future__ import annotations

import string

from i18n.en.teaching import STRINGS as EN
from i18n.zh.teaching import STRINGS as ZH


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_same_keys_in_both_languages():
    assert set(EN) == set(ZH)


def test_same_placeholders_in_both_languages():
    assert {k: placeholders(v) for k, v in EN.items()} == {k: placeholders(v) for k, v in ZH.items()}


def test_chinese_strings_are_chinese():
    """Formulas and symbols may stay as they are; sentences may not."""
    untranslated = [k for k, v in ZH.items() if v == EN[k] and " " in v.strip() and len(v.split()) > 3]
    assert not untranslated
