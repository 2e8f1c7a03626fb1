"""Multi-head split: one projection matrix (tokens × d_model) cut into equal column blocks, one per head; and two
heads' attention rows for one query next to their average."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .bars import grouped_bars
from .heatmap import heatmap_figure
from .labels import plain_text
from .style import DIVERGING_COLORSCALE, KEY_COLOR, MAX_HEIGHT_PX, NEUTRAL_COLOR, QUERY_COLOR, vline
from .options import ColourScale, Extras, Frame, Labels, Room
from .validate import as_float32, check_labels


def head_split_figure(matrix, n_heads: int, tokens: Sequence[str], *, title: str, token_title: str,
                      dimension_title: str, head_label: str) -> go.Figure:
    """The (T, d_model) matrix with a line between heads, each block named by `head_label`, a format string
    with {n} (1-based), so the caller's language orders the words ("head {n}", "第 {n} 个头")."""
    z = as_float32(matrix, "matrix", 2)
    if n_heads < 1 or z.shape[1] % n_heads:
        raise ValueError(f"d_model={z.shape[1]} must split evenly into n_heads={n_heads}")
    labels = check_labels(tokens, z.shape[0], "tokens")
    width = z.shape[1] // n_heads
    top = float(np.abs(z).max()) or 1.0
    names = [dict(text=plain_text(head_label.format(n=h + 1)), x=h * width + (width - 1) / 2, y=1.0, yref="paper",
                  yanchor="bottom", showarrow=False, font=dict(size=14)) for h in range(n_heads)]
    return heatmap_figure(
        z, Labels(labels, None, token_title, dimension_title, ""), title=title, row_px=max(34, 220 / z.shape[0]),
        scale=ColourScale(-top, top, DIVERGING_COLORSCALE),
        extras=Extras(shapes=[vline(h * width - 0.5, color="black", width=2) for h in range(1, n_heads)],
                      annotations=names),
    )


def two_heads_figure(key_labels: Sequence[str], first, second, average, *, names: tuple[str, str, str], frame: Frame,
                     max_height: float = MAX_HEIGHT_PX) -> go.Figure:
    """Per key: one head's weight, another head's, and their average (what a single head would need), on 0–1.
    frame: the title, the keys' and the weights' axis titles."""
    return grouped_bars(key_labels, (first, second, average), names=names,
                        colors=(QUERY_COLOR, KEY_COLOR, NEUTRAL_COLOR), frame=frame, unit_range=True, decimals=2,
                        room=Room(max_height=max_height))
