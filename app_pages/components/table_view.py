"""Every table of the app, its text inert (nothing typed renders as Markdown), and numbers as percentages."""

from __future__ import annotations

import re
from collections.abc import Callable

import pandas as pd
import streamlit as st

from app_pages.shell.text import md_escape


# A number as the pages print it (1,024, −0.1234, 1.2e-07, −∞): nothing in it is Markdown, so a table shows it as
# it is sent and a test reads it as it is; any other text in a table is escaped.
PLAIN_NUMBER = re.compile(r"[−+-]?(\d[\d,]*(\.\d+)?(e[+-]?\d+)?|∞)")


def _inert(cell):
    return md_escape(cell) if isinstance(cell, str) and not PLAIN_NUMBER.fullmatch(cell) else cell


def table(data, *, hide_index: bool = False, width: str = "content") -> None:
    """Every table of the app (a DataFrame, or columns as a dict): a static table with every row and column on
    screen, its text as typed.

    st.table, not st.dataframe: the interactive grid's 486-KB script and its canvas slow every page that shows a
    table (with it, a new tab of Inside, Multi-head shapes, Anatomy or Q·K·V draws its first chart 0.4–0.9 s later,
    in an A/B of the two on one machine), and a teaching table of a few rows needs no sorting or scrolling.

    st.table renders each cell, header and index label as Markdown, so every one that is text, not a plain number,
    is escaped (md_escape): a token such as "**x**" or "evil.example" shows as written, never bold or as a link."""
    frame = relabelled(pd.DataFrame(data), _inert, lambda label: _inert(str(label)))
    st.table(frame, hide_index=hide_index, width=width)


def relabelled(frame: pd.DataFrame, cell: Callable, label: Callable) -> pd.DataFrame:
    """`frame` with `cell` applied to every cell and `label` to every column name and index label, and to the
    index's name where it has one: a table's text as st.table is sent it, or as a reader sees it (tests.support.tables)."""
    out = frame.map(cell)
    out.columns = [label(c) for c in frame.columns]
    out.index = pd.Index([label(i) for i in frame.index],
                         name=None if frame.index.name is None else label(frame.index.name))
    return out


def percent(rate: float | None, digits: int = 0) -> str:
    """A rate (0–1) as a percentage; "–" where there was nothing to measure."""
    return "–" if rate is None else f"{rate:.{digits}%}"


def line_digits(threshold: float) -> int:
    """The decimals a threshold has as a percentage, up to 2 (0.8: 0, "80%"; 0.835: 1, "83.5%")."""
    return next((d for d in range(3) if round(threshold * 100, d) == round(threshold * 100, 6)), 2)


def percents_apart(value: float, threshold: float, most: int = 4) -> tuple[str, str]:
    """A value and the threshold it is judged against as percentages that read on the value's side: the threshold
    with the decimals it has (line_digits), the value with the fewest (up to `most`) that keep it strictly below, or
    above, the threshold as shown. Both to whole percents, a score of 0.7996 against 0.8 would read "80%, below the
    80% line" beside another's "80%, above the 80% line". A value on the threshold itself (never apart) is shown as it."""
    digits = line_digits(threshold)
    line = round(threshold * 100, digits)
    below = value < threshold

    def on_its_side(d: int) -> bool:
        shown = round(value * 100, d)
        return shown < line if below else shown > line

    value_digits = next((d for d in range(most + 1) if on_its_side(d)), digits)
    return percent(value, value_digits), percent(threshold, digits)
