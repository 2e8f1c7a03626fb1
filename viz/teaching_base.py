"""What the teaching figures share: checked inputs, escaped labels, a general-purpose matrix heatmap.

Unlike attention maps, teaching matrices hold raw scores (any sign, any size)
and −∞ where a mask hides a key; −∞ is drawn as a grey gap labelled "−∞".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .heatmap import token_axis
from .labels import plain_text, token_labels
from .validate import as_float32

FONT = "Noto Sans, Noto Sans CJK SC, sans-serif"
GAP_COLOR = "#d9d9d9"
NEG_INF = "−∞"
CELL_TEXT_UP_TO = 14  # print each cell's number for matrices this small
QUERY_COLOR, KEY_COLOR, VALUE_COLOR, OUTPUT_COLOR = "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd"


def values_array(values, name: str, ndim: int, allow_neg_inf: bool = False) -> np.ndarray:
    """`values` as float32 with `ndim` dimensions; NaN and ±∞ are refused, except −∞ (a masked score) when allowed."""
    if not allow_neg_inf:
        return as_float32(values, name, ndim)
    try:
        hidden = np.isneginf(np.asarray(values, dtype=np.float32))
    except (TypeError, ValueError):
        return as_float32(values, name, ndim)  # raises, saying what is wrong
    checked = as_float32(np.where(hidden, 0.0, values), name, ndim)
    return np.where(hidden, np.float32(-np.inf), checked).astype(np.float32)


def checked_labels(labels: Sequence[str], length: int, name: str) -> list[str]:
    """One label per position, as strings (not yet escaped)."""
    if isinstance(labels, str):
        raise ValueError(f"{name} must be a list of labels, one per position, not one string")
    labels = [str(x) for x in labels]
    if len(labels) != length:
        raise ValueError(f"{name} has {len(labels)} labels for {length} positions: pass one label per position")
    return labels


def label_list(labels: Sequence[str], length: int, name: str) -> list[str]:
    """Escaped labels for text and hover (Plotly renders a subset of HTML)."""
    return token_labels(checked_labels(labels, length, name))


def labelled_axis(labels: list[str], title: str, *, reversed_: bool = False, **extra) -> dict:
    """Integer positions 0..n−1 labelled with (unescaped) `labels`, so repeated tokens keep their own row."""
    return token_axis(labels, title, reversed_=reversed_, automargin=True, **extra)


def base_layout(fig: go.Figure, title: str, height: int, **extra) -> go.Figure:
    fig.update_layout(
        template=go.layout.Template(),  # the default template adds ~9 KB to every figure
        title=dict(text=plain_text(title), x=0, xanchor="left", yref="container", y=1, yanchor="top", pad=dict(t=12)),
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
    show_scale: bool = True,
    height: int | None = None,
) -> go.Figure:
    """Rows down, columns across; −∞ cells are grey gaps marked "−∞"."""
    z = values_array(values, "values", 2, allow_neg_inf)
    rows = checked_labels(row_labels, z.shape[0], "row_labels")
    cols = checked_labels(col_labels, z.shape[1], "col_labels")
    shown = np.where(np.isneginf(z), np.float32(np.nan), z).astype(np.float32)
    heatmap = go.Heatmap(
        z=shown,
        x=np.arange(z.shape[1], dtype=np.int32),
        y=np.arange(z.shape[0], dtype=np.int32),
        zmin=zmin,
        zmax=zmax,
        colorscale=colorscale,
        colorbar=dict(title=dict(text=plain_text(value_label)), thickness=12),
        showscale=show_scale,
        hoverongaps=False,
        hovertemplate=(
            f"{plain_text(row_title)}: %{{y}}<br>{plain_text(col_title)}: %{{x}}<br>"
            f"{plain_text(value_label)}: %{{z:.{decimals + 2}f}}<extra></extra>"
        ),
        xgap=1,
        ygap=1,
    )
    small = max(z.shape) <= CELL_TEXT_UP_TO
    if small:
        heatmap.update(texttemplate=f"%{{z:.{decimals}f}}", textfont=dict(size=12))
    fig = go.Figure(heatmap)
    if small:
        fig.add_trace(_gap_labels(z))
    px = int(np.clip(520 / max(z.shape[0], 1), 10, 48))
    base_layout(fig, title, height or 170 + z.shape[0] * px)
    fig.update_layout(
        margin=dict(l=10, r=10, t=110 if title else 60, b=10),
        plot_bgcolor=GAP_COLOR,
        xaxis=labelled_axis(cols, col_title, side="top", tickangle=column_label_angle(cols)),
        yaxis=labelled_axis(rows, row_title, reversed_=True),
    )
    return fig


def column_label_angle(labels: list[str]) -> int:
    """Upright labels while they fit side by side, slanted or vertical once they would overlap."""
    widest = max((len(x) for x in labels), default=0)
    if len(labels) > 10:
        return -90
    return -45 if widest * len(labels) > 40 else 0


def _gap_labels(z: np.ndarray) -> go.Scatter:
    """"−∞" written on the grey gaps (a heatmap prints no text where its value is missing)."""
    rows, cols = np.nonzero(np.isneginf(z))
    return go.Scatter(
        x=cols.astype(np.int32), y=rows.astype(np.int32), mode="text", text=[NEG_INF] * len(rows),
        textfont=dict(size=13, color="#444"), hoverinfo="skip", showlegend=False,
    )


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
    a = values_array(first, "first", 1)
    b = values_array(second, "second", 1)
    if a.shape != b.shape:
        raise ValueError(f"one value of each kind per label: {a.shape} vs {b.shape}")
    ticks = checked_labels(labels, a.shape[0], "labels")
    x = np.arange(a.shape[0], dtype=np.int32)
    fig = go.Figure([
        go.Bar(x=x, y=values, name=plain_text(name), marker_color=color, text=np.char.mod(f"%.{decimals}f", values),
               textposition="outside", hovertemplate=f"%{{y:.{decimals + 2}f}}<extra></extra>")
        for values, name, color in ((a, names[0], colors[0]), (b, names[1], colors[1]))
    ])
    base_layout(fig, title, 380, barmode="group", legend=dict(orientation="h", y=-0.3))
    fig.update_layout(xaxis=labelled_axis(ticks, x_title, tickangle=-60 if len(ticks) > 10 else 0))
    fig.update_yaxes(title=dict(text=plain_text(y_title)))
    if unit_range:
        fig.update_yaxes(range=[0, 1.15])
    return fig
