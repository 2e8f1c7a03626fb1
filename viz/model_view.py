"""The model view: every head of every layer as a small heatmap, layers down, heads across."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .heatmap import ATTENTION_COLORSCALE, apply_style, attention_hovertemplate, token_axis
from .labels import plain_text
from .validate import as_float32, check_tokens

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
    query_tokens = check_tokens(query_tokens, tq, "query_tokens", "rows (queries)")
    key_tokens = check_tokens(key_tokens, tk, "key_tokens", "columns (keys)")
    fig = make_subplots(
        rows=layers,
        cols=heads,
        horizontal_spacing=0.012,
        vertical_spacing=0.03,
        column_titles=[plain_text(head_label.format(n=h + 1)) for h in range(heads)],
        row_titles=[plain_text(layer_label.format(n=l + 1)) for l in range(layers)],
    )
    hover = attention_hovertemplate(query_title, key_title, value_label)
    for layer in range(layers):
        for head in range(heads):
            fig.add_trace(
                go.Heatmap(z=w[layer, head], coloraxis="coloraxis", hovertemplate=hover, name=f"{layer},{head}"),
                row=layer + 1,
                col=head + 1,
            )
            if click_hint is not None:
                name = f"{layer_label.format(n=layer + 1)} · {head_label.format(n=head + 1)}"
                fig.add_trace(_click_target(layer, head, (tk - 1) / 2, (tq - 1) / 2, name, click_hint),
                              row=layer + 1, col=head + 1)
    # Tick labels would not fit a small map; the token still shows on hover.
    fig.update_xaxes(token_axis(key_tokens, "", showticklabels=False, ticks=""))
    fig.update_yaxes(token_axis(query_tokens, "", reversed_=True, showticklabels=False, ticks=""))
    if selected is not None:
        layer, head = selected
        if not (0 <= layer < layers and 0 <= head < heads):
            raise ValueError(f"selected must be (layer, head) within ({layers}, {heads}), got {selected}")
        fig.update_xaxes(showline=True, linewidth=3, linecolor="#e4572e", mirror=True, row=layer + 1, col=head + 1)
        fig.update_yaxes(showline=True, linewidth=3, linecolor="#e4572e", mirror=True, row=layer + 1, col=head + 1)
    return apply_style(
        fig,
        title,
        top=40,
        right=40,
        coloraxis=dict(cmin=0.0, cmax=1.0, colorscale=ATTENTION_COLORSCALE,
                       colorbar=dict(title=dict(text=plain_text(value_label)), thickness=14, len=0.6)),
        width=80 + heads * CELL_PX,
        height=(90 if title else 50) + layers * CELL_PX,
    )

def _click_target(layer: int, head: int, x: float, y: float, name: str, hint: str) -> go.Scatter:
    """One transparent square covering a small map: hovering names the map, clicking selects it."""
    invisible = dict(marker=dict(opacity=0))
    return go.Scatter(
        x=[x], y=[y], mode="markers", customdata=[[layer, head]], showlegend=False,
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
