"""Figures of one query's attention, step by step: scores → scaled (and masked) → softmax → weighted sum of v."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .labels import plain_text
from .teaching_base import (
    KEY_COLOR,
    NEG_INF,
    OUTPUT_COLOR,
    QUERY_COLOR,
    base_layout,
    checked_labels,
    label_list,
    labelled_axis,
    values_array,
)


def score_steps_figure(
    key_labels: Sequence[str],
    scores,
    scaled,
    weights,
    *,
    titles: tuple[str, str, str],
    key_title: str,
    masked_label: str = "",
) -> go.Figure:
    """Three panels over the keys: raw q·k, scores after ÷√d_k (−∞ where masked), softmax weights (0–1)."""
    raw = values_array(scores, "scores", 1)
    scaled = values_array(scaled, "scaled", 1, allow_neg_inf=True)
    w = values_array(weights, "weights", 1)
    if not raw.shape == scaled.shape == w.shape:
        raise ValueError(f"scores {raw.shape}, scaled {scaled.shape} and weights {w.shape} need one entry per key")
    labels = checked_labels(key_labels, raw.shape[0], "key_labels")
    x = np.arange(raw.shape[0], dtype=np.int32)
    masked = np.isneginf(scaled)
    fig = make_subplots(rows=3, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        subplot_titles=[plain_text(t) for t in titles])
    fig.add_trace(go.Bar(x=x, y=raw, marker_color=KEY_COLOR, text=np.char.mod("%.2f", raw), textposition="outside",
                         hovertemplate="%{y:.4f}<extra></extra>", showlegend=False), row=1, col=1)
    fig.add_trace(go.Bar(x=x, y=np.where(masked, 0, scaled).astype(np.float32), marker_color=KEY_COLOR,
                         text=np.where(masked, NEG_INF, np.char.mod("%.2f", np.where(masked, 0, scaled))),
                         textposition="outside", hovertemplate="%{text}<extra></extra>", showlegend=False), row=2, col=1)
    fig.add_trace(go.Bar(x=x, y=w, marker_color=QUERY_COLOR, text=np.char.mod("%.3f", w), textposition="outside",
                         hovertemplate="%{y:.5f}<extra></extra>", showlegend=False), row=3, col=1)
    for col in np.nonzero(masked)[0]:
        fig.add_vrect(x0=col - 0.5, x1=col + 0.5, fillcolor="#d9d9d9", opacity=0.6, line_width=0, layer="below")
    base_layout(fig, "", 620)
    fig.update_yaxes(range=[0, 1.15], row=3, col=1)
    for row in (1, 2):
        values = (raw if row == 1 else scaled[~masked]).astype(np.float64)
        top, bottom = (values.max(), values.min()) if values.size else (1.0, 0.0)
        pad = 0.2 * max(top - min(bottom, 0), 1e-6)
        fig.update_yaxes(range=[min(bottom, 0) - pad, max(top, 0) + pad], row=row, col=1)
    fig.update_xaxes(**labelled_axis(labels, key_title, tickangle=-60 if len(labels) > 10 else 0), row=3, col=1)
    if masked.any() and masked_label:
        fig.add_annotation(text=plain_text(masked_label), xref="paper", yref="paper", x=1, y=1.06,
                           showarrow=False, font=dict(size=12, color="#555"), bgcolor="#d9d9d9")
    return fig


def weighted_sum_figure(
    weights,
    v,
    key_labels: Sequence[str],
    *,
    title: str,
    dim_title: str,
    output_label: str,
) -> go.Figure:
    """Per dimension of v, the stacked contributions weight_j·v_j of every key; a marker shows their sum (the output)."""
    w = values_array(weights, "weights", 1)
    vv = values_array(v, "v", 2)
    if vv.shape[0] != w.shape[0]:
        raise ValueError(f"v needs one row per key: {vv.shape[0]} rows for {w.shape[0]} weights")
    labels = label_list(key_labels, w.shape[0], "key_labels")
    parts = (w[:, None] * vv).astype(np.float32)  # (keys, d_v)
    dims = np.arange(vv.shape[1], dtype=np.int32)
    fig = go.Figure()
    for j in np.argsort(-w):  # largest weight first, so the legend reads in order of importance
        fig.add_trace(go.Bar(x=dims, y=parts[j], name=f"{labels[j]} ({w[j]:.2f})",
                             hovertemplate=f"{labels[j]}: %{{y:.4f}}<extra></extra>"))
    total = parts.sum(0)
    fig.add_trace(go.Scatter(x=dims, y=total, mode="markers", name=plain_text(output_label),
                             marker=dict(symbol="diamond", size=9, color=OUTPUT_COLOR, line=dict(color="black", width=1)),
                             hovertemplate="%{y:.4f}<extra></extra>"))
    base_layout(fig, title, 380, barmode="relative", legend=dict(orientation="h", y=-0.25))
    fig.update_xaxes(title=dict(text=plain_text(dim_title)), dtick=1 if vv.shape[1] <= 16 else 4)
    fig.update_yaxes(zeroline=True, zerolinecolor="#888")
    return fig
