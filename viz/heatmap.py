"""Heatmaps: one builder for every matrix figure, rows down and columns across.

Labelled rows and columns are plotted at integer positions with the labels as
tick text, so a sentence with "the … the" keeps two separate rows. With array
tick text Plotly also uses the label as the hover label of that position; the
hover adds the position itself ("3 · ▁the"). Cells are square and the figure
fits max_width × max_height with its labels laid out so that none overlap
(viz.style.tick_layout). Hidden cells (where a mask forbids attending, or a
score is −∞) are gaps: the grey plot background shows through them and they
carry no hover.

attention_heatmap: attention weights on a fixed 0–1 scale. matrix_heatmap:
the teaching pages' matrices (raw scores of any sign, −∞ where masked).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import plotly.graph_objects as go

from .labels import NEG_INF, plain_text
from .style import (
    ANSWER_COLOR,
    AXIS_TITLE_PX,
    BASE_FONT_PX,
    CELL_TEXT_PX,
    CONTAINER_PX,
    DIVERGING_COLORSCALE,
    EDGE_PX,
    GUESS_COLOR,
    GUIDE_COLOR,
    LINE_EM,
    MASKED_COLOR,
    MODEBAR_PX,
    NOTE_COLOR,
    TICK_PAD_PX,
    Ticks,
    axis_title_px,
    cell_text_size,
    hovertemplate,
    largest_cell,
    masked_note,
    position_text,
    styled_figure,
    text_em,
    text_px,
    tick_layout,
    title_lines,
    title_px,
    titled,
    token_axis,
)
from .options import ColourScale, Extras, Guess, Hidden, Labels, Room, checked
from .validate import as_float32, check_labels

VALUES_SHOWN_UP_TO = 14  # print each cell's number for matrices this small, where the number fits its cell
MAX_CELL_PX = 56  # a short sentence's cells grow to this and no further: larger ones show nothing more
# Below this, square cells would leave the page's width unused and shrink or thin the key labels: a crowded map
# (a 40-word sentence) keeps its rows this short but widens its columns to the width it is given.
SQUARE_MIN_PX = 18
COLORBAR_PX = 100  # room right of the plot for the colour bar, its numbers and its title
COLORBAR_THICK_PX, COLORBAR_PAD_PX = 14, 10  # an upright bar's width, and its distance from the plot
# A compact colour bar (compact_scale) is titled above the bar, upright at the right of the plot or across under its x
# axis; across, it takes this much room there: its title, the bar, its numbers and the gaps between them.
SCALE_BELOW_PX = 64
# Where Plotly sets an x axis's title (no standoff given): the baseline of its first line 10 px + 3 title fonts below
# the axis, lower only where the labels reach further, and its descent under that. Under a row of short labels (Chinese
# characters) that is past the room counted for labels and title, where a colour bar laid across under the axis would
# sit on the title (Compare's B − A: "keys" on "difference"). Such a bar starts below the title's real bottom.
X_TITLE_FLOOR_PX = 10 + 3.3 * BASE_FONT_PX
COMPACT_LEN_PX = 3 * LINE_EM * CELL_TEXT_PX  # an upright compact bar's shortest: its three numbers' lines
WIDEST_TICK = "−0.55"  # as wide as the widest number a compact colour bar's three ticks show
COLORBAR_LEN_PX = (100, 300)  # a colour bar's length: room for three numbers, readable beside a long sentence;
# a plot shorter than the shortest gets none (its cells' hovers carry the values)
NOTE_PX = 24  # room above the plot for the note that explains grey cells
NOTE_PAD_PX = 8  # its width past its text: its box's padding on both sides
# Hovering a cell draws a thin line across its row and one down its column, to their labels (BertViz-like).
SPIKES = dict(showspikes=True, spikemode="across+marker", spikesnap="data", spikethickness=1, spikedash="solid",
              spikecolor=GUIDE_COLOR)


def cell_hovertemplate(rows: Sequence[str] | None, cols: Sequence[str] | None, row_title: str, col_title: str,
                       value_label: str, decimals: int = 4, *extra: tuple[str, str]) -> str:
    """Hover text of one cell: its row and column (position and label, for labelled axes), its exact value, and
    any `extra` (label, Plotly placeholder) lines."""
    def where(labels, axis: str, index: int) -> str:
        value = f"%{{{axis}}}"
        return value if labels is None else position_text(labels, f"%{{pointNumber[{index}]}}", value)

    return hovertemplate((row_title, where(rows, "y", 0)), (col_title, where(cols, "x", 1)),
                         (value_label, f"%{{z:.{decimals}f}}"), *extra)


@dataclass(frozen=True)
class _Content:
    """What a heatmap's margins must hold: its labels and axis titles, its title, its colour bar and its note."""

    n_rows: int
    n_cols: int
    rows: list[str] | None
    cols: list[str] | None
    title: str
    row_title: str
    col_title: str
    show_scale: bool
    value_label: str  # the colour bar's title
    scale_place: str  # the colour bar: "side" (titled along its side), "upright" or "below" (compact_scale's)
    note: str  # above the plot at its right, what the grey cells mean ("": none)
    x_top: bool
    min_font_px: int  # the labels' smallest font (tick_layout)
    widest_tick: str = WIDEST_TICK  # the compact colour bar's widest number: its own where its range is fixed


def heatmap_figure(
    z: np.ndarray,
    labels: Labels,
    *,
    title: str = "",
    scale: ColourScale = ColourScale(),
    room: Room = Room(),
    row_px: float | None = None,
    hidden: Hidden | None = None,
    extras: Extras = Extras(),
) -> go.Figure:
    """The one heatmap builder: a checked float32 (rows, cols) matrix `z`, first row at the top.

    labels: Labels.queries / .keys label each row / column (None: a numbered axis).
    row_px None: square cells, the largest (up to MAX_CELL_PX) with which the whole figure (title, labels,
    colour bar) fits the room; where those are under SQUARE_MIN_PX, columns as wide as room.max_width allows;
    labels are laid out by tick_layout for that cell size, in room.min_font_px or more. row_px given: rows that
    tall (fewer px if room.max_height needs it) and numbered columns across the page's width.
    scale: the colours, the numbers printed in small matrices (where they fit their cells) and the colour bar.
    hidden: the gaps, if any (Hidden). extras: the column labels' side and what is added to the figure (Extras).
    """
    for value, kind, name in ((labels, Labels, "labels"), (scale, ColourScale, "scale"), (room, Room, "room"),
                              (extras, Extras, "extras")):
        checked(value, kind, name)
    if hidden is not None and checked(hidden, Hidden, "hidden").cells.shape != z.shape:
        raise ValueError(f"hidden.cells must have the matrix's shape {z.shape}, got {hidden.cells.shape}: one bool per "
                         "cell, True where the cell is a gap")
    _check_layout(row_px is not None and labels.keys is not None, scale.compact and extras.x_side == "top")
    gaps = hidden.cells if hidden is not None and bool(hidden.cells.any()) else None  # None: no gaps
    gap_text, gap_note = (hidden.text, hidden.note) if gaps is not None else ("", "")
    rows, cols = labels.queries, labels.keys
    content = _Content(*z.shape, rows, cols, title, labels.query_title, labels.key_title, scale.show,
                       labels.value_label, "upright" if scale.compact else "side", gap_note,
                       extras.x_side == "top", room.min_font_px, _widest_tick(scale.zmin, scale.zmax))
    content, (row_px, col_px, one_line_y_title) = _scale_placed(content, row_px, room)
    m = _frame(content, row_px, col_px, one_line_y_title)
    heat = dict(
        type="heatmap",
        z=np.where(gaps, np.float32(np.nan), z).astype(np.float32) if gaps is not None else z,
        x=np.arange(content.n_cols, dtype=np.int32),
        y=np.arange(content.n_rows, dtype=np.int32),
        zmin=scale.zmin,
        zmax=scale.zmax,
        colorscale=scale.colorscale,
        showscale=m.scale,
        **(dict(colorbar=_colorbar(labels.value_label, content.scale_place, m, (scale.zmin, scale.zmax)))
           if m.scale else {}),
        hoverongaps=False,
        hovertemplate=cell_hovertemplate(rows, cols, labels.query_title, labels.key_title, labels.value_label,
                                         scale.decimals + 2, *extras.hover_lines),
        **({} if extras.customdata is None else dict(customdata=extras.customdata)),
        xgap=int(cols is not None),  # thin lines between token cells; none between hundreds of numbered ones
        ygap=int(rows is not None),
    )
    traces = [heat, *_cell_numbers(heat, z, gaps, gap_text, scale.decimals, col_px or CONTAINER_PX / content.n_cols,
                                   row_px)]
    axes, overlay = _axes(content, m, extras.x_side)
    axes["xaxis"].update(extras.xaxis or {})
    axes["yaxis"].update(extras.yaxis or {})
    return styled_figure(
        traces + overlay,
        title,
        top=m.top, left=m.left, right=m.right, bottom=m.bottom, width=m.width, height=m.height,
        plot_bgcolor=MASKED_COLOR if gaps is not None else "white",
        shapes=list(extras.shapes),
        annotations=[*extras.annotations, *([masked_note(gap_note)] if content.note else [])],
        **axes,
    )


def _check_layout(sized_rows_labelled_columns: bool, compact_scale_top_labels: bool) -> None:
    """heatmap_figure's options that cannot go together, with what to pass instead."""
    if sized_rows_labelled_columns:
        raise ValueError("labelled columns need square cells: leave row_px None")
    if compact_scale_top_labels:
        raise ValueError("compact_scale may put the colour bar where the x labels are: pass x_side='bottom'")


@dataclass(frozen=True)
class _Frame:
    """A heatmap's layout for one cell size (_frame): its label ticks, plot size, margins and figure size (px)."""

    x: Ticks  # the column labels' layout
    y: Ticks  # the row labels'
    plot_w: float | None  # None: the page's width
    plot_h: float
    scale: bool  # whether the colour bar is drawn (it has room)
    x_wrap: float | None  # the width the x title may wrap to
    y_wrap: float  # and the y title's
    x_px: float  # the x labels' and title's depth
    title_bottom: float  # the x title's real bottom below the plot (X_TITLE_FLOOR_PX)
    left: int
    right: int
    top: int
    bottom: int
    width: float | None  # the figure's; None: the page's width
    height: float


def _frame(content: _Content, r_px: float, c_px: float | None, one_line_y_title: bool = True) -> _Frame:
    """Ticks and margins (px) of the figure with cells r_px tall and c_px wide (None: the page's width).

    one_line_y_title: a band above (or below) a plot shorter than its y title keeps that title on one line;
    False wraps the title to the plot's height instead (what a map held to a low max_height needs).
    """
    x = (tick_layout(content.cols, c_px, min_font_px=content.min_font_px, break_tokens=True)
         if content.cols is not None else Ticks())
    y = (tick_layout(content.rows, r_px, across=False, min_font_px=content.min_font_px) if content.rows is not None
         else Ticks(depth=text_px(str(content.n_rows - 1), BASE_FONT_PX)))
    # Where the labels of one axis reach past its ends, the other axis's labels stand that much further
    # out (ticklabelstandoff), so the two never meet at a corner.
    plot_w, plot_h = c_px and content.n_cols * c_px, content.n_rows * r_px
    scale = content.show_scale and _bar_room(content.scale_place, plot_w, plot_h) >= 0
    y_labels = y.depth + TICK_PAD_PX + x.overhang
    right = max(_scale_px(content) if scale and content.scale_place != "below" else EDGE_PX, x.overhang + EDGE_PX)
    # An axis title, centred on its axis, may reach past the plot as far as the margins on both sides are
    # free there: under the y labels and the colour bar, beside the x labels and the figure's edge.
    x_wrap = plot_w and plot_w + 2 * (min(y_labels, right) - EDGE_PX)
    x_px = x.depth + TICK_PAD_PX + y.overhang + axis_title_px(content.col_title, x_wrap)
    # The y title, centred too, reaches as far past the plot on the side away from the x axis as on the x
    # axis's side: that margin grows as far as one line of it needs (up to x_px), rather than the title
    # taking more lines and more width.
    note = NOTE_PX if content.note else 0
    overhang = (text_px(content.row_title, BASE_FONT_PX) - plot_h) / 2 if one_line_y_title else 0
    free = max(y.overhang, min(x_px, overhang))
    top, bottom = (note + x_px, free) if content.x_top else (note + free, x_px)
    y_wrap = plot_h + 2 * min(top, bottom)
    # Where that still cuts the title into lines, its longest line is what reaches past the plot: the band shrinks to
    # it (the title keeps the lines y_wrap cut), so that a one-row map (Decoding's) keeps no room for a reach it has
    # not.
    lines = title_lines(content.row_title, y_wrap) if content.row_title else []
    reach = max((text_px(line, BASE_FONT_PX) - plot_h) / 2 for line in lines) if lines else 0
    free = max(y.overhang, min(free, reach))
    top, bottom = (note + x_px, free) if content.x_top else (note + free, x_px)
    # An untitled figure keeps MODEBAR_PX above `top` for Plotly's mode bar at the top right (styled_figure); the y
    # title's reach past the plot's top is at the far left, so it shares that band, and the note's where the note
    # (right-aligned over the plot) is no wider than the plot (x labels on top span the width: they keep their own).
    # Otherwise the small maps of Compare would give 30 px of their first screen to it, Decoding's mask row 36.
    beside = not content.note or (plot_w and text_px(content.note, CELL_TEXT_PX) + NOTE_PAD_PX <= plot_w)
    if not (content.title or content.x_top) and beside:
        top -= min(free, note + MODEBAR_PX)
    title_bottom = max(x_px, X_TITLE_FLOOR_PX + axis_title_px(content.col_title, x_wrap) - AXIS_TITLE_PX)
    below = SCALE_BELOW_PX + TICK_PAD_PX + title_bottom - x_px if scale and content.scale_place == "below" else 0
    left, right = int(EDGE_PX + axis_title_px(content.row_title, y_wrap) + y_labels), int(right)
    top, bottom = int(EDGE_PX + top), int(EDGE_PX + bottom + below)
    width = None if c_px is None else left + right + content.n_cols * c_px
    height = top + title_px(content.title, width) + content.n_rows * r_px + bottom
    return _Frame(x, y, plot_w, plot_h, scale, x_wrap, y_wrap, x_px, title_bottom, left, right, top, bottom, width,
                  height)


def _bar_room(place: str, plot_w: float | None, plot_h: float) -> float:
    """How much longer a colour bar placed at `place` may be beside a plot_w × plot_h plot (None: the page's width)
    than the shortest with room for its numbers (negative: too short to draw), its title's line taken off where that
    stands at its end. Upright, a compact bar's three numbers stand one above another: it may be shorter."""
    if place == "below":
        return (plot_w or CONTAINER_PX) - COLORBAR_LEN_PX[0]
    if place == "upright":
        return plot_h - LINE_EM * BASE_FONT_PX - COMPACT_LEN_PX
    return plot_h - COLORBAR_LEN_PX[0]


def _scale_px(content: _Content) -> float:
    """Room right of the plot for an upright colour bar: titled along its side, or above it (as wide as its title or
    its bar and numbers)."""
    if content.scale_place == "side":
        return COLORBAR_PX
    bar = COLORBAR_THICK_PX + TICK_PAD_PX + text_px(content.widest_tick, CELL_TEXT_PX)
    return COLORBAR_PAD_PX + max(bar, text_px(content.value_label, BASE_FONT_PX)) + EDGE_PX


def _scale_placed(content: _Content, row_px: float | None,
                  room: Room) -> tuple[_Content, tuple[float, float | None, bool]]:
    """`content` with its compact colour bar where the most labels show, and of those where the cells are largest
    (upright on a tie), of the places where the bar shows (a place too short for the bar would win larger cells by
    dropping it), and _cell_px's cells. Labels first: under Compare's transposed map the bar won cells 13 px tall and
    22 wide, and every other row's label, over square 16.7-px cells that label every row."""
    if content.scale_place == "side":
        return content, _cell_px(content, row_px, room)
    placed = [(c, _cell_px(c, row_px, room))
              for c in (replace(content, scale_place="upright"), replace(content, scale_place="below"))]
    shown = [(c, cells) for c, cells in placed if _frame(c, *cells).scale] or placed

    def labels(c: _Content, cells: tuple) -> int:
        m = _frame(c, *cells)
        return math.ceil(c.n_rows / m.y.step) + (math.ceil(c.n_cols / m.x.step) if c.cols is not None else 0)

    return max(shown, key=lambda placing: (labels(*placing), placing[1][0] * (placing[1][1] or 1)))


def _cell_px(content: _Content, row_px: float | None, room: Room) -> tuple[float, float | None, bool]:
    """(row px, column px; None: the page's width) of the cells, as heatmap_figure's docstring says, and whether the
    y title stays on one line (_frame): where wrapping it leaves room for larger square cells, it wraps (Compare's
    three maps side by side would give a third of their height to the band a one-line title needs)."""
    def fits(m: _Frame) -> bool:
        return m.height <= room.max_height and (m.width or 0) <= room.max_width

    if row_px is not None:  # the margins do not depend on the rows' height here: rows shrink to what max_height leaves
        return min(row_px, (room.max_height - _frame(content, row_px, None).height) / content.n_rows + row_px), None, \
            True
    one_line = largest_cell(lambda px: fits(_frame(content, px, px)), MAX_CELL_PX)
    wrapped = largest_cell(lambda px: fits(_frame(content, px, px, one_line_y_title=False)), MAX_CELL_PX)
    square, one_line_title = max((one_line, True), (wrapped, False))  # equal cells: the one-line title
    if square >= SQUARE_MIN_PX:
        return square, square, one_line_title
    return square, largest_cell(lambda px: fits(_frame(content, square, px, one_line_title)), SQUARE_MIN_PX * 2), \
        one_line_title


def _cell_numbers(heat: dict, z: np.ndarray, hidden: np.ndarray | None, hidden_text: str, decimals: int,
                  width: float, height: float) -> list[dict]:
    """In a small matrix whose numbers fit their cells: each cell's number (set on `heat`), and the traces that
    write `hidden_text` on the gaps (a heatmap prints no text where its value is missing)."""
    text_size = _cell_text_size(z, hidden, hidden_text, decimals, width, height)
    if max(z.shape) > VALUES_SHOWN_UP_TO or not text_size:
        return []
    heat.update(texttemplate=f"%{{z:.{decimals}f}}", textfont=dict(size=text_size))
    if hidden is None or not hidden_text:
        return []
    r, c = np.nonzero(hidden)
    return [dict(type="scatter", x=c.astype(np.int32), y=r.astype(np.int32), mode="text", text=[hidden_text] * len(r),
                 textfont=dict(size=text_size, color=NOTE_COLOR), hoverinfo="skip", showlegend=False)]


def _axes(content: _Content, m: _Frame, x_side: str) -> tuple[dict, list[dict]]:
    """The figure's axis layout entries, and the empty trace that makes Plotly draw its label overlays (it draws
    an axis only where a trace is), if it has any."""
    x_extra = dict(side=x_side, wrap=m.x_wrap, ticklabelstandoff=int(m.y.overhang))
    y_extra = dict(wrap=m.y_wrap, ticklabelstandoff=int(m.x.overhang))
    if content.cols is None:
        axes = dict(xaxis=titled(content.col_title, showgrid=False, **x_extra, **SPIKES))
    else:
        axes = _label_axes("x", content.cols, content.col_title, m.x, **x_extra)
    if content.rows is None:
        axes["yaxis"] = titled(content.row_title, autorange="reversed", showgrid=False, **y_extra, **SPIKES)
    else:
        axes.update(_label_axes("y", content.rows, content.row_title, m.y, reversed_=True, **y_extra))
    overlays = {a[0] + "2" for a in axes if a.endswith("2")}
    if not overlays:
        return axes, []
    return axes, [dict(type="scatter", x=[None], y=[None], xaxis="x2" if "x2" in overlays else "x",
                       yaxis="y2" if "y2" in overlays else "y", hoverinfo="skip", showlegend=False)]


def _colorbar(value_label: str, place: str, m: _Frame, z_range: tuple[float | None, float | None]) -> dict:
    """The heatmap's colour bar at `place` (_Content.scale_place). A compact one has its title above the bar (Plotly
    draws a title at the side of a bar laid across over the bar's start) and three numbers: the ends of its fixed
    `z_range` and their middle (Plotly's own choice on a short bar was "0" alone), else three of Plotly's. Laid across,
    it is centred in the SCALE_BELOW_PX under the x axis's labels and title (where Plotly draws it: X_TITLE_FLOOR_PX),
    as long as the plot (≤ 300 px) less the room its end numbers need."""
    if place == "side":
        return colorbar(value_label, m.plot_h)
    compact = dict(title=dict(text=plain_text(value_label), side="top", font=dict(size=BASE_FONT_PX)),
                   lenmode="pixels", ypad=0, tickfont=dict(size=CELL_TEXT_PX), **_three_ticks(*z_range))
    if place == "upright":
        return {**colorbar(value_label, m.plot_h), **compact}
    plot_w = m.plot_w or CONTAINER_PX - m.left - m.right
    return {**compact, "orientation": "h", "thickness": 12, "xpad": 0, "x": 0.5, "xanchor": "center",
            "len": min(plot_w - 2 * LINE_EM * CELL_TEXT_PX, COLORBAR_LEN_PX[1]),
            "y": -(m.title_bottom + 2 * TICK_PAD_PX) / m.plot_h, "yanchor": "top"}  # its title drawn 6 px up


def _widest_tick(low: float | None, high: float | None) -> str:
    """The widest of a compact colour bar's three numbers: its own where its range is fixed, else WIDEST_TICK."""
    return max(_three_ticks(low, high).get("ticktext", [WIDEST_TICK]), key=text_em)


def _three_ticks(low: float | None, high: float | None) -> dict:
    """A colour bar's ticks at low, the middle and high, two significant digits each (−0.71, 0, 0.71), or where the
    range is Plotly's to choose, three of its own."""
    if low is None or high is None:
        return {"nticks": 3}
    values = [low, (low + high) / 2, high]
    return {"tickvals": values, "ticktext": [f"{v:.2g}".replace("-", "−") for v in values]}


def colorbar(value_label: str, plot_h: float, x: float = 1.0) -> dict:
    """A colour bar right of the plot (from paper x), titled along its side, as long as the plot (≤ 300 px)
    less the half line its end numbers reach past its ends (else Plotly would shrink the plot to fit them)."""
    return dict(title=dict(text=plain_text(value_label), side="right", font=dict(size=BASE_FONT_PX)),
                thickness=COLORBAR_THICK_PX, lenmode="pixels", len=min(plot_h - LINE_EM * CELL_TEXT_PX,
                                                                       COLORBAR_LEN_PX[1]),
                x=x, xanchor="left", xpad=COLORBAR_PAD_PX, ypad=0, tickfont=dict(size=CELL_TEXT_PX))


def _label_axes(letter: str, labels: list[str], title: str, fit: Ticks, **extra) -> dict:
    """Layout entries of a token axis of a heatmap.

    A hover reads a cell's labels from its axes (a text per cell would multiply the figure's size by the
    number of cells), so the axis keeps every label. Where only every step-th label fits, it hides them and its
    tick marks (a label taller than its row reaches over its neighbours' marks: a 40-word sentence's Chinese
    labels look struck through), and an axis drawn over it, `{letter}axis2`, shows the step-th ones, their
    marks and the title.
    """
    every = token_axis(labels, title, fit=replace(fit, step=1), **extra, **SPIKES)
    if fit.step == 1:
        return {f"{letter}axis": every}
    other = "y" if letter == "x" else "x"
    shown = token_axis(labels, title, fit=fit, overlaying=letter, matches=letter, anchor=other, **extra)
    return {f"{letter}axis": {**every, "showticklabels": False, "ticks": "", "title": None}, f"{letter}axis2": shown}


def _cell_text_size(z: np.ndarray, hidden: np.ndarray | None, hidden_text: str, decimals: int, width: float,
                    height: float) -> int | None:
    """The font px at which every cell's number (and the gaps' text) fits its cell, or None where none fits."""
    values = z[~hidden] if hidden is not None else z.ravel()
    values = values[np.isfinite(values)]
    texts = [f"{v:.{decimals}f}".replace("-", "−") for v in (values.min(), values.max())] if values.size else []
    texts += [hidden_text] if hidden is not None and hidden_text else []
    return cell_text_size(texts, width, height) if texts else None


def attention_heatmap(
    weights,
    labels: Labels,
    *,
    title: str = "",
    mask=None,
    room: Room = Room(),
    compact_scale: bool = False,
    show_scale: bool = True,
) -> go.Figure:
    """Heatmap of one (Tq, Tk) attention matrix: queries down, keys across, weights on a fixed 0–1 scale.

    labels: the queries' and keys' tokens and the axes' titles (Labels).
    mask: optional (Tq, Tk) bool, True = may attend; masked cells are drawn
    grey and carry no hover (labels.masked_label explains them), so a causal mask is visible as a shape.
    room: px the whole figure may take (a narrow page column passes its width) and the labels' smallest font.
    compact_scale: a narrow column's colour bar (ColourScale.compact).
    show_scale: False leaves the colour bar out, for maps side by side that share one (the same fixed scale).
    """
    z, labels, mask = _checked_map(weights, labels, mask, room)
    return heatmap_figure(
        z, labels, title=title, room=room,
        # a single row is too short for a readable colour bar; its cells carry the values
        scale=ColourScale(0.0, 1.0, show=show_scale and z.shape[0] > 1, compact=compact_scale),
        hidden=None if mask is None else Hidden(~mask, note=labels.masked_label),
    )


def _checked_map(weights, labels: Labels, mask, room: Room) -> tuple[np.ndarray, Labels, np.ndarray | None]:
    """A (Tq, Tk) map as float32, its labels (their tokens as lists) and its mask (bool or None), each checked
    against the others, and `room` checked to be a Room."""
    z = as_float32(weights, "weights", 2)
    tq, tk = z.shape
    checked(labels, Labels, "labels")
    checked(room, Room, "room")
    labels = replace(labels, queries=check_labels(labels.queries, tq, "labels.queries", "rows (queries)"),
                     keys=check_labels(labels.keys, tk, "labels.keys", "columns (keys)"))
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != z.shape:
            raise ValueError(f"mask must have the weights' shape {z.shape}, got {mask.shape}")
    return z, labels, mask


def difference_heatmap(
    difference,
    labels: Labels,
    *,
    title: str = "",
    mask=None,
    room: Room = Room(),
    compact_scale: bool = False,
) -> go.Figure:
    """Heatmap of B − A of two (Tq, Tk) attention maps on the same axes: a diverging scale centred on 0 (white), as
    far below 0 as above, so red is where B attends more and blue where A does (labels.value_label names it: "B −
    A"). mask, room and compact_scale as attention_heatmap's."""
    z, labels, mask = _checked_map(difference, labels, mask, room)
    shown = z if mask is None else z[mask]
    top = max(float(np.abs(shown).max()) if shown.size else 0.0, 1e-3)  # an all-zero difference still has a scale
    return heatmap_figure(
        z, labels, title=title, room=room,
        scale=ColourScale(-top, top, DIVERGING_COLORSCALE, show=z.shape[0] > 1, compact=compact_scale),
        hidden=None if mask is None else Hidden(~mask, note=labels.masked_label),
    )


def guess_heatmap(
    weights,
    labels: Labels,
    guess: Guess,
    *,
    title: str = "",
    mask=None,
    room: Room = Room(),
) -> go.Figure:
    """One (Tq, Tk) attention map for guess-then-reveal: before the reveal every cell is a grey "?" gap with no
    value in it or its hover (the weights never reach the browser; guess.hidden_label explains them); after it, the
    map as attention_heatmap draws it with the row's strongest cell `guess.best` outlined solid. The guessed cell
    `guess.cell` (row, col) is outlined dashed in both. The fixed 0–1 colour bar is there in both (it tells nothing),
    so the map keeps its size and place on the reveal. `guess.click_hint`: before the reveal, every cell a query may
    read is a click target, its hover naming the cell and saying this hint; clicked_pair reads the click."""
    checked(guess, Guess, "guess")
    z, labels, mask = _checked_map(weights, labels, mask, room)
    tq = z.shape[0]
    allowed = np.ones(z.shape, bool) if mask is None else mask
    revealed = guess.revealed
    marks = [
        dict(type="rect", xref="x", yref="y", x0=col - 0.5, x1=col + 0.5, y0=row - 0.5, y1=row + 0.5,
             line=dict(color=color, width=3, dash=dash))
        for cell, color, dash in ((guess.best if revealed else None, ANSWER_COLOR, "solid"),
                                  (guess.cell, GUESS_COLOR, "dash"))
        if cell is not None for row, col in [cell]
    ]
    hidden = (Hidden(~allowed, note=labels.masked_label) if revealed
              else Hidden(np.ones(z.shape, bool), "?", guess.hidden_label))
    fig = heatmap_figure(
        z if revealed else np.zeros_like(z), labels, title=title, room=room,
        scale=ColourScale(0.0, 1.0, show=tq > 1), hidden=hidden, extras=Extras(shapes=marks),
    )
    if guess.click_hint and not revealed:
        fig.add_trace(_guess_targets(allowed, labels.queries, labels.keys, guess.click_hint))
    return fig


def _guess_targets(allowed: np.ndarray, query_tokens: Sequence[str], key_tokens: Sequence[str], hint: str) -> dict:
    """Transparent squares on the cells a guess may pick (a heatmap cell cannot be selected, a point can): the
    one nearest the pointer takes the hover and the click, so a click anywhere in a cell picks that cell."""
    rows, cols = np.nonzero(allowed)
    invisible = dict(marker=dict(opacity=0))
    return dict(
        type="scatter", x=cols.astype(np.int32), y=rows.astype(np.int32), mode="markers", showlegend=False,
        customdata=[[int(r), int(c)] for r, c in zip(rows, cols)],  # a list: typed arrays reach a click as objects
        text=[f"{plain_text(query_tokens[r])} → {plain_text(key_tokens[c])}" for r, c in zip(rows, cols)],
        marker=dict(symbol="square", size=MAX_CELL_PX, color="rgba(0,0,0,0)"), selected=invisible,
        unselected=invisible, hovertemplate=f"<b>%{{text}}</b><br>{plain_text(hint)}<extra></extra>",
    )


def clicked_pair(selection_points: list[dict]) -> tuple[int, int] | None:
    """The (int, int) customdata of the point a click selected, if any: guess_heatmap's (row, col) of a hidden cell,
    model_view's (layer, head) of a small map."""
    for point in selection_points:
        data = point.get("customdata")
        if data is not None and len(data) == 2:
            return int(data[0]), int(data[1])
    return None


def matrix_heatmap(
    values,
    labels: Labels,
    *,
    title: str = "",
    scale: ColourScale = ColourScale(),
    allow_neg_inf: bool = False,
    room: Room = Room(),
) -> go.Figure:
    """A teaching matrix: rows down, columns across (labelled on top, like a table; labels names both and their
    titles); −∞ cells are grey gaps marked "−∞". Square cells that fit the room, as attention_heatmap's."""
    z = as_float32(values, "values", 2, allow_neg_inf)
    checked(labels, Labels, "labels")
    checked(scale, ColourScale, "scale")
    checked(room, Room, "room")
    labels = replace(labels, queries=check_labels(labels.queries, z.shape[0], "labels.queries", "rows"),
                     keys=check_labels(labels.keys, z.shape[1], "labels.keys", "columns"))
    return heatmap_figure(z, labels, title=title, scale=scale, room=room, hidden=Hidden(np.isneginf(z), NEG_INF),
                          extras=Extras(x_side="top"))
