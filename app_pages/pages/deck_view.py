"""What the slide deck shows, computed without Streamlit: the editor's rows, whether this server can draw every
slide (where not, the first that it cannot, said), and the presented slide (its heading and chart, or why it cannot
be drawn). deck.py draws them; `figure_of` is how a slide's chart is built (decks.slide_figure on the page)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import plotly.graph_objects as go

from app_pages.components import decks
from app_pages.shell.link_values import BadLinkValue
from app_pages.shell.registry import PAGE
from app_pages.shell.text import md_escape, t
from lessons.deck import BadDeck, Slide

FigureOf = Callable[..., go.Figure]  # (slide, **limits) → its chart; BadDeck or BadLinkValue where it cannot be drawn


@dataclass(frozen=True)
class SlideRow:
    """One slide in the editor: its number from 0, title, the page it opens with that page's link values, and
    whether it is first or last (its Up or Down button then off)."""

    index: int
    title: str
    script: str
    query: Mapping[str, str]
    first: bool
    last: bool


@dataclass(frozen=True)
class EditView:
    """The editor: a row per slide, and the first slide this server cannot draw, said (None where it draws all)."""

    rows: tuple[SlideRow, ...]
    unusable: str | None

    @property
    def files(self) -> bool:
        """Whether the deck is offered as files (HTML, PNGs): only where every slide can be drawn."""
        return bool(self.rows) and self.unusable is None


@dataclass(frozen=True)
class PresentedSlide:
    """A slide on the projector: its heading (Markdown, the title escaped) and its chart filled to the slide, or
    why it cannot be drawn."""

    heading: str
    figure: go.Figure | None
    unusable: str | None


def unusable(index: int, exc: BadDeck | BadLinkValue) -> str:
    return t("deck.unusable", n=index + 1, why=decks.why(exc))


def edit_view(deck: Sequence[Slide], figure_of: FigureOf) -> EditView:
    """The editor's rows, and whether each slide can be drawn, tried in order up to the first that cannot."""
    rows = tuple(SlideRow(i, slide.title, PAGE[slide.page].script, slide.query, i == 0, i == len(deck) - 1)
                 for i, slide in enumerate(deck))
    for i, slide in enumerate(deck):
        try:
            figure_of(slide)
        except (BadDeck, BadLinkValue) as exc:
            return EditView(rows, unusable(i, exc))
    return EditView(rows, None)


def presented(deck: Sequence[Slide], index: int, figure_of: FigureOf) -> PresentedSlide:
    """Slide `index` as presented: the title above the chart, not in it (a long one ran under Plotly's mode bar,
    the chart's own top right), the chart built for the slide's room and filled to it."""
    heading = "#### " + md_escape(deck[index].title)
    try:
        figure = figure_of(replace(deck[index], title=""), max_width=decks.SLIDE_PX[0], max_height=decks.SLIDE_PX[1])
    except (BadDeck, BadLinkValue) as exc:
        return PresentedSlide(heading, None, unusable(index, exc))
    return PresentedSlide(heading, decks.filled(figure), None)
