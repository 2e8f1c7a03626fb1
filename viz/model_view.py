"""The model view: every head of every layer as a small heatmap, layers down, heads across."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from .heatmap import COLORBAR_PX, cell_hovertemplate, clicked_pair, colorbar
from .labels import plain_text
from .style import (
    ATTENTION_COLORSCALE,
    BASE_FONT_PX,
    EDGE_PX,
    HIGHLIGHT_COLOR,
    LINE_EM,
    TICK_PAD_PX,
    domains,
    largest_cell,
    paper_label,
    styled_figure,
    text_em,
    title_px,
    token_axis,
)
from .options import Labels, Room, checked
from .validate import as_float32, check_labels

MAX_GRID_CELL_PX = 14  # a small map's cells grow to this and no further: it is an overview, its map opens below
HEAD_GAP_PX, LAYER_GAP_PX = 6, 12  # between the maps of two heads, of two layers
LABEL_PX = int(LINE_EM * BASE_FONT_PX)  # a row of head names above the maps, a column of layer names right of them


def model_view(
    weights,
    labels: Labels,
    *,
    title: str = "",
    layer_label: str = "layer {n}",
    head_label: str = "head {n}",
    selected: tuple[int, int] | None = None,
    click_hint: str | None = None,
    room: Room = Room(),
) -> go.Figure:
    """Grid of (layers, heads, Tq, Tk) attention maps; `selected` (layer, head) gets a frame.

    labels: the queries' and keys' tokens and the axes' titles (Labels), which the maps' hovers show.
    Every map has square cells, the largest (up to MAX_GRID_CELL_PX) with which the grid, its names and colour
    bar fit the room. layer_label / head_label are format strings with {n} (1-based), so the
    caller chooses the language. With click_hint, each map carries an
    invisible point (customdata = [layer, head]) that a click selects, so an
    app can open that map (Plotly heatmaps themselves cannot be selected);
    hovering a map then names it and shows the hint. room.min_font_px: the layer and head names' smallest font.
    """
    w = as_float32(weights, "weights", 4)
    layers, heads, tq, tk = w.shape
    checked(labels, Labels, "labels")
    checked(room, Room, "room")
    query_tokens = check_labels(labels.queries, tq, "labels.queries", "rows (queries)")
    key_tokens = check_labels(labels.keys, tk, "labels.keys", "columns (keys)")
    query_title, key_title, value_label = labels.query_title, labels.key_title, labels.value_label
    if selected is not None and not (0 <= selected[0] < layers and 0 <= selected[1] < heads):
        raise ValueError(f"selected must be (layer, head) within ({layers}, {heads}), got {selected}")

    min_font_px = room.min_font_px
    names = [layer_label.format(n=n + 1) for n in range(layers)]
    cell, label_px, layer_names, upright = _layout(w.shape, title, names, room)
    width, height = _size(w.shape, title, cell, label_px)
    plot_w, plot_h = heads * tk * cell + (heads - 1) * HEAD_GAP_PX, layers * tq * cell + (layers - 1) * LAYER_GAP_PX
    columns = domains(heads, HEAD_GAP_PX / plot_w)
    rows = domains(layers, LAYER_GAP_PX / plot_h)[::-1]  # first layer at the top
    # The grid is laid out by hand in one layout dict, and what every small map's axes share (the token
    # ticks that hovers read) is set once in the template: repeating 40-label tick arrays on 48 axes
    # made the figure ~5× slower to build and 40 % larger.
    x_axis = token_axis(key_tokens, "", showticklabels=False, ticks="", automargin=False)
    y_axis = token_axis(query_tokens, "", reversed_=True, showticklabels=False, ticks="", automargin=False)
    hover = cell_hovertemplate(query_tokens, key_tokens, query_title, key_title, value_label)
    traces, layout = _maps(w, rows, columns, hover, cell, (layer_label, head_label, click_hint))
    head_names = [head_label.format(n=h + 1) for h in range(heads)]
    layer_font = _fitting_font(layer_names, tq * cell, min_font_px) if upright else dict(size=min_font_px)
    head_font = _fitting_font(head_names, tk * cell, min_font_px)
    titles = [paper_label(name, 1, sum(row) / 2, xanchor="left", yanchor="middle", textangle=90 if upright else 0,
                          xshift=2 if upright else TICK_PAD_PX, font=layer_font)
              for name, row in zip(layer_names, rows)]
    titles += [paper_label(name, sum(column) / 2, 1, xanchor="center", yanchor="bottom", font=head_font)
               for name, column in zip(head_names, columns)]
    frame = [dict(type="rect", xref="paper", yref="paper", x0=columns[selected[1]][0], x1=columns[selected[1]][1],
                  y0=rows[selected[0]][0], y1=rows[selected[0]][1], line=dict(color=HIGHLIGHT_COLOR, width=3))
             ] if selected is not None else []
    return styled_figure(
        traces,
        title,
        top=EDGE_PX + LABEL_PX,
        right=label_px + COLORBAR_PX,
        coloraxis=dict(cmin=0.0, cmax=1.0, colorscale=ATTENTION_COLORSCALE,
                       colorbar=colorbar(value_label, plot_h, x=1 + label_px / plot_w)),
        width=width,
        height=height,
        annotations=titles,
        shapes=frame,
        template=dict(layout=dict(xaxis=x_axis, yaxis=y_axis)),
        **layout,
    )


def _size(shape: tuple, title: str, cell: int, label_px: float) -> tuple[float, float]:
    """(width, height) of the whole grid figure of (layers, heads, Tq, Tk) maps with cells `cell` px and a column of
    layer names `label_px` wide."""
    layers, heads, tq, tk = shape
    width = EDGE_PX + heads * tk * cell + (heads - 1) * HEAD_GAP_PX + label_px + COLORBAR_PX
    return width, title_px(title, width) + EDGE_PX + LABEL_PX + layers * tq * cell + (layers - 1) * LAYER_GAP_PX


def _layout(shape: tuple, title: str, names: list[str], room: Room) -> tuple[int, float, list[str], bool]:
    """(cell px, the layer names' column px, the names, whether upright) for a grid of `shape` within `room`: the
    names upright along their rows (LABEL_PX wide), or, where a row is
    shorter than its name, across in a column as wide as the longest (upright they would run into each other:
    "layer layer 2layer 3"), or where the width has no room for that either, the layers' numbers (hovers name
    them)."""
    max_width, max_height, min_font_px = room.max_width, room.max_height, room.min_font_px

    def cell_for(label_px: float) -> int:
        return largest_cell(lambda px: _size(shape, title, px, label_px)[0] <= max_width
                            and _size(shape, title, px, label_px)[1] <= max_height, MAX_GRID_CELL_PX)

    cell, longest_em = cell_for(LABEL_PX), max(text_em(name) for name in names)
    if shape[2] * cell >= longest_em * min_font_px:
        return cell, LABEL_PX, names, True
    across = math.ceil(longest_em * min_font_px) + 2 * TICK_PAD_PX
    cell = cell_for(across)
    if _size(shape, title, cell, across)[0] <= max_width:
        return cell, across, names, False
    return cell, LABEL_PX, [str(n + 1) for n in range(len(names))], False


def _maps(w: np.ndarray, rows: list, columns: list, hover: str, cell: int,
          click: tuple[str, str, str | None]) -> tuple[list[dict], dict]:
    """Each small map's heatmap and, with a click hint (click: layer label, head label, hint), its click target;
    and the axes that place each map in its row and column."""
    layers, heads, tq, tk = w.shape
    layer_label, head_label, click_hint = click
    traces, layout = [], {}  # plain-dict traces: go.Figure validates each once
    for layer, row in enumerate(rows):
        for head, column in enumerate(columns):
            n = layer * heads + head + 1
            suffix = "" if n == 1 else str(n)
            layout[f"xaxis{suffix}"] = {"domain": column, "anchor": f"y{suffix}"}
            layout[f"yaxis{suffix}"] = {"domain": row, "anchor": f"x{suffix}"}
            traces.append(dict(type="heatmap", z=w[layer, head], coloraxis="coloraxis", hovertemplate=hover,
                               name=f"{layer},{head}", xaxis=f"x{suffix}", yaxis=f"y{suffix}"))
            if click_hint is not None:
                name = f"{layer_label.format(n=layer + 1)} · {head_label.format(n=head + 1)}"
                target = _click_target(layer, head, (tk - 1) / 2, (tq - 1) / 2, min(tk, tq) * cell, name,
                                       click_hint)
                traces.append({**target, "xaxis": f"x{suffix}", "yaxis": f"y{suffix}"})
    return traces, layout


def _fitting_font(names: list[str], px: float, min_font_px: int) -> dict:
    """The font in which the longest of `names` fits along a map's px (min_font_px–16 px)."""
    return dict(size=int(np.clip(px / max(text_em(name) for name in names), min_font_px, BASE_FONT_PX)))


def _click_target(layer: int, head: int, x: float, y: float, size_px: float, name: str, hint: str) -> dict:
    """One transparent square covering a small map: hovering names the map, clicking selects it."""
    invisible = dict(marker=dict(opacity=0))
    return dict(
        type="scatter", x=[x], y=[y], mode="markers", customdata=[[layer, head]], showlegend=False,
        marker=dict(symbol="square", size=size_px, color="rgba(0,0,0,0)"),
        selected=invisible, unselected=invisible,
        hovertemplate=f"<b>{plain_text(name)}</b><br>{plain_text(hint)}<extra></extra>",
    )


clicked_map = clicked_pair  # (layer, head) of the small map a click on the grid selected
