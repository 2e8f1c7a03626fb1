"""Every user-facing string: both languages hold the same keys with the same {placeholders}, and the
model's input errors and notices can be said in both."""

from __future__ import annotations

import re
import string

import pytest

from i18n import strings
from model.messages import MESSAGES, InputError, Notice

EN, ZH = strings("en"), strings("zh")


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_same_keys_in_both_languages():
    assert set(EN) == set(ZH)


def test_same_placeholders_in_both_languages():
    assert {k: placeholders(v) for k, v in EN.items()} == {k: placeholders(v) for k, v in ZH.items()}


def test_chinese_strings_are_chinese():
    """Formulas and symbols may stay as they are; sentences may not."""
    def words(text: str) -> list[str]:  # outside {placeholders}
        return [w for w in re.sub(r"\{[^}]*\}", " ", text).split() if any(ch.isalpha() for ch in w)]

    untranslated = [k for k, v in ZH.items() if v == EN[k] and len(words(v)) > 3]
    assert not untranslated


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_model_message_has_a_translation_with_its_placeholders(key):
    assert EN[f"model.{key}"] == MESSAGES[key]  # the app's English is the model's own text
    assert placeholders(ZH[f"model.{key}"]) == placeholders(MESSAGES[key])


def test_notices_and_input_errors_carry_key_values_and_english_text():
    notice = Notice("chars_cut", {"limit": 1000})
    assert str(notice) == "Input was longer than 1000 characters; only the first 1000 were used."
    assert ZH["model.chars_cut"].format(**notice.values) == "输入超过 1000 个字符，只使用了前 1000 个字符。"
    error = InputError("beam", max=16, beam=40)
    assert (error.key, error.values, str(error)) == ("beam", {"max": 16, "beam": 40}, "beam size must be between 1 and 16, got 40")
