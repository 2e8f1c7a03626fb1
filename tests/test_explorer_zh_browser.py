"""Translate & explore with a Chinese sentence in a real browser at 1280×800 (issue 49), in English and 中文, what only
a browser shows: a link to the Chinese → English model opens its cross-attention on the first screen, the drawn axis
titles and a hovered cell name the English target and the Chinese source, encoder self-attention draws each
character's label once, every view of cross-attention and a longer sentence's map end on the screen. One session for
the module (`shared_page`: each view by its address, by Forward), under the guard (tests/support/browser.Guard): no
exception box, console error or server traceback.

What the page says without a browser is checked in tests/test_app_explorer_zh.py: the sentence box's value and
placeholder, the axis titles in every chart's figure, the notices on traditional characters and on English typed into
the Chinese-reading model. Nothing is asserted on what the model writes: its weights change with every training run."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, hover, in_one_session, point_on_plot, screenshot, settle_charts, wrapped
from tests.support.paths import ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                                reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")
SENTENCE = "我有一个梦想。"
LANGS = ("en", "zh")


def axis(said: dict, role: str, side: str, language: str) -> str:
    """An axis title as the explorer writes it: "keys (Chinese source tokens)"."""
    tokens = said[f"axis.{side}_tokens"].format(language=said[f"language.{language}"])
    return said[f"axis.{role}_of"].format(tokens=tokens)


def address(server: str, **values: str) -> str:
    """The explorer of the zh-en model at 1280×800, every value its checks read named."""
    view = {"model": "zh-en", "s": SENTENCE, "kind": "cross", "view": "head", "layer": "1", "head": "average",
            "present": "0", **values}
    return f"{server}/translate?{urlencode(view)}"


def test_a_chinese_sentences_maps_name_their_languages_on_the_first_screen(shared_page, streamlit_server):
    """Cross-attention on the first screen, its drawn axis titles and a hovered cell naming English queries and
    Chinese keys; encoder self-attention labels each character once (a character a token, no ▁)."""
    page = shared_page
    walk = {(lang, kind): address(streamlit_server, lang=lang, kind=kind) for lang in LANGS
            for kind in ("cross", "encoder_self")}
    for lang, kind in in_one_session(page, walk, go_on=True):
        said = strings(lang)
        settle_charts(page)
        chart = page.locator(f"{MAIN} .js-plotly-plot").first
        if kind == "cross":
            expect(chart.locator(".ytitle")).to_have_text(wrapped(axis(said, "queries", "target", "en")))
            expect(chart.locator(".xtitle")).to_have_text(wrapped(axis(said, "keys", "source", "zh")))
            box_px = chart.bounding_box()
            assert box_px["y"] <= 440 and box_px["y"] + box_px["height"] <= 800, box_px  # on the first screen
            screenshot(page, f"explorer_zh_source_{lang}_cross_top")
            lines = hover(page, point_on_plot(page, 0, 0, 0))  # the row reading <s>, the column of 我
            assert lines[:2] == [f"{axis(said, 'queries', 'target', 'en')}: 0 · <s>",
                                 f"{axis(said, 'keys', 'source', 'zh')}: 0 · 我"], lines
            page.mouse.move(0, 0)
        else:
            expect(chart.locator(".ytitle")).to_have_text(wrapped(axis(said, "queries", "source", "zh")))
            drawn = [text for text in chart.locator(".xtick text").all_text_contents() if text]  # not hidden copies
            assert drawn == [*SENTENCE, "</s>"], drawn  # a character a token, no ▁
            screenshot(page, f"explorer_zh_source_{lang}_encoder_self")


def test_every_view_of_a_chinese_sentences_cross_attention_fits_and_names_its_languages(shared_page,
                                                                                        streamlit_server):
    """All heads, the head view's lines and the rollout: each draws the English queries' and Chinese keys' titles,
    and ends on the first screen (the longer axis titles take room from the map)."""
    page = shared_page
    walk = {(lang, view): address(streamlit_server, lang=lang, view=view) for lang in LANGS
            for view in ("grid", "lines", "rollout")}
    for lang, view in in_one_session(page, walk, go_on=True):
        said = strings(lang)
        settle_charts(page)
        # All heads names them in its small maps' hovers and on the one opened under them, which is checked.
        chart = page.locator(f"{MAIN} .js-plotly-plot").nth(1 if view == "grid" else 0)
        expect(chart.locator(".main-svg").first).to_be_visible()
        drawn = "".join(chart.locator("text").all_text_contents()).replace(" ", "")  # a wrapped title's lines too
        for title in (axis(said, "queries", "target", "en"), axis(said, "keys", "source", "zh")):
            assert title.replace(" ", "") in drawn, (view, title, drawn[:400])
        assert chart.bounding_box()["height"] <= 800 - 200, view  # under the explorer's two rows of controls
        screenshot(page, f"explorer_zh_source_{lang}_{view}")


LONGER = "我们昨天在公园里看见了一只很大的黑狗，它一直跟着我们走到家门口。"  # 32 characters: a crowded map


def test_a_longer_chinese_sentence_fits_the_projector(shared_page, streamlit_server):
    """32 Chinese characters against the English pieces written for them, plainly and in presentation mode: the map
    ends on the screen, its axis titles name the languages (中文 interface)."""
    page, said = shared_page, strings("zh")
    walk = {present: address(streamlit_server, lang="zh", s=LONGER, present=present) for present in ("0", "1")}
    for present in in_one_session(page, walk, go_on=True):
        settle_charts(page)
        chart = page.locator(f"{MAIN} .js-plotly-plot").first
        expect(chart.locator(".xtitle")).to_have_text(wrapped(axis(said, "keys", "source", "zh")))
        box = chart.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800, box
        screenshot(page, f"explorer_zh_source_longer_present_{present}")
