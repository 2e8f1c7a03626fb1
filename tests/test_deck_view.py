"""The slide deck's view without Streamlit (app_pages/pages/deck_view.py): the editor's rows, the first slide this
server cannot draw said and the files then withheld, and a presented slide's heading and chart, in both languages."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from app_pages.components import decks
from app_pages.pages import deck_view
from app_pages.shell.registry import PAGE
from app_pages.shell.text import in_language, md_escape
from i18n import strings
from lessons.deck import BadDeck, Slide

DECK = [Slide("translate", {"s": "I have a dream.", "kind": "cross", "layer": "2", "head": "5"}, "Cross, layer 2"),
        Slide("decoding", {"s": "I have a dream.", "step": "9"}, "*Step* 9 <b>x</b>"),
        Slide("compare", {"s": "I have a dream.", "kind": "encoder_self"}, "Compare")]


def figure_of(fails: set[int], seen: list | None = None):
    """A chart builder that cannot draw the slides numbered in `fails` (a decoding step past the translation's end),
    recording what it was asked for in `seen`."""
    def build(slide: Slide, **limits) -> go.Figure:
        if seen is not None:
            seen.append((slide, limits))
        if DECK.index(next(s for s in DECK if s.query == slide.query)) in fails:
            raise BadDeck("step", step=9, steps=5)
        return go.Figure(layout={"width": 580, "height": 232})
    return build


def test_each_slide_is_a_row_opening_its_page_with_its_link_up_off_first_and_down_off_last():
    shown = deck_view.edit_view(DECK, figure_of(set()))
    assert [(r.index, r.title, r.script, r.first, r.last) for r in shown.rows] == [
        (0, "Cross, layer 2", PAGE["translate"].script, True, False),
        (1, "*Step* 9 <b>x</b>", PAGE["decoding"].script, False, False),
        (2, "Compare", PAGE["compare"].script, False, True)]
    assert shown.rows[1].query == DECK[1].query and shown.unusable is None and shown.files
    assert not deck_view.edit_view([], figure_of(set())).files  # nothing to save


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_slide_that_cannot_be_drawn_is_said_and_the_files_are_withheld(lang):
    seen: list = []
    with in_language(lang):
        shown = deck_view.edit_view(DECK, figure_of({1, 2}, seen))
        why = strings(lang)["deck.bad.step"].format(step=9, steps=5)
        assert shown.unusable == strings(lang)["deck.unusable"].format(n=2, why=why)
    assert not shown.files and len(seen) == 2  # tried up to the first it cannot draw


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_presented_slide_has_its_title_escaped_above_a_chart_filled_to_the_slide(lang):
    seen: list = []
    with in_language(lang):
        slide = deck_view.presented(DECK, 1, figure_of(set(), seen))
        broken = deck_view.presented(DECK, 1, figure_of({1}))
    assert slide.heading == "#### " + md_escape("*Step* 9 <b>x</b>") and slide.unusable is None
    assert "*Step*" not in slide.heading and "<b>" not in slide.heading  # neither emphasis nor markup
    (asked, limits), = seen
    assert asked.title == "" and limits == {"max_width": decks.SLIDE_PX[0], "max_height": decks.SLIDE_PX[1]}
    assert slide.figure.layout.width == 580 * decks.SLIDE_MAX_SCALE or slide.figure.layout.height == decks.SLIDE_PX[1]
    assert broken.figure is None and broken.unusable.startswith(strings(lang)["deck.unusable"].split("{")[0])
