"""Why ÷√d_k: the variance of q·k against d_k, and softmax weights with and without the scaling."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text
from .teaching_base import KEY_COLOR, QUERY_COLOR, base_layout, paired_bars, values_array


def variance_figure(d_ks: Sequence[int], raw_var, scaled_var, selected: int, *, title: str, dk_title: str,
                    var_title: str, raw_label: str, scaled_label: str, theory_label: str) -> go.Figure:
    """Sampled Var(q·k) and Var(q·k/√d_k) on log–log axes, with the line Var = d_k and the chosen d_k marked."""
    d = np.asarray(d_ks, dtype=np.float32)
    raw = values_array(raw_var, "raw_var", 1)
    scaled = values_array(scaled_var, "scaled_var", 1)
    if not d.shape == raw.shape == scaled.shape:
        raise ValueError(f"one variance of each kind per d_k: {d.shape}, {raw.shape}, {scaled.shape}")
    fig = go.Figure([
        go.Scatter(x=d, y=d, mode="lines", name=plain_text(theory_label), line=dict(color="#bbb", dash="dot")),
        go.Scatter(x=d, y=raw, mode="lines+markers", name=plain_text(raw_label), marker_color=KEY_COLOR),
        go.Scatter(x=d, y=scaled, mode="lines+markers", name=plain_text(scaled_label), marker_color=QUERY_COLOR),
    ])
    fig.add_vline(x=selected, line=dict(color="#666", dash="dash"))
    base_layout(fig, title, 380, legend=dict(orientation="h", y=-0.25))
    fig.update_xaxes(type="log", title=dict(text=plain_text(dk_title)))
    fig.update_yaxes(type="log", title=dict(text=plain_text(var_title)))
    return fig


def softmax_comparison_figure(key_labels: Sequence[str], raw_weights, scaled_weights, *, title: str, key_title: str,
                              weight_title: str, raw_label: str, scaled_label: str) -> go.Figure:
    """Grouped bars per key: softmax(q·k) and softmax(q·k/√d_k), on a fixed 0–1 scale."""
    return paired_bars(key_labels, raw_weights, scaled_weights, names=(raw_label, scaled_label),
                       colors=(KEY_COLOR, QUERY_COLOR), title=title, x_title=key_title, y_title=weight_title,
                       unit_range=True)
