"""Figures of attention being learned: a step marked on the training curves, how far attention is from uniform
over training, and the live lab's loss and accuracy."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from .labels import plain_text
from .options import Frame, checked
from .style import (
    CONTAINER_PX,
    D3,
    HIGHLIGHT_COLOR,
    KEY_COLOR,
    NEUTRAL_COLOR,
    QUERY_COLOR,
    VALUE_COLOR,
    BASE_FONT_PX,
    EDGE_PX,
    LEGEND_ROW_PX,
    domains,
    legend_above,
    legend_on_top,
    rebuilt,
    styled_figure,
    text_px,
    titled,
    vline,
    x_labels_band,
    y_labels_band,
)
from .validate import as_float32, check_labels

UNIT_AXIS = dict(range=[0, 1.05], tickvals=[0, 0.25, 0.5, 0.75, 1], tickformat=".0%")  # a share, with room for 100 %


def step_line(x: float, xref: str = "x") -> dict:
    """The replayed step: a dashed line across the plot of axis `xref`, in the colour of what is selected."""
    return vline(float(x), xref, color=HIGHLIGHT_COLOR, dash="dash", width=2)


PLOT_PX = 300  # the lines' plot, its step axis and title, and the figure title: the legend's rows come on top
Y_AXIS_PX = 110  # left of a share's plot: its axis title and "100%" labels, and the edge


def legend_rows(names: Sequence[str], plot_px: float) -> int:
    """Rows a horizontal legend of `names` takes above a plot `plot_px` wide: Plotly gives every entry the widest
    entry's width once the legend wraps, so a narrow column fits fewer per row than legend_px assumes."""
    widest = max(text_px(name, BASE_FONT_PX) for name in names) + 40  # symbol and gaps
    per_row = max(1, int(plot_px // widest))
    return -(-len(names) // per_row)


def marked_at(fig: go.Figure, x: float, xrefs: Sequence[str] = ("x",)) -> go.Figure:
    """A copy of `fig` with a dashed vertical line at data x on each of the x axes `xrefs` (e.g. ("x", "x2")), to show
    where on the curves a replayed moment lies. One constructor call, as styled_figure's."""
    layout = fig.layout.to_plotly_json()
    shapes = [*layout.get("shapes", ()), *(step_line(x, xref) for xref in xrefs)]
    return rebuilt(fig, {**layout, "shapes": shapes})


def share_figure(steps, shares, names: Sequence[str], *, step: float, frame: Frame, uniform_label: str,
                 highlight: int | None = None, width: int | None = None) -> go.Figure:
    """Lines of a 0–1 share over training steps, one per name (shares: (lines, steps)), with uniform attention's
    share (1) as a reference and the replayed step marked. `highlight`: the index of the line drawn bold;
    `width`: px the figure may take (a page column's), else the container's."""
    title, step_title, share_title = checked(frame, Frame, "frame").title, frame.x_title, frame.y_title
    x = as_float32(steps, "steps", 1)
    y = as_float32(shares, "shares", 2)
    if y.shape[1] != x.shape[0]:
        raise ValueError(f"shares needs one column per step: {x.shape[0]} steps, got shape {y.shape}")
    names = check_labels(names, y.shape[0], "names", "lines")
    lines = [
        dict(type="scatter", x=x, y=row, mode="lines+markers", name=plain_text(name),
             line=dict(color=HIGHLIGHT_COLOR if i == highlight else D3[(i + 1) % len(D3)],
                       width=4 if i == highlight else 2),
             hovertemplate=f"{plain_text(name)}<br>%{{x:,.0f}}: <b>%{{y:.1%}}</b><extra></extra>")
        for i, (name, row) in enumerate(zip(names, y))
    ]
    uniform = dict(type="scatter", x=[x.min(), x.max()] if x.size else [], y=[1, 1], mode="lines",
                   name=plain_text(uniform_label), line=dict(color=NEUTRAL_COLOR, dash="dot"), hoverinfo="skip")
    top = EDGE_PX + LEGEND_ROW_PX * legend_rows([uniform_label, *names], (width or CONTAINER_PX) - Y_AXIS_PX)
    return styled_figure(
        [uniform, *lines],
        title,
        height=PLOT_PX + top,
        width=width,
        legend=legend_above(),
        top=top,
        left=y_labels_band("100%", share_title),
        bottom=x_labels_band(step_title),
        shapes=[step_line(step)],
        xaxis=titled(step_title),
        yaxis=titled(share_title, **UNIT_AXIS),
    )


def lab_curves_figure(steps, losses, eval_steps, exact, per_token, *, max_steps: int, frame: Frame,
                      labels: Sequence[str]) -> go.Figure:
    """Left: training loss per step. Right: held-out accuracy (exact sequences, per token) at each evaluation.

    Both x axes run to `max_steps`, so a run's curves grow into a fixed frame while it trains.
    labels: (loss, exact, per token).
    """
    title, step_title, loss_title, accuracy_title = checked(frame, Frame, "frame").title, frame.x_title, frame.y_title, frame.y2_title
    s, loss = as_float32(steps, "steps", 1), as_float32(losses, "losses", 1)
    e, ex, pt = (as_float32(a, n, 1) for a, n in ((eval_steps, "eval_steps"), (exact, "exact"), (per_token, "per_token")))
    if s.shape != loss.shape or not e.shape == ex.shape == pt.shape:
        raise ValueError("steps/losses and eval_steps/exact/per_token must pair up")
    if len(labels) != 3:
        raise ValueError("labels: loss, exact, per token")
    curves = [
        dict(type="scatter", x=s, y=loss, mode="lines", name=plain_text(labels[0]), line=dict(color=QUERY_COLOR),
             xaxis="x", yaxis="y"),
        dict(type="scatter", x=e, y=ex, mode="lines+markers", name=plain_text(labels[1]), line=dict(color=KEY_COLOR),
             xaxis="x2", yaxis="y2"),
        dict(type="scatter", x=e, y=pt, mode="lines+markers", name=plain_text(labels[2]), line=dict(color=VALUE_COLOR),
             xaxis="x2", yaxis="y2"),
    ]
    left, right = domains(2, 0.14)
    span = [0, max(max_steps, 1)]
    top = max(float(loss.max()) if loss.size else 1.0, 0.1) * 1.05
    return styled_figure(
        curves,
        title,
        height=320,
        **legend_on_top(labels),
        xaxis=titled(step_title, domain=left, anchor="y", range=span),
        yaxis=titled(loss_title, anchor="x", range=[0, top]),
        xaxis2=titled(step_title, domain=right, anchor="y2", range=span),
        yaxis2=titled(accuracy_title, anchor="x2", **UNIT_AXIS),
    )
