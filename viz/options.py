"""What travels together into a figure function, as small frozen objects: a map's labels (Labels), a chart's title
and axis titles (Frame), the room a figure may take (Room), a heatmap's colours (ColourScale), its grey cells
(Hidden) and what a caller adds to it (Extras), a head view's heads (Heads), a guess-then-reveal map's guess
(Guess).

Each figure function checks its objects at its boundary (checked), so a call that passes a plain list or dict
where an object belongs says which object to build.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .style import ATTENTION_COLORSCALE, MAX_HEIGHT_PX, MAX_WIDTH_PX, MIN_FONT_PX


@dataclass(frozen=True)
class Labels:
    """What a map's rows and columns are called: each row's and column's label (unescaped; None: a numbered axis),
    the two axes' titles, the values' name (the colour bar's title and the hover's) and what its grey cells mean.

    An attention map's rows are its queries and its columns its keys; a teaching matrix names its own rows and
    columns with the same fields. The titles' field names are those of attention_view.axis_titles' dict, so
    Labels(queries, keys, **axis_titles(kind)) names a map of `kind`.
    """

    queries: Sequence[str] | None
    keys: Sequence[str] | None
    query_title: str = "queries"
    key_title: str = "keys"
    value_label: str = "weight"
    masked_label: str = "masked"


@dataclass(frozen=True)
class Frame:
    """A chart's words around its plot: its title and its axes' titles, x across and y up (y2_title: the second
    panel's y axis, in a figure of two panels side by side)."""

    title: str = ""
    x_title: str = ""
    y_title: str = ""
    y2_title: str = ""


@dataclass(frozen=True)
class Room:
    """How much of the page a figure may take: max_width × max_height px, its labels in min_font_px or more (less
    than 11 only in a figure the page will enlarge: style.min_font_px_at)."""

    max_width: float = MAX_WIDTH_PX
    max_height: float = MAX_HEIGHT_PX
    min_font_px: int = MIN_FONT_PX


@dataclass(frozen=True)
class ColourScale:
    """How a heatmap shows its values: the colours from zmin to zmax (None: the data's own range), the numbers
    printed in small matrices with `decimals` (the hover shows two more), and its colour bar: shown or not, and
    `compact` (titled above it, upright or across under the x axis, where the cells are larger: a narrow column's)."""

    zmin: float | None = None
    zmax: float | None = None
    colorscale: Any = ATTENTION_COLORSCALE
    decimals: int = 2
    show: bool = True
    compact: bool = False


@dataclass(frozen=True, eq=False)
class Hidden:
    """A heatmap's gaps: `cells` bool (rows, cols), True = no value there (a mask forbids attending, a score is
    −∞), drawn grey with no hover; in a small matrix `text` is written on each gap, and `note` above the plot at
    its right explains them."""

    cells: np.ndarray
    text: str = ""
    note: str = ""


@dataclass(frozen=True)
class Extras:
    """What a caller adds to a heatmap beyond its cells: where its column labels stand (x_side "bottom" or "top"),
    layout entries merged into its axes, shapes and annotations, and per-cell `customdata` with the (label, Plotly
    placeholder) `hover_lines` that show it in the hover."""

    x_side: str = "bottom"
    xaxis: dict | None = None
    yaxis: dict | None = None
    shapes: Sequence[dict] = ()
    annotations: Sequence[dict] = ()
    customdata: Any = None
    hover_lines: Sequence[tuple[str, str]] = ()


@dataclass(frozen=True)
class Heads:
    """Which heads a head view draws (None: all) and what it calls them: `label` a format string with {n}
    (1-based), or `names`, one per head of the weights (["average"] for the mean over heads passed as one head)."""

    shown: Sequence[int] | None = None
    label: str = "head {n}"
    names: Sequence[str] | None = None


@dataclass(frozen=True)
class Guess:
    """A guess-then-reveal map's state: whether the weights are revealed, the guessed cell and the row's strongest
    cell (row, col) or None, the note over the hidden cells and the hover hint of a cell a click may pick (""
    : none)."""

    revealed: bool
    cell: tuple[int, int] | None = None
    best: tuple[int, int] | None = None
    hidden_label: str = "hidden"
    click_hint: str = ""


def checked(value, kind: type, name: str):
    """`value` if it is a `kind`, else a TypeError that says which object to build (a call that passes tokens or
    keyword arguments where the object belongs)."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be a viz.options.{kind.__name__}, got {type(value).__name__}: pass "
                        f"{name}={kind.__name__}(...) ({kind.__doc__.split(':')[0].strip()})")
    return value


LABEL_WORDS = ("query_title", "key_title", "value_label", "masked_label")  # Labels' fields a page's dict may carry
ROOM_FIELDS = ("max_width", "max_height", "min_font_px")


def split_layout(layout: dict) -> tuple[dict, Room, dict]:
    """A page's flat keyword arguments for a map (screen.map_limits' sizes beside axis titles, a title,
    compact_scale) as (Labels' words, the Room, the rest), so a page keeps one dict and a figure gets its objects:
    attention_heatmap(w, Labels(queries, keys, **words), room=room, **rest)."""
    words = {name: value for name, value in layout.items() if name in LABEL_WORDS}
    room = Room(**{name: value for name, value in layout.items() if name in ROOM_FIELDS})
    rest = {name: value for name, value in layout.items() if name not in LABEL_WORDS + ROOM_FIELDS}
    return words, room, rest
