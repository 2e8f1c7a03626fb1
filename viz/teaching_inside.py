"""Inside the Transformer: the architecture as a clickable diagram, and a sentence's tensors side by side.

architecture_figure draws the paper's encoder–decoder for a model's layer counts: embeddings + positional
encoding at the bottom, the encoder stack, the decoder stack with the encoder's output entering every decoder
layer's cross-attention, the output projection tied to the target embedding, softmax at the top. Each block
carries invisible click targets whose customdata is the block's key (architecture_blocks), so a page can open
the block a click selects (clicked_block). tensor_panels shows (T, d_model) tensors of one sentence as
heatmaps side by side, tokens down, dimensions across.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import plotly.graph_objects as go

from .heatmap import cell_hovertemplate
from .labels import plain_text
from .style import (
    AXIS_TITLE_PX,
    BASE_FONT_PX,
    DIVERGING_COLORSCALE,
    EDGE_PX,
    GUIDE_COLOR,
    NEUTRAL_COLOR,
    HIGHLIGHT_COLOR,
    LINE_EM,
    MAX_HEIGHT_PX,
    MAX_WIDTH_PX,
    MIN_FONT_PX,
    TICK_PAD_PX,
    domains,
    hovertemplate,
    styled_figure,
    text_em,
    tick_layout,
    title_lines,
    title_px,
    titled,
    token_axis,
)
from .validate import as_float32, check_labels

# The paper's Figure 1 colours: embeddings pink, attention orange, FFN blue, add & norm yellow, linear purple,
# softmax green.
BLOCK_COLORS = {"embed": "#f8d0d2", "attn": "#fbd9ae", "ffn": "#c9e6f5", "norm": "#f2f0b6", "linear": "#ddd5f3",
                "softmax": "#cfeccb", "memory": "#eeeeee"}
FRAME_COLOR = "#f7f7f7"
TEXT_COLOR = "#222"  # darker than Plotly's default grey: the diagram's labels are read from the back of a room
ENCODER_SUBLAYERS = ("self_attn", "ffn")
DECODER_SUBLAYERS = ("self_attn", "cross_attn", "ffn")
DIAGRAM_LABELS = ("src_embed", "tgt_embed", "self_attn", "masked_self_attn", "cross_attn", "ffn", "add_norm",
                  "encoder_layer", "decoder_layer", "memory", "linear", "softmax", "tied")
# The size the Inside page draws the diagram: beside the page's text at 1280×800, its top within the first screen.
DIAGRAM_WIDTH_PX, DIAGRAM_HEIGHT_PX = 520, 596
DIAGRAM_MIN_FONT_PX = 12  # the shipped model's diagram at that size: no text smaller (read from the back of a room)
SMALLEST_FONT_PX = 7  # a deep model's diagram shrinks its text this far before it overflows its boxes
GAP_PX = (10.0, 24.0)  # an arrow from one block down to the next: at least, at most this long
PAD_PX = 2.0  # inside a layer's frame, around its blocks
BUS_PX, TIED_PX = 30.0, 24.0  # across: the encoder output's line between the stacks; the tied line right of them
ENCODER_SHARE = 0.43  # of the width the two stacks share, the encoder's (its blocks have shorter names)


def architecture_blocks(n_encoder: int, n_decoder: int) -> list[str]:
    """Every clickable block's key, in the order data flows, encoder first: "src_embed", "enc.0.self_attn",
    "enc.0.ffn", …, "tgt_embed", "dec.0.self_attn", "dec.0.cross_attn", "dec.0.ffn", …, "output"."""
    if n_encoder < 1 or n_decoder < 1:
        raise ValueError(f"a model has at least one layer per stack, got {n_encoder} and {n_decoder}")
    return ["src_embed", *(f"enc.{i}.{s}" for i in range(n_encoder) for s in ENCODER_SUBLAYERS),
            "tgt_embed", *(f"dec.{i}.{s}" for i in range(n_decoder) for s in DECODER_SUBLAYERS), "output"]


@dataclass(frozen=True)
class Box:
    key: str | None  # the block a click on it opens; None: not clickable
    part: str  # what it draws, its shape's name: a block's key, "<key>.add_norm", "output.softmax" or "memory"
    x0: float  # px in the plot, left to right
    y0: float  # px in the plot, top to bottom (y0 is the box's top edge)
    x1: float
    y1: float
    text: str
    color: str

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2


@dataclass(frozen=True)
class Fit:
    """The diagram's text size, arrow length and row heights (px) that fit a plot."""

    size: int
    gap: float
    embed: float  # the embeddings' row
    sublayer: float  # a sublayer's box; its add & norm strip below it is `norm` high
    norm: float
    last: float  # the bottom row: the encoder's output beside the output projection and softmax
    linear: float  # of the bottom row's output block, the projection's part

    @property
    def block(self) -> float:
        return self.sublayer + self.norm

    @property
    def gutter(self) -> float:
        """Across a frame's edge, the room its layer's name takes (written upwards)."""
        return LINE_EM * self.size + 2


def fitting_size(texts: Sequence[str], width_px: float, height_px: float) -> int:
    """The largest font (10–16 px) at which each of `texts`, wrapped at spaces, fits a width_px × height_px box."""
    def fits(text: str, size: int) -> bool:
        lines = _wrapped(text, width_px, size)
        return max(text_em(line) for line in lines) * size <= width_px and len(lines) * LINE_EM * size <= height_px

    return next((size for size in range(BASE_FONT_PX, MIN_FONT_PX, -1) if all(fits(t, size) for t in texts)),
                MIN_FONT_PX)


def wrapped_label(text: str, width_px: float, size: int) -> str:
    """`text` (unescaped) as figure text cut into lines of `width_px` at `size` px."""
    return "<br>".join(plain_text(line) for line in _wrapped(text, width_px, size))


def _wrapped(text: str, width_px: float, size: int) -> list[str]:
    # title_lines wraps for 16 px text: scale the width to what `size` px text may take
    return title_lines(text, width_px * BASE_FONT_PX / size) or [""]


def _text_height(text: str, width: float, size: int) -> float | None:
    """The height of a box `width` px wide holding `text` at `size` px; None where a word is wider than the box."""
    lines = _wrapped(text, width - 4, size)
    if max(text_em(line) for line in lines) * size > width - 4:
        return None
    return len(lines) * LINE_EM * size + 1


def _columns(plot_w: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """(x0, x1) of the encoder's column and of the decoder's, left to right."""
    stacks = plot_w - BUS_PX - TIED_PX
    encoder = (0.0, stacks * ENCODER_SHARE)
    return encoder, (encoder[1] + BUS_PX, stacks + BUS_PX)


def _box_x(column: tuple[float, float], gutter: float, encoder: bool) -> tuple[float, float]:
    """(x0, x1) of a column's sublayer boxes: inside its frames, beside the layer names (left in the encoder, right
    in the decoder: the encoder's output reaches the decoder's boxes from the left)."""
    if encoder:
        return column[0] + PAD_PX + gutter, column[1] - PAD_PX
    return column[0] + PAD_PX, column[1] - PAD_PX - gutter


def _fit_at(size: int, labels: Mapping[str, str], plot_w: float) -> Fit | None:
    """Row heights at `size` px text (arrows GAP_PX[0] long); None where a text does not fit its box's width."""
    encoder, decoder = _columns(plot_w)
    gutter = LINE_EM * size + 2
    sub_w = min(x1 - x0 for x0, x1 in (_box_x(encoder, gutter, True), _box_x(decoder, gutter, False)))
    enc_w, dec_w = encoder[1] - encoder[0], decoder[1] - decoder[0]
    needed = [[_text_height(labels["src_embed"], enc_w, size), _text_height(labels["tgt_embed"], dec_w, size)],
              [_text_height(labels[k], sub_w, size) for k in ("self_attn", "masked_self_attn", "cross_attn", "ffn")],
              [_text_height(labels["add_norm"], sub_w, size)], [_text_height(labels["memory"], enc_w, size)],
              [_text_height(labels["linear"], dec_w, size)], [_text_height(labels["softmax"], dec_w, size)]]
    if any(h is None for row in needed for h in row):
        return None
    embed, sublayer, norm, memory, linear, softmax = (max(row) for row in needed)
    return Fit(size, GAP_PX[0], embed, sublayer, norm, max(memory, linear + softmax), linear)


def _stack_height(fit: Fit, n: int, blocks: int) -> float:
    """Both stacks take the same height: n frames of `blocks` blocks each, one arrow between two blocks or frames."""
    return n * (2 * PAD_PX + blocks * fit.block + (blocks - 1) * fit.gap) + (n - 1) * fit.gap


def _span(fit: Fit, n_encoder: int, n_decoder: int) -> float:
    return max(_stack_height(fit, n_encoder, len(ENCODER_SUBLAYERS)),
               _stack_height(fit, n_decoder, len(DECODER_SUBLAYERS)))


def _total(fit: Fit, n_encoder: int, n_decoder: int) -> float:
    return fit.embed + fit.gap + _span(fit, n_encoder, n_decoder) + fit.gap + fit.last


def _fit(labels: Mapping[str, str], n_encoder: int, n_decoder: int, plot_w: float, plot_h: float) -> Fit:
    """The largest text (up to 16 px) whose diagram fits the plot, then the longest arrows (up to GAP_PX[1]). A
    model too deep for the plot even at SMALLEST_FONT_PX gets rows squeezed to fit (its text then overflows)."""
    smallest = LINE_EM * SMALLEST_FONT_PX + 1
    fits = [f for f in (_fit_at(s, labels, plot_w) for s in range(BASE_FONT_PX, SMALLEST_FONT_PX - 1, -1)) if f]
    fits = fits or [Fit(SMALLEST_FONT_PX, GAP_PX[0], smallest, smallest, smallest, 2 * smallest, smallest)]
    fit = next((f for f in fits if _total(f, n_encoder, n_decoder) <= plot_h), None)
    if fit is None:
        fit = fits[-1]
        for _ in range(3):  # the frames' padding does not shrink: squeeze the rest until the whole fits
            k = min(1.0, plot_h / _total(fit, n_encoder, n_decoder))
            fit = replace(fit, gap=fit.gap * k, embed=fit.embed * k, sublayer=fit.sublayer * k, norm=fit.norm * k,
                          last=fit.last * k, linear=fit.linear * k)
        return fit
    gaps = np.arange(GAP_PX[1], GAP_PX[0], -0.5)
    return next((f for f in (replace(fit, gap=float(g)) for g in gaps) if _total(f, n_encoder, n_decoder) <= plot_h),
                fit)


def _arrow(x0: float, y0: float, x1: float, y1: float, color: str = GUIDE_COLOR) -> dict:
    """An annotation drawing an arrow from (x0, y0) to (x1, y1), in data coordinates."""
    return dict(x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y", text="", showarrow=True,
                arrowhead=2, arrowsize=1, arrowwidth=1.5, arrowcolor=color)


def _line(points: Sequence[tuple[float, float]], dash: str = "solid") -> dict:
    path = "M " + " L ".join(f"{x:.2f},{y:.2f}" for x, y in points)
    return dict(type="path", path=path, xref="x", yref="y", line=dict(color=GUIDE_COLOR, width=1.5, dash=dash))


def architecture_figure(
    n_encoder: int,
    n_decoder: int,
    labels: Mapping[str, str],
    *,
    selected: str | None = None,
    title: str = "",
    click_hint: str = "",
    width: float = MAX_WIDTH_PX,
    height: float = MAX_HEIGHT_PX,
) -> go.Figure:
    """The encoder–decoder with n_encoder and n_decoder layers, read top to bottom; `selected` (a key of
    architecture_blocks) framed.

    The encoder on the left: embeddings → each layer's self-attention and FFN (each under its add & norm strip) →
    the encoder's output, which a line carries into every decoder layer's cross-attention. The decoder on the right:
    embeddings → masked self-attention → cross-attention → FFN per layer → linear and softmax, the linear tied to the
    target embedding by a dashed line. An arrow joins each block to the next. The largest text that fits (16 px
    down) is used and the figure is no taller than its drawing needs.

    labels: the text of each part, keys DIAGRAM_LABELS; "encoder_layer" and "decoder_layer" are format strings
    with {n} (1-based), so the caller's language orders the words.
    """
    missing = [k for k in DIAGRAM_LABELS if k not in labels]
    if missing:
        raise ValueError(f"labels lacks {missing}: pass one text per key of DIAGRAM_LABELS")
    keys = architecture_blocks(n_encoder, n_decoder)
    if selected is not None and selected not in keys:
        raise ValueError(f"selected must be one of architecture_blocks({n_encoder}, {n_decoder}), got {selected!r}")
    top = title_px(title, width)
    plot_w = width - 2 * EDGE_PX
    fit = _fit(labels, n_encoder, n_decoder, plot_w, height - top - 2 * EDGE_PX)
    plot_h = min(_total(fit, n_encoder, n_decoder), height - top - 2 * EDGE_PX)
    boxes, frames, notes = _stacks(n_encoder, n_decoder, labels, fit, plot_w)
    boxes += _ends(n_encoder, labels, fit, plot_w, plot_h)
    notes += _flow_arrows(boxes) + _memory_arrows(boxes)
    lines = [_memory_line(boxes)]
    tied_line, tied_note = _tied(labels["tied"], boxes, fit.size)
    box_shapes, box_notes, targets = _drawn_boxes(boxes, selected, labels, click_hint, fit.size)
    return styled_figure(
        targets,
        title,
        top=EDGE_PX,
        width=width,
        height=plot_h + top + 2 * EDGE_PX,
        showlegend=False,
        shapes=frames + lines + [tied_line] + box_shapes,
        annotations=notes + [tied_note] + box_notes,
        xaxis=dict(range=[0, plot_w], visible=False, fixedrange=True),
        yaxis=dict(range=[plot_h, 0], visible=False, fixedrange=True),  # y down: the diagram reads top to bottom
        dragmode=False,
        clickmode="event+select",
    )


def _stacks(n_encoder: int, n_decoder: int, labels: Mapping[str, str], fit: Fit, plot_w: float
            ) -> tuple[list[Box], list[dict], list[dict]]:
    """Both stacks between the embeddings and the bottom row: each layer's frame, its name, its blocks."""
    boxes, frames, notes = [], [], []
    top = fit.embed + fit.gap
    span = _span(fit, n_encoder, n_decoder)
    for prefix, n, column, names in (("enc", n_encoder, _columns(plot_w)[0], ENCODER_SUBLAYERS),
                                     ("dec", n_decoder, _columns(plot_w)[1], DECODER_SUBLAYERS)):
        encoder = prefix == "enc"
        x0, x1 = _box_x(column, fit.gutter, encoder)
        frame_h = (span - (n - 1) * fit.gap) / n
        inner_gap = (frame_h - 2 * PAD_PX - len(names) * fit.block) / (len(names) - 1)
        for i in range(n):
            y0 = top + i * (frame_h + fit.gap)
            frames.append(dict(type="rect", x0=column[0], x1=column[1], y0=y0, y1=y0 + frame_h, xref="x", yref="y",
                               layer="below", fillcolor=FRAME_COLOR, line=dict(color=NEUTRAL_COLOR, width=1),
                               name=f"frame.{prefix}.{i}"))
            name = labels["encoder_layer" if encoder else "decoder_layer"].format(n=i + 1)
            size = min(fit.size, int((frame_h - 4) / max(text_em(name), 1)))
            label_x = column[0] + PAD_PX + fit.gutter / 2 if encoder else column[1] - PAD_PX - fit.gutter / 2
            notes.append(dict(text=plain_text(name), x=label_x, y=y0 + frame_h / 2, xref="x", yref="y", textangle=-90,
                              showarrow=False, font=dict(size=size, color=TEXT_COLOR)))
            for j, sub in enumerate(names):
                b0 = y0 + PAD_PX + j * (fit.block + inner_gap)
                key = f"{prefix}.{i}.{sub}"
                text = labels["masked_self_attn" if not encoder and sub == "self_attn" else sub]
                color = BLOCK_COLORS["ffn" if sub == "ffn" else "attn"]
                boxes += [Box(key, key, x0, b0, x1, b0 + fit.sublayer, text, color),
                          Box(key, f"{key}.add_norm", x0, b0 + fit.sublayer, x1, b0 + fit.block, labels["add_norm"],
                              BLOCK_COLORS["norm"])]
    return boxes, frames, notes


def _ends(n_encoder: int, labels: Mapping[str, str], fit: Fit, plot_w: float, plot_h: float) -> list[Box]:
    """The blocks above and below the stacks: both embeddings; the encoder's output (a click opens the block that
    computes it, the last encoder layer's FFN and add & norm), the output projection and softmax."""
    encoder, decoder = _columns(plot_w)
    bottom = plot_h - fit.last
    last_ffn = f"enc.{n_encoder - 1}.ffn"
    return [Box("src_embed", "src_embed", encoder[0], 0.0, encoder[1], fit.embed, labels["src_embed"],
                BLOCK_COLORS["embed"]),
            Box("tgt_embed", "tgt_embed", decoder[0], 0.0, decoder[1], fit.embed, labels["tgt_embed"],
                BLOCK_COLORS["embed"]),
            Box(last_ffn, "memory", encoder[0], bottom, encoder[1], plot_h, labels["memory"], BLOCK_COLORS["memory"]),
            Box("output", "output", decoder[0], bottom, decoder[1], bottom + fit.linear, labels["linear"],
                BLOCK_COLORS["linear"]),
            Box("output", "output.softmax", decoder[0], bottom + fit.linear, decoder[1], plot_h, labels["softmax"],
                BLOCK_COLORS["softmax"])]


def _flow(boxes: Sequence[Box], prefix: str) -> list[Box]:
    """One stack's boxes ("enc" or "dec") in the order data passes them, top to bottom: a block's add & norm strip
    after its sublayer, the stack's embeddings first and what reads its output last."""
    first, last = ("src_embed", "memory") if prefix == "enc" else ("tgt_embed", "output.softmax")
    column = [b for b in boxes if b.part in (first, last) or b.part.startswith(f"{prefix}.")
              or (prefix == "dec" and b.part == "output")]
    return sorted(column, key=lambda b: b.y0)


def _flow_arrows(boxes: list[Box]) -> list[dict]:
    """An arrow down from each block to the next one, in both stacks (a block's add & norm strip touches it)."""
    arrows = []
    for prefix in ("enc", "dec"):
        column = _flow(boxes, prefix)
        x = next(b.cx for b in column if b.part.startswith(f"{prefix}."))
        arrows += [_arrow(x, a.y1, x, b.y0) for a, b in zip(column, column[1:]) if b.y0 > a.y1]
    return arrows


def _memory_line(boxes: list[Box]) -> dict:
    """The encoder's output: out of its box's right side and up between the stacks, to the first cross-attention."""
    memory = next(b for b in boxes if b.part == "memory")
    cross = [b for b in boxes if b.part.endswith(".cross_attn")]
    bus = memory.x1 + BUS_PX / 2
    return _line([(memory.x1, memory.cy), (bus, memory.cy), (bus, min(b.cy for b in cross))])


def _memory_arrows(boxes: list[Box]) -> list[dict]:
    """From the line between the stacks into every decoder layer's cross-attention (its keys and values)."""
    memory = next(b for b in boxes if b.part == "memory")
    bus = memory.x1 + BUS_PX / 2
    return [_arrow(bus, b.cy, b.x0, b.cy) for b in boxes if b.part.endswith(".cross_attn")]


def _tied(label: str, boxes: list[Box], size: int) -> tuple[dict, dict]:
    """The output projection reuses the target embedding's matrix: a dashed line right of the decoder between the
    two, and its label written upwards along it."""
    linear = next(b for b in boxes if b.part == "output")
    embed = next(b for b in boxes if b.part == "tgt_embed")
    x = linear.x1 + TIED_PX / 2
    line = _line([(linear.x1, linear.cy), (x, linear.cy), (x, embed.cy), (embed.x1, embed.cy)], dash="dash")
    room = (linear.cy - embed.cy) * 0.8
    size = min(size, int(room / max(text_em(label), 1)))
    return line, dict(text=plain_text(label), x=x, y=(linear.cy + embed.cy) / 2, xref="x", yref="y",
                      textangle=-90, showarrow=False, font=dict(size=size, color=TEXT_COLOR), bgcolor="white")


def _drawn_boxes(boxes: list[Box], selected: str | None, labels: Mapping[str, str], click_hint: str,
                 size: int) -> tuple[list[dict], list[dict], list[dict]]:
    """(rectangles, texts, click targets) of the boxes, all text `size` px; `selected` framed."""
    shapes, notes, targets = [], [], []
    for box in boxes:
        line = dict(color=HIGHLIGHT_COLOR, width=3) if box.key is not None and box.key == selected else dict(
            color="#777", width=1)
        shapes.append(dict(type="rect", x0=box.x0, x1=box.x1, y0=box.y0, y1=box.y1, xref="x", yref="y",
                           fillcolor=box.color, line=line, name=box.part))
        notes.append(dict(text=wrapped_label(box.text, box.x1 - box.x0 - 4, size), x=box.cx, y=box.cy, xref="x",
                          yref="y", showarrow=False, font=dict(size=size, color=TEXT_COLOR)))
        if box.key is not None:
            name = labels["memory"] if box.part == "memory" else _block_name(box.key, labels)
            targets.append(_click_targets(box, name, click_hint))
    return shapes, notes, targets


def _block_name(key: str, labels: Mapping[str, str]) -> str:
    """A block's name for its hover: "Encoder layer 2 · Self-attention"."""
    parts = key.split(".")
    if len(parts) == 1:
        return labels["linear"] + " · " + labels["softmax"] if key == "output" else labels[key]
    stack, layer, name = parts
    sub = labels["masked_self_attn" if stack == "dec" and name == "self_attn" else name]
    return f"{labels['encoder_layer' if stack == 'enc' else 'decoder_layer'].format(n=int(layer) + 1)} · {sub}"


def _click_targets(box: Box, name: str, hint: str) -> dict:
    """Transparent squares side by side covering a box: hovering names its block, a click selects it."""
    w_px, h_px = box.x1 - box.x0, box.y1 - box.y0
    side = min(w_px, h_px)
    count = max(1, int(np.ceil(w_px / side)))
    xs = np.linspace(box.x0 + side / 2, box.x1 - side / 2, count) if count > 1 else np.array([box.cx])
    invisible = dict(marker=dict(opacity=0))
    return dict(
        type="scatter", x=xs.round(3).tolist(), y=[round(box.cy, 3)] * count, mode="markers",
        customdata=[box.key] * count, showlegend=False, marker=dict(symbol="square", size=side, color="rgba(0,0,0,0)"),
        selected=invisible, unselected=invisible,
        hovertemplate=hovertemplate(("", plain_text(name)), ("", plain_text(hint))) if hint else
        f"<b>{plain_text(name)}</b><extra></extra>",
    )


def clicked_block(selection_points: list[dict]) -> str | None:
    """The block key a click on the architecture figure selected (its customdata), if any."""
    for point in selection_points:
        data = point.get("customdata")
        if isinstance(data, str):
            return data
    return None


# ---------------------------------------------------------------- tensors side by side

PANEL_GAP = 0.06  # of the plot's width, between two panels
MAX_ROW_PX = 28  # a short sentence's rows grow to this and no further
CLIP_PERCENTILE = 99  # of |value|: where a panel's colour scale ends


def tensor_panels(
    panels: Sequence[tuple[str, object]],
    tokens: Sequence[str],
    *,
    title: str,
    token_title: str,
    dim_title: str,
    value_label: str,
    max_width: float = MAX_WIDTH_PX,
    max_height: float = MAX_HEIGHT_PX,
) -> go.Figure:
    """(name, (T, d) array) panels side by side, tokens down (one row per token, in order), dimensions across.

    Each panel has its own colour scale, white at 0 and ending at the 99th percentile of its |values| (a LayerNorm's
    output and an embedding row differ in size by an order of magnitude); a hover gives a cell's token, dimension
    and exact value.
    """
    if not panels:
        raise ValueError("panels must hold at least one (name, array) pair")
    arrays = [as_float32(values, f"panel {name!r}", 2) for name, values in panels]
    n_rows = arrays[0].shape[0]
    if any(a.shape[0] != n_rows for a in arrays):
        raise ValueError(f"every panel needs one row per token: got {[a.shape for a in arrays]}")
    labels = check_labels(tokens, n_rows, "tokens", "rows (tokens)")
    header = 2 * int(LINE_EM * BASE_FONT_PX)  # two lines of panel names above the plots
    bottom = EDGE_PX + AXIS_TITLE_PX + int(LINE_EM * BASE_FONT_PX) + TICK_PAD_PX
    fixed = title_px(title, max_width) + EDGE_PX + header + bottom
    row_px = min(MAX_ROW_PX, (max_height - fixed) / n_rows)
    ticks = tick_layout(labels, row_px, across=False)
    left = int(EDGE_PX + AXIS_TITLE_PX + ticks.depth + TICK_PAD_PX)
    spans = domains(len(arrays), PANEL_GAP if len(arrays) > 1 else 0)
    panel_px = (max_width - left - EDGE_PX) * (spans[0][1] - spans[0][0])
    traces, layout, names = [], {}, []
    hover = cell_hovertemplate(labels, None, token_title, dim_title, value_label)
    name_size = fitting_size([name for name, _ in panels], panel_px, header)
    for i, ((name, _), z) in enumerate(zip(panels, arrays)):
        suffix = "" if i == 0 else str(i + 1)
        # a LayerNorm's output has a few dimensions far larger than the rest: they saturate the colours instead of
        # washing out every other cell (a hover gives the exact value)
        top_value = float(np.percentile(np.abs(z), CLIP_PERCENTILE)) or 1.0
        traces.append(dict(
            type="heatmap", z=z, x=np.arange(z.shape[1], dtype=np.int32), y=np.arange(n_rows, dtype=np.int32),
            zmin=-top_value, zmax=top_value, colorscale=DIVERGING_COLORSCALE, showscale=False,
            xaxis=f"x{suffix}", yaxis=f"y{suffix}",
            hovertemplate=hover,
        ))
        layout[f"xaxis{suffix}"] = titled(dim_title, domain=spans[i], anchor=f"y{suffix}", showgrid=False,
                                          zeroline=False, nticks=4)
        # every panel keeps the token labels (a hover reads them), only the first shows them
        layout[f"yaxis{suffix}"] = token_axis(labels, token_title if i == 0 else "", fit=ticks, reversed_=True,
                                              wrap=n_rows * row_px, anchor=f"x{suffix}", showticklabels=i == 0)
        names.append(dict(text=wrapped_label(name, panel_px, name_size), x=sum(spans[i]) / 2, y=1, xref="paper",
                          yref="paper", xanchor="center", yanchor="bottom", showarrow=False, font=dict(size=name_size, color=TEXT_COLOR)))
    height = fixed + n_rows * row_px
    return styled_figure(traces, title, top=EDGE_PX + header, left=left, bottom=bottom, width=max_width,
                         height=height, annotations=names, **layout)
