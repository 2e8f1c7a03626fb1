"""A real browser against `streamlit run app.py`: what a user sees is what the model computed.

Type a sentence: the page shows the model's translation and tokens. Explore attention: the chart
named after the chosen kind, layer and head shows that head's weights (a hover on a cell reads the
model's number for it); a click on a small map of the grid opens that map. (Every page, in both
languages, is in test_tour_browser.py.) Screenshots (1280×800) go to SCREENSHOTS=DIR when it is set,
for a person to look at; nothing is asserted on pixels.
"""

from __future__ import annotations

import numpy as np
import pytest

from playwright.sync_api import expect

from app_pages.components.attention_view import SIDES
from app_pages.state import examples
from i18n import strings
from model import DEFAULT_BEAM
from model.translation.alignment import word_link
from model.translation.confidence import assess
from tests.support.browser import (
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
    settle_charts,
    submit_sentence,
    translation,
    wrapped,
)

SENTENCE = "The dog saw the cat and the cat saw the dog."
UNSURE = "My grandmother plants tulips in the garden every spring."  # the shipped model is unsure here (checked below)
PILL = "Tom bought three apples yesterday."
EN = strings("en")


@pytest.fixture
def page(browser, streamlit_server):
    context, pg = open_session(browser, f"{streamlit_server}/translate")
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


def axis_label(kind: str, which: str) -> str:
    """An axis title of the English → Chinese model's map of `kind`, as the explorer names it: "queries (Chinese
    target tokens)" (attention_view.axis_names)."""
    side = SIDES[kind][0 if which == "queries" else 1]
    language = EN[f"language.{'en' if side == 'source' else 'zh'}"]
    return EN[f"axis.{which}_of"].format(tokens=EN[f"axis.{side}_tokens"].format(language=language))


def assert_hover_shows(page, plot_index: int, maps, layer: int, head: int, q: int, k: int, kind: str, tokens) -> None:
    """Hovering cell (q, k) shows its query and key, each with its position (a repeated token is told apart by it),
    and the model's weight, to Plotly's 4 decimals."""
    queries, keys = tokens
    lines = hover(page, point_on_plot(page, plot_index, k, q))
    assert lines[:2] == [f"{axis_label(kind, 'queries')}: {q} · {queries[q]}", f"{axis_label(kind, 'keys')}: {k} · {keys[k]}"]
    label, _, number = lines[2].partition(": ")
    assert label == EN["axis.weight"]
    assert float(number) == pytest.approx(float(maps[layer, head, q, k]), abs=1e-4), (lines, layer, head, q, k)


def test_translate_and_explore(page, translator):
    submit_sentence(page, SENTENCE)
    alone = translator.translate(SENTENCE)  # the sidebar's beam size starts at DEFAULT_BEAM, translate()'s default too
    expect(translation(page)).to_have_text(alone.translation)
    expect(chips(page, "Source tokens")).to_have_text(alone.source_tokens)
    expect(chips(page, "Target tokens")).to_have_text(alone.target_tokens)
    details = EN["translate.details"].format(checkpoint="en-zh", device="cpu", beam=DEFAULT_BEAM, S=len(alone.source_tokens),
                                             T=len(alone.target_tokens))
    expect(page.locator(MAIN).get_by_text(details, exact=True)).to_be_visible()
    titles = page.locator(f"{MAIN} .js-plotly-plot .gtitle")
    expect(titles).to_have_text(wrapped(f"{EN['kind.encoder_self']} · layer 1 · {EN['explorer.all_heads']}"))
    screenshot(page, "translate_en_one_head")

    # One head: decoder self-attention, layer 3, head 5; a hover on a cell reads the model's weight.
    choose(page, EN["explorer.kind"], EN["kind.decoder_self"])
    choose(page, EN["explorer.layer"], "3")
    choose(page, EN["explorer.head"], "5")
    expect(titles).to_have_text(wrapped(f"{EN['kind.decoder_self']} · layer 3 · head 5"))
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
    # Every chart drawn and Plotly's redraw for its margins done before the hover and the click below: without this
    # wait, a full-suite run with both workers' Chromiums busy once saw the click select nothing (no rerun in 180 s).
    settle_charts(page)
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


def test_confidence_what_the_model_knows_and_pills_in_both_languages(page, translator):
    """In English and 中文: the line on what the model knows (its numbers from the training log) links to the model
    card; a pill translates and says, with computed numbers, which head to look at, and opens it; each output token
    shows its probability, low ones marked, and an unsure translation says so."""
    log = translator.training_log
    unsure = translator.translate(UNSURE)
    marks = assess([s.chosen.prob for s in unsure.steps], log)
    assert any(marks.low) and marks.unsure  # what this test is about
    (example,) = [e for e in examples.EXAMPLES if e.sentence == PILL]
    pill = translator.translate(PILL)
    link = word_link(pill, example.source_word, example.target_word)
    sentence = marks.calibration.sentence
    main = page.locator(MAIN)
    for language in ("en", "zh"):
        s = strings(language)
        if language == "zh":
            rerun(page, page.locator(SIDEBAR).get_by_role("radio", name="中文", exact=True).click)
        knows = main.locator(".st-key-translate-knows")
        test = log["test"]  # the held-out test half's unseen part, and the beam that scored it
        expect(knows).to_contain_text(s["knows.score"].format(
            set=s["knows.set_test" if test["untouched"] else "knows.set_test_seen"].format(pairs=f"{test['unseen_pairs']:,}"),
            bleu=test["dedup_bleu"], decoding=s["knows.beam"].format(beam=test["beam"])))
        expect(knows).to_contain_text(s["knows.limits"])
        if "train_pairs" in log:
            expect(knows).to_contain_text(f"{log['train_pairs']:,}")
        expect(knows.get_by_role("link", name=s["knows.card_link"])).to_be_visible()
        screenshot(page, f"honesty_knows_{language}", knows)

        # The pills (behind the Examples button beside Translate), then one of them: its translation and its line
        # of what to look for.
        main.locator(".st-key-translate-examples [data-testid='stPopoverButton']").click()
        pills = page.locator("[data-testid='stPopoverBody']").get_by_role(
            "radiogroup", name=s["translate.examples"], exact=True)
        expect(pills.get_by_role("radio")).to_have_text([e.sentence for e in examples.EXAMPLES])
        rerun(page, pills.get_by_role("radio", name=PILL, exact=True).click)
        page.keyboard.press("Escape")  # the popover closes
        expect(translation(page)).to_have_text(pill.translation)
        hint = main.locator(".st-key-translate-hint")
        expect(hint).to_contain_text(examples.example_line(example, link, language).replace("\\", ""))
        screenshot(page, f"honesty_pill_{language}", hint)
        rerun(page, hint.get_by_role("button", name=s["example.show"]).click)
        kind = s["kind.cross"]
        title = s["explorer.map_title"].format(kind=kind, layer=s["explorer.layer_n"].format(n=link.layer + 1),
                                              head=s["explorer.head_n"].format(n=link.head + 1))
        chart_title = page.locator(f"{MAIN} .js-plotly-plot .gtitle")
        expect(chart_title).to_have_text(wrapped(title))
        screenshot(page, f"honesty_pill_head_{language}", chart_title)
        screenshot(page, f"honesty_pill_head_keys_{language}", page.locator(f"{MAIN} .js-plotly-plot .xtick"))

        # An unsure translation: every token with its probability, the low ones red with a warning sign.
        submit_sentence(page, UNSURE, button=s["translate.submit"])
        expect(translation(page)).to_have_text(unsure.translation)
        row = main.locator(".st-key-translate-confidence .stMarkdownBadge").filter(visible=True)
        expect(row).to_have_text(ending_with([f"{step.chosen.token} {step.chosen.prob:.0%}" for step in unsure.steps]))
        low = row.filter(has=page.locator("[aria-label='warning icon']"))
        expect(low).to_have_count(sum(marks.low))
        first_low = marks.low.index(True)
        low.first.hover()
        expect(page.locator("[data-testid='stTooltipContent']")).to_have_text(s["chips.probability"].format(
            prob=f"{unsure.steps[first_low].chosen.prob:.1%}", n=first_low))
        screenshot(page, f"honesty_hover_{language}")
        warning = s["confidence.unsure_short"].format(
            score=f"{marks.score:.0%}", threshold=f"{sentence.threshold:.0%}",
            below_exact=f"{sentence.below.exact:.0%}", above_exact=f"{sentence.above.exact:.0%}")
        beside = main.locator("[data-testid='stColumn']").filter(has=page.locator("h3")).first  # the translation's column
        line = beside.get_by_text(warning)  # a line, not a box: the map below stays on the first screen
        expect(line).to_be_visible()
        page.evaluate("document.querySelector(\"[data-testid='stMain']\").scrollTo(0, 0)")
        box = line.bounding_box()
        assert box["y"] + box["height"] <= 800, f"the unsure warning ends at {box['y'] + box['height']:.0f} px"
        screenshot(page, f"honesty_unsure_{language}", main.locator(".st-key-translate-confidence"))

        # The model card, from the link.
        rerun(page, knows.get_by_role("link", name=s["knows.card_link"]).click)
        expect(page.locator(f"{MAIN} h1")).to_have_text(s["card.title"].format(name="English → 中文 (en-zh)"))
        expect(main.get_by_role("heading", name=s["card.calibration.header"])).to_be_visible()
        screenshot(page, f"honesty_card_{language}")
        calibration = main.get_by_role("heading", name=s["card.calibration.header"])
        screenshot(page, f"honesty_card_calibration_{language}", calibration)
        rerun(page, nav_links(page).filter(has_text=s["nav.translate"]).click)  # back to the translate page
