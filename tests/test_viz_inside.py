"""The architecture diagram and the tensor panels: blocks, arrows, click targets, labels, sizes, input checks."""

from __future__ import annotations

import numpy as np
import pytest

from viz.style import MAX_HEIGHT_PX, MAX_WIDTH_PX
from viz.teaching_inside import (
    BLOCK_COLORS,
    DIAGRAM_LABELS,
    architecture_blocks,
    architecture_figure,
    clicked_block,
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
    cross_boxes = [s for s in fig.layout.shapes if s.type == "rect" and s.fillcolor == BLOCK_COLORS["attn"]]
    into_cross = []
    for arrow in arrows(fig):
        for box in cross_boxes:
            if box.x0 <= arrow.x <= box.x1 and arrow.y == box.y0 and arrow.ax == arrow.x and arrow.ay < box.y0:
                into_cross.append(box)
    # one arrow up into each decoder layer's cross-attention box, none into a self-attention box
    cross_x = sorted({round((b.x0 + b.x1) / 2, 6) for b in into_cross})
    assert len(into_cross) == dec and len(cross_x) == 1
    # each of them starts on a line drawn from the encoder's output (the bus)
    paths = [s.path for s in fig.layout.shapes if s.type == "path"]
    assert sum(p.count(" L ") == 1 for p in paths) == dec  # one horizontal line per decoder layer


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
