"""Positional-encoding figures: the PE matrix, chosen dimensions as curves, similarity, the rotation, sizes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .bars import VALUE_AXIS_PX, paired_bars
from .heatmap import heatmap_figure
from .labels import plain_text
from .style import (AXIS_TITLE_PX, BASE_FONT_PX, DIVERGING_COLORSCALE, EDGE_PX, KEY_COLOR, LINE_EM, NEUTRAL_COLOR,
                    QUERY_COLOR, guide_line, legend_on_top, styled_figure, titled, widest_tick, x_labels_band,
                    y_labels_band)
from .options import ColourScale, Extras, Frame, Labels, checked
from .validate import as_float32

PLOT_PX = 300  # height of the plot area of each square-ish figure here


def pe_heatmap(table, *, title: str, position_title: str, dimension_title: str, value_label: str) -> go.Figure:
    """(positions, d_model) PE values from −1 to 1: positions down, dimensions across."""
    z = as_float32(table, "table", 2)
    return heatmap_figure(
        z, Labels(None, None, position_title, dimension_title, value_label), title=title, row_px=PLOT_PX / z.shape[0],
        scale=ColourScale(-1, 1, DIVERGING_COLORSCALE),
    )


def pe_curves(table, dims: Sequence[int], *, title: str, position_title: str, names: Sequence[str]) -> go.Figure:
    """PE value against position for the chosen dimensions; `names` labels each dimension's line."""
    z = as_float32(table, "table", 2)
    dims = [int(d) for d in dims]
    if any(not 0 <= d < z.shape[1] for d in dims):
        raise ValueError(f"dims must be in 0…{z.shape[1] - 1}, got {dims}")
    if len(names) != len(dims):
        raise ValueError(f"one name per dimension: {len(names)} names for {len(dims)} dims")
    pos = np.arange(z.shape[0], dtype=np.int32)
    lines = [dict(type="scatter", x=pos, y=z[:, d], mode="lines", name=plain_text(name),
                  line=dict(dash="solid" if d % 2 == 0 else "dash"))
             for d, name in zip(dims, names)]
    return styled_figure(
        lines,
        title,
        height=360,
        **legend_on_top(names),
        left=y_labels_band(widest_tick(-1.1, 1.1), ""),
        bottom=x_labels_band(position_title),
        xaxis=titled(position_title),
        yaxis=titled("", range=[-1.1, 1.1], zeroline=True, zerolinecolor=NEUTRAL_COLOR),
    )


def similarity_heatmap(sim, *, title: str, query_title: str, key_title: str, value_label: str) -> go.Figure:
    """(positions, positions) PE(a)·PE(b); the paper's table gives bands parallel to the diagonal."""
    z = as_float32(sim, "sim", 2)
    return heatmap_figure(
        z, Labels(None, None, query_title, key_title, value_label), title=title, row_px=PLOT_PX / z.shape[0],
        scale=ColourScale(colorscale="Viridis"),
        extras=Extras(xaxis=dict(constrain="domain"), yaxis=dict(scaleanchor="x")),
    )


def rotation_figure(pair_points, pos: int, k: int, *, frame: Frame, start_label: str, end_label: str,
                    path_label: str) -> go.Figure:
    """One (sin, cos) pair of every position as points on the unit circle; PE(pos) → PE(pos+k) is a turn by kω_i.
    frame: the title, sin across and cos up."""
    title, sin_title, cos_title = checked(frame, Frame, "frame").title, frame.x_title, frame.y_title
    pts = as_float32(pair_points, "pair_points", 2)
    if pts.shape[1] != 2 or not 0 <= pos < pos + k < pts.shape[0]:
        raise ValueError(f"pair_points must be (positions, 2) with pos+k inside it; got {pts.shape}, pos={pos}, k={k}")
    circle = np.linspace(0, 2 * np.pi, 200)
    points = [
        dict(type="scatter", x=np.sin(circle), y=np.cos(circle), mode="lines", line=dict(color="#ccc"),
             hoverinfo="skip", showlegend=False),
        dict(type="scatter", x=pts[:, 0], y=pts[:, 1], mode="markers", marker=dict(size=5, color="#999"),
             name=plain_text(path_label), text=[str(i) for i in range(pts.shape[0])],
             hovertemplate="pos %{text}<extra></extra>"),
        *(dict(type="scatter", x=pts[[i], 0], y=pts[[i], 1], mode="markers+text", marker=dict(size=13, color=color),
               name=plain_text(name), text=[f"pos={i}"], textposition=where)
          for i, color, name, where in ((pos, QUERY_COLOR, start_label, "top center"),
                                        (pos + k, KEY_COLOR, end_label, "bottom center"))),
    ]
    arrow = dict(x=pts[pos + k, 0], y=pts[pos + k, 1], ax=pts[pos, 0], ay=pts[pos, 1], xref="x", yref="y",
                 axref="x", ayref="y", showarrow=True, arrowhead=3, arrowcolor="black")
    unit = dict(range=[-1.3, 1.3], zeroline=True, zerolinecolor="#ddd")
    return styled_figure(
        points,
        title,
        height=460,
        **legend_on_top([path_label, start_label, end_label]),
        annotations=[arrow],
        xaxis=titled(sin_title, constrain="domain", **unit),
        yaxis=titled(cos_title, scaleanchor="x", **unit),
    )


def norms_figure(tokens: Sequence[str], embedding_norms, pe_norms, *, title: str, token_title: str,
                 embedding_label: str, pe_label: str) -> go.Figure:
    """Per label (a token, or a choice of scaling), an embedding's length next to the length of a PE row."""
    return paired_bars(tokens, embedding_norms, pe_norms, names=(embedding_label, pe_label),
                       colors=(QUERY_COLOR, KEY_COLOR), frame=Frame(title, token_title), decimals=2)


def received_attention_figure(received, limit: int, *, title: str, position_title: str, value_title: str,
                              limit_label: str) -> go.Figure:
    """Per source position (the keys), the cross-attention it receives, a dashed line where the positions the model
    was trained on end (between position limit − 1 and limit)."""
    values = as_float32(received, "received", 1)
    bars = dict(type="bar", x=np.arange(values.shape[0], dtype=np.int32), y=values, marker_color=KEY_COLOR,
                hovertemplate="%{x}: %{y:.3f}<extra></extra>")
    return styled_figure(
        [bars],
        title,
        height=PLOT_PX + 30,  # beside its text, all of it on a 1280×800 screen in presentation mode too
        left=VALUE_AXIS_PX,
        bottom=EDGE_PX + AXIS_TITLE_PX + LINE_EM * BASE_FONT_PX,  # the position numbers and the axis title
        showlegend=False,
        **guide_line(limit - 0.5, limit_label),
        xaxis=titled(position_title),
        yaxis=titled(value_title),
    )
