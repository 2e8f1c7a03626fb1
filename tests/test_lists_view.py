"""Lists and sentences in running text joined as the session's language writes them, on the pages' views without
Streamlit: the output block's banned token ids ("a, b" in English, "a、b" in 中文: app_pages.shell.text.listing) and
Decoding's cross-attention caption (its sentences run together as the language does: shell.text.sentences). The
masks exercise's verdict and a link's refused choice, drawn: tests/test_app_lists_zh.py."""

from __future__ import annotations

import pytest

from app_pages.components.parts import texts
from app_pages.pages import decoding_view, inside_view
from app_pages.pages.decoding_view import Settings
from app_pages.pages.inside_view import Live
from app_pages.shell.text import in_language
from i18n import strings
from lessons.attention_maps import ALL

SEPARATOR = {"en": ", ", "zh": "、"}
SENTENCE = "I like my dog."


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_output_block_lists_the_banned_ids_in_the_sessions_language(translator, lang):
    """Moved from test_app_lists_zh (an AppTest a language)."""
    banned = translator.generation_config.banned(translator.config)
    assert len(banned) > 1  # else there is no list to join
    live = Live(translator, translator.translate(SENTENCE), (), translator.translate)
    with in_language(lang):
        block = inside_view.view(live, inside_view.Settings("output")).block
    assert SEPARATOR[lang].join(map(str, banned)) in texts(block.before + block.after)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_decodings_captions_run_their_sentences_together_as_the_language_writes_them(translator, lang):
    """The cross-attention's help and the note on ▁ were joined with a space, which reads as a gap after 。. Moved
    from test_app_lists_zh (an AppTest a language, opened by a link at step 2)."""
    result = translator.translate(SENTENCE)
    with in_language(lang):
        shown = decoding_view.step_view(result, Settings(1, 0, ALL, False, False, False, ("en", "zh")))
    words = strings(lang)
    assert shown.cross_caption == {"en": " ", "zh": ""}[lang].join([words["decoding.cross_help"],
                                                                    words["tokens.word_start"]])
