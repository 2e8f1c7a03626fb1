"""Positional-encoding figures: the PE matrix, chosen dimensions as curves, similarity, the rotation, sizes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text
from .teaching_base import KEY_COLOR, QUERY_COLOR, base_layout, paired_bars, values_array


def pe_heatmap(table, *, title: str, position_title: str, dimension_title: str, value_label: str) -> go.Figure:
    """(positions, d_model) PE values from −1 to 1: positions down, dimensions across."""
    z = values_array(table, "table", 2)
    fig = go.Figure(go.Heatmap(
        z=z, x=np.arange(z.shape[1], dtype=np.int32), y=np.arange(z.shape[0], dtype=np.int32),
        zmin=-1, zmax=1, colorscale="RdBu_r", colorbar=dict(title=dict(text=plain_text(value_label)), thickness=12),
        hovertemplate=(f"{plain_text(position_title)} %{{y}}<br>{plain_text(dimension_title)} %{{x}}<br>"
                       "%{z:.4f}<extra></extra>"),
    ))
    base_layout(fig, title, 460)
    fig.update_xaxes(title=dict(text=plain_text(dimension_title)), showgrid=False)
    fig.update_yaxes(title=dict(text=plain_text(position_title)), autorange="reversed", showgrid=False)
    return fig


def pe_curves(table, dims: Sequence[int], *, title: str, position_title: str, names: Sequence[str]) -> go.Figure:
    """PE value against position for the chosen dimensions; `names` labels each dimension's line."""
    z = values_array(table, "table", 2)
    dims = [int(d) for d in dims]
    if any(not 0 <= d < z.shape[1] for d in dims):
        raise ValueError(f"dims must be in 0…{z.shape[1] - 1}, got {dims}")
    if len(names) != len(dims):
        raise ValueError(f"one name per dimension: {len(names)} names for {len(dims)} dims")
    pos = np.arange(z.shape[0], dtype=np.int32)
    fig = go.Figure([
        go.Scatter(x=pos, y=z[:, d], mode="lines", name=plain_text(name), line=dict(dash="solid" if d % 2 == 0 else "dash"))
        for d, name in zip(dims, names)
    ])
    base_layout(fig, title, 360, legend=dict(orientation="h", y=-0.25))
    fig.update_xaxes(title=dict(text=plain_text(position_title)))
    fig.update_yaxes(range=[-1.1, 1.1], zeroline=True, zerolinecolor="#bbb")
    return fig


def similarity_heatmap(sim, *, title: str, query_title: str, key_title: str, value_label: str) -> go.Figure:
    """(positions, positions) PE(a)·PE(b); the paper's table gives bands parallel to the diagonal."""
    z = values_array(sim, "sim", 2)
    fig = go.Figure(go.Heatmap(
        z=z, x=np.arange(z.shape[1], dtype=np.int32), y=np.arange(z.shape[0], dtype=np.int32), colorscale="Viridis",
        colorbar=dict(title=dict(text=plain_text(value_label)), thickness=12),
        hovertemplate=f"{plain_text(query_title)} %{{y}}<br>{plain_text(key_title)} %{{x}}<br>%{{z:.3f}}<extra></extra>",
    ))
    base_layout(fig, title, 460)
    fig.update_xaxes(title=dict(text=plain_text(key_title)), showgrid=False, constrain="domain")
    fig.update_yaxes(title=dict(text=plain_text(query_title)), autorange="reversed", showgrid=False, scaleanchor="x")
    return fig


def rotation_figure(pair_points, pos: int, k: int, *, title: str, sin_title: str, cos_title: str,
                    start_label: str, end_label: str, path_label: str) -> go.Figure:
    """One (sin, cos) pair of every position as points on the unit circle; PE(pos) → PE(pos+k) is a turn by kω_i."""
    pts = values_array(pair_points, "pair_points", 2)
    if pts.shape[1] != 2 or not 0 <= pos < pos + k < pts.shape[0]:
        raise ValueError(f"pair_points must be (positions, 2) with pos+k inside it; got {pts.shape}, pos={pos}, k={k}")
    circle = np.linspace(0, 2 * np.pi, 200)
    fig = go.Figure([
        go.Scatter(x=np.sin(circle), y=np.cos(circle), mode="lines", line=dict(color="#ccc"), hoverinfo="skip", showlegend=False),
        go.Scatter(x=pts[:, 0], y=pts[:, 1], mode="markers", marker=dict(size=5, color="#999"), name=plain_text(path_label),
                   text=[str(i) for i in range(pts.shape[0])], hovertemplate="pos %{text}<extra></extra>"),
        go.Scatter(x=pts[[pos], 0], y=pts[[pos], 1], mode="markers+text", marker=dict(size=13, color=QUERY_COLOR),
                   name=plain_text(start_label), text=[f"pos={pos}"], textposition="top center"),
        go.Scatter(x=pts[[pos + k], 0], y=pts[[pos + k], 1], mode="markers+text", marker=dict(size=13, color=KEY_COLOR),
                   name=plain_text(end_label), text=[f"pos={pos + k}"], textposition="bottom center"),
    ])
    fig.add_annotation(x=pts[pos + k, 0], y=pts[pos + k, 1], ax=pts[pos, 0], ay=pts[pos, 1], xref="x", yref="y",
                       axref="x", ayref="y", showarrow=True, arrowhead=3, arrowcolor="black")
    base_layout(fig, title, 460, legend=dict(orientation="h", y=-0.15))
    fig.update_xaxes(title=dict(text=plain_text(sin_title)), range=[-1.3, 1.3], zeroline=True, zerolinecolor="#ddd",
                     constrain="domain")
    fig.update_yaxes(title=dict(text=plain_text(cos_title)), range=[-1.3, 1.3], scaleanchor="x", zeroline=True,
                     zerolinecolor="#ddd")
    return fig


def norms_figure(tokens: Sequence[str], embedding_norms, pe_norms, *, title: str, token_title: str,
                 embedding_label: str, pe_label: str) -> go.Figure:
    """Per token, the length of its √d_model-scaled embedding next to the length of its position's PE."""
    return paired_bars(tokens, embedding_norms, pe_norms, names=(embedding_label, pe_label),
                       colors=(QUERY_COLOR, KEY_COLOR), title=title, x_title=token_title, decimals=2)
