"""Figures of "Is attention an explanation?": BLEU as heads are knocked out, least important first, with each
removal's paired interval; a per-head number (agreement, BLEU drop) on a layers × heads grid with its colour scale;
one head's map with a gold word alignment marked on it; each head's role on a layers × heads grid."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import plotly.graph_objects as go

import numpy as np

from .heatmap import heatmap_figure
from .labels import plain_text
from .options import ColourScale, Extras, Frame, Labels, Room, checked
from .style import (ATTENTION_COLORSCALE, CONTAINER_PX, D3, EDGE_PX, HIGHLIGHT_COLOR, LEGEND_ROW_PX, hovertemplate,
                    legend_above, styled_figure, titled)
from .teaching_replay import PLOT_PX, Y_AXIS_PX, legend_rows
from .validate import as_float32, check_labels


def pruning_figure(removed, bleu, names: Sequence[str], *, frame: Frame, drop_title: str, intervals=None,
                   width: int | None = None) -> go.Figure:
    """One line per attention kind: BLEU (bleu: (kinds, steps)) after knocking out 0, 1, … heads (removed: (steps,)),
    least important first (Voita et al. 2019's pruning curve). intervals (kinds, steps, 3): each point's BLEU drop
    from the whole model and the drop's 95 % interval (drop, low, high; NaN where there is none, as at 0 removed),
    drawn as an error bar round the point — a drop between low and high is a BLEU between bleu − (high − drop) and
    bleu + (drop − low) — and written in its hover. Exact values on hover.
    frame: the title, the removed heads across and BLEU up."""
    title, removed_title, bleu_title = checked(frame, Frame, "frame").title, frame.x_title, frame.y_title
    x = as_float32(removed, "removed", 1)
    y = as_float32(bleu, "bleu", 2)
    if y.shape[1] != x.shape[0]:
        raise ValueError(f"bleu needs one column per count of removed heads: {x.shape[0]}, got shape {y.shape}")
    names = check_labels(names, y.shape[0], "names", "lines (attention kinds)")
    spans = np.full((*y.shape, 3), np.nan, np.float32) if intervals is None else np.asarray(intervals, np.float32)
    if spans.shape != (*y.shape, 3):
        raise ValueError(f"intervals needs (drop, low, high) for each point: shape {(*y.shape, 3)}, got {spans.shape}")
    lines = [_pruning_line(i, name, x, row, span, removed_title, bleu_title, drop_title)
             for i, (name, row, span) in enumerate(zip(names, y, spans))]
    top = EDGE_PX + LEGEND_ROW_PX * legend_rows(names, (width or CONTAINER_PX) - Y_AXIS_PX)
    return styled_figure(lines, title, height=PLOT_PX + top, width=width, legend=legend_above(), top=top,
                         xaxis=titled(removed_title, dtick=4), yaxis=titled(bleu_title, rangemode="tozero"))


def _pruning_line(i: int, name: str, x, y, span, removed_title: str, bleu_title: str, drop_title: str) -> dict:
    """One kind's curve: its points, each drop's interval as an asymmetric error bar (the drop's high end is the
    BLEU's low end; none where the point has no interval) and, in the hover, the drop and its interval."""
    drop, low, high = span.T
    interval = [f"{d:.2f} ({lo:.2f} – {hi:.2f})" if np.isfinite(d) else "—" for d, lo, hi in span]
    return dict(type="scatter", x=x, y=y, mode="lines+markers", name=plain_text(name),
                line=dict(color=D3[i % len(D3)]), customdata=interval,
                error_y=dict(type="data", symmetric=False, array=np.nan_to_num(drop - low),
                             arrayminus=np.nan_to_num(high - drop), thickness=1, width=3),
                hovertemplate=hovertemplate(("", plain_text(name)), (removed_title, "%{x:.0f}"),
                                            (bleu_title, "%{y:.2f}"), (drop_title, "%{customdata}")))


def head_grid_figure(values, labels: Labels, *, title: str, bound: float, intervals=None, interval_title: str = "",
                     room: Room = Room(CONTAINER_PX, 360)) -> go.Figure:
    """A layers × heads grid of one number per head (agreement ρ, BLEU drop) on a diverging scale from −bound to
    +bound, 0 white: its colour bar and each cell's number always shown (ValueError where the room cannot hold
    both). labels: the axes' titles and the numbers' name; its rows and columns are numbered from 1 (pass
    Labels(None, None, ...)). intervals (layers, heads, 2): each number's 95 % interval, written in its cell's
    hover."""
    z = as_float32(values, "values", 2)
    spans = None if intervals is None else as_float32(intervals, "intervals", 3)
    if spans is not None and spans.shape != (*z.shape, 2):
        raise ValueError(f"intervals needs (low, high) for each head: shape {(*z.shape, 2)}, got {spans.shape}")
    figure = heatmap_figure(z, _numbered(checked(labels, Labels, "labels"), z.shape), title=title,
                            room=checked(room, Room, "room"),
                            scale=ColourScale(-bound, bound, "RdBu_r", decimals=2, compact=True),
                            extras=Extras(customdata=spans, hover_lines=() if spans is None else [
                                (interval_title, "%{customdata[0]:.2f} – %{customdata[1]:.2f}")]))
    heat = figure.data[0]
    if not heat.showscale or not heat.texttemplate:
        raise ValueError(f"a {z.shape[0]}×{z.shape[1]} grid's colour bar and numbers do not fit "
                         f"{room.max_width:.0f}×{room.max_height:.0f} px: give it more room")
    return figure


def _numbered(labels: Labels, shape: tuple[int, int]) -> Labels:
    """`labels` with its rows and columns numbered from 1 (a layers × heads grid's)."""
    return replace(labels, queries=[str(i + 1) for i in range(shape[0])], keys=[str(h + 1) for h in range(shape[1])])


def _link_shapes(links, shape: dict, n_rows: int, n_cols: int, name: str) -> list[dict]:
    """One outline per (source unit, target unit) link around its cell (its column, its row)."""
    bad = sorted((i, j) for i, j in links if not (0 <= i < n_cols and 0 <= j < n_rows))
    if bad:
        raise ValueError(f"{name} links {bad} fall outside the map's {n_cols} columns × {n_rows} rows: "
                         "pass (column, row) pairs, 0-based, of the sentence the map shows")
    return [dict(type=shape["type"], xref="x", yref="y", x0=i - shape["inset"], x1=i + shape["inset"],
                 y0=j - shape["inset"], y1=j + shape["inset"], line=dict(color=HIGHLIGHT_COLOR, width=shape["width"]),
                 layer="above") for i, j in sorted(links)]


SURE_SHAPE = dict(type="rect", inset=0.42, width=3)  # ● a solid outline round the cell
POSSIBLE_SHAPE = dict(type="circle", inset=0.3, width=1.5)  # ○ a thin circle inside it


def gold_links_figure(weights, labels: Labels, sure, possible, *, title: str,
                      room: Room = Room(CONTAINER_PX, 520)) -> go.Figure:
    """A (target units, source units) attention map — a head's weight on each source unit (an English word, its
    tokens summed; or a Chinese character), each row a target unit written (a Chinese character; or an English word,
    its steps averaged) — with a gold alignment drawn on it, in the model's direction: each sure (source unit, target
    unit) link as a solid square outline, each possible one as a thin circle. labels.keys (words) name the columns,
    labels.queries (characters) the rows, whichever language each is. Where attention agrees with the gold, the
    dark cell of a row sits inside a mark."""
    z = as_float32(weights, "weights", 2)
    checked(labels, Labels, "labels")
    rows = check_labels(labels.queries, z.shape[0], "labels.queries", "rows (target units)")
    labels = replace(labels, queries=rows, keys=check_labels(labels.keys, z.shape[1], "labels.keys",
                                                             "columns (source units)"))
    shapes = (_link_shapes(sure, SURE_SHAPE, *z.shape, "sure")
              + _link_shapes(set(possible) - set(sure), POSSIBLE_SHAPE, *z.shape, "possible"))
    return heatmap_figure(z, labels, title=title, room=checked(room, Room, "room"),
                          scale=ColourScale(0.0, 1.0, ATTENTION_COLORSCALE), extras=Extras(x_side="top", shapes=shapes))


def head_roles_figure(values, roles: Sequence[Sequence[str]], *, title: str, row_title: str, col_title: str,
                      value_label: str, max_width: float = CONTAINER_PX, max_height: float = 320) -> go.Figure:
    """A layers × heads grid: each cell's colour and number the statistic that earned the head its role, the
    role's name (already translated) written above the number."""
    z = as_float32(values, "values", 2)
    names = [list(row) for row in roles]
    if [len(row) for row in names] != [z.shape[1]] * z.shape[0]:
        raise ValueError(f"roles needs one name per head: {z.shape[0]} rows of {z.shape[1]}, got "
                         f"{[len(row) for row in names]}")
    notes = [dict(x=h, y=layer, xref="x", yref="y", text=plain_text(name), showarrow=False, yshift=15,
                  font=dict(size=10)) for layer, row in enumerate(names) for h, name in enumerate(row)]
    return heatmap_figure(z, _numbered(Labels(None, None, row_title, col_title, value_label), z.shape), title=title,
                          room=Room(max_width, max_height), scale=ColourScale(0.0, 1.0, ATTENTION_COLORSCALE),
                          extras=Extras(x_side="top", annotations=notes))
