"""Figures of one query's attention, step by step: scores → scaled (and masked) → softmax → weighted sum of v."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .bars import BARGAP, fit_bars, token_hover
from .labels import NEG_INF, plain_text, token_labels
from .options import Room, checked
from .style import (
    BASE_FONT_PX,
    EDGE_PX,
    KEY_COLOR,
    LINE_EM,
    MASKED_COLOR,
    OUTPUT_COLOR,
    QUERY_COLOR,
    domains,
    legend_on_top,
    masked_note,
    paper_label,
    position_text,
    styled_figure,
    text_px,
    title_px,
    titled,
    token_axis,
)
from .validate import as_float32, check_labels

PANEL_PX = 120  # each panel's height, where max_height leaves room for it
PANEL_TITLE_PX = int(LINE_EM * BASE_FONT_PX) + 6  # above each panel: its title


def score_steps_figure(
    key_labels: Sequence[str],
    scores,
    scaled,
    weights,
    *,
    titles: tuple[str, str, str],
    key_title: str,
    masked_label: str = "",
    room: Room = Room(),
) -> go.Figure:
    """Three panels over the keys: raw q·k, scores after ÷√d_k (−∞ where masked), softmax weights (0–1).

    The panels share the keys' axis (the bottom one is labelled); masked keys are grey columns in every panel.
    The whole figure fits the room (its min_font_px unused); each bar's number is printed where it fits (see
    fit_bars).
    """
    max_width, max_height = checked(room, Room, "room").max_width, room.max_height
    raw = as_float32(scores, "scores", 1)
    scaled = as_float32(scaled, "scaled", 1, allow_neg_inf=True)
    w = as_float32(weights, "weights", 1)
    if len(titles) != 3:
        raise ValueError(f"titles: one per panel (raw scores, scaled scores, weights), got {len(titles)}")
    if not raw.shape == scaled.shape == w.shape:
        raise ValueError(f"scores {raw.shape}, scaled {scaled.shape} and weights {w.shape} need one entry per key")
    labels = check_labels(key_labels, raw.shape[0], "key_labels")
    n = len(labels)
    masked = np.isneginf(scaled)
    shown = np.where(masked, 0, scaled).astype(np.float32)
    texts = (np.char.mod("%.2f", raw), np.where(masked, NEG_INF, np.char.mod("%.2f", shown)), np.char.mod("%.3f", w))
    # The panels' height depends on the room below them, which depends on the slots, not on the bars' text.
    top, bottom = PANEL_TITLE_PX + title_px(""), fit_bars(labels, [], 1, max_width).bottom(key_title)
    panel_px = min(PANEL_PX, (max_height - top - bottom - 2 * PANEL_TITLE_PX) / 3)
    fit = fit_bars(labels, [t.replace("-", "−") for column in texts for t in column], 1, max_width, panel_px)
    plot_px = 3 * panel_px + 2 * PANEL_TITLE_PX
    finite = scaled[~masked]
    panels = (  # values, their bar text, hover, colour, the values' extent
        (raw, texts[0], "%{y:.4f}", KEY_COLOR, (raw.min(initial=0.0), raw.max(initial=0.0))),
        (shown, texts[1], "%{text}", KEY_COLOR, (finite.min(initial=0.0), finite.max(initial=0.0))),
        (w, texts[2], "%{y:.5f}", QUERY_COLOR, (0.0, 1.0)),
    )
    heights = domains(3, PANEL_TITLE_PX / plot_px)[::-1]  # first panel at the top
    traces, layout, notes = [], {}, []
    for i, ((values, text, value, color, (low, high)), span, panel_title) in enumerate(zip(panels, heights, titles)):
        suffix = "" if i == 0 else str(i + 1)
        bars = dict(type="bar", x=np.arange(n, dtype=np.int32), y=values, marker_color=color, text=text,
                    showlegend=False, xaxis=f"x{suffix}", yaxis=f"y{suffix}",
                    **token_hover(labels, key_title, panel_title, value))
        traces.append(fit.style(bars))
        layout[f"yaxis{suffix}"] = fit.value_axis("", float(low), float(high), panel_px, domain=span,
                                                  anchor=f"x{suffix}",
                                                  nticks=int(panel_px / (2 * LINE_EM * BASE_FONT_PX)) + 1)
        layout[f"xaxis{suffix}"] = dict(anchor=f"y{suffix}", matches="x3", showticklabels=False)
        notes.append(paper_label(panel_title, 0.5, span[1], xanchor="center", yanchor="bottom"))
    layout["xaxis3"] = token_axis(labels, key_title, anchor="y3", fit=fit.ticks, wrap=fit.title_wrap())
    shapes = [dict(type="rect", x0=col - 0.5, x1=col + 0.5, xref=f"x{s}", y0=0, y1=1, yref=f"y{s} domain",
                   fillcolor=MASKED_COLOR, opacity=0.6, line_width=0, layer="below")
              for col in np.nonzero(masked)[0] for s in ("", "2", "3")]
    if masked.any() and masked_label:
        notes.append(masked_note(masked_label))
    # A few keys make a plot narrower than its panels' titles: the margins grow alike, so each title, centred
    # over its panel, shows whole.
    pad = max(0, min(math.ceil((max(text_px(t, BASE_FONT_PX) for t in titles) + 2 * EDGE_PX - n * fit.slot) / 2),
                     int((max_width - fit.width()) / 2)))
    return styled_figure(traces, "", top=PANEL_TITLE_PX, left=fit.left + pad, right=fit.right + pad, bottom=bottom,
                         width=fit.width() + 2 * pad, height=int(top + plot_px + bottom),
                         bargap=BARGAP, shapes=shapes, annotations=notes, **layout)


def weighted_sum_figure(
    weights,
    v,
    key_labels: Sequence[str],
    *,
    title: str,
    dim_title: str,
    output_label: str,
) -> go.Figure:
    """Per dimension of v, the stacked contributions weight_j·v_j of every key; a marker shows their sum (the output)."""
    w = as_float32(weights, "weights", 1)
    vv = as_float32(v, "v", 2)
    if vv.shape[0] != w.shape[0]:
        raise ValueError(f"v needs one row per key: {vv.shape[0]} rows for {w.shape[0]} weights")
    raw_labels = check_labels(key_labels, w.shape[0], "key_labels")
    labels = token_labels(raw_labels)
    parts = (w[:, None] * vv).astype(np.float32)  # (keys, d_v)
    dims = np.arange(vv.shape[1], dtype=np.int32)
    bars = [  # largest weight first, so the legend reads in order of importance
        dict(type="bar", x=dims, y=parts[j], name=f"{labels[j]} ({w[j]:.2f})",
             hovertemplate=f"{position_text(raw_labels, str(j), labels[j])}: %{{y:.4f}}<extra></extra>")
        for j in np.argsort(-w)
    ]
    total = dict(type="scatter", x=dims, y=parts.sum(0), mode="markers", name=plain_text(output_label),
                 marker=dict(symbol="diamond", size=9, color=OUTPUT_COLOR, line=dict(color="black", width=1)),
                 hovertemplate="%{y:.4f}<extra></extra>")
    return styled_figure(
        [*bars, total],
        title,
        height=380,
        **legend_on_top([f"{t} (0.00)" for t in raw_labels] + [output_label]),
        barmode="relative",
        xaxis=titled(dim_title, dtick=1 if vv.shape[1] <= 16 else 4),
        yaxis=titled("", zeroline=True, zerolinecolor="#888"),
    )
