"""Why ÷√d_k: the variance of q·k against d_k, and softmax weights with and without the scaling."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text
from .teaching_base import KEY_COLOR, QUERY_COLOR, base_layout, label_list, labelled_axis, values_array


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
    raw = values_array(raw_weights, "raw_weights", 1)
    scaled = values_array(scaled_weights, "scaled_weights", 1)
    if raw.shape != scaled.shape:
        raise ValueError(f"one weight of each kind per key: {raw.shape} vs {scaled.shape}")
    labels = label_list(key_labels, raw.shape[0], "key_labels")
    x = np.arange(raw.shape[0], dtype=np.int32)
    fig = go.Figure([
        go.Bar(x=x, y=raw, name=plain_text(raw_label), marker_color=KEY_COLOR, text=np.char.mod("%.3f", raw),
               textposition="outside"),
        go.Bar(x=x, y=scaled, name=plain_text(scaled_label), marker_color=QUERY_COLOR, text=np.char.mod("%.3f", scaled),
               textposition="outside"),
    ])
    base_layout(fig, title, 380, barmode="group", legend=dict(orientation="h", y=-0.25))
    fig.update_layout(xaxis=labelled_axis(labels, key_title))
    fig.update_yaxes(range=[0, 1.15], title=dict(text=plain_text(weight_title)))
    return fig
