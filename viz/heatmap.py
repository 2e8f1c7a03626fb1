"""Heatmaps: one builder for every matrix figure, rows down and columns across.

Labelled rows and columns are plotted at integer positions with the labels as
tick text, so a sentence with "the … the" keeps two separate rows. With array
tick text Plotly also uses the label as the hover label of that position.
Hidden cells (where a mask forbids attending, or a score is −∞) are gaps: the
grey plot background shows through them and they carry no hover.

attention_heatmap: attention weights on a fixed 0–1 scale. matrix_heatmap:
the teaching pages' matrices (raw scores of any sign, −∞ where masked).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import NEG_INF, plain_text
from .style import (
    ATTENTION_COLORSCALE,
    MASKED_COLOR,
    MAX_FIGURE_PX,
    NOTE_COLOR,
    cell_px,
    hovertemplate,
    masked_note,
    styled_figure,
    tick_angle,
    titled,
    token_axis,
)
from .validate import as_float32, check_labels

VALUES_SHOWN_UP_TO = 14  # print each cell's number for matrices this small
COLORBAR_PX = 300  # a colour bar no taller than this, so it stays readable beside a long sentence
FRAME_PX = (200, 110)  # width and height a figure adds around its cells: labels, colour bar, title
BOTTOM_AXIS_PX = 50  # and an x axis below the cells (styled_figure adds the room of one on top)


def cell_hovertemplate(row_title: str, col_title: str, value_label: str, decimals: int = 4) -> str:
    """Hover text of one cell: its row, its column (the labels, for labelled axes) and its exact value."""
    return hovertemplate((row_title, "%{y}"), (col_title, "%{x}"), (value_label, f"%{{z:.{decimals}f}}"))


def heatmap_figure(
    z: np.ndarray,
    rows: list[str] | None,
    cols: list[str] | None,
    *,
    title: str,
    row_title: str,
    col_title: str,
    value_label: str,
    row_px: float,
    col_px: float | None = None,
    zmin: float | None = None,
    zmax: float | None = None,
    colorscale=ATTENTION_COLORSCALE,
    decimals: int = 2,
    hidden: np.ndarray | None = None,
    hidden_text: str = "",
    hidden_note: str = "",
    show_scale: bool = True,
    x_side: str = "bottom",
    xaxis: dict | None = None,
    yaxis: dict | None = None,
    shapes: Sequence[dict] = (),
    annotations: Sequence[dict] = (),
) -> go.Figure:
    """The one heatmap builder: a checked float32 (rows, cols) matrix `z`, first row at the top.

    rows / cols: labels (unescaped) of each position, or None for a numbered axis.
    row_px / col_px: pixels per row and column; col_px None leaves the width to the page.
    decimals: of the numbers printed in small matrices; the hover shows two more.
    hidden: bool (rows, cols), True = a gap; in a small matrix `hidden_text` is
    written on each gap, and `hidden_note` at the top right explains them.
    xaxis / yaxis / shapes / annotations: added to what the builder sets.
    """
    n_rows, n_cols = z.shape
    gaps = hidden is not None and bool(hidden.any())
    small = max(z.shape) <= VALUES_SHOWN_UP_TO
    plot_h = n_rows * row_px
    heat = dict(
        type="heatmap",
        z=np.where(hidden, np.float32(np.nan), z).astype(np.float32) if gaps else z,
        x=np.arange(n_cols, dtype=np.int32),
        y=np.arange(n_rows, dtype=np.int32),
        zmin=zmin,
        zmax=zmax,
        colorscale=colorscale,
        colorbar=dict(title=dict(text=plain_text(value_label)), thickness=14, len=min(1.0, COLORBAR_PX / plot_h)),
        showscale=show_scale,
        hoverongaps=False,
        hovertemplate=cell_hovertemplate(row_title, col_title, value_label, decimals + 2),
        xgap=int(cols is not None),  # thin lines between token cells; none between hundreds of numbered ones
        ygap=int(rows is not None),
    )
    if small:
        heat.update(texttemplate=f"%{{z:.{decimals}f}}", textfont=dict(size=12))
    traces = [heat]
    if gaps and small and hidden_text:  # a heatmap prints no text where its value is missing
        r, c = np.nonzero(hidden)
        traces.append(dict(
            type="scatter", x=c.astype(np.int32), y=r.astype(np.int32), mode="text", text=[hidden_text] * len(r),
            textfont=dict(size=13, color=NOTE_COLOR), hoverinfo="skip", showlegend=False,
        ))
    if cols is None:
        x_axis = titled(col_title, showgrid=False, side=x_side)
    else:
        x_axis = token_axis(cols, col_title, side=x_side, tickangle=tick_angle(cols, col_px and n_cols * col_px))
    y_axis = titled(row_title, autorange="reversed", showgrid=False) if rows is None else token_axis(
        rows, row_title, reversed_=True)
    return styled_figure(
        traces,
        title,
        width=None if col_px is None else min(MAX_FIGURE_PX, FRAME_PX[0] + n_cols * col_px),
        height=min(2 * MAX_FIGURE_PX, FRAME_PX[1] + (BOTTOM_AXIS_PX if x_side == "bottom" else 0) + plot_h),
        plot_bgcolor=MASKED_COLOR if gaps else "white",
        xaxis={**x_axis, **(xaxis or {})},
        yaxis={**y_axis, **(yaxis or {})},
        shapes=list(shapes),
        annotations=[*annotations, *([masked_note(hidden_note)] if gaps and hidden_note else [])],
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
    """Heatmap of one (Tq, Tk) attention matrix: queries down, keys across, weights on a fixed 0–1 scale.

    mask: optional (Tq, Tk) bool, True = may attend; masked cells are drawn
    grey and carry no hover, so a causal mask is visible as a shape.
    """
    z = as_float32(weights, "weights", 2)
    tq, tk = z.shape
    query_tokens = check_labels(query_tokens, tq, "query_tokens", "rows (queries)")
    key_tokens = check_labels(key_tokens, tk, "key_tokens", "columns (keys)")
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != z.shape:
            raise ValueError(f"mask must have the weights' shape {z.shape}, got {mask.shape}")
    # Square cells when both axes are sentences of similar length; a short axis gets wider cells.
    cell_w = cell_px(tk)
    return heatmap_figure(
        z, query_tokens, key_tokens, title=title, row_title=query_title, col_title=key_title,
        value_label=value_label, row_px=min(cell_px(tq), max(cell_w, 28)), col_px=cell_w, zmin=0.0, zmax=1.0,
        hidden=None if mask is None else ~mask, hidden_note=masked_label,
        show_scale=tq > 1,  # a single row is too short for a readable colour bar; its cells carry the values
    )


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
    colorscale=ATTENTION_COLORSCALE,
    decimals: int = 2,
    allow_neg_inf: bool = False,
    show_scale: bool = True,
) -> go.Figure:
    """A teaching matrix: rows down, columns across (labelled on top, like a table); −∞ cells are grey gaps marked "−∞"."""
    z = as_float32(values, "values", 2, allow_neg_inf)
    rows = check_labels(row_labels, z.shape[0], "row_labels", "rows")
    cols = check_labels(col_labels, z.shape[1], "col_labels", "columns")
    return heatmap_figure(
        z, rows, cols, title=title, row_title=row_title, col_title=col_title, value_label=value_label,
        row_px=int(np.clip(520 / max(z.shape[0], 1), 10, 48)), zmin=zmin, zmax=zmax, colorscale=colorscale,
        decimals=decimals, hidden=np.isneginf(z), hidden_text=NEG_INF, show_scale=show_scale, x_side="top",
    )
