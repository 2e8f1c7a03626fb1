"""What the teaching figures share: checked inputs, escaped labels, a general-purpose matrix heatmap.

Unlike attention maps, teaching matrices hold raw scores (any sign, any size)
and −∞ where a mask hides a key; −∞ is drawn as a grey gap labelled "−∞".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text, token_labels

FONT = "Noto Sans, Noto Sans CJK SC, sans-serif"
GAP_COLOR = "#d9d9d9"
NEG_INF = "−∞"
CELL_TEXT_UP_TO = 14  # print each cell's number for matrices this small
QUERY_COLOR, KEY_COLOR, VALUE_COLOR, OUTPUT_COLOR = "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd"


def values_array(values, name: str, ndim: int, allow_neg_inf: bool = False) -> np.ndarray:
    """`values` as float32 with `ndim` dimensions; NaN and +∞ are refused, −∞ only where masks allow it."""
    try:
        array = np.asarray(values, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric, got {type(values).__name__}: {exc}") from None
    if array.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {array.shape}")
    bad = np.isnan(array) | (array == np.inf) | (~allow_neg_inf & (array == -np.inf))
    if bad.any():
        hint = "only −∞ (masked scores) is allowed" if allow_neg_inf else "pass finite numbers"
        raise ValueError(f"{name} contains NaN or infinite values: {hint}")
    return array


def label_list(labels: Sequence[str], length: int, name: str) -> list[str]:
    """Escaped tick labels, one per row/column."""
    if isinstance(labels, str):
        raise ValueError(f"{name} must be a list of labels, one per position, not one string")
    labels = list(labels)
    if len(labels) != length:
        raise ValueError(f"{name} has {len(labels)} labels for {length} positions: pass one label per position")
    return token_labels([str(x) for x in labels])


def labelled_axis(labels: list[str], title: str, *, reversed_: bool = False, **extra) -> dict:
    """Integer positions 0..n−1 with (already escaped) labels, so repeated tokens keep their own row."""
    n = len(labels)
    axis = dict(
        tickmode="array",
        tickvals=list(range(n)),
        ticktext=labels,
        title=dict(text=plain_text(title)),
        showgrid=False,
        zeroline=False,
        range=[n - 0.5, -0.5] if reversed_ else [-0.5, n - 0.5],
    )
    axis.update(extra)
    return axis


def base_layout(fig: go.Figure, title: str, height: int, **extra) -> go.Figure:
    fig.update_layout(
        template=go.layout.Template(),  # the default template adds ~9 KB to every figure
        title=dict(text=plain_text(title), x=0, xanchor="left"),
        height=height,
        margin=dict(l=10, r=10, t=70 if title else 30, b=10),
        font=dict(family=FONT),
        plot_bgcolor="white",
        **extra,
    )
    return fig


def matrix_heatmap(
    values,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    row_title: str,
    col_title: str,
    title: str = "",
    value_label: str = "",
    zmin: float | None = None,
    zmax: float | None = None,
    colorscale: str = "Blues",
    decimals: int = 2,
    allow_neg_inf: bool = False,
    height: int | None = None,
) -> go.Figure:
    """Rows down, columns across; −∞ cells are grey gaps marked "−∞"."""
    z = values_array(values, "values", 2, allow_neg_inf)
    rows = label_list(row_labels, z.shape[0], "row_labels")
    cols = label_list(col_labels, z.shape[1], "col_labels")
    shown = np.where(np.isneginf(z), np.float32(np.nan), z).astype(np.float32)
    heatmap = go.Heatmap(
        z=shown,
        x=np.arange(z.shape[1], dtype=np.int32),
        y=np.arange(z.shape[0], dtype=np.int32),
        zmin=zmin,
        zmax=zmax,
        colorscale=colorscale,
        colorbar=dict(title=dict(text=plain_text(value_label)), thickness=12),
        hoverongaps=False,
        hovertemplate=(
            f"{plain_text(row_title)}: %{{y}}<br>{plain_text(col_title)}: %{{x}}<br>"
            f"{plain_text(value_label)}: %{{z:.{decimals + 2}f}}<extra></extra>"
        ),
        xgap=1,
        ygap=1,
    )
    fig = go.Figure(heatmap)
    if max(z.shape) <= CELL_TEXT_UP_TO:
        fig.add_trace(_gap_labels(z))
        heatmap.update(texttemplate=f"%{{z:.{decimals}f}}", textfont=dict(size=12))
    px = int(np.clip(520 / max(z.shape[0], 1), 10, 48))
    base_layout(fig, title, height or 140 + z.shape[0] * px)
    fig.update_layout(
        plot_bgcolor=GAP_COLOR,
        xaxis=labelled_axis(cols, col_title, side="top", tickangle=-90 if z.shape[1] > 10 else 0),
        yaxis=labelled_axis(rows, row_title, reversed_=True),
    )
    return fig


def _gap_labels(z: np.ndarray) -> go.Scatter:
    """"−∞" written on the grey gaps (a heatmap prints no text where its value is missing)."""
    rows, cols = np.nonzero(np.isneginf(z))
    return go.Scatter(
        x=cols.astype(np.int32), y=rows.astype(np.int32), mode="text", text=[NEG_INF] * len(rows),
        textfont=dict(size=13, color="#444"), hoverinfo="skip", showlegend=False,
    )
