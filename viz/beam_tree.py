"""Beam search as a tree, as Seq2Seq-Vis draws it: a column per step, a node per hypothesis the search scored
there (its newest token), joined to the hypothesis it extends; kept, finished and pruned hypotheses told apart by
colour, the chosen translation's path highlighted, every node's log-probabilities on hover.

A search step scores every continuation of every kept hypothesis and looks at the best 2·beam: those it keeps go
on to the next step, those ending with </s> among the best `beam` are finished, the rest are pruned (their
branches end there). The columns show the steps up to the current one, so playing the steps grows the tree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from .labels import joined_text, plain_text, token_label
from .options import Room, checked
from .style import (
    ANSWER_COLOR,
    CELL_TEXT_PX,
    EDGE_PX,
    GAP_EM,
    HIGHLIGHT_COLOR,
    LINE_EM,
    NOTE_COLOR,
    TICK_PAD_PX,
    axis_title_px,
    legend_above,
    legend_px,
    styled_figure,
    text_em,
    title_px,
    titled,
)

STATUSES = ("kept", "finished", "dropped")
# (fill, outline, text) of a node: kept green, finished blue, pruned grey
NODE_COLORS = {"kept": ("#d3f9d8", "#2f9e44", ANSWER_COLOR), "finished": ("#d0ebff", "#1c7ed6", ANSWER_COLOR),
               "dropped": ("#f1f3f5", "#adb5bd", NOTE_COLOR), "root": ("#e9ecef", "#868e96", ANSWER_COLOR)}
EDGE_STYLES = {"kept": dict(color="#8ce99a", width=1.5), "finished": dict(color="#74c0fc", width=1.5),
               "dropped": dict(color="#ced4da", width=1, dash="dot")}
CHOSEN_EDGE = dict(color=HIGHLIGHT_COLOR, width=4)
CURRENT_FILL = "rgba(255, 212, 59, 0.25)"  # the current step's column
NODE_FONT_PX = CELL_TEXT_PX
ROW_PX = (24, 34)  # the least and most room a node's row gets: a 14-px line and its gap, or more where it fits
NODE_OUTLINE_PX = 3  # a chosen node's outline
BOX_PAD_EM = 0.3  # a node's box beyond its label, each side (less than GAP_EM: boxes of neighbour columns stay apart)


@dataclass(frozen=True)
class Node:
    step: int  # the search step (0-based), -1 for the root (<s>, or a forced prefix)
    tokens: tuple[str, ...]  # the whole hypothesis so far
    logprob: float  # its log-probability
    status: str  # "root", "kept", "finished" or "dropped"
    parent: int  # the index of the node it extends, -1 for the root
    slot: int  # its row in its column, 0 at the top
    chosen: bool  # on the chosen translation's path


def tree_nodes(steps: Sequence[Mapping[str, Sequence[tuple[Sequence[str], float]]]],
               chosen: Sequence[str]) -> list[Node]:
    """The tree of a search: the root, then each step's hypotheses (`steps[s]` maps a status in STATUSES to
    (tokens, log-probability) pairs, each hypothesis its whole output so far, as the model's BeamRecord holds them),
    each joined to the kept hypothesis of the step before that it extends. `chosen`: the translation's tokens with
    </s>; its prefixes are the chosen path. In a column the nodes are ordered by their parents' rows, then most
    probable first, so no two edges cross."""
    nodes = [Node(-1, (), 0.0, "root", -1, 0, True)]
    chosen = tuple(chosen)
    extendable: dict[tuple[str, ...], int] | None = None  # kept hypotheses of the step before → node index
    for step, groups in enumerate(steps):
        unknown = sorted(set(groups) - set(STATUSES))
        if unknown:
            raise ValueError(f"step {step + 1}: hypotheses must be grouped as {STATUSES}, got {unknown}")
        entries = []
        for status in STATUSES:
            for tokens, logprob in groups.get(status, ()):
                if isinstance(tokens, str):
                    raise ValueError("each hypothesis must be (tokens, logprob) with a list of tokens, not one string")
                tokens = tuple(tokens)
                parent = 0 if extendable is None else extendable.get(tokens[:-1])
                if parent is None:
                    raise ValueError(f"step {step + 1}: {tokens} extends no hypothesis kept at the step before")
                entries.append((nodes[parent].slot, -float(logprob), status, tokens, parent))
        extendable = {}
        for slot, (_, minus_logprob, status, tokens, parent) in enumerate(sorted(entries)):
            if status == "kept":
                extendable[tokens] = len(nodes)
            on_path = nodes[parent].chosen and chosen[: len(tokens)] == tokens
            nodes.append(Node(step, tokens, -minus_logprob, status, parent, slot, on_path))
    return nodes


def _columns_shown(n_columns: int, current: int, column_px: float, plot_px: float) -> range:
    """The columns that fit plot_px (the root's is 0, step s's is s + 1): all, else as many as fit, from the first
    until `current`'s is the last of them (the same width at every step)."""
    fit = max(2, int(plot_px // column_px))
    start = max(0, current + 2 - fit)
    return range(start, min(n_columns, start + fit))


@dataclass(frozen=True)
class _Layout:
    columns: range  # the columns shown
    column_px: float
    row_px: float
    rows: int
    top: int
    bottom: int
    width: int
    height: int


def _layout(steps, last: int, legend: list[str], title: str, step_title: str, max_width: float,
            max_height: float) -> _Layout:
    """Columns as wide as the search's widest token and its gaps (wider where few), rows as tall as a line needs
    (taller where the height allows), the same at every step; the last columns up to step `last`'s where not all
    fit max_width."""
    widest = max(text_em(tokens[-1]) for groups in steps for group in groups.values() for tokens, _ in group)
    least_px = max((widest + 2 * GAP_EM) * NODE_FONT_PX, ROW_PX[0] + 2 * GAP_EM * NODE_FONT_PX)
    plot_px = max_width - 2 * EDGE_PX
    columns = _columns_shown(len(steps) + 1, last, least_px, plot_px)
    column_px = float(np.clip(plot_px / len(columns), least_px, 3 * least_px))
    width = int(len(columns) * column_px + 2 * EDGE_PX)
    rows = max(sum(len(group) for group in groups.values()) for groups in steps)  # the same height at every step
    top = EDGE_PX + legend_px(legend, width - 2 * EDGE_PX)
    bottom = EDGE_PX + axis_title_px(step_title, width - 2 * EDGE_PX) + int(LINE_EM * NODE_FONT_PX) + TICK_PAD_PX
    room = max_height - title_px(title, width) - top - bottom
    row_px = float(np.clip(room / rows, *ROW_PX))
    height = int(title_px(title, width) + top + bottom + rows * row_px)
    return _Layout(columns, column_px, row_px, rows, top, bottom, width, height)


def _positions(nodes: list[Node], rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Each node's column (the root's 0, step s's s + 1) and row, each column centred on the tallest."""
    counts: dict[int, int] = {}
    for n in nodes:
        counts[n.step] = counts.get(n.step, 0) + 1
    x = np.array([n.step + 1 for n in nodes], dtype=np.float64)
    y = np.array([n.slot + (rows - counts[n.step]) / 2 for n in nodes], dtype=np.float64)
    return x, y


def _edge_traces(nodes: list[Node], x: np.ndarray, y: np.ndarray, first_column: int, chosen_label: str) -> list:
    """A line from each node to its parent, grouped by the node's status, the chosen path over them (None between
    segments: one trace per group)."""
    groups: dict[str, tuple[list, list]] = {key: ([], []) for key in (*STATUSES, "chosen")}
    for i, n in enumerate(nodes[1:], start=1):
        if x[i] < first_column:
            continue  # left of the window, with its parent
        xs, ys = groups["chosen" if n.chosen else n.status]
        xs += [x[n.parent], x[i], None]
        ys += [y[n.parent], y[i], None]
    traces = [dict(type="scatter", mode="lines", x=xs, y=ys, line=EDGE_STYLES[key], hoverinfo="skip",
                   showlegend=False) for key, (xs, ys) in groups.items() if key != "chosen" and xs]
    xs, ys = groups["chosen"]
    traces.append(dict(type="scatter", mode="lines", x=xs or [None], y=ys or [None], line=CHOSEN_EDGE,
                       hoverinfo="skip", name=plain_text(chosen_label), showlegend=True))
    return traces


def _box_traces(nodes: list[Node], x: np.ndarray, y: np.ndarray, first_column: int, lay: _Layout,
                labels: list[str]) -> list:
    """Each node's box, as wide as its label (an English piece such as "▁student" is wider than a row is tall; a
    Chinese character fits a square), drawn as filled outlines: one trace per status and per place on the chosen
    path (its outline in the highlight colour). Lines, not markers: a marker is a square of one size."""
    groups: dict[tuple[str, bool], tuple[list, list]] = {}
    half_height = (lay.row_px - 6) / 2 / lay.row_px  # in rows: the y axis counts rows
    for i, n in enumerate(nodes):
        if x[i] < first_column:
            continue
        label_px = text_em(labels[i]) * NODE_FONT_PX
        half_width = max(lay.row_px - 6, label_px + 2 * BOX_PAD_EM * NODE_FONT_PX) / 2 / lay.column_px
        xs, ys = groups.setdefault((n.status, n.chosen), ([], []))
        left, right, low, high = x[i] - half_width, x[i] + half_width, y[i] - half_height, y[i] + half_height
        xs += [left, right, right, left, left, None]
        ys += [low, low, high, high, low, None]
    traces = []
    for (status, chosen), (xs, ys) in groups.items():
        fill, outline, _ = NODE_COLORS[status]
        line = dict(color=HIGHLIGHT_COLOR, width=NODE_OUTLINE_PX) if chosen else dict(color=outline, width=1)
        traces.append(dict(type="scatter", mode="lines", x=xs, y=ys, fill="toself", fillcolor=fill, line=line,
                           hoverinfo="skip", showlegend=False))
    return traces


LEGEND_LINE_PX = 8  # a status's legend symbol: a thick stroke of its outline colour, a swatch


def _legend_traces(nodes: list[Node], names: dict[str, str], first_column: int) -> list:
    """A legend entry per status drawn, its symbol a swatch of the status's colour: a line left of the plotted
    columns (off the axis: a trace without points has no legend entry, and one of markers would be a point of the
    tree). The boxes themselves are grouped by the chosen path."""
    drawn = {n.status for n in nodes}
    return [dict(type="scatter", mode="lines", x=[first_column - 3, first_column - 2], y=[0, 0], name=names[s],
                 line=dict(color=NODE_COLORS[s][1], width=LEGEND_LINE_PX), hoverinfo="skip", showlegend=True)
            for s in STATUSES if s in drawn]


def _node_traces(nodes: list[Node], x: np.ndarray, y: np.ndarray, first_column: int, marker_px: float,
                 names: dict[str, str], hover: str, labels: list[str]) -> list:
    """One trace of nodes per status, each node its newest token over its box (_box_traces); the markers are
    invisible, there for the hover (the whole hypothesis and its log-probabilities), not drawn; the root (<s>)
    without hover."""
    traces = []
    for status in ("root", *STATUSES):
        idx = [i for i, n in enumerate(nodes) if n.status == status and x[i] >= first_column]
        if not idx:
            continue
        _, outline, ink = NODE_COLORS[status]
        chosen = [nodes[i].chosen for i in idx]
        trace = dict(
            type="scatter", mode="markers+text", x=x[idx], y=y[idx], cliponaxis=False,
            text=[token_label(labels[i]) for i in idx], textfont=dict(size=NODE_FONT_PX, color=ink),
            marker=dict(symbol="square", size=marker_px, opacity=0,
                        line=dict(color=[HIGHLIGHT_COLOR if c else outline for c in chosen],
                                  width=[NODE_OUTLINE_PX if c else 1 for c in chosen])),
            showlegend=False,
        )
        if status == "root":
            traces.append({**trace, "hoverinfo": "skip"})
            continue
        parent_logprob = [nodes[nodes[i].parent].logprob for i in idx]
        trace["customdata"] = [[joined_text(nodes[i].tokens), nodes[i].logprob, nodes[i].logprob - p,
                                nodes[i].step + 1] for i, p in zip(idx, parent_logprob)]
        traces.append({**trace, "name": names[status], "hovertemplate": hover + f"<extra>{names[status]}</extra>"})
    return traces


@dataclass(frozen=True)
class TreeLabels:
    """A beam tree's words: each status's name in the legend (STATUSES; a status left out keeps its own name), the
    chosen translation's, the steps' axis title, the hover's two log-probabilities' names and the root node's
    label."""

    statuses: Mapping[str, str] | None = None
    chosen: str = "chosen translation"
    step_title: str = "step"
    logprob: str = "log P(hypothesis)"
    token_logprob: str = "log P(its last token)"
    root: str = "<s>"


def beam_tree(
    steps: Sequence[Mapping[str, Sequence[tuple[Sequence[str], float]]]],
    chosen: Sequence[str],
    *,
    current: int | None = None,
    last: int | None = None,
    labels: TreeLabels = TreeLabels(),
    title: str = "",
    room: Room = Room(),
) -> go.Figure:
    """The search's tree (tree_nodes) up to step `last` (0-based; default: `current`), the column of step `current`
    (default: the last step) shaded: x the step, each node its newest token, hover its whole hypothesis, its
    log-probability and its last token's, named by `labels`. At most room.max_width × room.max_height: where the
    columns do not fit, the last ones up to `last`'s."""
    checked(labels, TreeLabels, "labels")
    checked(room, Room, "room")
    status_labels, chosen_label, step_title = labels.statuses, labels.chosen, labels.step_title
    logprob_label, token_logprob_label, root_label = labels.logprob, labels.token_logprob, labels.root
    if not steps:
        raise ValueError("steps holds no search step: pass the beam search's records (greedy search has none)")
    current = len(steps) - 1 if current is None else int(current)
    last = current if last is None else int(last)
    if not 0 <= current <= last < len(steps):
        raise ValueError(f"need 0 <= current <= last < {len(steps)} steps, got current {current} and last {last}")
    nodes = tree_nodes(steps[: last + 1], chosen)
    names = {s: plain_text((status_labels or {}).get(s, s)) for s in STATUSES}
    legend = [names[s] for s in STATUSES if any(n.status == s for n in nodes)] + [chosen_label]
    lay = _layout(steps, last, legend, title, step_title, room.max_width, room.max_height)
    x, y = _positions(nodes, lay.rows)
    hover = (f"<b>%{{customdata[0]}}</b><br>{plain_text(step_title)} %{{customdata[3]}}<br>"
             f"{plain_text(logprob_label)}: <b>%{{customdata[1]:.3f}}</b><br>"
             f"{plain_text(token_logprob_label)}: %{{customdata[2]:.3f}}")
    first = lay.columns.start
    labels = [root_label, *(n.tokens[-1] for n in nodes[1:])]
    traces = [*_edge_traces(nodes, x, y, first, chosen_label), *_box_traces(nodes, x, y, first, lay, labels),
              *_legend_traces(nodes[1:], names, first),
              *_node_traces(nodes, x, y, first, lay.row_px - 6, names, hover, labels)]
    shade = dict(type="rect", xref="x", yref="paper", x0=current + 0.5, x1=current + 1.5, y0=0, y1=1,
                 fillcolor=CURRENT_FILL, line=dict(width=0), layer="below")
    ticks = list(lay.columns)
    return styled_figure(
        traces, title, top=lay.top, bottom=lay.bottom, width=lay.width, height=lay.height, legend=legend_above(),
        shapes=[shade], hovermode="closest",
        xaxis=titled(step_title, wrap=lay.width - 2 * EDGE_PX, tickmode="array", tickvals=ticks,
                     ticktext=["" if c == 0 else str(c) for c in ticks], showgrid=False, zeroline=False,
                     range=[first - 0.5, lay.columns.stop - 0.5], tickfont=dict(size=NODE_FONT_PX)),
        yaxis=dict(visible=False, range=[lay.rows - 0.5, -0.5]),
    )
