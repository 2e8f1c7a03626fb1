"""Figures of activation patching and the logit lens: grids of normalised effects (layers × heads per attention
kind, layer × position per residual stream), diverging colours centred at 0 with each cell's number written in it,
and the logit lens's steps × layers grid of top tokens. Plain Plotly: no Streamlit, no model.

A cell carries its (panel, row, column) as customdata, so a page reads a click with `clicked_cell`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text
from .options import Labels
from .style import (ATTENTION_COLORSCALE, BASE_FONT_PX, CELL_TEXT_PX, DIVERGING_COLORSCALE, EDGE_PX, MIN_FONT_PX,
                    NOTE_COLOR, styled_figure, text_px, title_px)

CELL_PX = 24  # a grid row's height: the number in it at 14 px with room above and below (three grids on a screen)
PANEL_TITLE_PX = 26  # a panel's name (15 px) above it
X_TICKS_PX = 30  # one line of column labels under a panel
PANEL_GAP_PX = 8  # under a grid whose column labels the next one's stand for
X_TITLE_PX = 22  # an x axis's title under its labels, at 13 px
Y_TICKS_PX = 130  # the left margin: the widest row label ("decoder self L3", "embeddings")
BAR_PX = 90  # the colour bar and its numbers on the right
LENS_BOTTOM_PX = 70  # under the lens grid: its column labels and the x title under them (Plotly grows a smaller one)


@dataclass(frozen=True)
class Panel:
    """One grid of a figure: its name above it, its values (rows, columns; NaN where nothing was measured), its rows'
    and columns' labels and what the columns are (the x axis's title)."""

    name: str
    values: np.ndarray
    rows: Sequence[str]
    columns: Sequence[str]
    x_title: str
    hovers: Sequence[Sequence[str]] | None = None  # each cell's own hover text (rows × columns); None: the figure's


def _cell_texts(values: np.ndarray) -> list[list[str]]:
    return [["" if math.isnan(v) else f"{v:.2f}".replace("-0.00", "0.00") for v in row] for row in values]


def _value(v: float) -> str:
    return "–" if math.isnan(v) else f"{v:.3f}"


def _scale_limit(panels: Sequence[Panel]) -> float:
    """The colour bar's half range: 1 (the clean answer restored) unless an effect goes beyond it."""
    found = [float(np.nanmax(np.abs(p.values))) for p in panels if np.isfinite(p.values).any()]
    return max([1.0, *found])


def _cell_font(panels: Sequence[Panel], plot_px: float) -> int:
    """The numbers' size: 14 px where the narrowest panel's cells hold "-0.00", smaller (never below 11) else."""
    cell = min(plot_px / max(1, p.values.shape[1]) for p in panels)
    for size in range(CELL_TEXT_PX, MIN_FONT_PX - 1, -1):
        if text_px("-0.00", size) <= cell - 4:
            return size
    return MIN_FONT_PX


def effect_panels(panels: Sequence[Panel], *, title: str, colour_title: str, hover: str, width: int = 820,
                  text_on: bool = True) -> go.Figure:
    """Grids of normalised effects stacked top to bottom, one shared diverging colour bar centred at 0 (white = no
    effect, red = towards the clean answer, blue = away from it). `hover` names a cell's row, column and value:
    a format with {row}, {column} and {value}, for the panels that bring no hover texts of their own."""
    limit = _scale_limit(panels)
    heights = [len(p.rows) * CELL_PX for p in panels]
    # an x title under a panel whose columns differ from the next one's (every panel's columns, for positions)
    titled = [i == len(panels) - 1 or p.x_title != panels[i + 1].x_title for i, p in enumerate(panels)]
    # column labels too only there: stacked grids of the same columns (heads) share the last one's
    bands = [PANEL_TITLE_PX + h + (X_TICKS_PX + X_TITLE_PX if shown else PANEL_GAP_PX)
             for h, shown in zip(heights, titled)]
    plot_px = sum(bands)
    plot_width = width - Y_TICKS_PX - BAR_PX - EDGE_PX
    font = _cell_font(panels, plot_width)
    traces, layout, annotations = [], {}, []
    top = 0
    for i, (panel, height, band) in enumerate(zip(panels, heights, bands)):
        suffix = "" if i == 0 else str(i + 1)
        y0 = 1 - (top + PANEL_TITLE_PX + height) / plot_px
        y1 = 1 - (top + PANEL_TITLE_PX) / plot_px
        top += band
        rows, cols = panel.values.shape
        traces.append(go.Heatmap(
            z=panel.values, x=list(range(cols)), y=list(range(rows)), coloraxis="coloraxis",
            text=_cell_texts(panel.values) if text_on else None, texttemplate="%{text}" if text_on else None,
            textfont=dict(size=font), xgap=1, ygap=1, xaxis=f"x{suffix}", yaxis=f"y{suffix}",
            hoverinfo="skip"))
        traces.append(_click_targets(panel, i, suffix, hover, min(plot_width / cols, CELL_PX)))
        layout[f"xaxis{suffix}"] = dict(
            domain=[0, 1], anchor=f"y{suffix}", tickmode="array", tickvals=list(range(cols)),
            ticktext=[plain_text(c) for c in panel.columns], showgrid=False, zeroline=False,
            showticklabels=titled[i], ticks="outside" if titled[i] else "", range=[-0.5, cols - 0.5],
            fixedrange=True)
        layout[f"yaxis{suffix}"] = dict(
            domain=[max(0.0, y0), min(1.0, y1)], anchor=f"x{suffix}", tickmode="array", tickvals=list(range(rows)),
            ticktext=[plain_text(r) for r in panel.rows], range=[rows - 0.5, -0.5], showgrid=False, zeroline=False,
            fixedrange=True)  # fixed ranges: the click targets' markers would pad an automatic one
        annotations.append(dict(text=plain_text(panel.name), x=0, xref="paper", xanchor="left",
                                y=y1, yref="paper", yanchor="bottom", showarrow=False,
                                font=dict(size=BASE_FONT_PX - 1)))
        if titled[i]:  # an annotation, not the axis's title: Plotly sets that on the labels of a stacked grid
            annotations.append(dict(text=plain_text(panel.x_title), x=0.5, xref="paper", xanchor="center",
                                    y=y0 - (X_TICKS_PX + 4) / plot_px, yref="paper", yanchor="top", showarrow=False,
                                    font=dict(size=13, color=NOTE_COLOR)))
    coloraxis = dict(colorscale=DIVERGING_COLORSCALE, cmin=-limit, cmax=limit, cmid=0,
                     colorbar=dict(title=dict(text=colour_title, side="right"), thickness=14, len=1, y=0.5,
                                   yanchor="middle"))
    # the plot exactly plot_px tall (the title's room above it, EDGE_PX under it): the panels' domains and the x
    # titles' offsets are fractions of plot_px, so a smaller plot would set each title closer to its labels
    return styled_figure(traces, title, width=width, height=plot_px + title_px(title, width) + EDGE_PX, top=0,
                         left=Y_TICKS_PX, right=BAR_PX, bottom=EDGE_PX, coloraxis=coloraxis,
                         annotations=annotations, **layout)


def _click_targets(panel: Panel, index: int, suffix: str, hover: str, size_px: float) -> go.Scatter:
    """A transparent square over each cell: hovering names the cell and its value, clicking selects it (Plotly
    heatmaps themselves cannot be selected). customdata: (panel, row, column)."""
    rows, cols = panel.values.shape
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    invisible = dict(marker=dict(opacity=0))
    return go.Scatter(
        x=[c for _, c in cells], y=[r for r, _ in cells], mode="markers", xaxis=f"x{suffix}", yaxis=f"y{suffix}",
        marker=dict(symbol="square", size=size_px, color="rgba(0,0,0,0)"), selected=invisible,
        unselected=invisible, showlegend=False, customdata=[[index, r, c] for r, c in cells],
        hovertext=[plain_text(panel.hovers[r][c] if panel.hovers is not None else
                              hover.format(row=panel.rows[r], column=panel.columns[c],
                                           value=_value(float(panel.values[r, c])))) for r, c in cells],
        hovertemplate="%{hovertext}<extra></extra>")


def clicked_cell(selection_points: list[dict]) -> tuple[int, int, int] | None:
    """The (panel, row, column) of the cell a click on an effect_panels figure selected, if any."""
    for point in selection_points:
        data = point.get("customdata")
        if data is not None and len(data) == 3:
            return int(data[0]), int(data[1]), int(data[2])
    return None


def lens_grid(tokens: Sequence[Sequence[str]], probs: np.ndarray, labels: Labels, *, title: str,
              width: int = 820) -> go.Figure:
    """The logit lens: a row per output step (labels.queries: the token the model wrote), a column per decoder
    layer (labels.keys), each cell the layer's top token and its probability, coloured by that probability."""
    rows, columns = labels.queries, labels.keys
    probs = np.asarray(probs, dtype=float)
    texts = [[f"{plain_text(tok)} {p:.2f}" for tok, p in zip(row, prow)] for row, prow in zip(tokens, probs)]
    n_rows, n_cols = probs.shape
    plot_width = width - Y_TICKS_PX - BAR_PX - EDGE_PX
    widest = max((text_px(x, CELL_TEXT_PX) for row in texts for x in row), default=0)
    font = CELL_TEXT_PX if widest <= plot_width / n_cols - 6 else MIN_FONT_PX
    trace = go.Heatmap(z=probs, x=list(range(n_cols)), y=list(range(n_rows)), text=texts, texttemplate="%{text}",
                       textfont=dict(size=font), colorscale=ATTENTION_COLORSCALE, zmin=0, zmax=1, xgap=1, ygap=1,
                       colorbar=dict(title=dict(text=labels.value_label, side="right"), thickness=14),
                       hovertemplate="%{text}<extra></extra>")
    # the plot as tall as its rows lay out (the title's room above it), and at least as tall as the rotated y title:
    # beside a short sentence's few rows it would run up into the figure's title
    plot_px = max(n_rows * CELL_PX, math.ceil(text_px(labels.query_title, BASE_FONT_PX)) + 8)
    height = plot_px + title_px(title, width) + LENS_BOTTOM_PX
    return styled_figure([trace], title, width=width, height=height, top=0, left=Y_TICKS_PX, right=BAR_PX,
                         bottom=LENS_BOTTOM_PX,
                         xaxis=dict(tickmode="array", tickvals=list(range(n_cols)),
                                    ticktext=[plain_text(c) for c in columns],
                                    title=dict(text=labels.key_title, standoff=4), side="bottom", fixedrange=True),
                         yaxis=dict(tickmode="array", tickvals=list(range(n_rows)),
                                    ticktext=[plain_text(r) for r in rows], autorange="reversed",
                                    title=dict(text=labels.query_title, standoff=4), fixedrange=True))


def attribution_bars(tokens: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], *, title: str,
                     x_title: str, y_title: str, width: int = 820, height: int = 320) -> go.Figure:
    """Source tokens' attributions as grouped bars, one colour per series (name, values): e.g. contrastive beside
    ordinary, each as a share of its own total |attribution| so the two read on one axis."""
    x = list(range(len(tokens)))
    traces = [go.Bar(x=x, y=list(values), name=name, hovertemplate="%{y:.2f}<extra>" + plain_text(name) + "</extra>")
              for name, values in series]
    return styled_figure(traces, title, width=width, height=height, left=60, bottom=60, barmode="group",
                         xaxis=dict(tickmode="array", tickvals=x, ticktext=[plain_text(t) for t in tokens],
                                    title=dict(text=x_title, standoff=4), fixedrange=True),
                         yaxis=dict(title=dict(text=y_title), zeroline=True, zerolinecolor=NOTE_COLOR,
                                    fixedrange=True))
