"""A name the model never learned, in a running page (streamlit.testing), in both interface languages: the translation
keeps it, Translate & explore says which name the model read instead and its map's tokens are what it read, and
Decoding's sentence line marks each swap. Where the charts start on the screen is measured in a browser
(tests/test_names_browser.py)."""

from __future__ import annotations

import json

import pytest

from app_pages.shell.text import md_escape
from i18n import strings
from tests.support.apptest import opened, page_text

SENTENCE = "Alice and Bob are friends."


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_unknown_names_survive_and_the_page_says_what_the_model_read(translator, lang):
    result = translator.translate(SENTENCE)
    assert [c.carrier for c in result.names] == ["Tom", "Mary"]
    at = opened({"s": SENTENCE, "lang": lang, "model": "en-zh"})
    assert "### " + md_escape(result.translation) in [m.value for m in at.markdown]  # 爱丽丝和Bob是朋友。
    note = strings(lang)["model.names_read_as"].format(swaps="Alice → Tom, Bob → Mary")
    assert md_escape(note) in page_text(at)
    first_map = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert any("Tom" in label for label in first_map["layout"]["xaxis"]["ticktext"])  # the map's tokens: what it read
    decoding = opened({"s": SENTENCE, "lang": lang, "model": "en-zh", "present": "1"}, "app_pages/pages/decoding.py")
    assert [m.value for m in decoding.markdown if "Alice→Tom and Bob→Mary" in m.value]
