"""Model anatomy and training figures: parameters per component, FLOPs, learning-rate schedule, curves, label smoothing."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .labels import plain_text
from .teaching_base import (
    KEY_COLOR,
    OUTPUT_COLOR,
    QUERY_COLOR,
    VALUE_COLOR,
    base_layout,
    label_list,
    paired_bars,
    values_array,
)


def horizontal_bars(names: Sequence[str], counts, *, title: str, value_title: str) -> go.Figure:
    """One bar per named part (parameters or FLOPs), largest at the top, exact numbers on hover."""
    values = values_array(counts, "counts", 1)
    labels = label_list(names, values.shape[0], "names")
    order = np.argsort(values, kind="stable")
    fig = go.Figure(go.Bar(
        x=values[order], y=np.arange(len(order), dtype=np.int32), orientation="h", marker_color=QUERY_COLOR,
        text=[f"{int(round(float(v))):,}" for v in values[order]], textposition="outside",
        customdata=[labels[i] for i in order], hovertemplate="%{customdata}: %{x:,.0f}<extra></extra>",
    ))
    base_layout(fig, title, 120 + 34 * len(labels))
    fig.update_yaxes(tickmode="array", tickvals=list(range(len(order))), ticktext=[labels[i] for i in order])
    fig.update_xaxes(title=dict(text=plain_text(value_title)), range=[0, float(values.max()) * 1.25 if values.size else 1])
    return fig


def lr_figure(steps, lr, logged_steps, logged_lr, warmup: int, *, title: str, step_title: str, lr_title: str,
              formula_label: str, logged_label: str, warmup_label: str) -> go.Figure:
    """The schedule's formula as a line, the rates the training actually logged as dots, the warm-up's end marked."""
    s = values_array(steps, "steps", 1)
    y = values_array(lr, "lr", 1)
    ls = values_array(logged_steps, "logged_steps", 1)
    ly = values_array(logged_lr, "logged_lr", 1)
    if s.shape != y.shape or ls.shape != ly.shape:
        raise ValueError("steps and lr (and logged_steps and logged_lr) need the same length")
    fig = go.Figure([
        go.Scatter(x=s, y=y, mode="lines", name=plain_text(formula_label), line=dict(color=QUERY_COLOR)),
        go.Scatter(x=ls, y=ly, mode="markers", name=plain_text(logged_label), marker=dict(color=KEY_COLOR, size=5)),
    ])
    fig.add_vline(x=warmup, line=dict(color="#666", dash="dash"), annotation_text=plain_text(warmup_label),
                  annotation_position="top right")
    base_layout(fig, title, 360, legend=dict(orientation="h", y=-0.25))
    fig.update_xaxes(title=dict(text=plain_text(step_title)))
    fig.update_yaxes(title=dict(text=plain_text(lr_title)), exponentformat="e")
    return fig


def training_curves_figure(train_steps, train_loss, dev_steps, dev_loss, dev_bleu, dev_chrf, *, title: str,
                           step_title: str, loss_title: str, score_title: str, labels: Sequence[str]) -> go.Figure:
    """Left: training and dev loss against step. Right: dev BLEU and chrF against step.

    labels: (train loss, dev loss, BLEU, chrF).
    """
    arrays = [values_array(a, n, 1) for a, n in ((train_steps, "train_steps"), (train_loss, "train_loss"),
                                                  (dev_steps, "dev_steps"), (dev_loss, "dev_loss"),
                                                  (dev_bleu, "dev_bleu"), (dev_chrf, "dev_chrf"))]
    ts, tl, ds, dl, bleu, chrf = arrays
    if ts.shape != tl.shape or not ds.shape == dl.shape == bleu.shape == chrf.shape:
        raise ValueError("train_steps/train_loss and dev_steps/dev_loss/dev_bleu/dev_chrf must pair up")
    if len(labels) != 4:
        raise ValueError("labels: train loss, dev loss, BLEU, chrF")
    names = [plain_text(x) for x in labels]
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12)
    fig.add_trace(go.Scatter(x=ts, y=tl, mode="lines", name=names[0], line=dict(color=QUERY_COLOR)), row=1, col=1)
    fig.add_trace(go.Scatter(x=ds, y=dl, mode="lines+markers", name=names[1], line=dict(color=KEY_COLOR)), row=1, col=1)
    fig.add_trace(go.Scatter(x=ds, y=bleu, mode="lines+markers", name=names[2], line=dict(color=VALUE_COLOR)), row=1, col=2)
    fig.add_trace(go.Scatter(x=ds, y=chrf, mode="lines+markers", name=names[3], line=dict(color=OUTPUT_COLOR)), row=1, col=2)
    base_layout(fig, title, 380, legend=dict(orientation="h", y=-0.25))
    fig.update_xaxes(title=dict(text=plain_text(step_title)))
    fig.update_yaxes(title=dict(text=plain_text(loss_title)), row=1, col=1)
    fig.update_yaxes(title=dict(text=plain_text(score_title)), row=1, col=2)
    return fig


def label_smoothing_figure(class_labels: Sequence[str], hard, smoothed, *, title: str, class_title: str,
                           prob_title: str, hard_label: str, smooth_label: str) -> go.Figure:
    """The one-hot target next to the smoothed one, class by class."""
    return paired_bars(class_labels, hard, smoothed, names=(hard_label, smooth_label), colors=("#bbb", QUERY_COLOR),
                       title=title, x_title=class_title, y_title=prob_title, unit_range=True)
