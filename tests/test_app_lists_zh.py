"""Lists in running text are joined as the session's language writes them (app_pages.shell.text.listing): "a, b" in
English, "a、b" in 中文, where ", " read as an English comma in a Chinese sentence (issue 60 §3): the masks exercise's
verdict and a link's refused choice, drawn (AppTest); the output block's banned token ids and Decoding's captions,
whose sentences run together as the language writes them (shell.text.sentences), on the views:
tests/test_lists_view.py."""

from __future__ import annotations

import pytest

from app_pages.components.attention_view import ATTENTION_KINDS
from app_pages.shell.text import md_escape
from tests.support.apptest import open_page, opened

SEPARATOR = {"en": ", ", "zh": "、"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_masks_verdict_lists_the_hidden_keys_in_the_sessions_language(lang):
    at = open_page("masks", lang, tab="try")
    at.selectbox(key="ex.masks.query").set_value(1).run()  # "have": "a" and "dream" are after it
    at.button_group(key="ex.masks.keys").set_value([2, 3]).run()
    at.button(key="ex.masks.check").click().run()
    assert any(f"**a**{SEPARATOR[lang]}**dream**" in m.value for m in at.success), [m.value for m in at.success]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refused_choice_lists_the_choices_in_the_sessions_language(lang):
    at = opened({"lang": lang, "kind": "nope", "s": "I like my dog."})
    (notice,) = at.warning
    assert md_escape(SEPARATOR[lang].join(ATTENTION_KINDS)) in notice.value, notice.value
