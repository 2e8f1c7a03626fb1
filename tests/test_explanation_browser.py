"""Is attention an explanation? in a real browser, under the guard: on its tab, pressing "All cross-attention heads"
draws the whole model's cross-attention and no map of the ablated run (every cross head out); the opening box starts
the first screen with either model, the four maps below it. (What the re-translation and the opening say:
tests/test_explanation_view.py.)"""

from __future__ import annotations

import pytest

from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, main, open_session, rerun, screenshot

SENTENCE = "I have a dream."


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_knocking_out_every_cross_head_draws_only_the_whole_models_map(browser, streamlit_server, translator, lang):
    s = strings(lang)
    heads = [("cross", layer, head) for layer in range(translator.config.n_decoder_layers)
             for head in range(translator.config.n_heads)]
    plain, knocked = translator.translate(SENTENCE), translator.translate(SENTENCE, knock_out=tuple(heads))
    assert knocked.translation != plain.translation  # what this test is about
    context, page = open_session(browser, f"{streamlit_server}/explanation?lang={lang}&s={SENTENCE}")
    try:
        rerun(page, main(page).get_by_role("tab", name=s["explain.tab.knock"]).click)  # the section's own tab
        button = main(page).get_by_role("button", name=s["explain.knock.all_cross"])
        button.scroll_into_view_if_needed()
        rerun(page, button.click)
        # With every cross head out, no ablated map is drawn (the decoder used none of those weights).
        expect(page.locator(f"{MAIN} .st-key-explain-knock-map .js-plotly-plot")).to_have_count(0)
        plain_map = page.locator(f"{MAIN} .st-key-explain-knock-map_plain .js-plotly-plot")
        expect(plain_map).to_have_count(1)
        expect(plain_map.locator(".main-svg").first).to_be_visible()  # drawn
        plain_map.scroll_into_view_if_needed()
        screenshot(page, f"explanation_knocked_{lang}")
    finally:
        context.close()


OPENING_SENTENCES = {"en-zh": SENTENCE, "zh-en": "我有一个梦想。"}


@pytest.mark.parametrize("model", ["en-zh", "zh-en"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_opening_box_starts_the_first_screen_with_either_model(browser, streamlit_server, lang, model):
    """At 1280×800 the page opens with its bordered box of the model's own figures (zh-en's too, from its own
    log), starting in the first screen, and the four maps of tab 1 are drawn below it."""
    from urllib.parse import urlencode

    link = urlencode({"model": model, "s": OPENING_SENTENCES[model], "lang": lang})
    context, page = open_session(browser, f"{streamlit_server}/explanation?{link}")
    try:
        box = page.locator(f"{MAIN} .st-key-explain-opening")
        expect(box).to_be_visible()
        assert box.bounding_box()["y"] < 400, "the opening box starts in the first half of the first screen"
        maps = page.locator(f"{MAIN} [class*='st-key-explain-map-'] .js-plotly-plot")
        expect(maps).to_have_count(4)
        screenshot(page, f"explanation_opening_{model}_{lang}")
        screenshot(page, f"explanation_maps_{model}_{lang}", maps)
    finally:
        context.close()
