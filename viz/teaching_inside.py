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
from dataclasses import dataclass

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
# Data coordinates (0–100 both ways) of the diagram's columns and rows.
ENCODER_X, DECODER_X, BUS_X, TIED_X = (1.0, 35.0), (45.0, 93.0), 40.0, 97.0
EMBED_Y, STACK_Y, MEMORY_Y, LINEAR_Y, SOFTMAX_Y = (1.0, 9.0), (14.0, 76.0), (80.0, 87.0), (80.0, 87.0), (91.0, 98.0)
FRAME_GAP, FRAME_PAD, BOX_GAP = 4.0, 1.0, 3.0
NORM_SHARE = 0.3  # of a sublayer's box, the add & norm strip on its top
DIAGRAM_LABELS = ("src_embed", "tgt_embed", "self_attn", "masked_self_attn", "cross_attn", "ffn", "add_norm",
                  "encoder_layer", "decoder_layer", "memory", "linear", "softmax", "tied")


def architecture_blocks(n_encoder: int, n_decoder: int) -> list[str]:
    """Every clickable block's key, bottom to top, encoder first: "src_embed", "enc.0.self_attn", "enc.0.ffn", …,
    "tgt_embed", "dec.0.self_attn", "dec.0.cross_attn", "dec.0.ffn", …, "output"."""
    if n_encoder < 1 or n_decoder < 1:
        raise ValueError(f"a model has at least one layer per stack, got {n_encoder} and {n_decoder}")
    return ["src_embed", *(f"enc.{i}.{s}" for i in range(n_encoder) for s in ENCODER_SUBLAYERS),
            "tgt_embed", *(f"dec.{i}.{s}" for i in range(n_decoder) for s in DECODER_SUBLAYERS), "output"]


@dataclass(frozen=True)
class Box:
    key: str | None  # the block a click on it opens; None: not clickable
    x0: float
    y0: float
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


def _stack_frames(n: int) -> list[tuple[float, float]]:
    """(y0, y1) of n layer frames filling STACK_Y, first layer at the bottom."""
    height = (STACK_Y[1] - STACK_Y[0] - (n - 1) * FRAME_GAP) / n
    return [(STACK_Y[0] + i * (height + FRAME_GAP), STACK_Y[0] + i * (height + FRAME_GAP) + height) for i in range(n)]


def _sublayer_boxes(prefix: str, layer: int, names: Sequence[str], x: tuple[float, float], y: tuple[float, float],
                    label_h: float, labels: Mapping[str, str]) -> list[Box]:
    """One layer's sublayers left to right inside its frame: each a sublayer box under an add & norm strip."""
    left, right = x[0] + FRAME_PAD, x[1] - FRAME_PAD
    bottom, top = y[0] + FRAME_PAD, y[1] - FRAME_PAD - label_h
    strip = (top - bottom) * NORM_SHARE
    boxes = []
    for (a, b), name in zip(_spans(left, right, len(names), BOX_GAP), names):
        key = f"{prefix}.{layer}.{name}"
        label = labels["masked_self_attn" if prefix == "dec" and name == "self_attn" else name]
        boxes.append(Box(key, a, bottom, b, top - strip, label, BLOCK_COLORS["ffn" if name == "ffn" else "attn"]))
        boxes.append(Box(key, a, top - strip, b, top, labels["add_norm"], BLOCK_COLORS["norm"]))
    return boxes


def _spans(a: float, b: float, n: int, gap: float) -> list[tuple[float, float]]:
    width = (b - a - (n - 1) * gap) / n
    return [(a + i * (width + gap), a + i * (width + gap) + width) for i in range(n)]


def _arrow(x0: float, y0: float, x1: float, y1: float, color: str = GUIDE_COLOR) -> dict:
    """An annotation drawing an arrow from (x0, y0) to (x1, y1), in data coordinates."""
    return dict(x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y", text="", showarrow=True,
                arrowhead=2, arrowsize=1, arrowwidth=1.5, arrowcolor=color)


def _line(points: Sequence[tuple[float, float]], dash: str = "solid") -> dict:
    path = "M " + " L ".join(f"{x},{y}" for x, y in points)
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
    """The encoder–decoder with n_encoder and n_decoder layers; `selected` (a key of architecture_blocks) framed.

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
    plot_w, plot_h = width - 2 * EDGE_PX, height - top - 2 * EDGE_PX
    px = (plot_w / 100, plot_h / 100)  # px per data unit, across and up
    frames, boxes, notes = _stacks(n_encoder, n_decoder, labels, px)
    boxes = _fixed_boxes(labels) + boxes
    shapes, arrows = _encoder_output(boxes, n_decoder)
    notes += arrows
    tied_shape, tied_note = _tied(labels["tied"], px)
    box_shapes, box_notes, targets = _drawn_boxes(boxes, selected, labels, click_hint, px)
    return styled_figure(
        targets,
        title,
        top=EDGE_PX,
        width=width,
        height=height,
        showlegend=False,
        shapes=frames + shapes + [tied_shape] + box_shapes,
        annotations=notes + [tied_note] + box_notes,
        xaxis=dict(range=[0, 100], visible=False, fixedrange=True),
        yaxis=dict(range=[0, 100], visible=False, fixedrange=True),
        dragmode=False,
        clickmode="event+select",
    )


def _fixed_boxes(labels: Mapping[str, str]) -> list[Box]:
    """The blocks outside the stacks: both embeddings, the encoder's output, the output projection and softmax."""
    return [Box("src_embed", ENCODER_X[0], EMBED_Y[0], ENCODER_X[1], EMBED_Y[1], labels["src_embed"],
                BLOCK_COLORS["embed"]),
            Box("tgt_embed", DECODER_X[0], EMBED_Y[0], DECODER_X[1], EMBED_Y[1], labels["tgt_embed"],
                BLOCK_COLORS["embed"]),
            Box(None, ENCODER_X[0], MEMORY_Y[0], ENCODER_X[1], MEMORY_Y[1], labels["memory"], BLOCK_COLORS["memory"]),
            Box("output", DECODER_X[0], LINEAR_Y[0], DECODER_X[1], LINEAR_Y[1], labels["linear"],
                BLOCK_COLORS["linear"]),
            Box("output", DECODER_X[0], SOFTMAX_Y[0], DECODER_X[1], SOFTMAX_Y[1], labels["softmax"],
                BLOCK_COLORS["softmax"])]


def _decoder_arrow_x() -> float:
    """Where the decoder's arrows run: at its FFN, right of the lines that bring the encoder's output to each
    cross-attention."""
    return sum(_spans(DECODER_X[0] + FRAME_PAD, DECODER_X[1] - FRAME_PAD, 3, BOX_GAP)[2]) / 2


def _stacks(n_encoder: int, n_decoder: int, labels: Mapping[str, str], px: tuple[float, float]
            ) -> tuple[list[dict], list[Box], list[dict]]:
    """Both stacks: each layer's frame, its sublayers' boxes, its name, and the arrows up the stack."""
    frames, boxes, notes = [], [], []
    for prefix, n, x, names, name_key in (("enc", n_encoder, ENCODER_X, ENCODER_SUBLAYERS, "encoder_layer"),
                                          ("dec", n_decoder, DECODER_X, DECODER_SUBLAYERS, "decoder_layer")):
        stack = _stack_frames(n)
        label_h = min(LINE_EM * BASE_FONT_PX / px[1], (stack[0][1] - stack[0][0]) * 0.3)
        for i, (y0, y1) in enumerate(stack):
            frames.append(dict(type="rect", x0=x[0], x1=x[1], y0=y0, y1=y1, xref="x", yref="y", layer="below",
                               fillcolor=FRAME_COLOR, line=dict(color=NEUTRAL_COLOR, width=1)))
            name = labels[name_key].format(n=i + 1)
            room = (x[1] - x[0] - 2 * FRAME_PAD) * px[0]
            size = fitting_size([name], room, label_h * px[1])
            notes.append(dict(text=wrapped_label(name, room, size), x=x[0] + FRAME_PAD, y=y1 - FRAME_PAD / 2, xref="x",
                              yref="y", xanchor="left", yanchor="top", showarrow=False,
                              font=dict(size=size, color=TEXT_COLOR)))
            boxes += _sublayer_boxes(prefix, i, names, x, (y0, y1), label_h, labels)
        # arrows up the stack: embedding → layer 1 → … → layer n → what reads the stack's output
        arrow_x = (x[0] + x[1]) / 2 if prefix == "enc" else _decoder_arrow_x()
        ends = [EMBED_Y[1], *(y for frame in stack for y in frame), MEMORY_Y[0] if prefix == "enc" else LINEAR_Y[0]]
        notes += [_arrow(arrow_x, ends[j], arrow_x, ends[j + 1]) for j in range(0, len(ends), 2)]
    return frames, boxes, notes


def _encoder_output(boxes: list[Box], n_decoder: int) -> tuple[list[dict], list[dict]]:
    """(lines, arrows): the encoder's output to every decoder layer's cross-attention; the decoder's output up
    to the softmax."""
    memory_y = (MEMORY_Y[0] + MEMORY_Y[1]) / 2
    decoder_frames = _stack_frames(n_decoder)
    lines = [_line([(ENCODER_X[1], memory_y), (BUS_X, memory_y), (BUS_X, decoder_frames[0][0] - FRAME_GAP / 2)])]
    arrows = []
    cross = [b for b in boxes if b.key and b.key.endswith("cross_attn") and b.color == BLOCK_COLORS["attn"]]
    for box, (y0, _) in zip(cross, decoder_frames):
        below = y0 - FRAME_GAP / 2
        lines.append(_line([(BUS_X, below), (box.cx, below)]))
        arrows.append(_arrow(box.cx, below, box.cx, box.y0))
    arrows.append(_arrow(_decoder_arrow_x(), LINEAR_Y[1], _decoder_arrow_x(), SOFTMAX_Y[0]))
    return lines, arrows


def _tied(label: str, px: tuple[float, float]) -> tuple[dict, dict]:
    """The output projection reuses the target embedding's matrix: a dashed line between the two, and its label."""
    tied_y = ((LINEAR_Y[0] + LINEAR_Y[1]) / 2, (EMBED_Y[0] + EMBED_Y[1]) / 2)
    line = _line([(DECODER_X[1], tied_y[0]), (TIED_X, tied_y[0]), (TIED_X, tied_y[1]), (DECODER_X[1], tied_y[1])],
                 dash="dash")
    room = (tied_y[0] - tied_y[1]) * px[1] * 0.8
    size = fitting_size([label], room, (100 - TIED_X) * px[0] * 2)
    return line, dict(text=wrapped_label(label, room, size), x=TIED_X, y=sum(tied_y) / 2, xref="x", yref="y",
                      textangle=-90, showarrow=False, font=dict(size=size, color=TEXT_COLOR), bgcolor="white")


def _drawn_boxes(boxes: list[Box], selected: str | None, labels: Mapping[str, str], click_hint: str,
                 px: tuple[float, float]) -> tuple[list[dict], list[dict], list[dict]]:
    """(rectangles, texts, click targets) of the boxes; `selected` framed."""
    # one font for all boxes of a kind (sublayers, add & norm strips, embeddings, …), the largest that fits each
    kinds = {id(box): "sub" if box.color in (BLOCK_COLORS["attn"], BLOCK_COLORS["ffn"]) else box.color for box in boxes}
    sizes = {kind: fitting_size([b.text for b in boxes if kinds[id(b)] == kind],
                                min(_room(b, *px)[0] for b in boxes if kinds[id(b)] == kind),
                                min(_room(b, *px)[1] for b in boxes if kinds[id(b)] == kind))
             for kind in set(kinds.values())}
    shapes, notes, targets = [], [], []
    for box in boxes:
        line = dict(color=HIGHLIGHT_COLOR, width=3) if box.key is not None and box.key == selected else dict(
            color="#777", width=1)
        shapes.append(dict(type="rect", x0=box.x0, x1=box.x1, y0=box.y0, y1=box.y1, xref="x", yref="y",
                           fillcolor=box.color, line=line))
        size = sizes[kinds[id(box)]]
        notes.append(dict(text=wrapped_label(box.text, _room(box, *px)[0], size), x=box.cx, y=box.cy, xref="x",
                          yref="y", showarrow=False, font=dict(size=size, color=TEXT_COLOR)))
        if box.key is not None:
            targets.append(_click_targets(box, *px, _block_name(box.key, labels), click_hint))
    return shapes, notes, targets


def _room(box: Box, px_x: float, px_y: float) -> tuple[float, float]:
    """The px a box's text may take: its size less a small inner margin."""
    return (box.x1 - box.x0) * px_x - 4, (box.y1 - box.y0) * px_y - 2


def _block_name(key: str, labels: Mapping[str, str]) -> str:
    """A block's name for its hover: "Encoder layer 2 · Self-attention"."""
    parts = key.split(".")
    if len(parts) == 1:
        return labels["linear"] + " · " + labels["softmax"] if key == "output" else labels[key]
    stack, layer, name = parts
    sub = labels["masked_self_attn" if stack == "dec" and name == "self_attn" else name]
    return f"{labels['encoder_layer' if stack == 'enc' else 'decoder_layer'].format(n=int(layer) + 1)} · {sub}"


def _click_targets(box: Box, px_x: float, px_y: float, name: str, hint: str) -> dict:
    """Transparent squares side by side covering a box: hovering names its block, a click selects it."""
    w_px, h_px = (box.x1 - box.x0) * px_x, (box.y1 - box.y0) * px_y
    side = min(w_px, h_px)
    count = max(1, int(np.ceil(w_px / side)))
    xs = np.linspace(box.x0 + side / px_x / 2, box.x1 - side / px_x / 2, count) if count > 1 else np.array([box.cx])
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
