"""The sidebar's two directions (issue 49): each model named by its direction, and a change of direction carrying the
sentence across — what the old model wrote becomes what the new one reads, so a class sees one pair from both sides."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import direction, state_keys
from tests.support.paths import ROOT, ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                                reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")


def translate_page(**state) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page("app_pages/pages/translate.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_the_picker_names_each_model_by_its_direction():
    assert direction.label("en-zh") == "English → 中文 (en-zh)"
    assert direction.label("zh-en") == "中文 → English (zh-en)"
    assert direction.of("zh-en") == ("zh", "en") and direction.of("en-zh") == ("en", "zh")
    at = translate_page()
    picker = at.selectbox(key=state_keys.CHECKPOINT)
    assert {"English → 中文 (en-zh)", "中文 → English (zh-en)"} <= set(picker.options)


def test_turning_the_direction_reads_what_the_old_model_wrote(translator, zh_translator):
    """In a 中文 session (the interface's language changes nothing of what is carried across: this ran in English
    too, checking the same; the picker's labels are the same in both)."""
    at = translate_page(**{state_keys.LANG: "zh", state_keys.SENTENCE: "I have a dream."})
    written = translator.translate("I have a dream.").translation
    at.selectbox(key=state_keys.CHECKPOINT).set_value("zh-en").run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.session_state[state_keys.SENTENCE] == written  # 我有一个梦想。 read by the Chinese → English model
    assert at.text_area(key="translate.input").value == written  # the box shows what the page translated
    assert at.selectbox(key=state_keys.CHECKPOINT).value == "zh-en"
    at.selectbox(key=state_keys.CHECKPOINT).set_value("en-zh").run()  # and back: zh-en's English is read
    assert at.session_state[state_keys.SENTENCE] == zh_translator.translate(written).translation


def test_a_sentence_that_cannot_be_translated_gives_the_new_directions_first_sentence():
    at = translate_page(**{state_keys.SENTENCE: ""})
    at.selectbox(key=state_keys.CHECKPOINT).set_value("zh-en").run()
    assert at.session_state[state_keys.SENTENCE] == "我有一个梦想。" and not at.exception


def test_a_first_session_on_a_chinese_model_starts_on_a_chinese_sentence():
    at = translate_page(**{state_keys.CHECKPOINT: "zh-en"})
    assert at.session_state[state_keys.SENTENCE] == "我有一个梦想。"
