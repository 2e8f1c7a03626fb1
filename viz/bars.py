"""Bars over token positions: how wide each label's slot is, how its bars' numbers fit, and grouped bars.

fit_bars sizes the slots (and from them the labels' layout and the numbers' font) for every figure with a bar
per token (attention_bar, the teaching pages' comparisons, the q·k steps); paired_bars draws two values per
label, the teaching pages' before/after comparisons, grouped_bars any number of values per label.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text, token_labels
from .style import (
    AXIS_TITLE_PX,
    BASE_FONT_PX,
    CELL_TEXT_PX,
    EDGE_PX,
    LINE_EM,
    MIN_FONT_PX,
    TICK_PAD_PX,
    Ticks,
    axis_title_px,
    cell_text_size,
    hovertemplate,
    legend_above,
    legend_px,
    position_text,
    styled_figure,
    text_px,
    tick_layout,
    title_px,
    titled,
    token_axis,
)
from .options import Frame, Room, checked
from .validate import as_float32, check_labels

MAX_SLOT_PX = 64  # a label's slot grows to this and no further: wider bars say nothing more
BARGAP = 0.25  # of each slot, left empty between neighbouring labels' bars
PLOT_PX = 240  # the plot's height, where max_height leaves room for it
VALUE_AXIS_PX = EDGE_PX + AXIS_TITLE_PX + int(text_px("0.00", BASE_FONT_PX)) + TICK_PAD_PX  # a numbered y axis
UNIT_TICKS = dict(tickvals=[0, 0.2, 0.4, 0.6, 0.8, 1])  # a 0–1 scale labels 0…1, not the room above for the text


@dataclass(frozen=True)
class ValueAxis:
    """A bar chart's value axis: from `low` to `high` (plus the room the bars' text needs), with `extra` layout
    entries (its grid, ticks)."""

    low: float
    high: float
    extra: dict | None = None


@dataclass(frozen=True)
class BarFit:
    """How many labels, the px of each one's slot, the labels' layout, the bars' text settings ({} = no text: it
    would not fit) and how far that text reaches past a bar's end (px)."""

    count: int
    slot: float
    ticks: Ticks
    text: dict
    reach: float

    @property
    def left(self) -> int:
        """The left margin: the value axis, moved out of the way of a first label that reaches past the plot."""
        return VALUE_AXIS_PX + math.ceil(self.ticks.overhang)

    @property
    def right(self) -> int:
        """The right margin: room for the last label where it reaches past the plot."""
        return math.ceil(self.ticks.overhang) + EDGE_PX

    def width(self) -> int:
        """The figure's width: its margins and slots."""
        return int(self.left + self.count * self.slot + self.right)

    def title_wrap(self) -> float:
        """How long the token axis's title may be, centred under the slots: as far as the right margin allows."""
        return self.count * self.slot + 2 * (self.right - EDGE_PX)

    def bottom(self, x_title: str) -> int:
        """The bottom margin: the token labels and the axis title (wrapped, see title_wrap)."""
        return int(EDGE_PX + self.ticks.depth + TICK_PAD_PX + axis_title_px(x_title, self.title_wrap()))

    def value_axis(self, title: str, low: float, high: float, plot_px: float, **extra) -> dict:
        """The value (y) axis from `low` to `high` plus the room the bars' text needs (see range), its labels
        standing clear of the first token label."""
        return titled(title, range=self.range(low, high, plot_px), ticklabelstandoff=math.ceil(self.ticks.overhang),
                      **extra)

    def style(self, bar: dict) -> dict:
        """The bar trace with its text as fitted: outside the bar's end, in the fitted font and angle, or none."""
        return {**bar, **self.text, "textposition": "outside" if self.text else "none", "constraintext": "none",
                "cliponaxis": False}

    def range(self, low: float, high: float, plot_px: float) -> list[float]:
        """A value range from `low` to `high` grown by the room the bars' text needs past their ends (at most a
        third of `plot_px`, see fit_bars): above, and below where values are negative."""
        pad = (high - low) * self.reach / max(plot_px - 2 * self.reach, plot_px / 3)
        return [low - pad if low < 0 else low, high + pad]


def fit_bars(labels: Sequence[str], texts: Sequence[str], per_slot: int, max_width: float,
             plot_px: float = PLOT_PX) -> BarFit:
    """Slots for `labels` in a figure at most max_width px wide (up to MAX_SLOT_PX each), `per_slot` bars in
    each. The bars' `texts` stand upright where they fit a bar's width, else vertical where a line fits it;
    they are left to the hover where neither fits or they would take more than a third of `plot_px`."""
    n, room = max(len(labels), 1), max_width - VALUE_AXIS_PX - EDGE_PX
    slot = min(MAX_SLOT_PX, room / n)
    overhang = tick_layout(labels, slot, break_tokens=True).overhang  # where end labels reach past the plot, the
    # slots give way
    slot = min(slot, (room - 2 * math.ceil(overhang)) / n)
    bar = slot * (1 - BARGAP) / per_slot
    size = cell_text_size(texts, bar, float("inf")) if texts else None
    text, reach = {}, 0.0
    if size:
        text, reach = dict(textfont=dict(size=size), textangle=0), LINE_EM * size + 4
    elif texts and bar >= LINE_EM * MIN_FONT_PX:
        size = int(min(CELL_TEXT_PX, bar / LINE_EM))
        text, reach = dict(textfont=dict(size=size), textangle=-90), max(text_px(t, size) for t in texts) + 4
    if reach > plot_px / 3:
        text, reach = {}, 0.0
    return BarFit(len(labels), slot, tick_layout(labels, slot, break_tokens=True), text, reach)


def bar_figure(bars: list[dict], labels: Sequence[str], fit: BarFit, *, frame: Frame, values: ValueAxis,
               max_height: float, legend: Sequence[str] = (), **layout) -> go.Figure:
    """Bars over token slots laid out by `fit`: the figure as wide as its slots, as tall as max_height allows
    (up to PLOT_PX of plot), the legend (its names, unescaped) above the plot, each bar's text sized by `fit`,
    the value axis (`values`) from its low to its high plus the room that text needs; `frame`: the title, the
    tokens' and the values' axis titles."""
    title, x_title, y_title = checked(frame, Frame, "frame").title, frame.x_title, frame.y_title
    low, high, yaxis = values.low, values.high, values.extra
    width = fit.width()
    top = EDGE_PX + (legend_px(legend, fit.count * fit.slot) if legend else 0)
    bottom = fit.bottom(x_title)
    plot_px = min(PLOT_PX, max_height - top - bottom - title_px(title, width))
    return styled_figure(
        [fit.style(bar) for bar in bars],
        title,
        top=top,
        left=fit.left,
        right=fit.right,
        bottom=bottom,
        width=width,
        height=int(top + plot_px + bottom + title_px(title, width)),
        bargap=BARGAP,
        legend=legend_above(),
        showlegend=bool(legend),
        xaxis=token_axis(labels, x_title, fit=fit.ticks, wrap=fit.title_wrap()),
        yaxis=fit.value_axis(y_title, low, high, plot_px, **(yaxis or {})),
        **layout,
    )


def token_hover(labels: Sequence[str], title: str, value_label: str, value: str) -> dict:
    """Trace settings for a hover that names a bar's token and position and its value (Plotly placeholder)."""
    return dict(customdata=token_labels(labels),
                hovertemplate=hovertemplate((title, position_text(labels, "%{pointNumber}", "%{customdata}")),
                                            (value_label, value)))


def paired_bars(labels: Sequence[str], first, second, *, names: tuple[str, str], colors: tuple[str, str],
                **options) -> go.Figure:
    """Two values per label as grouped bars (e.g. unscaled vs scaled weights): grouped_bars with two series."""
    return grouped_bars(labels, (first, second), names=names, colors=colors, **options)


def grouped_bars(
    labels: Sequence[str],
    series: Sequence,
    *,
    names: Sequence[str],
    colors: Sequence[str],
    frame: Frame,
    unit_range: bool = False,
    decimals: int = 3,
    room: Room = Room(),
) -> go.Figure:
    """Several values per label as grouped bars, one series per name and colour; `unit_range` fixes the axis to 0–1.
    frame: the title, the labels' and the values' axis titles."""
    checked(frame, Frame, "frame")
    checked(room, Room, "room")
    arrays = [as_float32(values, f"series {i}", 1) for i, values in enumerate(series)]
    if len({a.shape for a in arrays}) != 1 or not len(arrays) == len(names) == len(colors):
        raise ValueError(f"one value of each series per label and one name and colour per series: "
                         f"{[a.shape for a in arrays]}, {len(names)} names, {len(colors)} colours")
    ticks = check_labels(labels, arrays[0].shape[0], "labels")
    texts = [np.char.mod(f"%.{decimals}f", values) for values in arrays]
    fit = fit_bars(ticks, [t.replace("-", "−") for column in texts for t in column], len(arrays), room.max_width)
    x = np.arange(arrays[0].shape[0], dtype=np.int32)
    bars = [
        dict(type="bar", x=x, y=values, name=plain_text(name), marker_color=color, text=text,
             **token_hover(ticks, frame.x_title, name, f"%{{y:.{decimals + 2}f}}"))
        for values, text, name, color in zip(arrays, texts, names, colors)
    ]
    values = np.concatenate(arrays)
    low, high = (0.0, 1.0) if unit_range else (min(0.0, float(values.min())), max(0.0, float(values.max())))
    return bar_figure(bars, ticks, fit, frame=frame, values=ValueAxis(low, high, UNIT_TICKS if unit_range else None),
                      max_height=room.max_height, legend=names)
