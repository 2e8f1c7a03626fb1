"""Figures of one query's attention, step by step: scores → scaled (and masked) → softmax → weighted sum of v."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import NEG_INF, plain_text, token_labels
from .style import (
    KEY_COLOR,
    MASKED_COLOR,
    OUTPUT_COLOR,
    QUERY_COLOR,
    domains,
    masked_note,
    paper_label,
    styled_figure,
    tick_angle,
    titled,
    token_axis,
)
from .validate import as_float32, check_labels


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
    """Three panels over the keys: raw q·k, scores after ÷√d_k (−∞ where masked), softmax weights (0–1).

    The panels share the keys' axis (the bottom one is labelled); masked keys are grey columns in every panel.
    """
    raw = as_float32(scores, "scores", 1)
    scaled = as_float32(scaled, "scaled", 1, allow_neg_inf=True)
    w = as_float32(weights, "weights", 1)
    if len(titles) != 3:
        raise ValueError(f"titles: one per panel (raw scores, scaled scores, weights), got {len(titles)}")
    if not raw.shape == scaled.shape == w.shape:
        raise ValueError(f"scores {raw.shape}, scaled {scaled.shape} and weights {w.shape} need one entry per key")
    labels = check_labels(key_labels, raw.shape[0], "key_labels")
    x = np.arange(raw.shape[0], dtype=np.int32)
    masked = np.isneginf(scaled)
    shown = np.where(masked, 0, scaled).astype(np.float32)
    panels = (  # values, their bar text, hover, colour, y range
        (raw, np.char.mod("%.2f", raw), "%{y:.4f}", KEY_COLOR, _padded_range(raw)),
        (shown, np.where(masked, NEG_INF, np.char.mod("%.2f", shown)), "%{text}", KEY_COLOR,
         _padded_range(scaled[~masked])),
        (w, np.char.mod("%.3f", w), "%{y:.5f}", QUERY_COLOR, [0, 1.15]),
    )
    heights = domains(3, 0.08)[::-1]  # first panel at the top
    traces, layout, notes = [], {}, []
    for i, ((values, text, hover, color, y_range), span, panel_title) in enumerate(zip(panels, heights, titles)):
        suffix = "" if i == 0 else str(i + 1)
        traces.append(dict(type="bar", x=x, y=values, marker_color=color, text=text, textposition="outside",
                           hovertemplate=f"{hover}<extra></extra>", showlegend=False, xaxis=f"x{suffix}",
                           yaxis=f"y{suffix}"))
        layout[f"yaxis{suffix}"] = dict(domain=span, anchor=f"x{suffix}", range=y_range)
        layout[f"xaxis{suffix}"] = dict(anchor=f"y{suffix}", matches="x3", showticklabels=False)
        notes.append(paper_label(panel_title, 0.5, span[1], xanchor="center", yanchor="bottom", font=dict(size=16)))
    layout["xaxis3"] = token_axis(labels, key_title, anchor="y3", tickangle=tick_angle(labels))
    shapes = [dict(type="rect", x0=col - 0.5, x1=col + 0.5, xref=f"x{s}", y0=0, y1=1, yref=f"y{s} domain",
                   fillcolor=MASKED_COLOR, opacity=0.6, line_width=0, layer="below")
              for col in np.nonzero(masked)[0] for s in ("", "2", "3")]
    if masked.any() and masked_label:
        notes.append(masked_note(masked_label))
    return styled_figure(traces, "", top=30, height=620, shapes=shapes, annotations=notes, **layout)


def _padded_range(values: np.ndarray) -> list[float]:
    """A y range that holds 0 and every value, with room above and below for the bars' text."""
    values = values.astype(np.float64)
    top, bottom = (values.max(), values.min()) if values.size else (1.0, 0.0)
    pad = 0.2 * max(top - min(bottom, 0), 1e-6)
    return [min(bottom, 0) - pad, max(top, 0) + pad]


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
    w = as_float32(weights, "weights", 1)
    vv = as_float32(v, "v", 2)
    if vv.shape[0] != w.shape[0]:
        raise ValueError(f"v needs one row per key: {vv.shape[0]} rows for {w.shape[0]} weights")
    labels = token_labels(check_labels(key_labels, w.shape[0], "key_labels"))
    parts = (w[:, None] * vv).astype(np.float32)  # (keys, d_v)
    dims = np.arange(vv.shape[1], dtype=np.int32)
    bars = [  # largest weight first, so the legend reads in order of importance
        dict(type="bar", x=dims, y=parts[j], name=f"{labels[j]} ({w[j]:.2f})",
             hovertemplate=f"{labels[j]}: %{{y:.4f}}<extra></extra>")
        for j in np.argsort(-w)
    ]
    total = dict(type="scatter", x=dims, y=parts.sum(0), mode="markers", name=plain_text(output_label),
                 marker=dict(symbol="diamond", size=9, color=OUTPUT_COLOR, line=dict(color="black", width=1)),
                 hovertemplate="%{y:.4f}<extra></extra>")
    return styled_figure(
        [*bars, total],
        title,
        height=380,
        barmode="relative",
        xaxis=titled(dim_title, dtick=1 if vv.shape[1] <= 16 else 4),
        yaxis=dict(zeroline=True, zerolinecolor="#888"),
    )
