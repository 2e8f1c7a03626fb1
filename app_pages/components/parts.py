"""What a teaching page shows, as plain data in the order it is shown: paragraphs, formulas, notices, tables, charts,
token chips, headings, links, expanders and columns (a page's view() returns them; tests read them without
Streamlit), and draw_parts, which draws them with Streamlit. Widgets are not parts: a page draws its own between
them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Union

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from app_pages.components import charts, chips, table_view
from app_pages.shell import navigation

NOTICE_LEVELS = ("info", "success", "warning", "error")


@dataclass(frozen=True)
class Heading:
    """A page title (level 1), a section's header (2) or a subheader (3)."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Text:
    """A Markdown paragraph (with a tooltip where `help` is given)."""

    markdown: str
    help: str | None = None


@dataclass(frozen=True)
class Line:
    """One line of text drawn in a way its kind says: Caption (small grey Markdown), Plain (drawn as it is, never as
    Markdown: what a user typed, a translation) or Formula (LaTeX)."""

    text: str


class Caption(Line): """Small grey Markdown under what it describes."""
class Plain(Line): """Text drawn as it is."""
class Formula(Line): """A display formula in LaTeX."""


@dataclass(frozen=True)
class Notice:
    """A coloured box: `level` one of NOTICE_LEVELS (info, success, warning, error)."""

    text: str
    level: str = "info"
    icon: str | None = None


@dataclass(frozen=True)
class Table:
    """A table of display strings (a DataFrame, or columns as a dict), drawn by table_view.table."""

    data: pd.DataFrame | dict
    hide_index: bool = False
    width: str = "content"


@dataclass(frozen=True)
class Tables:
    """Titled tables side by side, each as wide as its columns; one that does not fit the line moves to the next."""

    tables: tuple[tuple[str, pd.DataFrame], ...]


@dataclass(frozen=True)
class Chart:
    figure: go.Figure
    key: str


@dataclass(frozen=True)
class Chips:
    """Tokens as chips (chips.token_chips)."""

    tokens: tuple[str, ...]
    key: str | None = None
    color: str = "blue"


@dataclass(frozen=True)
class Link:
    """A link to another page of the app by its name."""

    page: str
    label: str


@dataclass(frozen=True)
class Expander:
    title: str
    parts: tuple = ()


@dataclass(frozen=True)
class Columns:
    """Parts side by side: `columns` one sequence of parts each, `spec` their widths (st.columns)."""

    columns: tuple[tuple, ...]
    spec: tuple | int = 2
    gap: str = "small"
    key: str | None = None


@dataclass(frozen=True)
class Box:
    """Parts in a bordered box keyed `key` (its class is st-key-<key>)."""

    parts: tuple
    key: str
    border: bool = True


Part = Union[Text, Line, Notice, Heading, Table, Tables, Chart, Chips, Link, Expander, Columns, Box]


@dataclass
class Parts:
    """Parts in the order a view adds them (add returns self, so a builder reads as the page does)."""

    items: list = field(default_factory=list)

    def add(self, *parts: Part) -> Parts:
        self.items.extend(p for p in parts if p is not None)
        return self

    def done(self) -> tuple:
        return tuple(self.items)


def every(parts: Sequence[Part]):
    """Each part, and every part inside an expander, columns or box, in order (what tests search)."""
    for part in parts:
        yield part
        if isinstance(part, (Expander, Box)):
            yield from every(part.parts)
        elif isinstance(part, Columns):
            for column in part.columns:
                yield from every(column)


def texts(parts: Sequence[Part]) -> str:
    """Every word the parts say, one part a line: paragraphs, captions, plain text, notices, headings, formulas."""
    said = []
    for part in every(parts):
        if isinstance(part, Text):
            said.append(part.markdown)
        elif isinstance(part, (Line, Notice, Heading)):
            said.append(part.text)
        elif isinstance(part, Expander):
            said.append(part.title)
    return "\n".join(said)


def _draw_box(part: Part) -> bool:
    """Draws the parts that hold parts; False for any other."""
    if isinstance(part, Expander):
        with st.expander(part.title):
            draw_parts(part.parts)
    elif isinstance(part, Columns):
        for column, inside in zip(st.columns(part.spec, gap=part.gap), part.columns):
            with column:
                draw_parts(inside)
    elif isinstance(part, Box):
        with st.container(border=part.border, key=part.key):
            draw_parts(part.parts)
    else:
        return False
    return True


def draw_part(part: Part) -> None:
    if _draw_box(part):
        return
    if isinstance(part, Text):
        st.markdown(part.markdown, help=part.help)
    elif isinstance(part, Caption):
        st.caption(part.text)
    elif isinstance(part, Plain):
        st.text(part.text)
    elif isinstance(part, Formula):
        st.latex(part.text)
    elif isinstance(part, Notice):
        getattr(st, part.level)(part.text, icon=part.icon)
    elif isinstance(part, Heading):
        (st.title, st.header, st.subheader)[part.level - 1](part.text)
    elif isinstance(part, Table):
        table_view.table(part.data, hide_index=part.hide_index, width=part.width)
    elif isinstance(part, Tables):
        with st.container(horizontal=True, gap="medium"):
            for title, frame in part.tables:
                with st.container(width="content"):
                    st.markdown(f"**{title}**")
                    table_view.table(frame)
    elif isinstance(part, Chart):
        charts.chart(part.figure, key=part.key)
    elif isinstance(part, Chips):
        chips.token_chips(list(part.tokens), color=part.color, key=part.key)
    elif isinstance(part, Link):
        navigation.page_link(part.page, part.label)
    else:
        raise TypeError(f"not a part: {part!r}")


def draw_parts(parts: Sequence[Part]) -> None:
    for part in parts:
        draw_part(part)
