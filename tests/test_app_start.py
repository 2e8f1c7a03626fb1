"""Start here in-process (streamlit.testing): its prepared links open in this tab and session, keep presentation
mode, its caption says the weight as the map shows it, and the sentences the model gets wrong are offered as such."""

from __future__ import annotations

from urllib.parse import parse_qs

import numpy as np
import pytest

from app_pages.state import examples, server, state_keys
from app_pages.shell import registry
from app_pages.shell.text import md_escape
from i18n import strings
from tests.support.apptest import opened

START = "app_pages/pages/start.py"


def page_links(at) -> list:
    return [element.proto for element in at.get("page_link")]


def test_a_prepared_link_opens_its_view_in_this_session_and_keeps_presentation_mode():
    """The links were plain addresses: clicked, they opened a new tab, a new session (presentation mode off, the
    sidebar open, and a view pinned there missing from the teacher's deck)."""
    at = opened({"present": "1"}, page=START)
    assert at.session_state[state_keys.PRESENT]
    links = {link.label: link for link in page_links(at)}
    cross = next(link for label, link in links.items() if "cross-attention" in label)
    assert not cross.external and cross.page == registry.PAGE["translate"].address  # within the app: same tab
    query = parse_qs(cross.query_string)
    assert query["kind"] == ["cross"] and "layer" in query and "present" not in query  # the session's mode stays
    addresses = [code.value for code in at.code]
    directions = 2 if "zh-en" in server.model_folders() else 1  # a cross-attention link per offered direction
    assert len(addresses) == 2 + directions and all("present=1" in a for a in addresses)  # opens presenting
    plain = opened({}, page=START)
    assert not [code.value for code in plain.code if "present=" in code.value]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cross_caption_names_the_rows_that_write_the_word_as_the_map_labels_them(translator, lang):
    """It said 梦想 puts 0.34 on "dream", where the map's rows labelled 梦 and 想 read 0.42 and 0.31: 0.34 is the
    mean of the rows that write 梦 and 想, labelled 个 and 梦 (each row writes the next token)."""
    at = opened({"lang": lang}, page=START)
    example = examples.EXAMPLES[0]
    result = translator.translate(example.sentence)
    written = [i for i, token in enumerate(result.output_tokens) if token in example.target_word]  # 梦, 想
    labels = [result.target_tokens[i] for i in written]  # the rows that write them: 个, 梦
    assert labels == ["个", "梦"]
    cross = next(c.value for c in at.code if "/translate?" in c.value)
    query = parse_qs(cross.split("?", 1)[1])
    layer, head = int(query["layer"][0]) - 1, int(query["head"][0]) - 1
    col = result.source_tokens.index("▁dream")
    mean = np.mean([result.cross[layer, head, i, col] for i in written])
    caption = " ".join(c.value for c in at.caption)
    assert f"{mean:.2f}" in caption and "“个”" in caption and "“梦”" in caption, caption


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", ["en-zh", "zh-en"])
def test_where_it_goes_wrong_is_a_section_of_its_own_with_the_models_translation(request, model, lang):
    """The session's model's own failures, in the language it reads, with its translation of each: with zh-en
    chosen the section showed the English sentences and what en-zh made of them."""
    if model not in server.model_folders():
        pytest.skip(f"no {model} checkpoint")
    translator = request.getfixturevalue({"en-zh": "translator", "zh-en": "zh_translator"}[model])
    source = translator.config.source_language
    at = opened({"lang": lang, "model": model}, page=START)
    assert strings(lang)["start.wrong"] in [h.value for h in at.subheader]
    wrong = [s for pair in examples.WRONG_BY_LANGUAGE[source] for s in pair.sentences]
    others = {s for language, pairs in examples.WRONG_BY_LANGUAGE.items() if language != source
              for pair in pairs for s in pair.sentences}
    labels = [link.label for link in page_links(at)]
    assert all(sentence in labels for sentence in wrong) and not others & set(labels), labels
    assert all(parse_qs(link.query_string)["model"] == [model] for link in page_links(at) if link.label in wrong)
    captions = " ".join(c.value for c in at.caption)
    for sentence in wrong:
        assert md_escape(translator.translate(sentence).translation) in captions
