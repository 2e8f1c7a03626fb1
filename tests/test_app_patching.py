"""Which head carries it? as a running page (streamlit.testing): it opens on a built-in pair in both directions and
both languages with its head grids, each view draws its chart, a link restores the pair, target, foil and view, a
chosen cell re-decodes, a bad pair shows its sentence (no exception) in both directions, and Pin to deck makes a
slide the deck redraws from the same numbers (a crafted slide of a pair that cannot be patched says why). What the
grids hold is checked on the page's views in tests/test_patching_view.py."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import numpy as np
import pytest

from app_pages.components import decks, patching_charts
from app_pages.components.patching_charts import KINDS, SIDES, VIEWS
from app_pages.shell.link_values import BadLinkValue
from app_pages.shell.text import in_language
from app_pages.pages.patching_view import PAIRS
from app_pages.state import state_keys
from i18n import strings
from lessons.deck import BadDeck, Slide, to_json
from tests.support.apptest import link_of, open_page

CHART = "patching.chart"


def charts(at) -> list[str]:
    return [chart.key for chart in at.get("plotly_chart")]


@pytest.mark.parametrize("model, lang", [("en-zh", "en"), ("zh-en", "zh"), ("en-zh", "zh"), ("zh-en", "en")])
def test_the_page_opens_on_a_built_in_pair_in_both_directions_and_languages(model, lang):
    at = open_page("patching", lang=lang, **{state_keys.CHECKPOINT: model})
    said = strings(lang)
    source = "en" if model == "en-zh" else "zh"
    assert [at.text_input(key=k).value for k in ("patching.clean", "patching.corrupt")] == list(PAIRS[source][0])
    assert at.title[0].value == said["patching.title"]
    assert CHART in charts(at)
    assert not at.error
    lines = " ".join(m.value for m in at.markdown)
    assert said["patching.clean_line"].split("{")[0] in lines and said["patching.corrupt_line"].split("{")[0] in lines
    for view in VIEWS[1:]:
        at.segmented_control(key="patching.view").set_value(view).run()
        assert not at.exception, [e.message for e in at.exception]
        assert CHART in charts(at)
    assert link_of(at)["view"] == VIEWS[-1] and link_of(at)["clean"] == PAIRS[source][0][0]


@pytest.mark.parametrize("model, clean, corrupt, key, lang", [
    ("en-zh", "He bought a book.", "He bought a book.", "identical", "en"),
    ("en-zh", "He bought a book.", "He bought one book.", "no_difference", "zh"),
    ("en-zh", "He bought a book. " * 12, "She bought a book. " * 12, "too_long", "en"),
    ("zh-en", "我很累。", "我很累。", "identical", "zh"),
    ("zh-en", "他买了一本书。" * 12, "她买了一本书。" * 12, "too_long", "en"),
])
def test_a_bad_pair_shows_its_sentence_and_no_exception(model, clean, corrupt, key, lang):
    at = open_page("patching", lang=lang, **{state_keys.CHECKPOINT: model, "patching.clean": clean,
                                             "patching.corrupt": corrupt})
    assert not at.exception
    (error,) = at.error
    assert error.value.startswith(strings(lang)[f"patching.error.{key}"].split("{")[0])
    assert CHART not in charts(at)


def test_a_target_equal_to_the_foil_is_refused_in_a_sentence():
    at = open_page("patching", **{state_keys.CHECKPOINT: "en-zh", "patching.target": "他", "patching.foil": "他"})
    (error,) = at.error
    assert error.value.startswith(strings("en")["patching.error.same_token"].split("{")[0])


def test_a_chosen_cell_re_decodes_and_guess_first_hides_the_grids():
    at = open_page("patching", **{state_keys.CHECKPOINT: "en-zh"})
    at.selectbox(key="patching.cell").set_value(("head", "cross", 2, 0)).run()
    assert not at.exception
    said = strings("en")
    patched = said["patching.redecode.patched"].format(cell=said["patching.cell.head"].format(
        kind=said["patching.kind.cross"], layer=3, head=1), translation="")
    assert any(patched in m.value for m in at.markdown)
    at.toggle(key="patching.guess").set_value(True).run()
    assert CHART not in charts(at)
    at.button(key="patching.guess.reveal").click().run()
    assert CHART in charts(at)
    assert any(" of 72" in info.value for info in at.info)


def test_a_marian_model_is_told_the_page_needs_one_trained_here(monkeypatch):
    """A converted Marian model cannot be patched: the page says so as a note, in the session's language."""
    from model.causal import PatchingError

    def refuse(*args, **kwargs):
        raise PatchingError("not_trained_here", checkpoint="opus-mt-en-zh")

    monkeypatch.setattr(patching_charts, "measure_all", refuse)  # the page's script imports this module
    at = open_page("patching", lang="zh", **{state_keys.CHECKPOINT: "en-zh", "patching.clean": "It is a cat.",
                                             "patching.corrupt": "It is a dog."})
    assert not at.exception and not at.error
    note = strings("zh")["patching.error.not_trained_here"].split("{")[0]
    assert any(info.value.startswith(note) for info in at.info)


def test_a_pinned_view_is_a_slide_the_deck_redraws_from_the_same_numbers(translator):
    """Pin to deck under the head grids and under the residual grids: two slides linking back to the page with the
    pair and view; presenting redraws each from the pair's own patching (computed here without the page)."""
    at = open_page("patching", **{state_keys.CHECKPOINT: "en-zh"})
    at.button(key=f"{CHART}.pin").click().run()
    at.segmented_control(key="patching.view").set_value("residual").run()
    at.button(key=f"{CHART}.pin").click().run()
    assert not at.exception, [e.message for e in at.exception]
    heads, residual = at.session_state[state_keys.DECK]
    he, she = PAIRS["en"][0]
    assert heads.page == "patching" and heads.query == {"clean": he, "corrupt": she, "model": "en-zh", "view": "heads"}
    assert heads.title == f"Patching · Heads — {he} / {she}" and residual.query["view"] == "residual"
    at.switch_page("app_pages/pages/deck.py").run()
    assert [(link.proto.page, link.proto.query_string) for link in at.get("page_link")] == [
        ("patching", urlencode(slide.query)) for slide in (heads, residual)]
    found = patching_charts.measure_all(translator, he, she, None, None).patching
    at.segmented_control(key="deck.mode").set_value("present").run()
    for number, want in enumerate(([found.heads[kind] for kind in KINDS], [found.residual[side] for side in SIDES])):
        if number:
            at.button(key="deck.next").click().run()
        (chart,) = at.get("plotly_chart")
        grids = [np.array(d["z"], dtype=float) for d in json.loads(chart.proto.spec)["data"] if d["type"] == "heatmap"]
        assert len(grids) == len(want)
        assert all(np.allclose(g, w, atol=1e-6, equal_nan=True) for g, w in zip(grids, want))
    assert not at.exception
    assert decks.read_file(in_html([heads, residual])) == [heads, residual]
    assert decks.automatic_title(heads, "zh").startswith("激活修补 · 注意力头 — ")


def test_a_crafted_slide_of_a_pair_that_cannot_be_patched_says_why(translator):
    """A deck file is typed by anyone: a slide of two identical sentences reads, and drawing it says why it cannot
    be used in the deck's own words; a view the page does not have is refused by name."""
    same = Slide("patching", {"clean": "He is here.", "corrupt": "He is here.", "model": "en-zh", "view": "heads"}, "x")
    assert decks.read_file(in_html([same])) == [same]
    for lang in ("en", "zh"):  # the deck page draws a slide and says why in the one run, in the session's language
        with in_language(lang), pytest.raises(BadDeck) as caught:
            decks.slide_figure(same)
        with in_language(lang):
            said = decks.why(caught.value)
        assert caught.value.key == "patching"
        assert said.startswith(strings(lang)["deck.bad.patching"].split("{")[0])
        assert strings(lang)["patching.error.identical"][:12] in said.replace("\\", "")
    with pytest.raises(BadLinkValue) as refused:
        decks.read_file(in_html([Slide("patching", {**same.query, "view": "gradients"}, "x")]))
    assert refused.value.name == "view"


def in_html(deck) -> bytes:
    return f'<html><script type="application/json" id="deck">{to_json(deck)}</script></html>'.encode()


def parent_of(node, key: str):
    """The block of the page's tree that holds the widget keyed `key` as a child of its own (None if none)."""
    for child in getattr(node, "children", {}).values():
        if getattr(child, "key", None) == key:
            return node
        found = parent_of(child, key)
        if found is not None:
            return found
    return None


def test_a_teachers_poll_on_the_guess_sits_beside_reveal_and_then_under_the_verdict():
    """Where a teacher asks "which head?": the poll's button in the guess's own row, beside Reveal (the cell picker,
    which would let a head be tried first, hidden with the grids); once revealed, in the block that shows the verdict,
    before the grids' caption and the cell picker (not under the limits)."""
    at = open_page("patching", **{state_keys.CHECKPOINT: "en-zh"})
    assert parent_of(at.main, "poll.patching.start") is None  # only with Guess first on
    at.toggle(key="patching.guess").set_value(True).run()
    row = parent_of(at.main, "patching.guess.reveal")
    assert row is not None and row is parent_of(at.main, "poll.patching.start")
    assert parent_of(at.main, "patching.cell") is None  # no head to patch and try before the reveal
    at.button(key="patching.guess.reveal").click().run()
    assert not at.exception, [e.message for e in at.exception]
    block = parent_of(at.main, "poll.patching.start")
    order = [getattr(child, "key", None) or child.type for child in block.children.values()]
    assert order.index("poll.patching.start") < order.index("patching.cell")
    (verdict,) = [i for i in at.info if " of 72" in i.value]
    assert any(child is verdict for child in block.children.values())
