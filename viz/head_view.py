"""The head view: query tokens on the left, key tokens on the right, a line for each weight.

Line strength follows the weight and each head has its own colour. Each head
is one legend entry (a legend group), so clicking a head in the legend hides
or shows its lines. Weights below `min_weight` are not drawn (a 40-token
sentence has 1,600 query–key pairs per head, and most carry almost nothing),
except each query's strongest key: a head that spreads its attention thinly
still shows where each query looked most.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text, token_labels
from .style import D3, FONT, styled_figure, titled
from .validate import as_float32, check_index, check_labels

# One colour per head (Plotly's D3 palette, then Dark24 for models with more heads).
HEAD_COLORS = D3 + (
    "#2E91E5", "#E15F99", "#1CA71C", "#FB0D0D", "#DA16FF", "#222A2A", "#B68100", "#750D86", "#EB663B", "#511CFB",
)
# Weights fall into these bands; a band is one trace with one opacity and width (Plotly lines have one style per trace).
BANDS = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0001)
ROW_PX = 24


def head_color(head: int) -> str:
    return HEAD_COLORS[head % len(HEAD_COLORS)]


def token_positions(n: int, span: int) -> np.ndarray:
    """n positions spread evenly over 0..span-1, so source and target columns have the same height."""
    return np.linspace(0, span - 1, n) if n > 1 else np.array([(span - 1) / 2])


def head_view(
    weights,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    *,
    heads: Sequence[int] | None = None,
    query_index: int | None = None,
    min_weight: float = 0.1,
    title: str = "",
    query_title: str = "queries",
    key_title: str = "keys",
    value_label: str = "weight",
    head_label: str = "head {n}",
) -> go.Figure:
    """Bipartite lines for one layer's (heads, Tq, Tk) weights.

    heads: which heads to draw (default all); query_index: draw only the lines
    of that query token; min_weight: lighter lines are pruned.
    """
    w = as_float32(weights, "weights", 3)
    n_heads, tq, tk = w.shape
    query_tokens = check_labels(query_tokens, tq, "query_tokens", "rows (queries)")
    key_tokens = check_labels(key_tokens, tk, "key_tokens", "columns (keys)")
    heads = list(range(n_heads)) if heads is None else [check_index(h, n_heads, "head") for h in heads]
    if query_index is not None:
        check_index(query_index, tq, "query_index")
    if not 0 <= min_weight < 1:
        raise ValueError(f"min_weight must be in [0, 1), got {min_weight}")
    span = max(tq, tk)
    yq, yk = token_positions(tq, span), token_positions(tk, span)
    q_text, k_text = token_labels(query_tokens), token_labels(key_tokens)
    value = plain_text(value_label)
    fade = 1.0 if len(heads) == 1 else 0.7  # overlapping heads stay see-through
    traces = []  # plain dicts: go.Figure validates each once (a go.Scatter would be validated twice)
    for head in heads:
        hw = w[head]
        name = plain_text(head_label.format(n=head + 1))
        drawn = (hw >= min_weight) | (hw == hw.max(axis=1, keepdims=True))
        for low, high in zip(BANDS, BANDS[1:]):
            qi, ki = _pairs(drawn & (hw >= low) & (hw < high), query_index)
            if not len(qi):
                continue
            strength = (low + min(high, 1.0)) / 2  # 0.05 … 0.875
            # Each line is three points: query end, key end, a gap (NaN) before the next line.
            xs = np.tile(np.array([0.0, 1.0, np.nan], dtype=np.float32), len(qi))
            ys = np.column_stack([yq[qi], yk[ki], np.full(len(qi), np.nan)]).ravel().astype(np.float32)
            traces.append(dict(
                type="scatter", x=xs, y=ys, mode="lines", line=dict(color=head_color(head), width=0.8 + 5 * strength),
                opacity=float(np.clip(0.15 + strength, 0.2, 0.95) * fade),
                legendgroup=f"head{head}", name=name, showlegend=False, hoverinfo="skip",
            ))
        # Lines only hover at their points, so a marker on each line's middle carries the exact weight.
        qi, ki = _pairs(drawn, query_index)
        traces.append(dict(
            type="scatter", x=np.full(len(qi), 0.5, dtype=np.float32),
            y=((yq[qi] + yk[ki]) / 2).astype(np.float32),
            mode="markers", marker=dict(color=head_color(head), size=5, opacity=0.6),
            text=[f"{q_text[a]} → {k_text[b]}<br>{value}: <b>{hw[a, b]:.4f}</b>" for a, b in zip(qi, ki)],
            hovertemplate=f"{name}<br>%{{text}}<extra></extra>",
            legendgroup=f"head{head}", name=name, showlegend=True,
        ))
    # yaxis2 needs a trace to be drawn; an invisible one keeps the right-hand token column.
    traces.append(dict(type="scatter", x=[None], y=[None], yaxis="y2", showlegend=False, hoverinfo="skip"))
    return styled_figure(
        traces,
        title,
        height=150 + max(span * ROW_PX, 360),  # a short sentence still gets room between its lines
        width=680,
        showlegend=True,
        legend=dict(orientation="h", x=0.5, xanchor="center", y=-0.01, yanchor="top", itemclick="toggle",
                    groupclick="togglegroup"),
        xaxis=dict(range=[-0.02, 1.02], visible=False, fixedrange=True),
        yaxis=_side_axis(yq, q_text, query_title, span),
        yaxis2=_side_axis(yk, k_text, key_title, span, overlaying="y", side="right"),
    )


def _pairs(selected: np.ndarray, query_index: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(query, key) index pairs where `selected` holds, limited to one query row if given."""
    qi, ki = np.nonzero(selected)
    if query_index is None:
        return qi, ki
    keep = qi == query_index
    return qi[keep], ki[keep]


def _side_axis(positions: np.ndarray, labels: list[str], title: str, span: int, **extra) -> dict:
    size = int(np.clip(ROW_PX * 0.65, 9, 14))
    return titled(
        title, tickmode="array", tickvals=positions.tolist(), ticktext=labels, tickfont=dict(size=size, family=FONT),
        range=[span - 0.5, -0.5], showgrid=False, zeroline=False, fixedrange=True, ticks="", **extra,
    )
