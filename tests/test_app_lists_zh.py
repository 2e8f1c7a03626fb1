"""Lists in running text are joined as the session's language writes them (app_pages.shell.text.listing): "a, b" in
English, "a、b" in 中文, where ", " read as an English comma in a Chinese sentence (issue 60 §3): the masks exercise's
verdict, the output block's banned token ids, a link's refused choice; and Decoding's captions run their sentences
together as the language does (shell.text.sentences)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.components.attention_view import ATTENTION_KINDS
from app_pages.shell.text import md_escape
from i18n import strings
from tests.support.apptest import APP, open_page, opened

SEPARATOR = {"en": ", ", "zh": "、"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_masks_verdict_lists_the_hidden_keys_in_the_sessions_language(lang):
    at = open_page("masks", lang, tab="try")
    at.selectbox(key="ex.masks.query").set_value(1).run()  # "have": "a" and "dream" are after it
    at.button_group(key="ex.masks.keys").set_value([2, 3]).run()
    at.button(key="ex.masks.check").click().run()
    assert any(f"**a**{SEPARATOR[lang]}**dream**" in m.value for m in at.success), [m.value for m in at.success]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_output_block_lists_the_banned_ids_in_the_sessions_language(translator, lang):
    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state["lang"] = lang
    at.session_state["inside.block"] = "output"
    at.switch_page("app_pages/pages/inside.py")
    at.run()
    assert not at.exception
    banned = translator.generation_config.banned(translator.config)
    assert len(banned) > 1  # else there is no list to join
    text = "\n".join(m.value for m in at.markdown)
    assert SEPARATOR[lang].join(map(str, banned)) in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refused_choice_lists_the_choices_in_the_sessions_language(lang):
    at = opened({"lang": lang, "kind": "nope", "s": "I like my dog."})
    (notice,) = at.warning
    assert md_escape(SEPARATOR[lang].join(ATTENTION_KINDS)) in notice.value, notice.value


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_decodings_captions_run_their_sentences_together_as_the_language_writes_them(lang):
    """The cross-attention's help and the note on ▁ were joined with a space, which reads as a gap after 。."""
    at = opened({"lang": lang, "s": "I like my dog.", "step": "2"}, page="app_pages/pages/decoding.py")
    words = strings(lang)
    joined = {"en": " ", "zh": ""}[lang].join([words["decoding.cross_help"], words["tokens.word_start"]])
    assert joined in [c.value for c in at.caption]
