"""Why ÷√d_k: the variance of q·k against d_k, and softmax weights with and without the scaling."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .bars import paired_bars
from .labels import plain_text
from .options import Frame, checked
from .style import (KEY_COLOR, NEUTRAL_COLOR, QUERY_COLOR, guide_line, legend_on_top, styled_figure, titled,
                    widest_tick, x_labels_band, y_labels_band)
from .validate import as_float32


def variance_figure(d_ks: Sequence[int], raw_var, scaled_var, selected: int, *, frame: Frame, raw_label: str,
                    scaled_label: str, theory_label: str) -> go.Figure:
    """Sampled Var(q·k) and Var(q·k/√d_k) on log–log axes, with the line Var = d_k and the chosen d_k marked.
    frame: the title, d_k across and the variance up."""
    title, dk_title, var_title = checked(frame, Frame, "frame").title, frame.x_title, frame.y_title
    d = as_float32(d_ks, "d_ks", 1)
    raw = as_float32(raw_var, "raw_var", 1)
    scaled = as_float32(scaled_var, "scaled_var", 1)
    if not d.shape == raw.shape == scaled.shape:
        raise ValueError(f"one variance of each kind per d_k: {d.shape}, {raw.shape}, {scaled.shape}")
    lines = [
        dict(type="scatter", x=d, y=d, mode="lines", name=plain_text(theory_label),
             line=dict(color=NEUTRAL_COLOR, dash="dot")),
        dict(type="scatter", x=d, y=raw, mode="lines+markers", name=plain_text(raw_label), marker_color=KEY_COLOR),
        dict(type="scatter", x=d, y=scaled, mode="lines+markers", name=plain_text(scaled_label),
             marker_color=QUERY_COLOR),
    ]
    return styled_figure(
        lines,
        title,
        height=380,
        **legend_on_top([theory_label, raw_label, scaled_label]),
        **guide_line(selected),
        # Log axes label powers of ten: the widest is the first power at or above the largest value.
        left=y_labels_band(widest_tick(0, 10 ** math.ceil(math.log10(max(float(np.max([d, raw, scaled])), 1)))),
                           var_title),
        bottom=x_labels_band(dk_title),
        xaxis=titled(dk_title, type="log"),
        yaxis=titled(var_title, type="log", dtick=1),  # one label per power of ten: 2…9 between them crowd at 16 px
    )


def softmax_comparison_figure(key_labels: Sequence[str], raw_weights, scaled_weights, *, title: str, key_title: str,
                              weight_title: str, raw_label: str, scaled_label: str) -> go.Figure:
    """Grouped bars per key: softmax(q·k) and softmax(q·k/√d_k), on a fixed 0–1 scale."""
    return paired_bars(key_labels, raw_weights, scaled_weights, names=(raw_label, scaled_label),
                       colors=(KEY_COLOR, QUERY_COLOR), frame=Frame(title, key_title, weight_title), unit_range=True)
