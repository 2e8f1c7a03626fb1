"""Start here as Streamlit draws it (streamlit.testing), once per language: the view's prepared links drawn as links
within the app (opened in this tab and session) with their addresses to copy, and the sentences the model gets wrong.
What the links and captions say is checked on the view, without Streamlit (tests/test_start_view.py); the zh-en
link's address, opened by a new visitor, here."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode

import pytest

from app_pages.pages import start_view
from app_pages.shell import registry
from app_pages.shell.text import in_language
from app_pages.state import server, state_keys
from i18n import strings
from model import DEFAULT_BEAM
from tests.support.apptest import opened

START = "app_pages/pages/start.py"
SENTENCE_ZH = "我有一个梦想。"


@pytest.mark.parametrize("lang, present", [("en", True), ("zh", False)])
def test_the_page_draws_its_view_as_links_within_the_app(request, translator, lang, present):
    """The links were plain addresses: clicked, they opened a new tab, a new session (presentation mode off, the
    sidebar open, and a view pinned there missing from the teacher's deck)."""
    at = opened({"lang": lang, **({"present": "1"} if present else {})}, page=START)
    assert not at.exception and bool(at.session_state[state_keys.PRESENT]) == present
    translators = {"en-zh": translator} | ({"zh-en": request.getfixturevalue("zh_translator")}
                                           if "zh-en" in server.model_folders() else {})
    session = start_view.Session(lang, present, "en-zh", ("en", "zh"), tuple(server.model_folders()), "")
    with in_language(lang):
        shown = start_view.view(session, lambda s, m: translators[m].translate(s, beam=DEFAULT_BEAM))
    links = [element.proto for element in at.get("page_link")]
    expected = shown.lessons + shown.mistakes
    assert [link.label for link in links] == [link.label for link in expected]
    assert all(not link.external and link.page == registry.PAGE[want.page].address
               and parse_qs(link.query_string) == parse_qs(urlencode(want.query))
               for link, want in zip(links, expected))
    addresses = [code.value for code in at.main.code]
    assert len(addresses) == len(shown.lessons) and all(a.endswith(want.address)
                                                        for a, want in zip(addresses, shown.lessons))
    captions = [c.value for c in at.caption]
    assert all(want.caption in captions for want in expected)
    assert strings(lang)["start.wrong"] in [h.value for h in at.subheader]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_zh_en_links_address_opened_by_a_new_visitor_opens_its_sentence_with_that_model(translator, zh_translator,
                                                                                             lang):
    """The address Start here prepares for the Chinese → English model, opened in a new session: the zh-en model and
    the Chinese sentence in the box."""
    if "zh-en" not in server.model_folders():
        pytest.skip("no zh-en checkpoint")
    session = start_view.Session(lang, False, "zh-en", ("zh", "en"), tuple(server.model_folders()), "")
    translators = {"en-zh": translator, "zh-en": zh_translator}
    with in_language(lang):
        (cross,) = [lesson for lesson in start_view.lessons(session, lambda s, m: translators[m].translate(s))
                    if lesson.query.get("model") == "zh-en"]
    link = {key: values[0] for key, values in parse_qs(cross.address.split("?", 1)[1]).items()}
    at = opened(link)
    assert at.text_area(key="translate.input").value == SENTENCE_ZH
    assert at.session_state[state_keys.CHECKPOINT] == "zh-en" and at.session_state[state_keys.LANG] == lang
