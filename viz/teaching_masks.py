"""Mask figures: the additive mask M (0 / −∞), scores before and after masking, the softmax weights, a padded batch."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .heatmap import matrix_heatmap
from .labels import plain_text, token_labels
from .style import DIVERGING_COLORSCALE, MASKED_COLOR, legend_below, styled_figure, token_axis

STAGES = ("mask", "scores", "masked", "weights")
ALLOWED_COLOR = "#deebf7"  # every allowed cell of M is 0: one colour; the −∞ cells are grey gaps
REAL_COLOR = "#9ecae1"  # a real token of a padded batch; its <pad> cells are grey


def mask_stage_figure(
    stage: str,
    values,
    query_labels: Sequence[str],
    key_labels: Sequence[str],
    *,
    title: str,
    query_title: str,
    key_title: str,
    value_label: str,
) -> go.Figure:
    """One stage of masking as a (queries × keys) heatmap.

    mask: M, 0 where allowed and −∞ where hidden; scores / masked: scaled scores (−∞ where hidden);
    weights: the softmax, on a fixed 0–1 scale.
    """
    if stage not in STAGES:
        raise ValueError(f"stage must be one of {STAGES}, got {stage!r}")
    options = dict(row_title=query_title, col_title=key_title, title=title, value_label=value_label)
    if stage == "weights":
        return matrix_heatmap(values, query_labels, key_labels, zmin=0.0, zmax=1.0, **options)
    if stage == "mask":
        return matrix_heatmap(values, query_labels, key_labels, zmin=0.0, zmax=1.0,
                              colorscale=[[0, ALLOWED_COLOR], [1, ALLOWED_COLOR]], decimals=0, allow_neg_inf=True,
                              show_scale=False, **options)
    return matrix_heatmap(values, query_labels, key_labels, colorscale=DIVERGING_COLORSCALE, allow_neg_inf=True,
                          **_symmetric_range(values), **options)


def _symmetric_range(values) -> dict:
    """Scores centred on 0 so that the diverging colours mean the sign."""
    finite = np.asarray(values, dtype=np.float64)
    finite = finite[np.isfinite(finite)]
    top = float(np.abs(finite).max()) if finite.size else 1.0
    return dict(zmin=-top, zmax=top)


def padding_figure(
    keep,
    tokens: Sequence[Sequence[str]],
    *,
    title: str,
    sentence_title: str,
    position_title: str,
    real_label: str,
    pad_label: str,
) -> go.Figure:
    """(batch, length) grid: each sentence's tokens in its row, <pad> cells grey (the padding mask is False there)."""
    keep = np.asarray(keep, dtype=bool)
    if keep.ndim != 2:
        raise ValueError(f"keep must be (batch, length), got shape {keep.shape}")
    if len(tokens) != keep.shape[0] or any(isinstance(row, str) or len(row) != keep.shape[1] for row in tokens):
        raise ValueError(f"tokens must be {keep.shape[0]} padded rows of {keep.shape[1]} tokens "
                         "(see lessons.masks.pad_tokens)")
    grid = dict(
        type="heatmap", z=keep.astype(np.float32), x=np.arange(keep.shape[1], dtype=np.int32),
        y=np.arange(keep.shape[0], dtype=np.int32), zmin=0, zmax=1, colorscale=[[0, MASKED_COLOR], [1, REAL_COLOR]],
        showscale=False, text=np.array([token_labels([str(t) for t in row]) for row in tokens]), texttemplate="%{text}",
        textfont=dict(size=14), xgap=2, ygap=2, hovertemplate="%{text}<extra></extra>",
    )
    legend = [dict(type="scatter", x=[None], y=[None], mode="markers", name=plain_text(name),
                   marker=dict(symbol="square", size=14, color=color))
              for name, color in ((real_label, REAL_COLOR), (pad_label, MASKED_COLOR))]
    return styled_figure(
        [grid, *legend],
        title,
        height=120 + 60 * keep.shape[0],
        legend=legend_below(-0.15),
        xaxis=token_axis([str(j) for j in range(keep.shape[1])], position_title, side="top"),
        yaxis=token_axis([str(i) for i in range(keep.shape[0])], sentence_title, reversed_=True),
    )
