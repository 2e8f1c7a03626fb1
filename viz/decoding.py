"""Figures for one decoding step: what the decoder may see, where it looked, what it could say next."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .heatmap import attention_heatmap
from .labels import joined_text, plain_text
from .style import FONT, GRID_COLOR, HIGHLIGHT_COLOR, hovertemplate, styled_figure, tick_angle, titled, token_axis
from .validate import as_float32, check_index, check_labels

CHOSEN_COLOR = HIGHLIGHT_COLOR
OTHER_COLOR = "#8fb3d9"
ATTENTION_BAR_COLOR = "#2b6cb0"
BEAM_COLORS = {"kept": "#2f9e44", "finished": "#1c7ed6", "dropped": "#adb5bd"}
MAX_HYPOTHESIS_TOKENS = 24  # a longer hypothesis label keeps its end, where the new token is


def causal_mask_row(
    weights_row,
    target_tokens: Sequence[str],
    step: int,
    *,
    title: str = "",
    query_title: str = "query",
    key_title: str = "keys (target prefix)",
    value_label: str = "weight",
    masked_label: str = "masked (future)",
) -> go.Figure:
    """The decoder self-attention row of `step`: keys 0..step are visible, later ones are masked grey."""
    row = as_float32(weights_row, "weights_row", 1)
    target_tokens = check_labels(target_tokens, len(row), "target_tokens", "positions")
    step = check_index(step, len(row), "step")
    mask = (np.arange(len(row)) <= step)[None]
    return attention_heatmap(
        row[None], [target_tokens[step]], target_tokens, title=title, query_title=query_title,
        key_title=key_title, value_label=value_label, mask=mask, masked_label=masked_label,
    )


def attention_bar(
    weights,
    key_tokens: Sequence[str],
    *,
    title: str = "",
    key_title: str = "keys",
    value_label: str = "weight",
) -> go.Figure:
    """One query's attention over the keys as bars on a fixed 0–1 axis (e.g. heads averaged)."""
    w = as_float32(weights, "weights", 1)
    key_tokens = check_labels(key_tokens, len(w), "key_tokens", "keys")
    n = len(w)
    bars = dict(
        type="bar", x=np.arange(n, dtype=np.int32), y=w, marker_color=ATTENTION_BAR_COLOR,
        hovertemplate=hovertemplate((key_title, "%{x}"), (value_label, "%{y:.4f}")),
        texttemplate="%{y:.2f}" if n <= 20 else None, textposition="outside",
    )
    return styled_figure(
        [bars],
        title,
        height=320,
        xaxis=token_axis(key_tokens, key_title, tickangle=tick_angle(key_tokens, 40 * n)),
        yaxis=titled(value_label, range=[0, 1.08], gridcolor=GRID_COLOR, zeroline=False),
        bargap=0.25,
    )


def candidates_chart(
    tokens: Sequence[str],
    probs,
    chosen: int,
    *,
    title: str = "",
    token_title: str = "candidate next token",
    value_label: str = "probability",
) -> go.Figure:
    """Top-k candidates as horizontal bars, most probable on top; bar `chosen` is the token the search took."""
    p = as_float32(probs, "probs", 1)
    tokens = check_labels(tokens, len(p), "tokens", "probabilities")
    chosen = check_index(chosen, len(p), "chosen")
    n = len(p)
    bars = dict(
        type="bar", x=p, y=np.arange(n, dtype=np.int32), orientation="h",
        marker_color=[CHOSEN_COLOR if i == chosen else OTHER_COLOR for i in range(n)],
        texttemplate="%{x:.1%}", textposition="outside", cliponaxis=False,
        hovertemplate=hovertemplate((token_title, "%{y}"), (value_label, "%{x:.4f}")),
    )
    return styled_figure(
        [bars],
        title,
        right=50,
        height=90 + 34 * n,
        xaxis=titled(value_label, range=[0, 1], tickformat=".0%", gridcolor=GRID_COLOR),
        yaxis=token_axis(tokens, token_title, reversed_=True, tickfont=dict(size=15, family=FONT)),
        bargap=0.3,
    )


def beam_chart(
    groups: dict[str, Sequence[tuple[Sequence[str], float]]],
    *,
    status_labels: dict[str, str] | None = None,
    title: str = "",
    hypothesis_title: str = "hypothesis",
    value_label: str = "probability (log scale)",
) -> go.Figure:
    """Beam hypotheses of one step as bars of their probability, coloured kept / finished / dropped.

    groups maps a status in BEAM_COLORS to (tokens, logprob) pairs, best first.
    The axis is logarithmic (sequence probabilities shrink fast with length)
    and bars grow from its left edge, so the longest bar is the likeliest.
    """
    unknown = sorted(set(groups) - set(BEAM_COLORS))
    if unknown:
        raise ValueError(f"beam groups must be among {sorted(BEAM_COLORS)}, got {unknown}")
    labels = status_labels or {}
    rows: list[tuple[str, str, float]] = []
    for status in BEAM_COLORS:
        for tokens, logprob in groups.get(status, ()):
            if isinstance(tokens, str):
                raise ValueError("each hypothesis must be (tokens, logprob) with a list of tokens, not one string")
            shown = list(tokens)[-MAX_HYPOTHESIS_TOKENS:]
            text = ("…" if len(tokens) > len(shown) else "") + joined_text(shown)
            rows.append((status, text, float(logprob)))
    if not rows:
        raise ValueError("groups holds no hypothesis: pass at least one (tokens, logprob) pair")
    bars = []
    for status, color in BEAM_COLORS.items():
        idx = [i for i, r in enumerate(rows) if r[0] == status]
        if not idx:
            continue
        logprobs = np.array([rows[i][2] for i in idx])
        name = plain_text(labels.get(status, status))
        bars.append(dict(
            type="bar", x=np.exp(logprobs),  # float64: a long hypothesis can fall below float32's range
            y=np.array(idx, dtype=np.int32), orientation="h", marker_color=color, name=name,
            customdata=logprobs, texttemplate="%{x:.3g}", textposition="outside", cliponaxis=False,
            hovertemplate=f"%{{y}}<br>p = <b>%{{x:.4g}}</b><br>log p = %{{customdata:.3f}}<extra>{name}</extra>",
        ))
    low = min(r[2] for r in rows) / np.log(10)  # log10 of the smallest probability
    return styled_figure(
        bars,
        title,
        top=40,
        right=60,
        height=110 + 28 * len(rows),
        barmode="overlay",
        legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"),
        xaxis=titled(value_label, type="log", range=[min(low - 0.5, -1.0), 0], dtick=1,
                     gridcolor=GRID_COLOR),  # dtick=1: one labelled tick per power of ten
        yaxis=titled(hypothesis_title, tickmode="array", tickvals=list(range(len(rows))), ticktext=[r[1] for r in rows],
                     range=[len(rows) - 0.5, -0.5], tickfont=dict(size=13, family=FONT)),
    )
