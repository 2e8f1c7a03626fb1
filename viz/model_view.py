"""The model view: every head of every layer as a small heatmap, layers down, heads across."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from .heatmap import cell_hovertemplate
from .labels import plain_text
from .style import ATTENTION_COLORSCALE, HIGHLIGHT_COLOR, TITLE_PX, domains, paper_label, styled_figure, token_axis
from .validate import as_float32, check_labels

CELL_PX = 115  # one small map; the figure grows with the number of heads and layers


def model_view(
    weights,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    *,
    title: str = "",
    query_title: str = "queries",
    key_title: str = "keys",
    value_label: str = "weight",
    layer_label: str = "layer {n}",
    head_label: str = "head {n}",
    selected: tuple[int, int] | None = None,
    click_hint: str | None = None,
) -> go.Figure:
    """Grid of (layers, heads, Tq, Tk) attention maps; `selected` (layer, head) gets a frame.

    layer_label / head_label are format strings with {n} (1-based), so the
    caller chooses the language. With click_hint, each map carries an
    invisible point (customdata = [layer, head]) that a click selects, so an
    app can open that map (Plotly heatmaps themselves cannot be selected);
    hovering a map then names it and shows the hint.
    """
    w = as_float32(weights, "weights", 4)
    layers, heads, tq, tk = w.shape
    query_tokens = check_labels(query_tokens, tq, "query_tokens", "rows (queries)")
    key_tokens = check_labels(key_tokens, tk, "key_tokens", "columns (keys)")
    if selected is not None and not (0 <= selected[0] < layers and 0 <= selected[1] < heads):
        raise ValueError(f"selected must be (layer, head) within ({layers}, {heads}), got {selected}")
    # The grid is laid out by hand in one layout dict, and what every small map's axes share (the token
    # ticks that hovers read) is set once in the template: repeating 40-label tick arrays on 48 axes
    # made the figure ~5× slower to build and 40 % larger.
    columns = domains(heads, 0.012)
    rows = domains(layers, 0.03)[::-1]  # first layer at the top
    x_axis = token_axis(key_tokens, "", showticklabels=False, ticks="")
    y_axis = token_axis(query_tokens, "", reversed_=True, showticklabels=False, ticks="")
    frame = dict(showline=True, linewidth=3, linecolor=HIGHLIGHT_COLOR, mirror=True)
    hover = cell_hovertemplate(query_title, key_title, value_label)
    traces, layout, titles = [], {}, []  # plain-dict traces: go.Figure validates each once
    for layer, row in enumerate(rows):
        for head, column in enumerate(columns):
            n = layer * heads + head + 1
            suffix = "" if n == 1 else str(n)
            extra = frame if selected == (layer, head) else {}
            layout[f"xaxis{suffix}"] = {"domain": column, "anchor": f"y{suffix}", **extra}
            layout[f"yaxis{suffix}"] = {"domain": row, "anchor": f"x{suffix}", **extra}
            traces.append(dict(type="heatmap", z=w[layer, head], coloraxis="coloraxis", hovertemplate=hover,
                               name=f"{layer},{head}", xaxis=f"x{suffix}", yaxis=f"y{suffix}"))
            if click_hint is not None:
                name = f"{layer_label.format(n=layer + 1)} · {head_label.format(n=head + 1)}"
                target = _click_target(layer, head, (tk - 1) / 2, (tq - 1) / 2, name, click_hint)
                traces.append({**target, "xaxis": f"x{suffix}", "yaxis": f"y{suffix}"})
        titles.append(paper_label(layer_label.format(n=layer + 1), 1, sum(row) / 2, xanchor="left", yanchor="middle",
                                  textangle=90))
    titles += [paper_label(head_label.format(n=head + 1), sum(column) / 2, 1, xanchor="center", yanchor="bottom")
               for head, column in enumerate(columns)]
    return styled_figure(
        traces,
        title,
        top=40,
        right=40,
        coloraxis=dict(cmin=0.0, cmax=1.0, colorscale=ATTENTION_COLORSCALE,
                       colorbar=dict(title=dict(text=plain_text(value_label)), thickness=14, len=0.6)),
        width=80 + heads * CELL_PX,
        height=50 + (TITLE_PX if title else 0) + layers * CELL_PX,
        annotations=titles,
        template=dict(layout=dict(xaxis=x_axis, yaxis=y_axis)),
        **layout,
    )

def _click_target(layer: int, head: int, x: float, y: float, name: str, hint: str) -> dict:
    """One transparent square covering a small map: hovering names the map, clicking selects it."""
    invisible = dict(marker=dict(opacity=0))
    return dict(
        type="scatter", x=[x], y=[y], mode="markers", customdata=[[layer, head]], showlegend=False,
        marker=dict(symbol="square", size=CELL_PX - 12, color="rgba(0,0,0,0)"),
        selected=invisible, unselected=invisible,
        hovertemplate=f"<b>{plain_text(name)}</b><br>{plain_text(hint)}<extra></extra>",
    )


def clicked_map(selection_points: list[dict]) -> tuple[int, int] | None:
    """(layer, head) of the map a click on the grid selected, if any."""
    for point in selection_points:
        data = point.get("customdata")
        if data is not None and len(data) == 2:
            return int(data[0]), int(data[1])
    return None
