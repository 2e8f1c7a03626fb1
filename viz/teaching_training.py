"""Figures of the "How it was trained" page that the anatomy page has not already: optimisers' paths on a loss,
real tokens against padding in batches."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text
from .options import Frame, checked
from .style import (D3, MASKED_COLOR, NEUTRAL_COLOR, QUERY_COLOR, hovertemplate, legend_above, legend_on_top,
                    styled_figure, titled, token_axis, widest_tick, x_labels_band, y_labels_band)
from .validate import as_float32, check_labels

PATH_COLORS = (D3[1], D3[0])  # the slower optimiser first (orange), the faster one second (blue)


def optimizer_paths_figure(w1, w2, loss, paths: Sequence, names: Sequence[str], *, frame: Frame, loss_label: str,
                           step_label: str) -> go.Figure:
    """Contours of a two-parameter loss and each optimiser's path over it, one marker per step.

    w1: (n1,) and w2: (n2,) grid coordinates; loss: (n2, n1), loss[j, i] at (w1[i], w2[j]);
    paths: one (steps + 1, 2) array of (w1, w2) per optimiser, named by `names`.
    """
    title, w1_title, w2_title = checked(frame, Frame, "frame").title, frame.x_title, frame.y_title
    x, y = as_float32(w1, "w1", 1), as_float32(w2, "w2", 1)
    z = as_float32(loss, "loss", 2)
    if z.shape != (y.size, x.size):
        raise ValueError(f"loss must have shape (len(w2), len(w1)) = {(y.size, x.size)}, got {z.shape}")
    arrays = [as_float32(p, f"paths[{i}]", 2) for i, p in enumerate(paths)]
    if len(arrays) != len(names) or len(arrays) > len(PATH_COLORS):
        raise ValueError(f"pass one name per path and at most {len(PATH_COLORS)} paths, got {len(arrays)} paths "
                         f"and {len(names)} names")
    for i, p in enumerate(arrays):
        if p.shape[1] != 2:
            raise ValueError(f"paths[{i}] must have shape (steps + 1, 2): one (w1, w2) row per step, got {p.shape}")
    contour = dict(type="contour", x=x, y=y, z=z, showscale=False, colorscale=[[0, "white"], [1, NEUTRAL_COLOR]],
                   contours=dict(coloring="lines"), line=dict(width=1), name=plain_text(loss_label),
                   hovertemplate=hovertemplate(("w₁", "%{x:.2f}"), ("w₂", "%{y:.2f}"), (loss_label, "%{z:.3f}")))
    lines = [
        dict(type="scatter", x=p[:, 0], y=p[:, 1], mode="lines+markers", name=plain_text(name),
             line=dict(color=color), marker=dict(color=color, size=6), customdata=np.arange(len(p)),
             hovertemplate=hovertemplate(("", "%{fullData.name}"), (step_label, "%{customdata}"), ("w₁", "%{x:.3f}"),
                                         ("w₂", "%{y:.3f}")))
        for p, name, color in zip(arrays, names, PATH_COLORS)
    ]
    return styled_figure(
        [contour, *lines],
        title,
        height=420,
        **legend_on_top(names),
        left=y_labels_band(widest_tick(float(y.min()), float(y.max())), w2_title),
        bottom=x_labels_band(w1_title),
        xaxis=titled(w1_title, range=[float(x.min()), float(x.max())], zeroline=False),
        yaxis=titled(w2_title, range=[float(y.min()), float(y.max())], zeroline=False),
    )


def batch_padding_figure(names: Sequence[str], real, padding, *, title: str, count_title: str, real_label: str,
                   padding_label: str) -> go.Figure:
    """One stacked bar per way of batching the same sentences: the tensor positions that hold real tokens, then
    those that hold padding (each bar's length is the computation it costs). real, padding: (ways,) counts."""
    r, p = as_float32(real, "real", 1), as_float32(padding, "padding", 1)
    if r.shape != p.shape:
        raise ValueError(f"one real and one padding count per way of batching: {r.shape} vs {p.shape}")
    labels = check_labels(names, r.size, "names", "ways of batching")
    if (r < 0).any() or (p < 0).any():
        raise ValueError("counts of positions cannot be negative")
    total = r + p
    share = np.divide(p, total, out=np.zeros_like(p), where=total > 0)
    rows = np.arange(r.size, dtype=np.int32)
    bars = [
        dict(type="bar", orientation="h", x=r, y=rows, name=plain_text(real_label), marker_color=QUERY_COLOR,
             text=[f"{int(v):,}" for v in r], textposition="inside", insidetextanchor="middle",
             hovertemplate=hovertemplate((real_label, "%{x:,.0f}"))),
        dict(type="bar", orientation="h", x=p, y=rows, name=plain_text(padding_label), marker_color=MASKED_COLOR,
             text=[f"{int(v):,} ({s:.0%})" for v, s in zip(p, share)], textposition="inside", insidetextanchor="middle",
             textfont=dict(color="black"), hovertemplate=hovertemplate((padding_label, "%{x:,.0f}"))),
    ]
    return styled_figure(
        bars,
        title,
        height=200 + 50 * r.size,
        barmode="stack",
        **{**legend_on_top([real_label, padding_label]), "legend": {**legend_above(), "traceorder": "normal"}},
        xaxis=titled(count_title, range=[0, float(total.max()) * 1.02 if total.size else 1]),
        yaxis=token_axis(labels, "", reversed_=True),
    )


def reliability_figure(confidence, right, positions, *, frame: Frame, model_label: str, ideal_label: str,
                       positions_label: str) -> go.Figure:
    """A reliability curve: each confidence bin's mean confidence against the share of its positions that were right,
    with the diagonal a calibrated model would follow (below it: over-confident). confidence, right, positions:
    (bins,) for the bins that hold positions; each marker's size grows with its positions."""
    title, confidence_title, right_title = checked(frame, Frame, "frame").title, frame.x_title, frame.y_title
    c, r, n = as_float32(confidence, "confidence", 1), as_float32(right, "right", 1), as_float32(positions, "positions", 1)
    if not (c.shape == r.shape == n.shape):
        raise ValueError(f"one confidence, share right and count per bin: {c.shape}, {r.shape}, {n.shape}")
    if ((c < 0) | (c > 1) | (r < 0) | (r > 1)).any():
        raise ValueError("confidence and share right are probabilities, within [0, 1]")
    size = 8 + 16 * np.sqrt(n / n.max()) if n.size and n.max() > 0 else np.full_like(n, 8)
    traces = [
        dict(type="scatter", x=[0, 1], y=[0, 1], mode="lines", name=plain_text(ideal_label),
             line=dict(color=NEUTRAL_COLOR, dash="dash"), hoverinfo="skip"),
        dict(type="scatter", x=c, y=r, mode="lines+markers", name=plain_text(model_label), line=dict(color=QUERY_COLOR),
             marker=dict(color=QUERY_COLOR, size=size), customdata=n,
             hovertemplate=hovertemplate((confidence_title, "%{x:.3f}"), (right_title, "%{y:.3f}"),
                                         (positions_label, "%{customdata:,.0f}"))),
    ]
    return styled_figure(
        traces, title, height=400, **legend_on_top([ideal_label, model_label]),
        xaxis=titled(confidence_title, range=[0, 1.02], tickformat=".0%"),
        yaxis=titled(right_title, range=[0, 1.02], tickformat=".0%"),
    )
