"""Every user-facing string: both languages hold the same keys with the same {placeholders}, and the
model's input errors and notices can be said in both."""

from __future__ import annotations

import json
import re
import string

import pytest

from i18n import LANGUAGES, strings, translate_key
from model.translation.messages import MESSAGES, InputError, Notice
from model.translation.sanity import WEIGHT_BOUND, weight_doubts
from model.translation.translator import MAX_BEAM, Translator
from tests.support.paths import CHECKPOINT
from tests.support.tiny import tiny_chinese_translator, tiny_model, tiny_translator

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


@pytest.fixture(scope="module")
def model_messages(translator) -> dict[str, InputError | Notice]:
    """One of each input error and notice, as translate() raises or returns them (a tiny random model,
    which never says </s>, so its output always hits the length limit; the shipped one for names)."""
    tr, zh = tiny_translator(), tiny_chinese_translator()
    calls = [
        lambda: tr.translate(3),
        lambda: tr.translate(" \u200b\t"),
        lambda: tr.translate("I love you.", beam=MAX_BEAM + 1),
        lambda: tr.translate("I love you.", top_k=0),
        lambda: tr.translate("the dog " * 700),  # too many characters, too many tokens, output cut
        lambda: tr.translate("I love you.", language=">>fra<<"),  # a one-language model given a target language
        lambda: Translator(tr.model, tr.src_tok, tr.tgt_tok, languages=(">>cmn_Hans<<",)).translate(
            "I love you.", language=">>fra<<"),  # a multi-target model given one it lacks
        lambda: tr.translate("I love you.", knock_out=(("cross", 9, 0),)),  # a head the model lacks
        lambda: tr.attribute(tr.translate("I love you."), "saliency"),
        lambda: tr.translate("I love you.", forced_prefix=(tr.config.eos_id,)),  # a forced start with </s> in it
        lambda: translator.translate("Alice is my friend."),  # a name the shipped model never learned
        lambda: tr.translate("我有一个梦想。"),  # Chinese to a model reading English
        lambda: tr.translate("I have a 梦想."),  # Chinese inside English
        lambda: zh.translate("I have a dream."),  # English to a model reading Chinese
        lambda: zh.translate("我有一個夢想 dream"),  # traditional characters, and Latin inside Chinese
        # What loading says about weights no checksum vouches for: the tiny model's output runs to its limit...
        lambda: Doubts(weight_doubts(tr.model, lambda text: tr.translate(text, beam=1), "ck")),
        lambda: Doubts(weight_doubts(huge_weight(), tr.translate, "ck")),  # ...and one weight far too big
    ]
    found = {}
    for call in calls:
        try:
            found.update((notice.key, notice) for notice in call().notices)
        except InputError as error:
            found[error.key] = error
    return found


class Doubts:
    def __init__(self, notices) -> None:
        self.notices = notices


def huge_weight():
    model = tiny_model()
    next(model.parameters()).data.view(-1)[0] = 2 * WEIGHT_BOUND
    return model


def test_translate_can_say_every_model_message(model_messages):
    assert set(model_messages) == set(MESSAGES)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_model_message_renders_with_its_values(model_messages, key, lang):
    """What the app shows for it (translations.model_message: the key "model.<key>" formatted with the message's
    values): every value substituted, no {placeholder} left, and Chinese in Chinese."""
    message = model_messages[key]
    shown = translate_key(lang, f"model.{message.key}", **message.values)
    assert "{" not in shown and "}" not in shown, shown
    for name, value in message.values.items():
        assert str(value) in shown, (name, value, shown)
    if lang == "zh":
        assert re.search(r"[\u4e00-\u9fff]", shown), shown


def test_notices_and_input_errors_carry_key_values_and_english_text():
    notice = Notice("chars_cut", {"limit": 1000})
    assert str(notice) == "Input was longer than 1000 characters; only the first 1000 were used."
    assert ZH["model.chars_cut"].format(**notice.values) == "输入超过 1000 个字符，只使用了前 1000 个字符。"
    error = InputError("beam", max=16, beam=40)
    assert (error.key, error.values, str(error)) == ("beam", {"max": 16, "beam": 40}, "beam size must be between 1 and 16, got 40")


# What a class must never read on screen: test files, the workplace's own words, raw Python errors.
DEVELOPER_WORDING = ("tests/", "test_", "lent to this session", "Traceback", "invalid literal", "Error:")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_developer_wording_on_screen(lang):
    found = {key: text for key, text in strings(lang).items() if any(w in text for w in DEVELOPER_WORDING)}
    assert not found


def test_the_model_card_and_its_findings_have_no_developer_wording():
    log = json.loads((CHECKPOINT / "training_log.json").read_text(encoding="utf-8"))
    texts = [(CHECKPOINT / name).read_text(encoding="utf-8") for name in ("README.md", "README.zh.md")]
    for text in (*texts, " ".join(log["study_findings"]), " ".join(log["study_findings_zh"])):
        assert not [w for w in DEVELOPER_WORDING if w in text]


def test_pre_norm_is_not_said_to_leave_the_residual_stream_unnormalised_for_ever():
    from i18n import strings

    for lang in ("en", "zh"):
        text = strings(lang)["inside.norm.post"]
        assert "never normalised" not in text and "从不被归一化" not in text
        assert "final LayerNorm" in text or "最后一层之后还有一个 LayerNorm" in text


def test_sentences_and_lists_are_joined_as_each_language_writes_them():
    from app_pages.shell.text import in_language, listing, sentences

    with in_language("zh"):
        assert sentences(["第一句。", "", "第二句。"]) == "第一句。第二句。"
        assert listing(["层", "头", 3]) == "层、头、3"
    with in_language("en"):
        assert sentences(["One.", "", "Two."]) == "One. Two."
        assert listing(["layer", "head", 3]) == "layer, head, 3"
