"""Mask figures: the additive mask M (0 / −∞), scores before and after masking, the softmax weights, a padded batch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import plotly.graph_objects as go

from .heatmap import COLORBAR_PX, matrix_heatmap
from .labels import plain_text, token_labels
from .options import ColourScale, Labels, Room, checked
from .style import (
    AXIS_TITLE_PX,
    DIVERGING_COLORSCALE,
    EDGE_PX,
    LEGEND_ROW_PX,
    MASKED_COLOR,
    MAX_WIDTH_PX,
    TICK_PAD_PX,
    cell_text_size,
    hovertemplate,
    legend_below,
    styled_figure,
    tick_layout,
    title_px,
    token_axis,
)

STAGES = ("mask", "scores", "masked", "weights")
ALLOWED_COLOR = "#deebf7"  # every allowed cell of M is 0: one colour; the −∞ cells are grey gaps
REAL_COLOR = "#9ecae1"  # a real token of a padded batch; its <pad> cells are grey
ROW_PX, MAX_COL_PX = 44, 110  # a padded batch's cells: a sentence's row, and the widest a position's column gets


def mask_stage_figure(
    stage: str,
    values,
    labels: Labels,
    *,
    title: str,
    room: Room = Room(),
) -> go.Figure:
    """One stage of masking as a (queries × keys) heatmap (labels: its tokens and titles) that fits the room; the
    four stages of one matrix, given the same room, have cells of one size (the mask's figure is narrower by a
    colour bar).

    mask: M, 0 where allowed and −∞ where hidden; scores / masked: scaled scores (−∞ where hidden);
    weights: the softmax, on a fixed 0–1 scale.
    """
    if stage not in STAGES:
        raise ValueError(f"stage must be one of {STAGES}, got {stage!r}")
    checked(room, Room, "room")
    if stage == "weights":
        return matrix_heatmap(values, labels, title=title, scale=ColourScale(0.0, 1.0), room=room)
    if stage == "mask":
        # No colour bar: the room the other stages give theirs is left out, so M's cells are the size of theirs
        # and the four panels line up.
        return matrix_heatmap(values, labels, title=title, allow_neg_inf=True,
                              scale=ColourScale(0.0, 1.0, [[0, ALLOWED_COLOR], [1, ALLOWED_COLOR]], 0, show=False),
                              room=replace(room, max_width=room.max_width - (COLORBAR_PX - EDGE_PX)))
    return matrix_heatmap(values, labels, title=title, allow_neg_inf=True, room=room,
                          scale=ColourScale(*_symmetric_range(values), DIVERGING_COLORSCALE))


def _symmetric_range(values) -> tuple[float, float]:
    """(zmin, zmax) of scores centred on 0, so that the diverging colours mean the sign."""
    finite = np.asarray(values, dtype=np.float64)
    finite = finite[np.isfinite(finite)]
    top = float(np.abs(finite).max()) if finite.size else 1.0
    return -top, top


def padding_figure(
    keep,
    tokens: Sequence[Sequence[str]],
    *,
    title: str,
    sentence_title: str,
    position_title: str,
    real_label: str,
    pad_label: str,
    max_width: float = MAX_WIDTH_PX,
) -> go.Figure:
    """(batch, length) grid: each sentence's tokens in its row, <pad> cells grey (the padding mask is False there).

    Positions are numbered on top, like a table's columns; the legend is below, where no axis is.
    """
    keep = np.asarray(keep, dtype=bool)
    if keep.ndim != 2:
        raise ValueError(f"keep must be (batch, length), got shape {keep.shape}")
    if len(tokens) != keep.shape[0] or any(isinstance(row, str) or len(row) != keep.shape[1] for row in tokens):
        raise ValueError(f"tokens must be {keep.shape[0]} padded rows of {keep.shape[1]} tokens "
                         "(see lessons.masks.pad_tokens)")
    n_rows, n_cols = keep.shape
    rows, cols = [str(i) for i in range(n_rows)], [str(j) for j in range(n_cols)]
    y_fit = tick_layout(rows, ROW_PX, across=False)
    left = int(EDGE_PX + AXIS_TITLE_PX + y_fit.depth + TICK_PAD_PX)
    col_px = min(MAX_COL_PX, (max_width - left - EDGE_PX) / n_cols)
    x_fit = tick_layout(cols, col_px)
    width = int(left + n_cols * col_px + EDGE_PX)
    top = int(EDGE_PX + x_fit.depth + TICK_PAD_PX + AXIS_TITLE_PX)
    size = cell_text_size([str(t) for row in tokens for t in row], col_px, ROW_PX)
    grid = dict(
        type="heatmap", z=keep.astype(np.float32), x=np.arange(n_cols, dtype=np.int32),
        y=np.arange(n_rows, dtype=np.int32), zmin=0, zmax=1, colorscale=[[0, MASKED_COLOR], [1, REAL_COLOR]],
        showscale=False, text=np.array([token_labels([str(t) for t in row]) for row in tokens]),
        texttemplate="%{text}" if size else "", textfont=dict(size=size or 1), xgap=2, ygap=2,
        hovertemplate=hovertemplate((sentence_title, "%{y}"), (position_title, "%{x}"), ("", "%{text}")),
    )
    legend = [dict(type="scatter", x=[None], y=[None], mode="markers", name=plain_text(name),
                   marker=dict(symbol="square", size=14, color=color))
              for name, color in ((real_label, REAL_COLOR), (pad_label, MASKED_COLOR))]
    return styled_figure(
        [grid, *legend],
        title,
        top=top,
        left=left,
        bottom=EDGE_PX + LEGEND_ROW_PX,
        width=width,
        height=int(title_px(title, width) + top + n_rows * ROW_PX + EDGE_PX + LEGEND_ROW_PX),
        legend=legend_below(),
        xaxis=token_axis(cols, position_title, fit=x_fit, side="top"),
        yaxis=token_axis(rows, sentence_title, fit=y_fit, reversed_=True),
    )
