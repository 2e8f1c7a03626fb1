"""Figures of "Is attention an explanation?": BLEU as heads are knocked out, least important first."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from .labels import plain_text
from .style import CONTAINER_PX, D3, EDGE_PX, LEGEND_ROW_PX, legend_above, styled_figure, titled
from .teaching_learning import PLOT_PX, Y_AXIS_PX, legend_rows
from .validate import as_float32, check_labels


def pruning_figure(removed, bleu, names: Sequence[str], *, title: str, removed_title: str, bleu_title: str,
                   width: int | None = None) -> go.Figure:
    """One line per attention kind: BLEU (bleu: (kinds, steps)) after knocking out 0, 1, … heads (removed: (steps,)),
    least important first (Voita et al. 2019's pruning curve). Exact values on hover."""
    x = as_float32(removed, "removed", 1)
    y = as_float32(bleu, "bleu", 2)
    if y.shape[1] != x.shape[0]:
        raise ValueError(f"bleu needs one column per count of removed heads: {x.shape[0]}, got shape {y.shape}")
    names = check_labels(names, y.shape[0], "names", "lines (attention kinds)")
    lines = [
        dict(type="scatter", x=x, y=row, mode="lines+markers", name=plain_text(name), line=dict(color=D3[i % len(D3)]),
             hovertemplate=f"{plain_text(name)}<br>{plain_text(removed_title)}: %{{x:.0f}}<br>"
                           f"{plain_text(bleu_title)}: <b>%{{y:.2f}}</b><extra></extra>")
        for i, (name, row) in enumerate(zip(names, y))
    ]
    top = EDGE_PX + LEGEND_ROW_PX * legend_rows(names, (width or CONTAINER_PX) - Y_AXIS_PX)
    return styled_figure(lines, title, height=PLOT_PX + top, width=width, legend=legend_above(), top=top,
                         xaxis=titled(removed_title, dtick=4), yaxis=titled(bleu_title, rangemode="tozero"))
