"""Figures of a head's queries and keys over a corpus (AttentionViz, Yeh et al. 2023): one head's projection as a
scatter of points, and every head of a kind as small projections side by side (the matrix view). Plain Plotly: the
points (2-D, already projected), their roles, positions, tokens and hover lines in; a figure out.

Every point carries its index (one head's picture) or its panel (the matrix view) as customdata, so a page reads a
click with `clicked_point` / `clicked_panel`. Axes have no numbers: a projection's coordinates mean nothing alone,
only which points lie near which.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text
from .style import (BASE_FONT_PX, D3, EDGE_PX, KEY_COLOR, LEGEND_ROW_PX, MASKED_COLOR, MIN_FONT_PX, QUERY_COLOR,
                    domains, styled_figure, title_px)
from .validate import as_float32, check_labels

POSITION_COLORSCALE = "Viridis"  # dark: a sentence's first token, yellow: its last
TOKEN_COLOURS = 8  # colour by token: the commonest this many tokens get a colour each, the others grey
POINT_PX, PANEL_POINT_PX = 6, 3
QUERY_SYMBOL, KEY_SYMBOL = "circle", "diamond"
COLOURS = ("role", "position", "token")
PANEL_GAP = 0.02  # between two small projections, a share of the plot's width
PANEL_NAME_PX = 30  # a small projection's name above it: two lines (the head, its correlation) at PANEL_FONT_PX
PANEL_FONT_PX = 12
COLORBAR_ROOM_PX = 70


@dataclass(frozen=True)
class PointSet:
    """Points of one head's picture: `xy` (n, 2), whether each is a query (else a key), its position in its side of
    its sentence from 0 (first) to 1 (last), its token as shown, and its hover text (plain: escaped here)."""

    xy: np.ndarray
    query: np.ndarray
    position: np.ndarray
    tokens: Sequence[str]
    hovers: Sequence[str]


@dataclass(frozen=True)
class Names:
    """The figure's words, in the page's language."""

    query: str
    key: str
    position: str  # the colour bar's title
    other: str  # the tokens left grey when coloured by token
    x: str  # the axes' titles ("PC 1", "t-SNE 1", …)
    y: str


def checked_points(points: PointSet, name: str = "points") -> PointSet:
    """`points` with every array the length of its xy, as arrays; ValueError saying which does not match."""
    xy = as_float32(points.xy, f"{name}.xy", 2)
    if xy.shape[1] != 2:
        raise ValueError(f"{name}.xy must have 2 columns (x, y), got shape {xy.shape}: pass the projected points")
    n = len(xy)
    query = np.asarray(points.query, dtype=bool)
    position = as_float32(points.position, f"{name}.position", 1)
    if query.shape != (n,) or position.shape != (n,):
        raise ValueError(f"{name}.query and {name}.position need one value per point ({n}), got "
                         f"{query.shape} and {position.shape}")
    tokens = check_labels(points.tokens, n, f"{name}.tokens", "points")
    hovers = check_labels(points.hovers, n, f"{name}.hovers", "points")
    return PointSet(xy, query, position, tokens, hovers)


def _marker(colour: str, points: PointSet, chosen: np.ndarray, size: int, colorbar: dict | None) -> dict:
    symbols = np.where(points.query[chosen], QUERY_SYMBOL, KEY_SYMBOL)
    if colour == "position":
        return dict(size=size, symbol=symbols, color=points.position[chosen], colorscale=POSITION_COLORSCALE,
                    cmin=0, cmax=1, showscale=colorbar is not None, colorbar=colorbar or {}, opacity=0.75)
    return dict(size=size, symbol=symbols, opacity=0.7)


def _groups(colour: str, points: PointSet, names: Names) -> list[tuple[str, str | None, np.ndarray]]:
    """(legend name, colour, which points) per trace: queries and keys, or the commonest tokens and the rest."""
    if colour == "token":
        common = [token for token, _ in Counter(points.tokens).most_common(TOKEN_COLOURS)]
        tokens = np.asarray(points.tokens, dtype=object)
        groups = [(token, D3[i], tokens == token) for i, token in enumerate(common)]
        rest = ~np.isin(tokens, common)
        return groups + ([(names.other, MASKED_COLOR, rest)] if rest.any() else [])
    return [(names.query, QUERY_COLOR, points.query), (names.key, KEY_COLOR, ~points.query)]


def _axis(title: str, domain: list[float] | None = None, anchor: str | None = None) -> dict:
    axis = dict(title=dict(text=plain_text(title), font=dict(size=BASE_FONT_PX)) if title else None,
                showticklabels=False, ticks="", showgrid=False, zeroline=False, showline=True, linecolor=MASKED_COLOR,
                mirror=True)
    return axis | ({"domain": domain, "anchor": anchor} if domain is not None else {})


def corpus_scatter(points: PointSet, colour: str, names: Names, *, title: str, width: int,
                   height: int) -> go.Figure:
    """One head's queries (circles) and keys (diamonds) in one picture, coloured by `colour` (COLOURS): queries and
    keys, their position in the sentence, or the commonest tokens. Hover: each point's own text."""
    if colour not in COLOURS:
        raise ValueError(f"colour must be one of {', '.join(COLOURS)}, got {colour!r}")
    points = checked_points(points)
    bar = dict(title=dict(text=plain_text(names.position), side="right"), thickness=14, len=0.8)
    traces = []
    for i, (name, colour_of, chosen) in enumerate(_groups(colour, points, names)):
        index = np.flatnonzero(chosen)
        marker = _marker(colour, points, index, POINT_PX, bar if i == 0 else None)
        if colour != "position":
            marker["color"] = colour_of
        traces.append(dict(type="scatter", mode="markers", name=plain_text(name), x=points.xy[index, 0],
                           y=points.xy[index, 1], customdata=index, marker=marker,
                           hovertext=[plain_text(points.hovers[j]).replace("\n", "<br>") for j in index],
                           hovertemplate="%{hovertext}<extra></extra>"))
    legend_rows = 1 if colour != "token" else 2
    return styled_figure(
        traces, title, width=width, height=height, top=EDGE_PX + legend_rows * LEGEND_ROW_PX,
        right=EDGE_PX + (COLORBAR_ROOM_PX if colour == "position" else 0), bottom=EDGE_PX + 30, left=EDGE_PX + 30,
        xaxis=_axis(names.x), yaxis=_axis(names.y) | {"scaleanchor": "x", "scaleratio": 1},
        hovermode="closest")


def clicked_point(selection_points: list[dict]) -> int | None:
    """The index (into the PointSet) of the first point a click on corpus_scatter selected, None if none."""
    for point in selection_points or []:
        data = point.get("customdata")
        if data is not None:
            return int(data[0] if isinstance(data, (list, tuple)) else data)
    return None


def corpus_matrix(panels: Sequence[PointSet], panel_names: Sequence[str], columns: int, colour: str,
                  names: Names, *, title: str, width: int, height: int) -> go.Figure:
    """Small projections side by side, `columns` to a row (a layer a row: heads across), each named above it;
    coloured by queries and keys or by position (by token is one head's: the matrix falls back to roles)."""
    if not panels:
        raise ValueError("panels is empty: pass one PointSet per head")
    names_ = check_labels(panel_names, len(panels), "panel_names", "panels")
    colour = colour if colour == "position" else "role"
    rows = -(-len(panels) // columns)
    plot_px = height - EDGE_PX * 2 - LEGEND_ROW_PX - title_px(title, width)
    name = PANEL_NAME_PX / max(plot_px, 1)  # the names' band above each row, a share of the plot's height
    xs = domains(columns, PANEL_GAP)
    ys = [[low * (1 - name), high * (1 - name)] for low, high in domains(rows, name)][::-1]  # first layer on top
    bar = dict(title=dict(text=plain_text(names.position), side="right"), thickness=12, len=0.6)
    traces, layout = [], {}
    for p, points in enumerate(panels):
        points = checked_points(points, f"panels[{p}]")
        axis = "" if p == 0 else str(p + 1)
        layout[f"xaxis{axis}"] = _axis("", xs[p % columns], f"y{axis}")
        layout[f"yaxis{axis}"] = _axis("", ys[p // columns], f"x{axis}")
        for g, (name, colour_of, chosen) in enumerate(_groups(colour, points, names)):
            index = np.flatnonzero(chosen)
            marker = _marker(colour, points, index, PANEL_POINT_PX, bar if p == 0 and g == 0 else None)
            if colour != "position":
                marker["color"] = colour_of
            traces.append(dict(type="scatter", mode="markers", name=plain_text(name), legendgroup=name,
                               showlegend=p == 0, x=points.xy[index, 0], y=points.xy[index, 1],
                               xaxis=f"x{axis}", yaxis=f"y{axis}", customdata=np.full(len(index), p), marker=marker,
                               hovertext=[plain_text(points.hovers[j]).replace("\n", "<br>") for j in index],
                               hovertemplate="%{hovertext}<extra></extra>"))
    notes = [dict(text="<br>".join(map(plain_text, name.split("\n"))), x=sum(xs[p % columns]) / 2,
                  y=ys[p // columns][1], xref="paper",
                  yref="paper", xanchor="center", yanchor="bottom", showarrow=False,
                  font=dict(size=max(MIN_FONT_PX, PANEL_FONT_PX))) for p, name in enumerate(names_)]
    return styled_figure(traces, title, width=width, height=height, top=EDGE_PX + LEGEND_ROW_PX,
                         right=EDGE_PX + (COLORBAR_ROOM_PX if colour == "position" else 0), annotations=notes,
                         hovermode="closest", **layout)


def clicked_panel(selection_points: list[dict]) -> int | None:
    """The panel (index into corpus_matrix's panels) a click selected a point of, None if none."""
    return clicked_point(selection_points)
