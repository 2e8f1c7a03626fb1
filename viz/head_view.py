"""The head view: query tokens on the left, key tokens on the right, a line for each weight.

Line strength follows the weight and each head has its own colour. Each head
is one legend entry (a legend group), so clicking a head in the legend hides
or shows its lines. Weights below `min_weight` are not drawn (a 40-token
sentence has 1,600 query–key pairs per head, and most carry almost nothing),
except each query's strongest key: a head that spreads its attention thinly
still shows where each query looked most. With every query shown, each query
keeps at most its TOP_LINKS strongest keys (its strongest one per head where several heads are drawn), so the
lines do not tangle.
Hovering a token lists its strongest links; the query tokens carry their
index as customdata, so a click can focus the view on that query (clicked_query).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text, token_labels
from .style import (
    D3,
    EDGE_PX,
    GUIDE_COLOR,
    TICK_PAD_PX,
    axis_title_px,
    largest_cell,
    legend_above,
    legend_px,
    styled_figure,
    tick_layout,
    title_px,
    token_axis,
)
from .options import Heads, Labels, Room, checked
from .validate import as_float32, check_index, check_labels

# One colour per head: D3's most distinct eight first (its grey and olive are easily confused), then Dark24's.
HEAD_COLORS = tuple(D3[i] for i in (0, 1, 2, 3, 4, 9, 6, 5, 7, 8)) + (
    "#2E91E5", "#E15F99", "#1CA71C", "#FB0D0D", "#DA16FF", "#222A2A", "#B68100", "#750D86", "#EB663B", "#511CFB",
)
# Weights fall into these bands; a band is one trace with one opacity and width (Plotly lines have one style per trace).
BANDS = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0001)
ROW_PX = 28  # a short sentence's rows grow to this and no further
LINES_PX = (160, 400)  # the narrowest and widest the space between the two token columns gets
TOP_LINKS = 3  # links kept per query when every query is shown; listed per token in its hover


def head_color(head: int) -> str:
    return HEAD_COLORS[head % len(HEAD_COLORS)]


def head_view(
    weights,
    labels: Labels,
    *,
    heads: Heads = Heads(),
    query_index: int | None = None,
    min_weight: float = 0.1,
    title: str = "",
    room: Room = Room(),
) -> go.Figure:
    """Bipartite lines for one layer's (heads, Tq, Tk) weights.

    labels: the queries' and keys' tokens and the axes' titles (Labels); heads: which heads to draw (default all)
    and their names (Heads); query_index: draw only the lines of that query token; min_weight: lighter lines are
    pruned. room: the size limits and the token labels' smallest font (tick_layout).
    """
    w = as_float32(weights, "weights", 3)
    n_heads, tq, tk = w.shape
    checked(labels, Labels, "labels")
    checked(heads, Heads, "heads")
    checked(room, Room, "room")
    query_tokens = check_labels(labels.queries, tq, "labels.queries", "rows (queries)")
    key_tokens = check_labels(labels.keys, tk, "labels.keys", "columns (keys)")
    labels = replace(labels, queries=query_tokens, keys=key_tokens)
    names = [plain_text(heads.label.format(n=h + 1)) for h in range(n_heads)] if heads.names is None else [
        plain_text(name) for name in check_labels(heads.names, n_heads, "heads.names", "heads")]
    shown = list(range(n_heads)) if heads.shown is None else [check_index(h, n_heads, "head") for h in heads.shown]
    if query_index is not None:
        check_index(query_index, tq, "query_index")
    if not 0 <= min_weight < 1:
        raise ValueError(f"min_weight must be in [0, 1), got {min_weight}")
    query_title, key_title, value_label = labels.query_title, labels.key_title, labels.value_label

    s = _layout(labels, [names[h] for h in shown], title, room)
    yk = (np.arange(tk) + 0.5) * tq / tk - 0.5  # key positions on the query axis: both sides span the plot's height
    hover = _Hover(token_labels(query_tokens), token_labels(key_tokens), plain_text(value_label))
    fade = 1.0 if len(shown) == 1 else 0.7  # overlapping heads stay see-through
    links = 1 if len(shown) > 1 else TOP_LINKS  # per head: kept of each query's lines, listed in a token's hover
    traces = []  # plain dicts: go.Figure validates each once (a go.Scatter would be validated twice)
    for head in shown:
        hw = w[head]
        drawn = (hw >= min_weight) | (hw == hw.max(axis=1, keepdims=True))
        if query_index is None:
            drawn &= _top(hw, links)
        traces += _head_traces(hw, _pairs(drawn, query_index), yk, head, names[head], fade, hover)
    strongest = [_strongest(w[h], names[h] if len(shown) > 1 else "", links, hover.keys, hover.queries, hover.value)
                 for h in shown]
    traces += _token_traces(strongest, hover, query_title, key_title)
    return styled_figure(
        traces,
        title,
        top=s["top"],
        left=s["left"],
        right=s["right"],
        height=s["height"],
        width=s["width"],
        showlegend=True,
        legend=dict(legend_above(), itemclick="toggle", groupclick="togglegroup", itemsizing="constant"),
        xaxis=dict(range=[-0.03, 1.03], visible=False, fixedrange=True),
        yaxis=token_axis(query_tokens, query_title, fit=s["left_fit"], reversed_=True, wrap=s["wrap"],
                         fixedrange=True, ticks=""),
        yaxis2=token_axis(key_tokens, key_title, fit=s["right_fit"], reversed_=True, wrap=s["wrap"],
                          fixedrange=True, ticks="", overlaying="y", side="right"),
    )


def _layout(labels: Labels, legend: list[str], title: str, room: Room) -> dict:
    """Label layout, margins and size of the figure: the largest rows (up to ROW_PX) that fit the room."""
    query_tokens, key_tokens, query_title, key_title = labels.queries, labels.keys, labels.query_title, labels.key_title
    max_width, max_height, min_font_px = room.max_width, room.max_height, room.min_font_px
    tq, tk = len(query_tokens), len(key_tokens)

    def size(row: int) -> dict:
        """The figure with `row` px per row of the longer side."""
        plot_h = max(tq, tk) * row
        wrap = plot_h + 2 * EDGE_PX  # an axis title no longer than the plot and the bottom margin allow
        left = tick_layout(query_tokens, plot_h / tq, across=False, min_font_px=min_font_px)
        right = tick_layout(key_tokens, plot_h / tk, across=False, min_font_px=min_font_px)
        s = dict(left_fit=left, right_fit=right, plot_h=plot_h, wrap=wrap,
                 left=int(EDGE_PX + axis_title_px(query_title, wrap) + left.depth + TICK_PAD_PX),
                 right=int(EDGE_PX + axis_title_px(key_title, wrap) + right.depth + TICK_PAD_PX))
        lines = int(np.clip(max_width - s["left"] - s["right"], *LINES_PX))
        s["width"] = s["left"] + s["right"] + lines
        s["top"] = EDGE_PX + legend_px(legend, lines)
        s["height"] = title_px(title, s["width"]) + s["top"] + plot_h + EDGE_PX
        return s

    return size(largest_cell(lambda px: size(px)["height"] <= max_height and size(px)["width"] <= max_width, ROW_PX))


@dataclass(frozen=True)
class _Hover:
    """What hover texts name: the query and key tokens as labels, and the weights' name."""

    queries: list[str]
    keys: list[str]
    value: str


def _head_traces(hw: np.ndarray, pairs: tuple[np.ndarray, np.ndarray], yk: np.ndarray, head: int, name: str,
                 fade: float, hover: _Hover) -> list[dict]:
    """One head's lines from query to key, one trace per weight band, and the markers that carry their weights."""
    traces = []
    for low, high in zip(BANDS, BANDS[1:]):
        band = (hw[pairs] >= low) & (hw[pairs] < high)
        qi, ki = pairs[0][band], pairs[1][band]
        if not len(qi):
            continue
        strength = (low + min(high, 1.0)) / 2  # 0.05 … 0.875
        # Each line is three points: query end, key end, a gap (NaN) before the next line.
        xs = np.tile(np.array([0.0, 1.0, np.nan], dtype=np.float32), len(qi))
        ys = np.column_stack([qi, yk[ki], np.full(len(qi), np.nan)]).ravel().astype(np.float32)
        traces.append(dict(
            type="scatter", x=xs, y=ys, mode="lines", line=dict(color=head_color(head), width=0.8 + 5 * strength),
            opacity=float(np.clip(0.1 + strength, 0.15, 0.95) * fade),
            legendgroup=f"head{head}", name=name, showlegend=False, hoverinfo="skip",
        ))
    # Lines only hover at their points, so a marker on each line's middle carries the exact weight.
    qi, ki = pairs
    traces.append(dict(
        type="scatter", x=np.full(len(qi), 0.5, dtype=np.float32), y=((qi + yk[ki]) / 2).astype(np.float32),
        mode="markers", marker=dict(color=head_color(head), size=5, opacity=0.6),
        text=[f"{a} · {hover.queries[a]} → {b} · {hover.keys[b]}<br>{hover.value}: <b>{hw[a, b]:.4f}</b>"
              for a, b in zip(qi, ki)],
        hovertemplate=f"{name}<br>%{{text}}<extra></extra>",
        legendgroup=f"head{head}", name=name, showlegend=True,
    ))
    return traces


def _token_traces(strongest: list[tuple[list[str], list[str]]], hover: _Hover, query_title: str,
                  key_title: str) -> list[dict]:
    """The tokens as markers: hovering one lists its strongest links; a query's index is its customdata."""
    traces = []
    for side, (x, text, axis_title) in enumerate(((0.0, hover.queries, query_title), (1.0, hover.keys, key_title))):
        lines = [f"{plain_text(axis_title)}: <b>{i} · {t}</b>" + "".join(s[side][i] for s in strongest)
                 for i, t in enumerate(text)]
        traces.append(dict(
            type="scatter", x=np.full(len(text), x, dtype=np.float32), y=np.arange(len(text)).astype(np.float32),
            yaxis=f"y{side + 1}", mode="markers", marker=dict(color=GUIDE_COLOR, size=8), text=lines,
            showlegend=False, hovertemplate="%{text}<extra></extra>", unselected=dict(marker=dict(opacity=1)),
            **(dict(customdata=np.arange(len(text), dtype=np.int32)) if side == 0 else {}),
        ))
    return traces


def _top(hw: np.ndarray, k: int) -> np.ndarray:
    """True at each query's k largest weights."""
    rank = np.argsort(np.argsort(-hw, axis=1, kind="stable"), axis=1, kind="stable")
    return rank < k


def _strongest(hw: np.ndarray, name: str, k: int, k_text: list[str], q_text: list[str], value: str
               ) -> tuple[list[str], list[str]]:
    """Hover lines of each query's k strongest keys and of each key's k strongest queries, for one head."""
    def lines(weights: np.ndarray, other: list[str], arrow: str) -> list[str]:
        order = np.argsort(-weights, axis=1, kind="stable")[:, :k]
        return ["".join(f"<br>{name + ': ' if name else ''}{arrow} {j} · {other[j]}  {value}: <b>{row[j]:.4f}</b>"
                        for j in best) for row, best in zip(weights, order)]

    return lines(hw, k_text, "→"), lines(hw.T, q_text, "←")


def _pairs(selected: np.ndarray, query_index: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(query, key) index pairs where `selected` holds, limited to one query row if given."""
    qi, ki = np.nonzero(selected)
    if query_index is None:
        return qi, ki
    keep = qi == query_index
    return qi[keep], ki[keep]


def clicked_query(selection_points: list[dict]) -> int | None:
    """The query token a click on the head view selected (its customdata), if any."""
    for point in selection_points:
        data = point.get("customdata")
        if isinstance(data, (int, float)):
            return int(data)
    return None
