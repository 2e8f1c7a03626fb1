"""Multi-head split: one projection matrix (tokens × d_model) cut into equal column blocks, one per head."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text
from .teaching_base import base_layout, checked_labels, labelled_axis, values_array


def head_split_figure(matrix, n_heads: int, tokens: Sequence[str], *, title: str, token_title: str,
                      dimension_title: str, head_label: str) -> go.Figure:
    """The (T, d_model) matrix with a line between heads, each block named `head_label` and its number from 1."""
    z = values_array(matrix, "matrix", 2)
    if n_heads < 1 or z.shape[1] % n_heads:
        raise ValueError(f"d_model={z.shape[1]} must split evenly into n_heads={n_heads}")
    labels = checked_labels(tokens, z.shape[0], "tokens")
    width = z.shape[1] // n_heads
    top = float(np.abs(z).max()) or 1.0
    fig = go.Figure(go.Heatmap(
        z=z, x=np.arange(z.shape[1], dtype=np.int32), y=np.arange(z.shape[0], dtype=np.int32), zmin=-top, zmax=top,
        colorscale="RdBu_r", colorbar=dict(thickness=12),
        hovertemplate=f"{plain_text(dimension_title)} %{{x}}<br>%{{z:.3f}}<extra></extra>",
    ))
    for h in range(n_heads):
        if h:
            fig.add_vline(x=h * width - 0.5, line=dict(color="black", width=2))
        fig.add_annotation(x=h * width + (width - 1) / 2, y=1.0, yref="paper", yanchor="bottom", showarrow=False,
                           text=f"{plain_text(head_label)} {h + 1}", font=dict(size=11))
    base_layout(fig, title, max(380, 180 + 34 * z.shape[0]))
    fig.update_layout(yaxis=labelled_axis(labels, token_title, reversed_=True))
    fig.update_xaxes(title=dict(text=plain_text(dimension_title)), showgrid=False)
    return fig
