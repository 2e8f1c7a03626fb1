"""Figures for one decoding step: what the decoder may see, where it looked, what it could say next."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import plotly.graph_objects as go

from .bars import UNIT_TICKS, ValueAxis, bar_figure, fit_bars, paired_bars, token_hover
from .heatmap import attention_heatmap
from .style import (
    ANSWER_COLOR,
    BASE_FONT_PX,
    CELL_TEXT_PX,
    EDGE_PX,
    GRID_COLOR,
    GUESS_COLOR,
    HIGHLIGHT_COLOR,
    LINE_EM,
    MAX_HEIGHT_PX,
    MAX_WIDTH_PX,
    TICK_PAD_PX,
    axis_title_px,
    largest_cell,
    styled_figure,
    text_px,
    tick_layout,
    title_px,
    titled,
    token_axis,
)
from .options import Frame, Labels, Room, checked
from .validate import as_float32, check_index, check_labels

CHOSEN_COLOR = HIGHLIGHT_COLOR
OTHER_COLOR = "#8fb3d9"
ATTENTION_BAR_COLOR = "#2b6cb0"
COVERAGE_COLORS = (OTHER_COLOR, GUESS_COLOR)  # the original translation, the forced one
ROW_PX = 34  # a row of the candidates' bars, where max_height leaves room for it
PLOT_PX = (120, 400)  # the narrowest and widest the candidates' bars get


MASK_ROW_LABELS = Labels(None, None, "query", "keys (target prefix)", masked_label="masked (future)")


def causal_mask_row(
    weights_row,
    labels: Labels,
    step: int,
    *,
    title: str = "",
    room: Room = Room(),
) -> go.Figure:
    """The decoder self-attention row of `step`: keys 0..step are visible, later ones are masked grey.

    labels.keys: the target tokens (the row is named by the token at `step`: labels.queries is not read), with the
    axes' titles (MASK_ROW_LABELS' words by default: replace(MASK_ROW_LABELS, keys=tokens))."""
    row = as_float32(weights_row, "weights_row", 1)
    checked(labels, Labels, "labels")
    target_tokens = check_labels(labels.keys, len(row), "labels.keys", "positions")
    step = check_index(step, len(row), "step")
    mask = (np.arange(len(row)) <= step)[None]
    return attention_heatmap(row[None], replace(labels, queries=[target_tokens[step]], keys=target_tokens),
                             title=title, mask=mask, room=room)


def attention_bar(
    weights,
    key_tokens: Sequence[str],
    *,
    title: str = "",
    key_title: str = "keys",
    value_label: str = "weight",
    max_width: float = MAX_WIDTH_PX,
    max_height: float = MAX_HEIGHT_PX,
) -> go.Figure:
    """One query's attention over the keys as bars on a fixed 0–1 axis (e.g. heads averaged)."""
    w = as_float32(weights, "weights", 1)
    key_tokens = check_labels(key_tokens, len(w), "key_tokens", "keys")
    texts = np.char.mod("%.2f", w)
    fit = fit_bars(key_tokens, list(texts), 1, max_width)
    bars = dict(type="bar", x=np.arange(len(w), dtype=np.int32), y=w, marker_color=ATTENTION_BAR_COLOR, text=texts,
                **token_hover(key_tokens, key_title, value_label, "%{y:.4f}"))
    return bar_figure([bars], key_tokens, fit, frame=Frame(title, key_title, value_label),
                      values=ValueAxis(0.0, 1.0, dict(gridcolor=GRID_COLOR, zeroline=False, **UNIT_TICKS)),
                      max_height=max_height)


def candidates_chart(
    tokens: Sequence[str],
    probs,
    chosen: int,
    *,
    title: str = "",
    token_title: str = "candidate next token",
    value_label: str = "probability",
    room: Room = Room(),
    guess: int | None = None,
) -> go.Figure:
    """Top-k candidates as horizontal bars, most probable on top; bar `chosen` is the token the search took; bar
    `guess` (a student's guess, if any) has a thick dark outline. room: the size limits (its min_font_px unused)."""
    checked(room, Room, "room")
    p = as_float32(probs, "probs", 1)
    tokens = check_labels(tokens, len(p), "tokens", "probabilities")
    chosen = check_index(chosen, len(p), "chosen")
    n = len(p)
    guess = None if guess is None else check_index(guess, n, "guess")
    bars = dict(
        type="bar", x=p, y=np.arange(n, dtype=np.int32), orientation="h",
        marker_color=[CHOSEN_COLOR if i == chosen else OTHER_COLOR for i in range(n)],
        marker_line=dict(color=ANSWER_COLOR, width=[4 if i == guess else 0 for i in range(n)]),
        texttemplate="%{x:.1%}", textposition="outside", cliponaxis=False, textfont=dict(size=CELL_TEXT_PX),
        **token_hover(tokens, token_title, value_label, "%{x:.4f}"),
    )
    return row_bars([bars], tokens, "100.0%", frame=Frame(title, value_label, token_title), room=room,
                    value_axis=dict(range=[0, 1], tickformat=".0%", gridcolor=GRID_COLOR), bargap=0.3)


def _left_px(row_title: str, wrap: float, labels_px: float) -> int:
    """The left margin: the row axis's title (wrapped to `wrap` px) and its labels."""
    return int(EDGE_PX + axis_title_px(row_title, wrap) + labels_px + TICK_PAD_PX)


def _bar_text_px(widest_text: str) -> int:
    """The right margin that holds the bars' text."""
    return int(text_px(widest_text, CELL_TEXT_PX)) + 2 * EDGE_PX


def row_bars(bars: list[dict], labels: list[str], widest_text: str, *, frame: Frame, value_axis: dict, room: Room,
             **layout) -> go.Figure:
    """Horizontal bars, one labelled row each (ROW_PX, fewer px where max_height needs it), their text (at
    most as wide as `widest_text`) right of them, the value axis (`value_axis`,
    titled `value_title`, wrapped to the figure's width) below. At most max_width wide where the labels leave the
    plot PLOT_PX[0]: a page narrows a wider figure to its column, and Plotly then draws it a second time. frame:
    the title, the values' axis title across (value_title) and the rows' up (row_title)."""
    title, value_title, row_title = frame.title, frame.x_title, frame.y_title
    max_width, max_height = room.max_width, room.max_height
    n = len(labels)
    right = _bar_text_px(widest_text)

    def size(row: int) -> dict:
        fit = tick_layout(labels, row, across=False)
        wrap = n * row + 2 * EDGE_PX  # the row axis's title no longer than the plot and the margins allow
        left = _left_px(row_title, wrap, fit.depth)
        plot = int(np.clip(max_width - left - right, *PLOT_PX))
        width = left + plot + right
        bottom = EDGE_PX + axis_title_px(value_title, width - 2 * EDGE_PX) + int(LINE_EM * BASE_FONT_PX) + TICK_PAD_PX
        return dict(fit=fit, wrap=wrap, left=left, width=width, bottom=bottom,
                    height=title_px(title, width) + EDGE_PX + n * row + bottom)

    s = size(largest_cell(lambda row: size(row)["height"] <= max_height, ROW_PX))
    return styled_figure(bars, title, top=EDGE_PX, left=s["left"], right=right, bottom=s["bottom"],
                         width=s["width"], height=s["height"], showlegend=False,
                         xaxis=titled(value_title, wrap=s["width"] - 2 * EDGE_PX, **value_axis),
                         yaxis=token_axis(labels, row_title, fit=s["fit"], reversed_=True, wrap=s["wrap"]), **layout)


def coverage_chart(
    source_tokens: Sequence[str],
    original,
    forced,
    *,
    names: tuple[str, str],
    title: str = "",
    key_title: str = "source token",
    value_label: str = "attention received",
    room: Room = Room(),
) -> go.Figure:
    """Source coverage of two translations of one sentence: per source token, the cross-attention it received over
    each output (lessons.classroom.coverage), the original's bars beside the forced continuation's."""
    return paired_bars(source_tokens, original, forced, names=names, colors=COVERAGE_COLORS,
                       frame=Frame(title, key_title, value_label), decimals=2, room=room)
