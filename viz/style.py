"""The look every figure shares, and the one way a figure is built: `styled_figure`.

Every figure function in viz/ returns `styled_figure(traces, title, **layout)`:
traces and layout go into one go.Figure constructor call. Adding traces or
updating the layout afterwards (add_trace, update_layout, add_vline,
make_subplots) re-validates the whole figure each time, 3–5× slower for the
head view's 40 traces, so the helpers below return plain dicts (axes, shapes,
annotations, subplot domains) that go into that one call.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import plotly.graph_objects as go

from .labels import BREAKABLE, broken_labels, halves, plain_text, token_labels

FONT = "Noto Sans, Noto Sans CJK SC, sans-serif"

# Colours, each named once.
MASKED_COLOR = "#d9d9d9"  # hidden cells (masked, −∞, padding) and the note that explains them
NOTE_COLOR = "#555"  # text of such notes
GRID_COLOR = "#eee"
GUIDE_COLOR = "#666"  # reference lines: the end of warm-up, the chosen d_k
NEUTRAL_COLOR = "#bbb"  # what the data is compared with: the theory line, the one-hot target, zero
HIGHLIGHT_COLOR = "#e4572e"  # the chosen candidate, the selected map
ANSWER_COLOR = "#212529"  # a guess exercise: the right answer's outline, a student's guess bar's outline
GUESS_COLOR = "#e8590c"  # a guess exercise: the student's guess on a map, a forced continuation
D3 = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
QUERY_COLOR, KEY_COLOR, VALUE_COLOR, OUTPUT_COLOR = D3[0], D3[1], D3[2], D3[4]
ATTENTION_COLORSCALE = "Blues"  # white = no attention, so a sparse head reads at a glance
DIVERGING_COLORSCALE = "RdBu_r"  # values of either sign, white at 0

TITLE_PX = 40  # room one line of figure title takes above the plot
MODEBAR_PX = 30  # room Plotly's mode bar takes at the top right, over the plot where nothing else is above it
AXIS_TITLE_PX = 30  # an axis title's line and its gap to the tick labels
EDGE_PX = 10  # margin at a figure's edge where nothing else needs room
TICK_PAD_PX = 6  # between an axis and its tick labels
LEGEND_ROW_PX = 34  # a row of a horizontal legend: 16 px names beside their symbols
CONTAINER_PX = 600  # the width a figure sized by the page (no width of its own) is assumed to get
# A 1280×800 projector leaves about this much for one figure beside Streamlit's sidebar and text.
MAX_WIDTH_PX, MAX_HEIGHT_PX = 820, 560

# Text sizes, in px. A projector's back row needs 16 px; labels shrink only to fit small cells, never below 11.
BASE_FONT_PX, MIN_FONT_PX, HOVER_FONT_PX, CELL_TEXT_PX = 16, 11, 16, 14
# Estimated text extents, in font sizes: a Latin character's width, a wide one's (CJK, and what Unicode calls
# ambiguous, ▁ · × ∞ … → é, which CJK fonts draw full width), the box a browser draws around a line (Noto Sans
# CJK's), and the room kept between neighbour labels.
CHAR_EM, WIDE_EM, LINE_EM, GAP_EM = 0.62, 1.0, 1.5, 0.4
TEXT_EM = 1.2  # the height of a line of text, in font sizes, without the gap to the next line


@lru_cache(maxsize=4096)
def text_em(text: str) -> float:
    """Estimated width of `text` (unescaped) in font sizes."""
    return sum(WIDE_EM if unicodedata.east_asian_width(c) in "WFA" else CHAR_EM for c in text)


def text_px(text: str, size: float) -> float:
    return text_em(text) * size


def min_font_px_at(zoom: float) -> int:
    """The smallest label font, in a figure's own px, that a page enlarging the figure `zoom` times (presentation
    mode) still shows at MIN_FONT_PX or more: a projector's map keeps every label its enlarged cells have room for."""
    return max(1, math.ceil(MIN_FONT_PX / zoom))


@dataclass(frozen=True)
class Ticks:
    """How an axis's labels are drawn: font px, angle (0 upright, −90 vertical), every `step`-th label shown,
    the px the shown labels reach away from the axis, and the px the end labels reach past the axis's ends
    (where the other axis's labels are: a figure moves those that much further out); `broken`: byte tokens and
    </s> on two lines (labels.broken_labels)."""

    size: int = BASE_FONT_PX
    angle: int = 0
    step: int = 1
    depth: float = LINE_EM * BASE_FONT_PX
    overhang: float = 0.0
    broken: bool = False


SHORT_LABEL_EM = 2.5  # labels no wider than this (a Chinese character, </s>) shrink to stay upright before turning


def tick_layout(labels: Sequence[str], slot_px: float, *, across: bool = True,
                min_font_px: int = MIN_FONT_PX, break_tokens: bool = False) -> Ticks:
    """Labels (unescaped) of positions `slot_px` apart, laid out so that no two labels' boxes overlap.

    across: the labels stand side by side (an x axis), else one above the other (a y axis). Upright at 16 px
    when neighbours fit side by side; otherwise in a font whose line fits a slot (min_font_px–16 px), vertical on
    an x axis; and where even a min_font_px line does not fit a slot, only every step-th label, so the shown ones
    do. min_font_px: 11 on screen; less in a figure the page will enlarge (min_font_px_at). break_tokens: before
    turning them, byte tokens and </s> may go on two lines ("<0x" over "E9>", "</" over "s>"), so that the Chinese
    characters beside them stay upright.
    """
    ems = [text_em(t) for t in labels] or [0.0]
    fitted = int(np.clip(slot_px / LINE_EM, min_font_px, BASE_FONT_PX))  # the largest font whose line fits a slot
    if across:
        upright = _upright(ems, slot_px, fitted, min_font_px)
        if upright is None and break_tokens and any(BREAKABLE.fullmatch(t) for t in labels):
            upright = _upright([max(map(text_em, halves(t))) if BREAKABLE.fullmatch(t) else em
                                for t, em in zip(labels, ems)], slot_px, fitted, min_font_px, broken=True)
        if upright is not None:
            return upright
    step = math.ceil(LINE_EM * fitted / slot_px)
    overhang = max(0.0, (LINE_EM * fitted - slot_px) / 2)
    return Ticks(fitted, -90 if across else 0, step, max(ems[::step]) * fitted, overhang)


def _upright(ems: list[float], slot_px: float, fitted: int, min_font_px: int, broken: bool = False) -> Ticks | None:
    """Labels `ems` wide standing side by side at the largest font where neighbours do not overlap: 16 px or
    `fitted`, or for short labels down to min_font_px; None where none does."""
    sizes = (BASE_FONT_PX, fitted)
    if max(ems) <= SHORT_LABEL_EM:  # characters and "</s>": smaller but upright, as a character on its side is
        sizes += tuple(range(fitted - 1, min_font_px - 1, -1))  # hard to read (and a column of them harder)
    for size in dict.fromkeys(sizes):
        if all(((a + b) / 2 + GAP_EM) * size <= slot_px for a, b in zip(ems, ems[1:])):
            return Ticks(size, 0, 1, (1 + broken) * LINE_EM * size,
                         max(0.0, (max(ems[0], ems[-1]) * size - slot_px) / 2), broken)
    return None


def cell_text_size(texts: Sequence[str], width_px: float, height_px: float) -> int | None:
    """The font px (10–14) at which the widest of `texts` fits a cell, or None if even 10 px would not."""
    size = min(CELL_TEXT_PX, (width_px - 4) / max(text_em(t) for t in texts), height_px / LINE_EM)
    return int(size) if size >= MIN_FONT_PX else None


def largest_cell(fits: Callable[[int], bool], largest: int) -> int:
    """The largest whole px from `largest` down to 1 for which fits(px) holds; 1 if none does."""
    return next((px for px in range(largest, 0, -1) if fits(px)), 1)


PHRASE_SEP = " · "  # titles join their parts ("Cross-attention · layer 1 · average of heads") with it


def title_lines(title: str, width: float | None) -> list[str]:
    """The title cut into lines that fit `width` px at 16 px (one line where width is None): between its " · "
    phrases where it can, so that a phrase such as "average of heads" is not broken; between the words of a phrase
    only where that phrase alone is wider than a line."""
    def fits(text: str) -> bool:
        return not width or text_px(text, BASE_FONT_PX) <= width

    lines: list[str] = []
    for phrase in title.split(PHRASE_SEP) if title else ():
        if lines and fits(f"{lines[-1]}{PHRASE_SEP}{phrase}"):
            lines[-1] += PHRASE_SEP + phrase
            continue
        if lines:
            lines[-1] += PHRASE_SEP.rstrip()  # the line ends with the separator: the title goes on below
        words = phrase.split(" ")
        lines.append(words[0])
        for word in words[1:]:
            if fits(f"{lines[-1]} {word}"):
                lines[-1] += " " + word
            else:
                lines.append(word)
    return lines


def title_px(title: str, width: float | None = None) -> int:
    """Room the figure title takes above the plot: TITLE_PX for its first line, a line more for each wrapped one;
    without a title, room for the mode bar that hovering shows there (it would cover the top labels)."""
    lines = len(title_lines(title, width and width - 2 * EDGE_PX))
    return TITLE_PX + (lines - 1) * int(LINE_EM * BASE_FONT_PX) if lines else MODEBAR_PX


def axis_title_px(title: str, length: float | None = None) -> int:
    """Room an axis title takes beside its labels, wrapped to the axis's `length` px (see titled's wrap)."""
    return AXIS_TITLE_PX + (len(title_lines(title, length)) - 1) * int(LINE_EM * BASE_FONT_PX) if title else 0


def widest_tick(low: float, high: float) -> str:
    """A label at least as wide as any Plotly writes by itself on a linear axis from `low` to `high`: the larger
    end's whole digits (Plotly shortens 20000 to "20k"), decimals where the span is short (its ticks step by 1, 2
    or 5 times a power of ten), and below 0 a minus with a digit's room more (PE's "−0.5" takes 2 px more than the
    minus alone leaves, measured in Chromium)."""
    span = abs(high - low)
    decimals = 0 if span >= 5 else 1 if span >= 0.5 else 2
    digits = len(str(int(max(abs(low), abs(high))))) + (low < 0)
    return ("−" if low < 0 else "") + "8" * digits + ("." + "8" * decimals if decimals else "")


def y_labels_band(widest: str, title: str, plot_px: float | None = None) -> int:
    """The left margin a y axis needs: its title's lines (wrapped to the plot's `plot_px` height; a line as tall as a
    CJK or subscripted one), its labels (`widest` the widest), their pad and the edge. Given it, Plotly's automargin
    has nothing to grow: a grown margin makes it draw the chart a second time (20–40 ms a line chart in Chromium,
    measured)."""
    lines = len(title_lines(title, plot_px)) if title else 0
    return math.ceil(EDGE_PX + lines * LINE_EM * BASE_FONT_PX + text_px(widest, BASE_FONT_PX) + TICK_PAD_PX)


def x_labels_band(title: str, plot_px: float | None = None) -> int:
    """The bottom margin an x axis with upright labels needs: one line of them, their pad, its title's lines and the
    edge (see y_labels_band)."""
    lines = len(title_lines(title, plot_px)) if title else 0
    return math.ceil(EDGE_PX + (TEXT_EM + lines * LINE_EM) * BASE_FONT_PX + TICK_PAD_PX)


def y_titles_beyond_labels(layout: dict) -> dict:
    """`layout`'s titled left-hand y axes, each title TICK_PAD_PX beyond the axis's widest label (unless it sets its
    own standoff): without a standoff Plotly only steps a y title clear of the labels level with it, where it reads
    as one of them ("键 ▁every"). The margins figures compute keep that band for it. A right-hand axis (the head
    view's keys) keeps Plotly's own place, beyond its labels: there Plotly measures the labels' depth about 8 px
    short, and a standoff would set the title over the widest."""
    return {name: {**axis, "title": {"standoff": TICK_PAD_PX, **axis["title"]}} for name, axis in layout.items()
            if re.fullmatch(r"yaxis\d*", name) and isinstance(axis, dict) and isinstance(axis.get("title"), dict)
            and axis.get("side", "left") == "left"}


def styled_figure(data, title: str, *, top: int = 20, right: int = EDGE_PX, left: int = EDGE_PX,
                  bottom: int = EDGE_PX, template: dict | None = None, **layout) -> go.Figure:
    """A figure of `data` (traces) with the look every figure shares: title on the left, 16 px text, white plot,
    hover labels in 16 px, a legend (where there is one) above the plot (legend_on_top: there it covers no
    axis's labels).

    top / right / left / bottom: margins in px; the title adds `title_px` above `top` (wrapped to the
    figure's width where it has one). A figure that sizes its plot itself passes margins that hold its axes'
    labels and titles and its legend (Plotly would grow a margin to fit an axis but not the title as well).
    The template is empty because Plotly's default one adds ~9 KB to every
    figure; the app's theme styles the rest. A figure with many axes passes what
    they share as `template` (e.g. template=dict(layout=dict(xaxis=…))), which
    Plotly applies to every x axis, instead of repeating it per axis.
    """
    lines = title_lines(title, layout.get("width") and layout["width"] - 2 * EDGE_PX)
    layout.setdefault("plot_bgcolor", "white")
    layout.update(y_titles_beyond_labels(layout))
    layout.setdefault("legend", legend_above())
    style = dict(
        template=template or go.layout.Template(),
        # Plotly sets a title of several lines 0.7 em higher than one of one line, its top out of the figure.
        title=dict(text="<br>".join(plain_text(line) for line in lines), x=0, xanchor="left", yref="container", y=1,
                   yanchor="top", pad=dict(t=12 + (int(0.7 * BASE_FONT_PX) if len(lines) > 1 else 0)),
                   font=dict(size=BASE_FONT_PX)),
        margin=dict(l=left, r=right, t=top + title_px(title, layout.get("width")), b=bottom),
        font=dict(family=FONT, size=BASE_FONT_PX),
        hoverlabel=dict(font=dict(family=FONT, size=HOVER_FONT_PX)),
    )
    return go.Figure(data=list(data), layout={**style, **layout})


def hovertemplate(*lines: tuple[str, str]) -> str:
    """Hover text with one "label: <b>value</b>" line per (label, Plotly placeholder) pair, e.g. ("weight", "%{z:.4f}")."""
    return "<br>".join(f"{plain_text(label)}: <b>{value}</b>" if label else f"<b>{value}</b>"
                       for label, value in lines) + "<extra></extra>"


def titled(title: str, *, wrap: float | None = None, **extra) -> dict:
    """Axis settings with an (escaped) title, title and labels in the base font (Plotly's default title is 20 %
    larger, Streamlit's theme makes labels 12 px), the title cut into lines no longer than the axis's `wrap` px
    (a title longer than its axis would run into the next one); the margin grows to hold the axis's labels and
    title where the figure's own margins do not."""
    text = "<br>".join(plain_text(line) for line in title_lines(title, wrap))
    return {"title": dict(text=text, font=dict(size=BASE_FONT_PX)), "automargin": True,
            "tickfont": dict(size=BASE_FONT_PX), **extra}


def token_axis(tokens: Sequence[str], title: str, *, fit: Ticks = Ticks(), reversed_: bool = False,
               wrap: float | None = None, **extra) -> dict:
    """Axis settings that label integer positions 0..n-1 with the tokens, so repeated tokens keep their own row;
    `fit` (see tick_layout) sets the labels' font and angle, and shows every fit.step-th one; the title is
    wrapped to `wrap` px (see titled)."""
    n = len(tokens)
    labels = broken_labels(tokens) if fit.broken else token_labels(tokens)
    shown = range(0, n, fit.step)
    axis = titled(
        title,
        wrap=wrap,
        tickmode="array",
        tickvals=list(shown),
        ticktext=[labels[i] for i in shown],
        tickfont=dict(size=fit.size, family=FONT),
        tickangle=fit.angle,
        showgrid=False,
        zeroline=False,
        range=[n - 0.5, -0.5] if reversed_ else [-0.5, n - 0.5],
    )
    axis.update(extra)
    return axis


def position_text(labels: Sequence[str], index: str, label: str) -> str:
    """Hover text naming a token and its position ("3 · ▁the": which "the" it is) from Plotly placeholders of
    its index and label; just the label where every label already starts with its position ("3: ▁the")."""
    numbered = all(str(text).startswith(f"{i}: ") for i, text in enumerate(labels))
    return label if numbered else f"{index} · {label}"


def legend_below() -> dict:
    """A horizontal legend right under the plot, for a figure with no axis below it."""
    return dict(orientation="h", x=0, xanchor="left", y=0, yanchor="top", font=dict(size=BASE_FONT_PX))


def legend_above() -> dict:
    """A horizontal legend between the title and the plot, where no axis labels are (the top margin must hold
    `legend_px` for it)."""
    return dict(orientation="h", x=0, xanchor="left", y=1, yanchor="bottom", font=dict(size=BASE_FONT_PX))


def legend_on_top(names: Sequence[str], plot_px: float = CONTAINER_PX) -> dict:
    """styled_figure settings for a legend of `names` (unescaped) above a plot plot_px wide: there it can never
    cover the axes' labels or titles, and the top margin holds its rows."""
    return dict(legend=legend_above(), top=EDGE_PX + legend_px(names, plot_px))


def legend_px(names: Sequence[str], width: float) -> int:
    """The height a horizontal legend of `names` takes above a plot `width` px wide (Plotly wraps it there)."""
    rows, used = 1, 0.0
    for name in names:
        item = text_px(name, BASE_FONT_PX) + 40  # symbol, gaps
        if used and used + item > width:
            rows, used = rows + 1, 0.0
        used += item
    return rows * LEGEND_ROW_PX


def domains(n: int, gap: float) -> list[list[float]]:
    """n equal spans of 0..1 with `gap` between them, first to last (a grid of subplots laid out by hand)."""
    size = (1 - gap * (n - 1)) / n
    return [[i * (size + gap), min(1.0, i * (size + gap) + size)] for i in range(n)]  # min: float rounding


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
    return paper_label(text, 1, 1, xanchor="right", yanchor="bottom", font=dict(color=NOTE_COLOR, size=CELL_TEXT_PX),
                       bgcolor=MASKED_COLOR)


DEFAULT_FONT_PX = 12  # Plotly's size for text that names none
PX_KEYS = ("ticklabelstandoff", "standoff", "thickness", "xpad", "ypad", "spikethickness")  # other lengths set in px


def scaled(fig: go.Figure, factor: float, width: float | None = None) -> go.Figure:
    """`fig` `factor` times larger as a whole (scaled_spec)."""
    spec = scaled_spec(figure_spec(fig), factor, width)
    return rebuilt(spec["data"], spec["layout"])


def scaled_spec(spec: dict, factor: float, width: float | None = None) -> dict:
    """`spec` (a figure_spec, changed in place and returned) `factor` times larger as a whole: every font, marker
    and line, the width, height, margins and every other length given in px (label standoffs, a colour bar's length
    and thickness). `width`: the width a figure without one of its own is drawn at (Streamlit's 700 px), enlarged
    too, so that its enlarged text has the room it has unenlarged (else a one-line title is cut at the figure's edge).

    Presentation mode enlarges figures this way rather than asking each figure for bigger text: text and
    cells grow together, so labels that did not overlap at factor 1 do not overlap at any factor.
    """
    if factor <= 0:
        raise ValueError(f"factor must be positive, got {factor}")
    layout = spec["layout"]

    def grow(node, key: str = "") -> None:
        if isinstance(node, dict):
            px = [*PX_KEYS, *(["size"] if key.endswith("font") or key == "marker" else []),
                  *(["width"] if key == "line" else []), *(["len"] if node.get("lenmode") == "pixels" else [])]
            for k in px:
                if isinstance(node.get(k), (int, float)):  # Plotly takes a standoff in whole px only
                    node[k] = math.ceil(node[k] * factor) if k == "ticklabelstandoff" else node[k] * factor
            for k, v in node.items():
                grow(v, k)
        elif isinstance(node, (list, tuple)):
            for v in node:
                grow(v, key)

    grow(spec["data"])
    grow(layout)
    font = layout.setdefault("font", {})
    font.setdefault("size", DEFAULT_FONT_PX * factor)
    if width and not layout.get("width"):
        layout["width"] = width
    for key in ("width", "height"):
        if layout.get(key):
            layout[key] = layout[key] * factor
    layout["margin"] = {k: v * factor if isinstance(v, (int, float)) else v for k, v in layout.get("margin", {}).items()}
    return spec


def figure_spec(fig: go.Figure) -> dict:
    """`fig`'s traces and layout as dicts (deep copies) with its arrays as they were given: Figure.to_plotly_json
    would encode NumPy arrays as base64 typed arrays, which Plotly.js takes as changed on every redraw."""
    return {"data": [trace.to_plotly_json() for trace in fig.data], "layout": fig.layout.to_plotly_json()}


# An empty template as a figure holds it (plotly.py puts a scatter default in it): viz.sent drops it.
EMPTY_TEMPLATE = go.Figure(layout={"template": go.layout.Template()}).layout.to_plotly_json()["template"]


def spec_figure(spec: dict) -> go.Figure:
    """The figure of `spec`, a figure_spec of a figure built here (so validated already), not validated again."""
    return go.Figure(spec, _validate=False)


def rebuilt(data, layout: dict) -> go.Figure:
    """A figure of `data` (traces, or a figure's) with a new layout, in one constructor call."""
    return go.Figure(data.data if isinstance(data, go.Figure) else data, layout)
