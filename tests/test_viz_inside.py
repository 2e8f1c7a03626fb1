"""The architecture diagram and the tensor panels: blocks, arrows, click targets, labels, sizes, input checks."""

from __future__ import annotations

import numpy as np
import pytest

from app_pages.shell.page_scripts import PRESENT_SCALE
from app_pages.shell.screen import PRESENT_MAX_PX
from app_pages.components import charts
from i18n import strings
from viz.style import LINE_EM, MAX_HEIGHT_PX, MAX_WIDTH_PX, text_em
from viz.teaching_inside import (
    BLOCK_COLORS,
    DIAGRAM_HEIGHT_PX,
    DIAGRAM_LABELS,
    DIAGRAM_MIN_FONT_PX,
    DIAGRAM_WIDTH_PX,
    architecture_blocks,
    architecture_figure,
    clicked_block,
    FRAME_COLOR,
    fitting_size,
    tensor_panels,
)

LABELS = {k: k.replace("_", " ") + (" {n}" if k.endswith("_layer") else "") for k in DIAGRAM_LABELS}


def click_targets(fig) -> dict[str, list]:
    """Block key → the click-target traces carrying it."""
    found: dict[str, list] = {}
    for trace in fig.data:
        for key in set(trace.customdata):
            found.setdefault(key, []).append(trace)
    return found


def arrows(fig) -> list:
    return [a for a in fig.layout.annotations if a.showarrow]


def rects(fig) -> dict:
    """Each drawn box by its name: a block's key, "<key>.add_norm", "output.softmax", "memory"."""
    return {s.name: s for s in fig.layout.shapes if s.type == "rect" and s.name}


def page_labels(lang: str) -> dict[str, str]:
    s = strings(lang)
    return {k: s[f"inside.diagram.{k}"] for k in DIAGRAM_LABELS}


@pytest.mark.parametrize(("enc", "dec"), [(3, 3), (6, 6), (2, 4)])
def test_every_block_of_the_layer_counts_is_drawn_and_clickable(enc, dec):
    fig = architecture_figure(enc, dec, LABELS)
    blocks = architecture_blocks(enc, dec)
    assert len(blocks) == 2 + 2 * enc + 3 * dec + 1
    assert set(click_targets(fig)) == set(blocks)
    texts = [a.text for a in fig.layout.annotations]
    assert sum(t.startswith("encoder layer") for t in texts) == enc
    assert sum(t.startswith("decoder layer") for t in texts) == dec
    assert fig.layout.width <= MAX_WIDTH_PX and fig.layout.height <= MAX_HEIGHT_PX


@pytest.mark.parametrize("dec", [1, 3, 6])
def test_the_encoder_output_reaches_every_decoder_layers_cross_attention(dec):
    fig = architecture_figure(3, dec, LABELS)
    memory = rects(fig)["memory"]
    attn_boxes = [s for s in fig.layout.shapes if s.type == "rect" and s.fillcolor == BLOCK_COLORS["attn"]]
    # the line from the encoder's output: out of its box's right side, then along one x between the stacks
    (trunk,) = [s for s in fig.layout.shapes if s.type == "path" and s.line.dash != "dash"]
    points = [tuple(map(float, p.split(","))) for p in trunk.path.replace("M ", "").split(" L ")]
    assert points[0] == pytest.approx((memory.x1, (memory.y0 + memory.y1) / 2), abs=0.01)  # the path: 2 decimals
    bus = points[-1][0]
    into_cross = []
    for arrow in arrows(fig):
        for box in attn_boxes:
            if arrow.ax == bus and arrow.ay == arrow.y and arrow.x == box.x0 and box.y0 <= arrow.y <= box.y1:
                into_cross.append(box)
    # one arrow from that line into each decoder layer's cross-attention box, none into a self-attention box
    cross_x = sorted({round((b.x0 + b.x1) / 2, 6) for b in into_cross})
    assert len(into_cross) == dec and len(cross_x) == 1
    assert {b.name for b in into_cross} == {f"dec.{i}.cross_attn" for i in range(dec)}
    assert min(a.y for a in arrows(fig) if a.ax == bus) >= min(y for _, y in points)  # the line reaches each one


@pytest.mark.parametrize(("enc", "dec"), [(3, 3), (2, 4), (1, 1)])
def test_the_diagram_reads_top_to_bottom_with_an_arrow_from_each_block_to_the_next(enc, dec):
    """Encoder: embeddings → each layer's self-attention → its add & norm → FFN → add & norm → the encoder output;
    decoder: embeddings → masked self-attention → cross-attention → FFN (each with its add & norm) → linear →
    softmax. Each next block lies below the one before, joined by an arrow from its bottom edge to the next's top
    edge (an add & norm strip sits on its sublayer's bottom edge)."""
    fig = architecture_figure(enc, dec, LABELS)
    boxes = rects(fig)
    order = {"enc": ["src_embed", *(f"enc.{i}.{s}{n}" for i in range(enc) for s in ("self_attn", "ffn")
                                    for n in ("", ".add_norm")), "memory"],
             "dec": ["tgt_embed", *(f"dec.{i}.{s}{n}" for i in range(dec) for s in ("self_attn", "cross_attn", "ffn")
                                    for n in ("", ".add_norm")), "output", "output.softmax"]}
    for prefix, names in order.items():
        column = [boxes[n] for n in names]
        assert fig.layout.yaxis.range[0] > fig.layout.yaxis.range[1]  # y grows downwards: y0 is a box's top
        for above, below in zip(column, column[1:]):
            assert below.y0 >= above.y1, (above.name, below.name)
            if below.y0 == above.y1:  # touching: a sublayer and its add & norm, the projection and its softmax
                assert below.name in (f"{above.name}.add_norm", "output.softmax"), (above.name, below.name)
                continue
            joined = [a for a in arrows(fig) if a.ay == above.y1 and a.y == below.y0 and a.ax == a.x
                      and max(above.x0, below.x0) <= a.x <= min(above.x1, below.x1)]
            assert len(joined) == 1, f"no arrow from {above.name} down to {below.name}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pages_diagram_text_is_12_px_or_more_and_fits_its_boxes(lang):
    """At the size the Inside page draws it, plain and enlarged for presentation mode (charts.chart's factor)."""
    fig = architecture_figure(3, 3, page_labels(lang), title=strings(lang)["inside.diagram.title"],
                              width=DIAGRAM_WIDTH_PX, height=DIAGRAM_HEIGHT_PX)
    assert fig.layout.width <= MAX_WIDTH_PX and fig.layout.height <= DIAGRAM_HEIGHT_PX
    present = min(PRESENT_SCALE, PRESENT_MAX_PX[0] / fig.layout.width, PRESENT_MAX_PX[1] / fig.layout.height)
    texts = [a for a in fig.layout.annotations if a.text]
    sizes = [a.font.size for a in texts] + [fig.layout.title.font.size]
    assert min(sizes) >= DIAGRAM_MIN_FONT_PX == 12 and min(sizes) * present >= 12, sorted(sizes)
    for box in (s for s in rects(fig).values() if s.fillcolor != FRAME_COLOR):
        (note,) = [a for a in texts if a.x == (box.x0 + box.x1) / 2 and a.y == (box.y0 + box.y1) / 2]
        lines = note.text.split("<br>")
        assert max(text_em(line) for line in lines) * note.font.size <= box.x1 - box.x0, (box.name, note.text)
        assert len(lines) * LINE_EM * note.font.size <= box.y1 - box.y0, (box.name, note.text)


def test_the_encoder_output_opens_the_block_that_computes_it():
    fig = architecture_figure(3, 3, LABELS, click_hint="click me")
    memory = rects(fig)["memory"]
    on_it = [t for t in fig.data if all(memory.x0 <= x <= memory.x1 for x in t.x)
             and all(memory.y0 <= y <= memory.y1 for y in t.y)]
    assert len(on_it) == 1 and set(on_it[0].customdata) == {"enc.2.ffn"}  # the last encoder layer's FFN, add & norm
    assert LABELS["memory"] in on_it[0].hovertemplate and "click me" in on_it[0].hovertemplate
    assert on_it[0].marker.size >= min(memory.x1 - memory.x0, memory.y1 - memory.y0)  # the squares cover the box


def test_the_output_projection_is_tied_to_the_target_embedding():
    fig = architecture_figure(3, 3, LABELS)
    dashed = [s for s in fig.layout.shapes if s.type == "path" and s.line.dash == "dash"]
    assert len(dashed) == 1
    rects = {round(s.y0, 6): s for s in fig.layout.shapes if s.type == "rect" and s.fillcolor in (BLOCK_COLORS["linear"], BLOCK_COLORS["embed"])}
    ys = [float(p.split(",")[1]) for p in dashed[0].path.replace("M ", "").split(" L ")]
    linear = next(s for s in rects.values() if s.fillcolor == BLOCK_COLORS["linear"])
    target = max((s for s in rects.values() if s.fillcolor == BLOCK_COLORS["embed"]), key=lambda s: s.x0)
    assert linear.y0 <= ys[0] <= linear.y1 and target.y0 <= ys[-1] <= target.y1
    assert any(a.text == LABELS["tied"] for a in fig.layout.annotations)


def test_the_selected_block_is_framed():
    fig = architecture_figure(3, 3, LABELS, selected="dec.1.cross_attn")
    framed = [s for s in fig.layout.shapes if s.type == "rect" and s.line.width == 3]
    assert len(framed) == 2  # the sublayer and its add & norm strip
    target = click_targets(fig)["dec.1.cross_attn"][0]
    assert all(s.x0 <= x <= s.x1 for s in framed for x in target.x)
    with pytest.raises(ValueError, match="selected"):
        architecture_figure(3, 3, LABELS, selected="dec.3.ffn")


def test_a_click_names_its_block_and_hovers_say_so():
    fig = architecture_figure(3, 3, LABELS, click_hint="click me")
    target = click_targets(fig)["enc.2.ffn"][0]
    assert "encoder layer 3" in target.hovertemplate and "ffn" in target.hovertemplate
    assert "click me" in target.hovertemplate
    assert clicked_block([{"customdata": "enc.2.ffn", "x": 1}]) == "enc.2.ffn"
    assert clicked_block([{"x": 1}]) is None and clicked_block([]) is None


def test_labels_are_escaped_and_checked():
    fig = architecture_figure(1, 1, {**LABELS, "memory": "<b>memory</b>"})
    assert any("&lt;b&gt;memory&lt;/b&gt;" in a.text for a in fig.layout.annotations)
    with pytest.raises(ValueError, match="labels lacks"):
        architecture_figure(3, 3, {k: v for k, v in LABELS.items() if k != "tied"})
    with pytest.raises(ValueError, match="at least one layer"):
        architecture_blocks(0, 3)


def test_fitting_size_shrinks_long_text_to_its_box():
    assert fitting_size(["FFN"], 200, 40) == 16
    assert 10 <= fitting_size(["a rather long label for a small box"], 80, 30) < 16


def test_tensor_panels_rows_are_tokens_in_order_and_repeats_stay_apart():
    tokens = ["the", "cat", "the"]
    a, b = np.arange(12.0).reshape(3, 4), -np.ones((3, 4))
    fig = tensor_panels([("x (3 × 4)", a), ("y", b)], tokens, title="t", token_title="tokens", dim_title="dim",
                        value_label="value")
    assert len(fig.data) == 2 and fig.data[0].z.dtype == np.float32
    assert list(fig.layout.yaxis.tickvals) == [0, 1, 2] and list(fig.layout.yaxis.ticktext) == tokens
    assert list(fig.layout.yaxis.range) == [2.5, -0.5]  # first token at the top
    assert fig.layout.yaxis2.showticklabels is False
    assert fig.data[0].zmin == -fig.data[0].zmax and fig.data[1].zmax > 0  # white at 0 in each panel
    assert fig.layout.height <= MAX_HEIGHT_PX and fig.layout.width <= MAX_WIDTH_PX


def test_tensor_panels_fit_a_long_sentence_and_check_their_input():
    tokens = [f"w{i}" for i in range(127)]
    fig = tensor_panels([("x", np.ones((127, 256)))], tokens, title="t", token_title="tokens", dim_title="dim",
                        value_label="value")
    assert fig.layout.height <= MAX_HEIGHT_PX
    with pytest.raises(ValueError, match="one row per token"):
        tensor_panels([("x", np.ones((3, 4))), ("y", np.ones((2, 4)))], ["a", "b", "c"], title="", token_title="",
                      dim_title="", value_label="")
    with pytest.raises(ValueError, match="labels"):
        tensor_panels([("x", np.ones((3, 4)))], ["a", "b"], title="", token_title="", dim_title="", value_label="")
    with pytest.raises(ValueError, match="at least one"):
        tensor_panels([], [], title="", token_title="", dim_title="", value_label="")
