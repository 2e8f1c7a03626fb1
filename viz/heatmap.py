"""One attention map as a heatmap: queries down, keys across, weights on a fixed 0–1 scale.

Rows and columns are plotted at integer positions with the tokens as tick
text, so a sentence with "the … the" keeps two separate rows. With array
tick text Plotly also uses the token as the hover label of that position.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text, token_labels
from .validate import as_float32, check_tokens

ATTENTION_COLORSCALE = "Blues"  # white = no attention, so a sparse head reads at a glance
MASKED_COLOR = "#d9d9d9"  # masked cells are gaps: the plot background shows through
FONT = "Noto Sans, Noto Sans CJK SC, sans-serif"
VALUES_SHOWN_UP_TO = 12  # print the weight in each cell for matrices this small
MAX_FIGURE_PX = 1400


def cell_px(n: int) -> int:
    """Pixels per row/column: big for short sentences, never so small that labels overlap."""
    return int(np.clip(900 / max(n, 1), 8, 60))


def tick_font_size(n: int) -> int:
    return int(np.clip(cell_px(n) * 0.7, 8, 14))


def tick_angle(tokens: Sequence[str], n_px: float) -> int:
    """Upright labels while they fit side by side in n_px, vertical once they would overlap."""
    needed = sum(len(t) + 1 for t in tokens) * tick_font_size(len(tokens)) * 0.62
    return 0 if needed <= n_px else -90


def styled_figure(data, title: str, *, top: int = 20, right: int = 10, template: dict | None = None, **layout) -> go.Figure:
    """A figure of `data` (traces) with the look every figure shares: title on the left, white plot, the app's font.

    top: the top margin without a title (a title adds 30 px). Data and layout go
    into one constructor call: adding traces or updating the layout afterwards
    re-validates the whole figure each time (3–5× slower for the head view's
    40 traces). The template is empty because Plotly's default one adds ~9 KB
    to every figure; the app's theme styles the rest. A figure with many axes
    passes what they share as `template` (e.g. template=dict(layout=dict(xaxis=…))),
    which Plotly applies to every x axis, instead of repeating it per axis.
    """
    layout.setdefault("plot_bgcolor", "white")
    style = dict(
        template=template or go.layout.Template(),
        title=dict(text=plain_text(title), x=0, xanchor="left"),
        margin=dict(l=10, r=right, t=top + (30 if title else 0), b=10),
        font=dict(family=FONT),
    )
    return go.Figure(data=list(data), layout={**style, **layout})


def token_axis(tokens: Sequence[str], title: str, *, reversed_: bool = False, **extra) -> dict:
    """Axis settings that label integer positions 0..n-1 with the tokens."""
    n = len(tokens)
    axis = dict(
        tickmode="array",
        tickvals=list(range(n)),
        ticktext=token_labels(tokens),
        tickfont=dict(size=tick_font_size(n), family=FONT),
        title=dict(text=plain_text(title)),
        showgrid=False,
        zeroline=False,
        automargin=True,
        range=[n - 0.5, -0.5] if reversed_ else [-0.5, n - 0.5],
    )
    axis.update(extra)
    return axis


def attention_hovertemplate(query_title: str, key_title: str, value_label: str) -> str:
    return (
        f"{plain_text(query_title)}: <b>%{{y}}</b><br>{plain_text(key_title)}: <b>%{{x}}</b><br>"
        f"{plain_text(value_label)}: <b>%{{z:.4f}}</b><extra></extra>"
    )


def attention_heatmap(
    weights,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    *,
    title: str = "",
    query_title: str = "queries",
    key_title: str = "keys",
    value_label: str = "weight",
    mask=None,
    masked_label: str = "masked",
) -> go.Figure:
    """Heatmap of one (Tq, Tk) attention matrix.

    mask: optional (Tq, Tk) bool, True = may attend; masked cells are drawn
    grey and carry no hover, so a causal mask is visible as a shape.
    """
    z = as_float32(weights, "weights", 2)
    tq, tk = z.shape
    query_tokens = check_tokens(query_tokens, tq, "query_tokens", "rows (queries)")
    key_tokens = check_tokens(key_tokens, tk, "key_tokens", "columns (keys)")
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != z.shape:
            raise ValueError(f"mask must have the weights' shape {z.shape}, got {mask.shape}")
        z = np.where(mask, z, np.float32(np.nan)).astype(np.float32)
    # Square cells when both axes are sentences of similar length; a short axis gets wider cells.
    cell_w, cell_h = cell_px(tk), min(cell_px(tq), max(cell_px(tk), 28))
    width = min(MAX_FIGURE_PX, 200 + tk * cell_w)
    height = min(2 * MAX_FIGURE_PX, 160 + tq * cell_h)
    heatmap = go.Heatmap(
        z=z,
        x=np.arange(tk, dtype=np.int32),
        y=np.arange(tq, dtype=np.int32),
        zmin=0.0,
        zmax=1.0,
        colorscale=ATTENTION_COLORSCALE,
        colorbar=dict(title=dict(text=plain_text(value_label)), thickness=14, len=min(1.0, 300 / (tq * cell_h))),
        showscale=tq > 1,  # a single row is too short for a readable colour bar; its cells carry the values
        hoverongaps=False,
        hovertemplate=attention_hovertemplate(query_title, key_title, value_label),
        xgap=1,
        ygap=1,
    )
    if max(tq, tk) <= VALUES_SHOWN_UP_TO:
        heatmap.update(texttemplate="%{z:.2f}", textfont=dict(size=11))
    fig = styled_figure(
        [heatmap],
        title,
        width=width,
        height=height,
        plot_bgcolor=MASKED_COLOR if mask is not None else "white",
        xaxis=token_axis(key_tokens, key_title, tickangle=tick_angle(key_tokens, tk * cell_w)),
        yaxis=token_axis(query_tokens, query_title, reversed_=True),
    )
    if mask is not None and not mask.all():
        fig.add_annotation(
            text=plain_text(masked_label), showarrow=False, xref="paper", yref="paper", x=1, y=1,
            xanchor="right", yanchor="bottom", font=dict(color="#555", size=12), bgcolor=MASKED_COLOR,
        )
    return fig
