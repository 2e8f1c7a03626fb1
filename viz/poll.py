"""A class poll's tally: one bar of votes per option (the options are a map's tokens, or a patching poll's kind and
layer), the model's answer marked once revealed — its bar in its own colour (named in the legend of upright bars) and
its slot shaded, so it shows even with no vote. Upright bars where the options' names stand upright under them; else a row per option,
its name on the left (names on their side would be hard to read and run below a 1280×800 screen)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import plotly.graph_objects as go

from .bars import ValueAxis, bar_figure, fit_bars
from .decoding import row_bars
from .labels import token_labels
from .options import Frame, Room, checked
from .style import CELL_TEXT_PX, D3, GRID_COLOR, HIGHLIGHT_COLOR, hovertemplate
from .validate import check_labels

VOTES_COLOR = D3[0]
ANSWER_BAND_OPACITY = 0.15  # the answer's slot, shaded behind its bar


def tally_bars(
    options: Sequence[str],
    counts: Sequence[int],
    *,
    answer: int | None = None,
    title: str = "",
    option_title: str = "option",
    votes_label: str = "votes",
    answer_label: str = "the model's answer",
    room: Room = Room(),
) -> go.Figure:
    """Votes per option; with `answer` (an option's index) that option's bar is drawn in the highlight colour and
    the legend names it `answer_label`. Upright bars where the options' names fit under them upright, else
    tally_rows. room: the size limits (its min_font_px unused)."""
    checked(room, Room, "room")
    votes = np.asarray(counts, dtype=np.int64)
    if votes.ndim != 1 or (votes < 0).any():
        raise ValueError(f"counts must be one non-negative count per option, got shape {votes.shape}")
    labels = check_labels(options, len(votes), "options", "counts")
    if answer is not None and not 0 <= answer < len(votes):
        raise ValueError(f"answer must be an option's index, 0–{len(votes) - 1}, got {answer}")
    texts = [str(n) for n in votes]
    fit = fit_bars(labels, texts, 1, room.max_width)
    if fit.ticks.angle:
        return tally_rows(labels, votes, answer, frame=Frame(title, votes_label, option_title),
                          answer_label=answer_label, room=room)
    x = np.arange(len(votes), dtype=np.int32)
    escaped = token_labels(labels)
    hover = hovertemplate((option_title, "%{x} · %{customdata}"), (votes_label, "%{y}"))

    def bar(indices: list[int], name: str, color: str) -> dict:
        return dict(type="bar", x=x[indices], y=votes[indices], text=[texts[i] for i in indices], name=name,
                    marker_color=color, customdata=[escaped[i] for i in indices], hovertemplate=hover)

    bars = [bar([i for i in range(len(votes)) if i != answer], votes_label, VOTES_COLOR)]
    if answer is not None:
        bars.append(bar([answer], answer_label, HIGHLIGHT_COLOR))
    high = max(1, int(votes.max(initial=0)))
    band = [] if answer is None else [dict(type="rect", xref="x", yref="paper", x0=answer - 0.5, x1=answer + 0.5, y0=0,
                                           y1=1, fillcolor=HIGHLIGHT_COLOR, opacity=ANSWER_BAND_OPACITY, line_width=0,
                                           layer="below")]
    return bar_figure(bars, labels, fit, frame=Frame(title, option_title, votes_label),
                      values=ValueAxis(0.0, high, dict(gridcolor=GRID_COLOR, zeroline=False, dtick=max(1, high // 5),
                                                        rangemode="nonnegative")),
                      max_height=room.max_height, legend=[votes_label, answer_label] if answer is not None else (),
                      barmode="overlay", shapes=band)


def tally_rows(labels: list[str], votes: np.ndarray, answer: int | None, *, frame: Frame, answer_label: str,
               room: Room) -> go.Figure:
    """The tally as one horizontal bar per option, the first on top, each option's name on its row; `frame`: the
    title and the options' axis title (up, left; no votes' axis title: the title says what it counts). The answer's
    bar and row are marked as in tally_bars, without a legend: its two rows cost a narrow column's chart the height
    that keeps nine names legible, and the page names the answer right beside the chart (polls.answer_line)."""
    rows = np.arange(len(votes), dtype=np.int32)
    escaped = token_labels(labels)
    hover = hovertemplate((frame.y_title, "%{customdata}"), (frame.x_title, "%{x}"))

    def bar(indices: list[int], name: str, color: str) -> dict:
        return dict(type="bar", orientation="h", x=votes[indices], y=rows[indices],
                    text=[str(votes[i]) for i in indices], name=name, marker_color=color,
                    customdata=[escaped[i] for i in indices], hovertemplate=hover, textposition="outside",
                    cliponaxis=False, textfont=dict(size=CELL_TEXT_PX))

    bars = [bar([i for i in range(len(votes)) if i != answer], frame.x_title, VOTES_COLOR)]
    if answer is not None:
        bars.append(bar([answer], answer_label, HIGHLIGHT_COLOR))
    high = max(1, int(votes.max(initial=0)))
    band = [] if answer is None else [dict(type="rect", xref="paper", yref="y", x0=0, x1=1, y0=answer - 0.5,
                                           y1=answer + 0.5, fillcolor=HIGHLIGHT_COLOR, opacity=ANSWER_BAND_OPACITY,
                                           line_width=0, layer="below")]
    return row_bars(bars, labels, str(high), frame=replace(frame, x_title=""), room=room, barmode="overlay",
                    value_axis=dict(range=[0, high], dtick=max(1, high // 5), gridcolor=GRID_COLOR, zeroline=False),
                    bargap=0.3, shapes=band)
