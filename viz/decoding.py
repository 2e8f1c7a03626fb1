"""Figures for one decoding step: what the decoder may see, where it looked, what it could say next."""

from __future__ import annotations

import html
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .bars import UNIT_TICKS, bar_figure, fit_bars, paired_bars, token_hover
from .heatmap import attention_heatmap
from .labels import joined_text, plain_text
from .style import (
    ANSWER_COLOR,
    BASE_FONT_PX,
    CELL_TEXT_PX,
    EDGE_PX,
    GRID_COLOR,
    GUESS_COLOR,
    HIGHLIGHT_COLOR,
    LINE_EM,
    MAX_HEIGHT_PX,
    MAX_WIDTH_PX,
    TICK_PAD_PX,
    axis_title_px,
    largest_cell,
    legend_above,
    legend_px,
    styled_figure,
    text_px,
    tick_layout,
    title_px,
    titled,
    token_axis,
)
from .validate import as_float32, check_index, check_labels

CHOSEN_COLOR = HIGHLIGHT_COLOR
OTHER_COLOR = "#8fb3d9"
ATTENTION_BAR_COLOR = "#2b6cb0"
COVERAGE_COLORS = (OTHER_COLOR, GUESS_COLOR)  # the original translation, the forced one
BEAM_COLORS = {"kept": "#2f9e44", "finished": "#1c7ed6", "dropped": "#adb5bd"}
MAX_HYPOTHESIS_TOKENS = 24  # a longer hypothesis label keeps its end, where the new token is
ROW_PX = 34  # a row of the candidates' and the beams' bars, where max_height leaves room for it
PLOT_PX = (120, 400)  # the narrowest and widest the bars of those two charts get
BEAM_TEXT = "0.000123"  # the widest probability the beam's bars write
LABEL_SHARE = 0.45  # of max_width, the most a hypothesis label may take (it is cut at its start beyond that)


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
    max_width: float = MAX_WIDTH_PX,
    max_height: float = MAX_HEIGHT_PX,
) -> go.Figure:
    """The decoder self-attention row of `step`: keys 0..step are visible, later ones are masked grey."""
    row = as_float32(weights_row, "weights_row", 1)
    target_tokens = check_labels(target_tokens, len(row), "target_tokens", "positions")
    step = check_index(step, len(row), "step")
    mask = (np.arange(len(row)) <= step)[None]
    return attention_heatmap(
        row[None], [target_tokens[step]], target_tokens, title=title, query_title=query_title,
        key_title=key_title, value_label=value_label, mask=mask, masked_label=masked_label, max_width=max_width,
        max_height=max_height,
    )


def attention_bar(
    weights,
    key_tokens: Sequence[str],
    *,
    title: str = "",
    key_title: str = "keys",
    value_label: str = "weight",
    max_width: float = MAX_WIDTH_PX,
    max_height: float = MAX_HEIGHT_PX,
) -> go.Figure:
    """One query's attention over the keys as bars on a fixed 0–1 axis (e.g. heads averaged)."""
    w = as_float32(weights, "weights", 1)
    key_tokens = check_labels(key_tokens, len(w), "key_tokens", "keys")
    texts = np.char.mod("%.2f", w)
    fit = fit_bars(key_tokens, list(texts), 1, max_width)
    bars = dict(type="bar", x=np.arange(len(w), dtype=np.int32), y=w, marker_color=ATTENTION_BAR_COLOR, text=texts,
                **token_hover(key_tokens, key_title, value_label, "%{y:.4f}"))
    return bar_figure([bars], key_tokens, fit, title=title, x_title=key_title, y_title=value_label, low=0.0,
                      high=1.0, max_height=max_height, yaxis=dict(gridcolor=GRID_COLOR, zeroline=False, **UNIT_TICKS))


def candidates_chart(
    tokens: Sequence[str],
    probs,
    chosen: int,
    *,
    title: str = "",
    token_title: str = "candidate next token",
    value_label: str = "probability",
    max_width: float = MAX_WIDTH_PX,
    max_height: float = MAX_HEIGHT_PX,
    guess: int | None = None,
) -> go.Figure:
    """Top-k candidates as horizontal bars, most probable on top; bar `chosen` is the token the search took; bar
    `guess` (a student's guess, if any) has a thick dark outline."""
    p = as_float32(probs, "probs", 1)
    tokens = check_labels(tokens, len(p), "tokens", "probabilities")
    chosen = check_index(chosen, len(p), "chosen")
    n = len(p)
    guess = None if guess is None else check_index(guess, n, "guess")
    bars = dict(
        type="bar", x=p, y=np.arange(n, dtype=np.int32), orientation="h",
        marker_color=[CHOSEN_COLOR if i == chosen else OTHER_COLOR for i in range(n)],
        marker_line=dict(color=ANSWER_COLOR, width=[4 if i == guess else 0 for i in range(n)]),
        texttemplate="%{x:.1%}", textposition="outside", cliponaxis=False, textfont=dict(size=CELL_TEXT_PX),
        **token_hover(tokens, token_title, value_label, "%{x:.4f}"),
    )
    return _row_bars([bars], tokens, "100.0%", title=title, row_title=token_title, max_width=max_width,
                     max_height=max_height, value_title=value_label,
                     value_axis=dict(range=[0, 1], tickformat=".0%", gridcolor=GRID_COLOR), bargap=0.3)


def beam_chart(
    groups: dict[str, Sequence[tuple[Sequence[str], float]]],
    *,
    status_labels: dict[str, str] | None = None,
    title: str = "",
    hypothesis_title: str = "hypothesis",
    value_label: str = "probability (log scale)",
    max_width: float = MAX_WIDTH_PX,
    max_height: float = MAX_HEIGHT_PX,
) -> go.Figure:
    """Beam hypotheses of one step as bars of their probability, coloured kept / finished / dropped.

    groups maps a status in BEAM_COLORS to (tokens, logprob) pairs, best first.
    The axis is logarithmic (sequence probabilities shrink fast with length)
    and bars grow from its left edge, so the longest bar is the likeliest.
    A hypothesis too long for its label keeps its end (where the new token is); its hover has all of it.
    """
    unknown = sorted(set(groups) - set(BEAM_COLORS))
    if unknown:
        raise ValueError(f"beam groups must be among {sorted(BEAM_COLORS)}, got {unknown}")
    labels = status_labels or {}
    rows: list[tuple[str, list[str], float]] = []
    for status in BEAM_COLORS:
        for tokens, logprob in groups.get(status, ()):
            if isinstance(tokens, str):
                raise ValueError("each hypothesis must be (tokens, logprob) with a list of tokens, not one string")
            rows.append((status, list(tokens), float(logprob)))
    if not rows:
        raise ValueError("groups holds no hypothesis: pass at least one (tokens, logprob) pair")
    font = tick_layout(["…"], ROW_PX, across=False).size
    left_without_labels = _left_px(hypothesis_title, len(rows) * ROW_PX + 2 * EDGE_PX, 0)
    room = min(LABEL_SHARE * max_width, max_width - _bar_text_px(BEAM_TEXT) - PLOT_PX[0] - left_without_labels)
    texts = [_ending(tokens, room, font) for _, tokens, _ in rows]
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
            customdata=[[i, joined_text(rows[i][1]), rows[i][2]] for i in idx], texttemplate="%{x:.3g}",
            textposition="outside", cliponaxis=False, textfont=dict(size=CELL_TEXT_PX),
            hovertemplate=f"{plain_text(hypothesis_title)}: <b>%{{customdata[0]}} · %{{customdata[1]}}</b><br>"
                          f"p = <b>%{{x:.4g}}</b><br>log p = %{{customdata[2]:.3f}}<extra>{name}</extra>",
        ))
    low = min(r[2] for r in rows) / np.log(10)  # log10 of the smallest probability
    return _row_bars(
        bars, texts, BEAM_TEXT, title=title, row_title=hypothesis_title, max_width=max_width, max_height=max_height,
        legend=[labels.get(b, b) for b in BEAM_COLORS if b in groups],
        barmode="overlay", value_title=value_label,
        value_axis=dict(type="log", range=[min(low - 0.5, -1.0), 0], dtick=1,
                        gridcolor=GRID_COLOR),  # dtick=1: one labelled tick per power of ten
    )


def _left_px(row_title: str, wrap: float, labels_px: float) -> int:
    """The left margin: the row axis's title (wrapped to `wrap` px) and its labels."""
    return int(EDGE_PX + axis_title_px(row_title, wrap) + labels_px + TICK_PAD_PX)


def _bar_text_px(widest_text: str) -> int:
    """The right margin that holds the bars' text."""
    return int(text_px(widest_text, CELL_TEXT_PX)) + 2 * EDGE_PX


def _ending(tokens: list[str], width_px: float, size: int) -> str:
    """The hypothesis as text, cut at its start to its last tokens that fit width_px at `size`."""
    shown = tokens[-MAX_HYPOTHESIS_TOKENS:]
    while len(shown) > 1 and text_px("…" + "".join(shown), size) > width_px:
        shown = shown[1:]
    return ("…" if len(shown) < len(tokens) else "") + html.unescape(joined_text(shown))


def _row_bars(bars: list[dict], labels: list[str], widest_text: str, *, title: str, row_title: str,
              value_title: str, value_axis: dict, max_width: float, max_height: float, legend: Sequence[str] = (),
              **layout) -> go.Figure:
    """Horizontal bars, one labelled row each (ROW_PX, fewer px where max_height needs it), their text (at
    most as wide as `widest_text`) right of them, a legend (its names) above them, the value axis (`value_axis`,
    titled `value_title`, wrapped to the figure's width) below. At most max_width wide where the labels leave the
    plot PLOT_PX[0]: a page narrows a wider figure to its column, and Plotly then draws it a second time."""
    n = len(labels)
    right = _bar_text_px(widest_text)

    def size(row: int) -> dict:
        fit = tick_layout(labels, row, across=False)
        wrap = n * row + 2 * EDGE_PX  # the row axis's title no longer than the plot and the margins allow
        left = _left_px(row_title, wrap, fit.depth)
        plot = int(np.clip(max_width - left - right, *PLOT_PX))
        top = EDGE_PX + (legend_px(legend, plot) if legend else 0)
        width = left + plot + right
        bottom = EDGE_PX + axis_title_px(value_title, width - 2 * EDGE_PX) + int(LINE_EM * BASE_FONT_PX) + TICK_PAD_PX
        return dict(fit=fit, wrap=wrap, left=left, width=width, top=top, bottom=bottom,
                    height=title_px(title, width) + top + n * row + bottom)

    s = size(largest_cell(lambda row: size(row)["height"] <= max_height, ROW_PX))
    return styled_figure(bars, title, top=s["top"], left=s["left"], right=right, bottom=s["bottom"],
                         width=s["width"], height=s["height"], legend=legend_above(), showlegend=bool(legend),
                         xaxis=titled(value_title, wrap=s["width"] - 2 * EDGE_PX, **value_axis),
                         yaxis=token_axis(labels, row_title, fit=s["fit"], reversed_=True, wrap=s["wrap"]), **layout)


def coverage_chart(
    source_tokens: Sequence[str],
    original,
    forced,
    *,
    names: tuple[str, str],
    title: str = "",
    key_title: str = "source token",
    value_label: str = "attention received",
    max_width: float = MAX_WIDTH_PX,
    max_height: float = MAX_HEIGHT_PX,
) -> go.Figure:
    """Source coverage of two translations of one sentence: per source token, the cross-attention it received over
    each output (lessons.classroom.coverage), the original's bars beside the forced continuation's."""
    return paired_bars(source_tokens, original, forced, names=names, colors=COVERAGE_COLORS, title=title,
                       x_title=key_title, y_title=value_label, decimals=2, max_width=max_width, max_height=max_height)
