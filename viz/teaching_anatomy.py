"""Model anatomy and training figures: parameters per component, FLOPs, learning-rate schedule, curves, label smoothing."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .bars import grouped_bars, paired_bars
from .labels import plain_text, token_labels
from .options import Frame, Room, checked
from .style import (
    BASE_FONT_PX,
    EDGE_PX,
    KEY_COLOR,
    MAX_HEIGHT_PX,
    NEUTRAL_COLOR,
    OUTPUT_COLOR,
    QUERY_COLOR,
    TICK_PAD_PX,
    VALUE_COLOR,
    domains,
    guide_line,
    legend_on_top,
    styled_figure,
    text_px,
    titled,
    token_axis,
    widest_tick,
    x_labels_band,
    y_labels_band,
)
from .validate import as_float32, check_labels


def horizontal_bars(names: Sequence[str], counts, *, title: str, value_title: str, decimals: int = 0) -> go.Figure:
    """One bar per named part (parameters, FLOPs, lengths), largest at the top, its number (`decimals` after the
    point) beside it and on hover."""
    values = as_float32(counts, "counts", 1)
    labels = check_labels(names, values.shape[0], "names")
    order = np.argsort(values, kind="stable")
    ranked = [labels[i] for i in order]
    numbers = [f"{float(v):,.{decimals}f}" for v in values[order]]
    bars = dict(
        type="bar", x=values[order], y=np.arange(len(order), dtype=np.int32), orientation="h", marker_color=QUERY_COLOR,
        text=numbers, textposition="outside", textfont=dict(size=BASE_FONT_PX), cliponaxis=False,
        customdata=token_labels(ranked), hovertemplate=f"%{{customdata}}: %{{x:,.{decimals}f}}<extra></extra>",
    )
    # The longest bar's number stands past the plot, in a right margin as wide as the widest number: a range
    # stretched by a fixed share cuts it short ("25,165") where the names leave the plot little width.
    return styled_figure(
        [bars],
        title,
        right=int(max((text_px(n, BASE_FONT_PX) for n in numbers), default=0) + TICK_PAD_PX + EDGE_PX),
        height=120 + 34 * len(labels),
        xaxis=titled(value_title, range=[0, float(values.max()) if values.size else 1]),
        yaxis=token_axis(ranked, ""),
    )


def lr_figure(steps, lr, logged_steps, logged_lr, warmup: int, *, frame: Frame, names: Sequence[str]) -> go.Figure:
    """The schedule's formula as a line, the rates the training actually logged as dots, the warm-up's end marked.
    frame: the title, the steps' and the rates' axis titles; names: (formula, logged, warm-up's end)."""
    title, step_title, lr_title = checked(frame, Frame, "frame").title, frame.x_title, frame.y_title
    if len(names) != 3:
        raise ValueError(f"names: the formula's line, the logged rates, the warm-up's end; got {len(names)}")
    formula_label, logged_label, warmup_label = names
    s = as_float32(steps, "steps", 1)
    y = as_float32(lr, "lr", 1)
    ls = as_float32(logged_steps, "logged_steps", 1)
    ly = as_float32(logged_lr, "logged_lr", 1)
    if s.shape != y.shape or ls.shape != ly.shape:
        raise ValueError("steps and lr (and logged_steps and logged_lr) need the same length")
    lines = [
        dict(type="scatter", x=s, y=y, mode="lines", name=plain_text(formula_label), line=dict(color=QUERY_COLOR)),
        dict(type="scatter", x=ls, y=ly, mode="markers", name=plain_text(logged_label),
             marker=dict(color=KEY_COLOR, size=5)),
    ]
    return styled_figure(
        lines,
        title,
        height=360,
        **legend_on_top([formula_label, logged_label]),
        **guide_line(warmup, warmup_label),
        xaxis=titled(step_title),
        yaxis=titled(lr_title, exponentformat="e"),
    )


def training_curves_figure(train_steps, train_loss, dev_steps, dev_loss, dev_bleu, dev_chrf, *, frame: Frame,
                           labels: Sequence[str]) -> go.Figure:
    """Left: training and dev loss against step. Right: dev BLEU and chrF against step.

    labels: (train loss, dev loss, BLEU, chrF).
    """
    title, step_title, loss_title, score_title = checked(frame, Frame, "frame").title, frame.x_title, frame.y_title, frame.y2_title
    arrays = [as_float32(a, n, 1) for a, n in ((train_steps, "train_steps"), (train_loss, "train_loss"),
                                                (dev_steps, "dev_steps"), (dev_loss, "dev_loss"),
                                                (dev_bleu, "dev_bleu"), (dev_chrf, "dev_chrf"))]
    ts, tl, ds, dl, bleu, chrf = arrays
    if ts.shape != tl.shape or not ds.shape == dl.shape == bleu.shape == chrf.shape:
        raise ValueError("train_steps/train_loss and dev_steps/dev_loss/dev_bleu/dev_chrf must pair up")
    if len(labels) != 4:
        raise ValueError("labels: train loss, dev loss, BLEU, chrF")
    curves = [
        dict(type="scatter", x=x, y=y, mode=mode, name=plain_text(name), line=dict(color=color), xaxis=axis,
             yaxis=f"y{axis[1:]}")
        for x, y, mode, name, color, axis in (
            (ts, tl, "lines", labels[0], QUERY_COLOR, "x"),
            (ds, dl, "lines+markers", labels[1], KEY_COLOR, "x"),
            (ds, bleu, "lines+markers", labels[2], VALUE_COLOR, "x2"),
            (ds, chrf, "lines+markers", labels[3], OUTPUT_COLOR, "x2"),
        )
    ]
    left, right = domains(2, 0.12)
    losses = np.concatenate([tl, dl])
    return styled_figure(
        curves,
        title,
        height=380,
        **legend_on_top(labels),
        # The right plot's labels stand in the gap between the two: only the loss axis and the steps need margins.
        left=y_labels_band(widest_tick(float(losses.min(initial=0)), float(losses.max(initial=0))), loss_title),
        bottom=x_labels_band(step_title),
        xaxis=titled(step_title, domain=left, anchor="y"),
        yaxis=titled(loss_title, anchor="x"),
        xaxis2=titled(step_title, domain=right, anchor="y2"),
        yaxis2=titled(score_title, anchor="x2"),
    )


def label_smoothing_figure(class_labels: Sequence[str], hard, smoothed, *, title: str, class_title: str,
                           prob_title: str, hard_label: str, smooth_label: str) -> go.Figure:
    """The one-hot target next to the smoothed one, class by class."""
    return paired_bars(class_labels, hard, smoothed, names=(hard_label, smooth_label), colors=(NEUTRAL_COLOR, QUERY_COLOR),
                       frame=Frame(title, class_title, prob_title), unit_range=True)


def dead_units_figure(layer_labels: Sequence[str], counts: Sequence, *, names: Sequence[str], title: str,
                      layer_title: str, count_title: str, max_height: float = MAX_HEIGHT_PX) -> go.Figure:
    """Per encoder layer, how many FFN units never fire, one bar per set of sentences (names), whole numbers."""
    return grouped_bars(layer_labels, counts, names=names, colors=(QUERY_COLOR, KEY_COLOR, VALUE_COLOR)[: len(counts)],
                        frame=Frame(title, layer_title, count_title), decimals=0, room=Room(max_height=max_height))
