"""The explorer's rollout view in a real browser at 1280×800, in English and 中文: a link opens it, the map starts
on the first screen, and a hover on a cell reads the rollout lessons.explanation computes for the sentence."""

from __future__ import annotations

from urllib.parse import urlencode

import numpy as np
import pytest

from playwright.sync_api import expect

from i18n import strings
from lessons.explanation import cross_rollout
from model import DEFAULT_BEAM
from tests.support.browser import MAIN, hover, open_session, point_on_plot, screenshot, wrapped

SENTENCE = "The dog saw the cat and the cat saw the dog."


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_link_opens_the_rollout_view_on_the_first_screen(browser, streamlit_server, translator, lang):
    said = strings(lang)
    link = urlencode({"s": SENTENCE, "beam": DEFAULT_BEAM, "lang": lang, "kind": "cross", "view": "rollout",
                      "layer": 3})
    context, page = open_session(browser, f"{streamlit_server}/translate?{link}")
    try:
        titles = page.locator(f"{MAIN} .js-plotly-plot .gtitle")
        expect(titles).to_have_text(wrapped(said["rollout.title.cross"].format(layer=3)))
        chart = page.locator(f"{MAIN} .js-plotly-plot").first.bounding_box()
        assert chart["y"] <= 560 and chart["height"] <= 800, chart  # starts on the first screen, no taller than it
        result = translator.translate(SENTENCE)
        expected = cross_rollout(result.cross, result.encoder_self, 2)
        queries, keys = result.axis_tokens("cross")
        q, k = (int(i) for i in np.unravel_index(int(np.argmax(expected)), expected.shape))
        lines = hover(page, point_on_plot(page, 0, k, q))
        # The axes name the tokens' languages: the Chinese translation's queries, the English sentence's keys.
        named = {side: said[f"axis.{side}_tokens"].format(language=said[f"language.{code}"])
                 for side, code in (("target", "zh"), ("source", "en"))}
        assert lines[:2] == [f"{said['axis.queries_of'].format(tokens=named['target'])}: {q} · {queries[q]}",
                             f"{said['axis.keys_of'].format(tokens=named['source'])}: {k} · {keys[k]}"]
        label, _, number = lines[2].partition(": ")
        assert label == said["rollout.value"] and float(number) == pytest.approx(expected[q, k], abs=1e-4)
        page.mouse.move(0, 0)
        screenshot(page, f"translate_{lang}_rollout")
    finally:
        context.close()
