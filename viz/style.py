"""The look every figure shares, and the one way a figure is built: `styled_figure`.

Every figure function in viz/ returns `styled_figure(traces, title, **layout)`:
traces and layout go into one go.Figure constructor call. Adding traces or
updating the layout afterwards (add_trace, update_layout, add_vline,
make_subplots) re-validates the whole figure each time, 3–5× slower for the
head view's 40 traces, so the helpers below return plain dicts (axes, shapes,
annotations, subplot domains) that go into that one call.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .labels import plain_text, token_labels

FONT = "Noto Sans, Noto Sans CJK SC, sans-serif"

# Colours, each named once.
MASKED_COLOR = "#d9d9d9"  # hidden cells (masked, −∞, padding) and the note that explains them
NOTE_COLOR = "#555"  # text of such notes
GRID_COLOR = "#eee"
GUIDE_COLOR = "#666"  # reference lines: the end of warm-up, the chosen d_k
NEUTRAL_COLOR = "#bbb"  # what the data is compared with: the theory line, the one-hot target, zero
HIGHLIGHT_COLOR = "#e4572e"  # the chosen candidate, the selected map
D3 = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
QUERY_COLOR, KEY_COLOR, VALUE_COLOR, OUTPUT_COLOR = D3[0], D3[1], D3[2], D3[4]
ATTENTION_COLORSCALE = "Blues"  # white = no attention, so a sparse head reads at a glance
DIVERGING_COLORSCALE = "RdBu_r"  # values of either sign, white at 0

TITLE_PX = 40  # room a figure title takes above the plot
AXIS_TITLE_PX = 30
MAX_FIGURE_PX = 1400
CONTAINER_PX = 600  # the width a figure sized by the page (no width of its own) is assumed to get


def cell_px(n: int) -> int:
    """Pixels per row/column: big for short sentences, never so small that labels overlap."""
    return int(np.clip(900 / max(n, 1), 8, 60))


def tick_font_size(n: int) -> int:
    return int(np.clip(cell_px(n) * 0.7, 8, 14))


def tick_angle(labels: Sequence[str], n_px: float | None = None) -> int:
    """Upright labels while they fit side by side in n_px (None: as wide as the page), vertical once they would not.

    Each label is centred on its own slot of n_px / len(labels): two neighbours collide when their half
    widths add up to more than a slot, even where all the labels together would fit ("▁apples▁yesterday").
    """
    n_px = CONTAINER_PX if n_px is None else n_px
    widths = [(len(t) + 1) * tick_font_size(len(labels)) * 0.62 for t in labels]
    slot = n_px / max(len(labels), 1)
    neighbours = max(((a + b) / 2 for a, b in zip(widths, widths[1:])), default=0.0)
    return 0 if sum(widths) <= n_px and neighbours <= slot else -90


def styled_figure(data, title: str, *, top: int = 20, right: int = 10, template: dict | None = None, **layout) -> go.Figure:
    """A figure of `data` (traces) with the look every figure shares: title on the left, white plot, the app's font,
    a legend (where there is one) across the bottom.

    top: the top margin without a title; a title adds TITLE_PX, and an x axis on
    the top side the room its labels and title take (`top_axis_px`): Plotly
    grows a margin to fit an axis but not the figure title as well, so without
    that room the title would overprint the axis title and labels. That room
    is added to `height` too, so the plot keeps the height it was given.
    The template is empty because Plotly's default one adds ~9 KB to every
    figure; the app's theme styles the rest. A figure with many axes passes what
    they share as `template` (e.g. template=dict(layout=dict(xaxis=…))), which
    Plotly applies to every x axis, instead of repeating it per axis.
    """
    axis_px = max((top_axis_px(v) for k, v in layout.items()
                   if k.startswith("xaxis") and isinstance(v, dict) and v.get("side") == "top"), default=0)
    if axis_px and layout.get("height"):
        layout["height"] += axis_px
    layout.setdefault("plot_bgcolor", "white")
    layout.setdefault("legend", legend_below())
    style = dict(
        template=template or go.layout.Template(),
        title=dict(text=plain_text(title), x=0, xanchor="left", yref="container", y=1, yanchor="top",
                   pad=dict(t=12)),
        margin=dict(l=10, r=right, t=top + (TITLE_PX if title else 0) + axis_px, b=10),
        font=dict(family=FONT),
    )
    return go.Figure(data=list(data), layout={**style, **layout})


def top_axis_px(axis: dict) -> int:
    """Pixels an x axis on the top side takes above the plot: its tick labels (upright or vertical) and its title."""
    size = axis.get("tickfont", {}).get("size", 12)
    longest = max((len(html.unescape(t)) for t in axis.get("ticktext", ())), default=2)
    labels_px = longest * size * 0.62 if axis.get("tickangle") == -90 else size * 1.4  # as tick_angle estimates
    return int(labels_px) + AXIS_TITLE_PX


def hovertemplate(*lines: tuple[str, str]) -> str:
    """Hover text with one "label: <b>value</b>" line per (label, Plotly placeholder) pair, e.g. ("weight", "%{z:.4f}")."""
    return "<br>".join(f"{plain_text(label)}: <b>{value}</b>" if label else f"<b>{value}</b>"
                       for label, value in lines) + "<extra></extra>"


def titled(title: str, **extra) -> dict:
    """Axis settings with an (escaped) title."""
    return dict(title=dict(text=plain_text(title)), **extra)


def token_axis(tokens: Sequence[str], title: str, *, reversed_: bool = False, **extra) -> dict:
    """Axis settings that label integer positions 0..n-1 with the tokens, so repeated tokens keep their own row."""
    n = len(tokens)
    axis = titled(
        title,
        tickmode="array",
        tickvals=list(range(n)),
        ticktext=token_labels(tokens),
        tickfont=dict(size=tick_font_size(n), family=FONT),
        showgrid=False,
        zeroline=False,
        automargin=True,
        range=[n - 0.5, -0.5] if reversed_ else [-0.5, n - 0.5],
    )
    axis.update(extra)
    return axis


def legend_below(y: float = -0.25) -> dict:
    """A horizontal legend under the plot; `y` (below 0) leaves room for the x axis's labels and title."""
    return dict(orientation="h", y=y)


def domains(n: int, gap: float) -> list[list[float]]:
    """n equal spans of 0..1 with `gap` between them, first to last (a grid of subplots laid out by hand)."""
    size = (1 - gap * (n - 1)) / n
    return [[i * (size + gap), i * (size + gap) + size] for i in range(n)]


def vline(x: float, xref: str = "x", **line) -> dict:
    """A vertical line across the whole height of the plot of axis `xref` (what fig.add_vline adds)."""
    return dict(type="line", x0=x, x1=x, xref=xref, y0=0, y1=1, yref=f"y{xref[1:]} domain", line=line)


def guide_line(x: float, label: str = "") -> dict:
    """Layout of a dashed reference line at data x (the end of warm-up, the chosen d_k), labelled at its top right."""
    notes = [dict(text=plain_text(label), x=x, y=1, xref="x", yref="y domain", xanchor="left", yanchor="top",
                  showarrow=False)] if label else []
    return dict(shapes=[vline(x, color=GUIDE_COLOR, dash="dash")], annotations=notes)


def paper_label(text: str, x: float, y: float, **extra) -> dict:
    """Caller text (escaped) at a point of the plot area in 0..1 coordinates, e.g. a subplot's title."""
    return dict(text=plain_text(text), x=x, y=y, xref="paper", yref="paper", showarrow=False, **extra)


def masked_note(text: str) -> dict:
    """A grey label at the top right that says what the grey cells or columns mean."""
    return paper_label(text, 1, 1, xanchor="right", yanchor="bottom", font=dict(color=NOTE_COLOR, size=12),
                       bgcolor=MASKED_COLOR)


DEFAULT_FONT_PX = 12  # Plotly's size for text that names none


def scaled(fig: go.Figure, factor: float) -> go.Figure:
    """The figure `factor` times larger as a whole: every font, the width, height and margins.

    Presentation mode enlarges figures this way rather than asking each figure for bigger text: text and
    cells grow together, so labels that did not overlap at factor 1 do not overlap at any factor.
    """
    if factor <= 0:
        raise ValueError(f"factor must be positive, got {factor}")
    spec = fig.to_plotly_json()
    layout = spec["layout"]

    def grow(node, key: str = "") -> None:
        if isinstance(node, dict):
            if key.endswith("font") and "size" in node and not isinstance(node["size"], (list, tuple)):
                node["size"] = node["size"] * factor
            for k, v in node.items():
                grow(v, k)
        elif isinstance(node, (list, tuple)):
            for v in node:
                grow(v, key)

    grow(spec["data"])
    grow(layout)
    font = layout.setdefault("font", {})
    font.setdefault("size", DEFAULT_FONT_PX * factor)
    for key in ("width", "height"):
        if layout.get(key):
            layout[key] = layout[key] * factor
    layout["margin"] = {k: v * factor if isinstance(v, (int, float)) else v for k, v in layout.get("margin", {}).items()}
    return go.Figure(spec["data"], layout)
