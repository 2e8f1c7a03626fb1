"""Two values per label as grouped bars: the teaching pages' before/after comparisons."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text
from .style import legend_below, styled_figure, tick_angle, titled, token_axis
from .validate import as_float32, check_labels


def paired_bars(
    labels: Sequence[str],
    first,
    second,
    *,
    names: tuple[str, str],
    colors: tuple[str, str],
    title: str,
    x_title: str,
    y_title: str = "",
    unit_range: bool = False,
    decimals: int = 3,
) -> go.Figure:
    """Two values per label as grouped bars (e.g. unscaled vs scaled weights); `unit_range` fixes the axis to 0–1."""
    a = as_float32(first, "first", 1)
    b = as_float32(second, "second", 1)
    if a.shape != b.shape:
        raise ValueError(f"one value of each kind per label: {a.shape} vs {b.shape}")
    ticks = check_labels(labels, a.shape[0], "labels")
    x = np.arange(a.shape[0], dtype=np.int32)
    bars = [
        dict(type="bar", x=x, y=values, name=plain_text(name), marker_color=color, textposition="outside",
             text=np.char.mod(f"%.{decimals}f", values), hovertemplate=f"%{{y:.{decimals + 2}f}}<extra></extra>")
        for values, name, color in ((a, names[0], colors[0]), (b, names[1], colors[1]))
    ]
    return styled_figure(
        bars,
        title,
        height=380,
        barmode="group",
        legend=legend_below(-0.3),
        xaxis=token_axis(ticks, x_title, tickangle=tick_angle(ticks)),
        yaxis=titled(y_title, **(dict(range=[0, 1.15]) if unit_range else {})),
    )
