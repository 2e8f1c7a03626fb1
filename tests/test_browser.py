"""A real browser against `streamlit run app.py`: what a user sees is what the model computed.

Type a sentence: the page shows the model's translation and tokens. Explore attention: the chart
named after the chosen kind, layer and head shows that head's weights (a hover on a cell reads the
model's number for it); a click on a small map of the grid opens that map. Every page opens in both
languages with its own title and no exception. Screenshots (1280×800) go to screenshots/ for a
person to look at; nothing is asserted on pixels.
"""

from __future__ import annotations

from urllib.parse import urlparse

import numpy as np
import pytest

from tests.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from i18n import strings
from tests.browser_support import (
    MAIN,
    SIDEBAR,
    chips,
    choose,
    chosen,
    ending_with,
    hover,
    nav_links,
    open_session,
    point_on_plot,
    rerun,
    screenshot,
    submit_sentence,
    translation,
)

SENTENCE = "The dog saw the cat and the cat saw the dog."
DEFAULT_SENTENCE = "I have a dream."  # what a new session translates before anything is typed (app_pages/session.py)
EN = strings("en")
# The app's pages in the sidebar's order, with the i18n key of each page's title.
PAGES = {
    "translate": "translate.title", "decoding": "decoding.title", "qkv": "qkv.title", "masks": "masks.title",
    "positional": "pe.title", "scaling": "scaling.title", "multihead": "mh.title", "anatomy": "anatomy.title",
}


@pytest.fixture
def page(browser, streamlit_server):
    context, pg = open_session(browser, streamlit_server)
    try:
        yield pg
    finally:
        context.close()


def telling_cell(maps: np.ndarray, layer: int, head: int, allowed: np.ndarray) -> tuple[int, int]:
    """The (query, key) among `allowed` where map (layer, head) differs most from every other layer and head,
    so a number shown for the wrong map would not match there."""
    layers, heads = maps.shape[:2]
    flat = maps.reshape(layers * heads, *maps.shape[2:])
    others = np.delete(flat, layer * heads + head, axis=0)
    gap = np.where(allowed, np.abs(others - maps[layer, head]).min(axis=0), -1.0)
    q, k = np.unravel_index(int(np.argmax(gap)), gap.shape)
    assert gap[q, k] > 1e-3, "no cell tells this head from the others"
    return int(q), int(k)


def assert_hover_shows(page, plot_index: int, maps, layer: int, head: int, q: int, k: int, kind: str, tokens) -> None:
    """Hovering cell (q, k) shows its query and key tokens and the model's weight, to Plotly's 4 decimals."""
    queries, keys = tokens
    lines = hover(page, point_on_plot(page, plot_index, k, q))
    assert lines[:2] == [f"{EN[f'axis.{kind}.queries']}: {queries[q]}", f"{EN[f'axis.{kind}.keys']}: {keys[k]}"]
    label, _, number = lines[2].partition(": ")
    assert label == EN["axis.weight"]
    assert float(number) == pytest.approx(float(maps[layer, head, q, k]), abs=1e-4), (lines, layer, head, q, k)


def test_translate_and_explore(page, translator):
    submit_sentence(page, SENTENCE)
    alone = translator.translate(SENTENCE)  # the sidebar's beam size starts at 1, translate()'s default too
    expect(translation(page)).to_have_text(alone.translation)
    expect(chips(page, "Source tokens")).to_have_text(alone.source_tokens)
    expect(chips(page, "Target tokens")).to_have_text(alone.target_tokens)
    details = EN["translate.details"].format(checkpoint="en-zh", device="cpu", beam=1, S=len(alone.source_tokens),
                                             T=len(alone.target_tokens))
    expect(page.locator(MAIN).get_by_text(details, exact=True)).to_be_visible()
    titles = page.locator(f"{MAIN} .js-plotly-plot .gtitle")
    expect(titles).to_have_text([f"{EN['kind.encoder_self']} · layer 1 · {EN['explorer.all_heads']}"])
    screenshot(page, "translate_en_one_head")

    # One head: decoder self-attention, layer 3, head 5; a hover on a cell reads the model's weight.
    choose(page, EN["explorer.kind"], EN["kind.decoder_self"])
    choose(page, EN["explorer.layer"], "3")
    choose(page, EN["explorer.head"], "5")
    expect(titles).to_have_text([f"{EN['kind.decoder_self']} · layer 3 · head 5"])
    maps = alone.attention("decoder_self")
    below_diagonal = np.tril(np.ones(maps.shape[2:], dtype=bool), -1)  # the transposed cell is masked: no hover
    q, k = telling_cell(maps, 2, 4, below_diagonal)
    assert_hover_shows(page, 0, maps, 2, 4, q, k, "decoder_self", alone.axis_tokens("decoder_self"))
    screenshot(page, "translate_en_decoder_head5_hover")

    # All heads of cross-attention: the grid frames layer 3 · head 5 and opens it below; a click opens another.
    choose(page, EN["explorer.view"], EN["view.grid"])
    choose(page, EN["explorer.kind"], EN["kind.cross"])
    kind = EN["kind.cross"]
    expect(titles).to_have_text([EN["explorer.grid_title"].format(kind=kind), f"{kind} · layer 3 · head 5"])
    grid = page.locator(f"{MAIN} .js-plotly-plot").first
    assert grid.locator(".heatmaplayer .hm").count() == 3 * 8
    maps = alone.attention("cross")
    queries, keys = alone.axis_tokens("cross")
    centre = ((len(keys) - 1) / 2, (len(queries) - 1) / 2)
    layer2_head7 = point_on_plot(page, 0, *centre, axes=str(1 * 8 + 6 + 1))
    assert hover(page, layer2_head7) == ["layer 2 · head 7", EN["explorer.click_hint"]]
    rerun(page, lambda: page.mouse.click(*layer2_head7))
    expect(titles).to_have_text([EN["explorer.grid_title"].format(kind=kind), f"{kind} · layer 2 · head 7"])
    expect(chosen(page, EN["explorer.layer"])).to_have_text("2")
    expect(chosen(page, EN["explorer.head"])).to_have_text("7")
    q, k = telling_cell(maps, 1, 6, np.ones(maps.shape[2:], dtype=bool))
    assert_hover_shows(page, 1, maps, 1, 6, q, k, "cross", (queries, keys))
    screenshot(page, "translate_en_grid")

    # Head view: every head of the chosen layer as lines between the token columns.
    choose(page, EN["explorer.view"], EN["view.lines"])
    expect(titles).to_have_text([f"{kind} · layer 2"])
    screenshot(page, "translate_en_head_view")


def test_every_page_in_both_languages(page, translator):
    """Every page in English and 中文: its nav label and title, no exception; beam size 2 on the way, so the
    translate and decoding pages show the model's beam-search result for the session's sentence."""
    beam = page.locator(SIDEBAR).get_by_role("slider", name=EN["sidebar.beam"])
    beam.focus()
    rerun(page, lambda: page.keyboard.press("ArrowRight"))
    expect(beam).to_have_attribute("aria-valuetext", "2")
    result = translator.translate(DEFAULT_SENTENCE, beam=2)
    links = nav_links(page)
    for language in ("en", "zh"):
        s = strings(language)
        if language == "zh":
            rerun(page, page.locator(SIDEBAR).get_by_role("radio", name="中文", exact=True).click)
        expect(page.locator(SIDEBAR).get_by_role("slider")).to_have_attribute("aria-label", s["sidebar.beam"])
        expect(links).to_have_text(ending_with([s[f"nav.{name}"] for name in PAGES]))
        for i, (name, title) in enumerate(PAGES.items()):
            # Clicking the link (not page.goto) keeps the session, its sentence and its settings.
            rerun(page, links.nth(i).click)
            assert (urlparse(page.url).path.strip("/") or "translate") == name  # the default page lives at /
            expect(page.locator(f"{MAIN} h1")).to_have_text(s[title])
            screenshot(page, f"page_{name}_{language}")
            if name == "translate":
                expect(translation(page)).to_have_text(result.translation)
                kind = s["kind.encoder_self"]
                choose(page, s["explorer.view"], s["view.grid"])
                expect(page.locator(f"{MAIN} .js-plotly-plot .gtitle")).to_have_text(
                    [s["explorer.grid_title"].format(kind=kind),
                     s["explorer.map_title"].format(kind=kind, layer=s["explorer.layer_n"].format(n=1),
                                                    head=s["explorer.all_heads"])])
                screenshot(page, f"page_translate_{language}_grid")
                choose(page, s["explorer.view"], s["view.lines"])
                expect(page.locator(f"{MAIN} .js-plotly-plot .gtitle")).to_have_text(
                    [s["explorer.lines_title"].format(kind=kind, layer=s["explorer.layer_n"].format(n=1))])
                screenshot(page, f"page_translate_{language}_lines")
            elif name == "decoding":
                step = page.locator(MAIN).get_by_role("slider", name=s["decoding.step"])
                step.focus()
                rerun(page, lambda: (page.keyboard.press("ArrowRight"), page.keyboard.press("ArrowRight")))
                chosen_token = result.steps[2].chosen
                now = s["decoding.now"].format(step=3, steps=len(result.steps), token=chosen_token.token,
                                               prob=f"{chosen_token.prob:.1%}")
                expect(page.locator(MAIN).get_by_text(now.replace("**", ""), exact=True)).to_be_visible()
                expect(page.locator(MAIN).get_by_role("heading", name=s["decoding.beam_title"].format(beam=2))
                       ).to_be_visible()
                rerun(page, page.locator(MAIN).get_by_text(s["decoding.every_head"], exact=True).click)
                # mask row, every head's cross-attention (one row per layer · head), candidates, beams
                expect(page.locator(f"{MAIN} .js-plotly-plot")).to_have_count(4)
                rows = page.locator(f"{MAIN} .js-plotly-plot").nth(1).locator(".ytick text")
                expect(rows).to_have_text([f"L{layer}·H{head}" for layer in (1, 2, 3) for head in range(1, 9)])
                screenshot(page, f"page_decoding_{language}_step3")
