"""Layout of the token figures at a projector's 1280×800: estimated label boxes never overlap, every figure fits
max_width × max_height, attention maps have square cells, hovers name positions, the head view stays readable.

A label's box is estimated as the figures estimate it (viz.style.text_em: 0.62 of the font size per Latin
character, 1.0 per CJK one; a line 1.5 font sizes tall) and placed where Plotly puts it: at its tick, in a
plot whose size is the figure's size less its margins.
"""

from __future__ import annotations

import html
import math

import numpy as np
import pytest

from tests.support.figures import EVERY_FIGURE, label_axes
from viz.bars import paired_bars
from viz.beam_tree import beam_tree
from viz.decoding import attention_bar, candidates_chart, causal_mask_row
from viz.head_view import HEAD_COLORS, TOP_LINKS, clicked_query, head_view
from viz.heatmap import NOTE_PX, SQUARE_MIN_PX, attention_heatmap, heatmap_figure, matrix_heatmap
from viz.model_view import model_view
from viz.options import ColourScale, Extras, Frame, Heads, Labels, Room
from viz.style import (
    BASE_FONT_PX,
    CELL_TEXT_PX,
    D3,
    EDGE_PX,
    HOVER_FONT_PX,
    LEGEND_ROW_PX,
    LINE_EM,
    MAX_HEIGHT_PX,
    MAX_WIDTH_PX,
    MIN_FONT_PX,
    MODEBAR_PX,
    TICK_PAD_PX,
    min_font_px_at,
    text_em,
    tick_layout,
    title_px,
    widest_tick,
    x_labels_band,
    y_labels_band,
    y_titles_beyond_labels,
)
from viz.sent import sent_figure
from viz.teaching_masks import mask_stage_figure, padding_figure
from viz.teaching_qkv import score_steps_figure

LENGTHS = (3, 5, 8, 12, 16, 24, 31, 40, 60)
KINDS = ("english", "long", "cjk")


def sentence(n: int, kind: str) -> list[str]:
    """n tokens: short English pieces, long ones, or Chinese ones (1–3 characters), each a little different."""
    words = {
        "english": ["▁The", "▁animal", "▁didn", "'", "t", "▁cross", "▁the", "▁street", "▁because", "."],
        "long": ["▁internationalisation", "▁counterrevolutionary", "▁the", "▁incomprehensibilities", "</s>"],
        "cjk": ["动物", "没", "有", "过", "马路", "因为", "它", "太累了", "。", "<s>"],
    }[kind]
    return [words[i % len(words)] for i in range(n)]


def weights(*shape: int, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=shape) * 3
    e = np.exp(x - x.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


def assert_labels_apart(fig, factor: float = 1.0) -> None:
    """Along every axis with labels, neighbouring labels' estimated boxes do not overlap, none is taller than the
    rows or columns it stands for, and the margin on the axis's side holds them; fonts are 10–16 px (times
    `factor` in a scaled figure)."""
    layout = fig.layout
    plot_w = layout.width - layout.margin.l - layout.margin.r
    plot_h = layout.height - layout.margin.t - layout.margin.b
    for name, axis in label_axes(fig.to_plotly_json()["layout"]).items():
        size = axis["tickfont"]["size"]
        assert MIN_FONT_PX * factor <= size <= BASE_FONT_PX * factor, (name, size)
        domain = axis.get("domain", [0, 1])
        length = (plot_w if name[0] == "x" else plot_h) * (domain[1] - domain[0])
        low, high = sorted(axis["range"])
        px = length / (high - low)  # per position
        upright_x = name[0] == "x" and axis.get("tickangle", 0) == 0
        half = [text_em(html.unescape(t)) * size / 2 if upright_x else LINE_EM * size / 2 for t in axis["ticktext"]]
        ticks = list(axis["tickvals"])
        for (a, b), (ha, hb) in zip(zip(ticks, ticks[1:]), zip(half, half[1:])):
            assert (b - a) * px >= ha + hb - 1e-6, (name, axis["ticktext"], size, px)
        depth = LINE_EM * size if upright_x else max(text_em(html.unescape(t)) * size for t in axis["ticktext"])
        side = axis.get("side", "bottom" if name[0] == "x" else "left")
        room = {"bottom": layout.margin.b, "top": layout.margin.t - title_px(layout.title.text.replace("<br>", " "),
                                                                               layout.width),
                "left": layout.margin.l, "right": layout.margin.r}[side]
        assert room >= depth, (name, side, room, depth)


def assert_fits(fig, max_width: float = MAX_WIDTH_PX, max_height: float = MAX_HEIGHT_PX) -> None:
    assert fig.layout.width <= max_width and fig.layout.height <= max_height, (fig.layout.width, fig.layout.height)


def assert_square_cells(fig, rows: int, cols: int, max_width: float = MAX_WIDTH_PX) -> None:
    """Square cells; or, where square ones would be under SQUARE_MIN_PX, rows that short and columns as wide as
    the width allows (a crowded map uses the page's width)."""
    layout = fig.layout
    plot_w = layout.width - layout.margin.l - layout.margin.r
    plot_h = layout.height - layout.margin.t - layout.margin.b
    if plot_h / rows < SQUARE_MIN_PX:
        assert plot_w / cols >= plot_h / rows  # never narrower than square: the width is used
    else:
        assert plot_w / cols == pytest.approx(plot_h / rows, abs=1e-6)


class TestTickLayout:
    def test_text_width_counts_cjk_characters_wide(self):
        assert text_em("abc") == pytest.approx(3 * 0.62)
        assert text_em("我们") == pytest.approx(2.0)
        assert text_em("▁the") == pytest.approx(1.0 + 3 * 0.62)  # CJK fonts draw ▁ full width

    def test_upright_then_vertical_then_thinned(self):
        upright = tick_layout(["▁I", "▁have", "▁a"], 60)
        assert (upright.angle, upright.size, upright.step) == (0, BASE_FONT_PX, 1)
        vertical = tick_layout(["▁because", "▁street"], 30)
        assert (vertical.angle, vertical.size, vertical.step) == (-90, BASE_FONT_PX, 1)
        small = tick_layout(["▁because", "▁street"], 18)
        assert small.angle == -90 and small.step == 1 and LINE_EM * small.size <= 18
        thinned = tick_layout(["▁because"] * 30, 5)
        assert thinned.size == MIN_FONT_PX and thinned.step * 5 >= LINE_EM * MIN_FONT_PX
        stacked = tick_layout(["L1·H1"] * 24, 12, across=False)
        assert stacked.angle == 0 and stacked.step == 2  # a 10 px line is 15 px: every second row

    def test_a_figure_the_page_enlarges_keeps_labels_that_fit_on_screen(self):
        """17 rows 15 px apart: at 11 px every other label; in a figure enlarged 1.3 times (presentation mode), laid
        out at 9 px, every label, shown at 11.7 px."""
        rows = [f"▁w{i}" for i in range(17)]
        assert tick_layout(rows, 15, across=False).step == 2
        smaller = min_font_px_at(1.3)
        enlarged = tick_layout(rows, 15, across=False, min_font_px=smaller)
        assert enlarged.step == 1 and enlarged.size * 1.3 >= MIN_FONT_PX and LINE_EM * enlarged.size <= 15
        assert min_font_px_at(1.0) == MIN_FONT_PX and (min_font_px_at(1.3) - 1) * 1.3 < MIN_FONT_PX

    def test_upright_end_labels_get_room_past_the_axis(self):
        fit = tick_layout(["我", "▁internationalisation"], 150)
        assert fit.angle == 0 and fit.overhang == pytest.approx((text_em("▁internationalisation") * 16 - 150) / 2)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", LENGTHS)
class TestTokenMaps:
    def test_attention_map_labels_apart_square_cells_within_limits(self, n, kind):
        source, target = sentence(n, kind), sentence(max(n // 2, 1) + 1, "cjk")
        for queries, keys in ((source, source), (target, source)):
            fig = attention_heatmap(weights(len(queries), len(keys)),
                                    Labels(queries, keys, query_title="queries (source tokens)",
                                           key_title="keys (source tokens)"),
                                    title="Encoder · layer 1 · average")
            assert_fits(fig)
            assert_square_cells(fig, len(queries), len(keys))
            assert_labels_apart(fig)

    def test_every_layer_and_head_in_a_narrow_column(self, n, kind):
        rows = [f"L{layer}·H{head}" for layer in (1, 2, 3) for head in range(1, 9)]
        fig = attention_heatmap(weights(24, n),
                                Labels(rows, sentence(n, kind), query_title="layer · head",
                                       key_title="keys (source tokens)"),
                                room=Room(max_width=320))
        assert_fits(fig, max_width=320)
        assert_square_cells(fig, 24, n, max_width=320)
        assert_labels_apart(fig)
        assert list(fig.layout.yaxis.ticktext) == rows  # every label stays on the data axis, for the hover

    def test_teaching_matrix_and_mask_row(self, n, kind):
        tokens = [f"{i}: {t}" for i, t in enumerate(sentence(n, kind))]
        scores = np.where(np.tril(np.ones((n, n), bool)), np.random.default_rng(n).normal(size=(n, n)) * 3, -np.inf)
        matrix = mask_stage_figure("masked", scores,
                                   Labels(tokens, tokens, query_title="queries", key_title="keys", value_label="score"),
                                   room=Room(max_width=420), title="Scores after masking")
        assert_fits(matrix, max_width=420)
        assert_square_cells(matrix, n, n, max_width=420)
        assert_labels_apart(matrix)
        row = causal_mask_row(weights(1, n)[0],
                              Labels(None, sentence(n, kind), query_title="query", key_title="keys (target prefix)",
                                     masked_label="masked (future)"),
                              n // 2, title="layer 1")
        assert_fits(row)
        assert_labels_apart(row)

    def test_grid_lines_and_bars_within_limits(self, n, kind):
        tokens = sentence(n, kind)
        grid = model_view(weights(3, 8, n, n), Labels(tokens, tokens), title="Encoder: every head", selected=(1, 2),
                          click_hint="click")
        assert_fits(grid)
        lines = head_view(weights(8, n, n), Labels(tokens, tokens), title="Encoder · layer 1")
        assert_fits(lines)
        assert_labels_apart(lines)
        for bars in (attention_bar(weights(1, n)[0], tokens, title="layer 1"),
                     paired_bars(tokens, np.ones(n), np.full(n, 0.5), frame=Frame(title="t", x_title="tokens"),
                                 names=("a", "b"), colors=D3[:2]),
                     score_steps_figure(tokens, np.ones(n), np.ones(n), np.full(n, 1 / n), titles=("1", "2", "3"),
                                        key_title="keys")):
            assert_fits(bars)
            assert_labels_apart(bars)

    def test_numbers_in_cells_fit_their_cells(self, n, kind):
        values = np.random.default_rng(n).normal(size=(n, n)) * 30  # "−41.27": wide numbers
        tokens = [f"{i}: {t}" for i, t in enumerate(sentence(n, kind))]
        fig = matrix_heatmap(values, Labels(tokens, tokens, query_title="q", key_title="k", value_label=""),
                             room=Room(max_width=420))
        heat = fig.data[0]
        if heat.texttemplate:
            cell = (fig.layout.width - fig.layout.margin.l - fig.layout.margin.r) / n
            widest = max(text_em(f"{v:.2f}".replace("-", "−")) for v in values.ravel())
            assert widest * heat.textfont.size + 4 <= cell and LINE_EM * heat.textfont.size <= cell


def test_presentation_scale_enlarges_a_figure_as_a_whole_so_its_labels_stay_apart():
    tokens = sentence(40, "english")
    fig = attention_heatmap(weights(40, 40), Labels(tokens, tokens), title="Encoder · layer 1")
    big = sent_figure(fig, 1.3)
    assert_labels_apart(big, factor=1.3)
    assert big.layout.width == pytest.approx(1.3 * fig.layout.width)
    assert big.layout.yaxis.ticklabelstandoff >= 1.3 * fig.layout.yaxis.ticklabelstandoff
    y_title = next(key for key in fig.layout if key.startswith("yaxis") and fig.layout[key].title.text)
    assert big.layout[y_title].title.standoff == pytest.approx(1.3 * fig.layout[y_title].title.standoff)
    assert big.data[0].colorbar.len == pytest.approx(1.3 * fig.data[0].colorbar.len)
    grid = model_view(weights(2, 2, 5, 5), Labels(tokens[:5], tokens[:5]), click_hint="click", selected=(0, 0))
    big_grid = sent_figure(grid, 1.3)
    assert big_grid.data[1].marker.size == pytest.approx(1.3 * grid.data[1].marker.size)  # a click target fills its map
    assert big_grid.layout.shapes[0].line.width == pytest.approx(1.3 * grid.layout.shapes[0].line.width)


def test_hover_labels_are_16_px_or_more():
    for name, build in EVERY_FIGURE.items():
        assert build().layout.hoverlabel.font.size >= HOVER_FONT_PX, name


def test_hovers_name_positions_so_a_repeated_token_is_told_apart():
    the = ["▁the", "▁cat", "▁saw", "▁the", "▁dog"]
    heat = attention_heatmap(weights(5, 5), Labels(the, the, query_title="query", key_title="key")).data[0]
    assert "query: <b>%{pointNumber[0]} · %{y}</b>" in heat.hovertemplate
    assert "key: <b>%{pointNumber[1]} · %{x}</b>" in heat.hovertemplate
    assert "%{pointNumber[1]} · %{x}" in model_view(weights(1, 2, 5, 5), Labels(the, the)).data[0].hovertemplate
    # Labels that already carry their position ("3: ▁the", the teaching pages') are not numbered twice.
    numbered = [f"{i}: {t}" for i, t in enumerate(the)]
    matrix = matrix_heatmap(np.eye(5), Labels(numbered, numbered, query_title="q", key_title="k", value_label=""))
    assert "pointNumber" not in matrix.data[0].hovertemplate
    for fig in (attention_bar(weights(1, 5)[0], the), candidates_chart(the, [0.5, 0.2, 0.1, 0.1, 0.1], 0),
                paired_bars(the, np.ones(5), np.ones(5), frame=Frame(title="", x_title="x"), names=("a", "b"),
                            colors=D3[:2])):
        assert all("%{pointNumber} · %{customdata}" in bar.hovertemplate for bar in fig.data)
        assert list(fig.data[0].customdata) == the
    tree = beam_tree([{"kept": [(the[:1], -1.0)], "dropped": [(the[1:2], -2.0)]}], the[:1] + ["</s>"])
    hovered = [trace for trace in tree.data if trace.customdata is not None]  # a beam node's hover: its hypothesis
    assert [list(trace.customdata[0])[0] for trace in hovered] == ["the", "cat"]


def test_heatmap_hover_highlights_its_row_and_column():
    fig = attention_heatmap(weights(12, 40), Labels(sentence(12, "cjk"), sentence(40, "english")))
    for axis in (fig.layout.xaxis, fig.layout.yaxis):  # the data axes, which hovers use
        assert axis.showspikes and "across" in axis.spikemode


def test_thinned_labels_keep_every_token_for_the_hover():
    tokens = sentence(60, "long")
    fig = attention_heatmap(weights(60, 60), Labels(tokens, tokens))
    assert list(fig.layout.xaxis.tickvals) == list(range(60)) and not fig.layout.xaxis.showticklabels
    shown = fig.layout.xaxis2
    step = shown.tickvals[1] - shown.tickvals[0]
    assert step > 1 and list(shown.ticktext) == [html.escape(t, quote=False) for t in tokens[::step]]
    assert shown.overlaying == "x" and shown.title.text and fig.layout.xaxis.title.text is None  # title moves too
    # and the hidden labels' tick marks go too: a label taller than its row reached over its neighbours' marks
    assert fig.layout.xaxis.ticks == "" and shown.ticks is None


class TestHeadView:
    def test_average_draws_one_head_named_by_the_caller(self):
        w = weights(8, 5, 6).mean(axis=0, keepdims=True)
        fig = head_view(w, Labels(list("abcde"), list("uvwxyz")), heads=Heads(names=["average"]))
        (entry,) = [t for t in fig.data if t.showlegend]
        assert entry.name == "average"
        with pytest.raises(ValueError, match="heads.names"):
            head_view(w, Labels(list("abcde"), list("uvwxyz")), heads=Heads(names=["a", "b"]))

    def test_query_tokens_carry_their_index_and_list_their_strongest_keys(self):
        w = np.full((1, 3, 4), 0.1, np.float32)
        w[0, 1] = [0.05, 0.6, 0.25, 0.1]
        fig = head_view(w, Labels(["▁the", "▁cat", "▁the"], list("wxyz"), value_label="weight"))
        queries = next(t for t in fig.data if t.customdata is not None)
        assert list(queries.customdata) == [0, 1, 2] and list(queries.x) == [0, 0, 0]
        assert queries.text[1].startswith("queries: <b>1 · ▁cat</b>")
        assert queries.text[1].index("1 · x") < queries.text[1].index("2 · y")  # strongest first, with its weight
        assert "weight: <b>0.6000</b>" in queries.text[1]
        assert clicked_query([{"curve_number": 9, "customdata": 2}]) == 2
        assert clicked_query([{"customdata": [1, 2]}, {}]) is None

    def test_all_queries_keep_only_their_strongest_links(self):
        n = 20
        fig = head_view(weights(8, n, n, seed=3) * 0 + 1 / n, Labels(sentence(n, "english"), sentence(n, "english")),
                        min_weight=0.0)
        per_head = [t for t in fig.data if t.showlegend]
        assert all(len(t.x) == n for t in per_head)  # every query its one strongest key, in each of 8 heads
        one = head_view(weights(1, n, n), Labels(sentence(n, "english"), sentence(n, "english")), min_weight=0.0)
        assert len(next(t for t in one.data if t.showlegend).x) == TOP_LINKS * n
        focused = head_view(weights(1, n, n), Labels(sentence(n, "english"), sentence(n, "english")), min_weight=0.0,
                            query_index=3)
        assert len(next(t for t in focused.data if t.showlegend).x) == n  # one query: all its links

    def test_head_colours_are_distinct_and_none_is_grey(self):
        assert len(set(HEAD_COLORS[:8])) == 8 and "#7f7f7f" not in HEAD_COLORS[:8]


def test_padding_figure_shows_every_position_and_keeps_its_title_clear():
    keep = np.array([[True] * 5, [True, True, True, False, False]])
    padded = [["i", "have", "a", "dream", "</s>"], ["thinking", "machines", "</s>", "<pad>", "<pad>"]]
    fig = padding_figure(keep, padded, title="A padded batch", sentence_title="sentence", position_title="position",
                         real_label="real", pad_label="<pad>")
    assert list(fig.layout.xaxis.tickvals) == [0, 1, 2, 3, 4] and fig.layout.xaxis.side == "top"
    assert_labels_apart(fig)
    assert fig.layout.margin.t >= title_px("A padded batch", fig.layout.width) + LINE_EM * 16 + 30
    assert fig.layout.legend.y <= 0  # below the plot: the axis is on top
    assert fig.data[0].textfont.size >= MIN_FONT_PX


def test_legends_stand_above_the_plot_clear_of_the_labels():
    fig = paired_bars(sentence(16, "english"), np.ones(16), np.ones(16), frame=Frame(title="Sizes", x_title="token"),
                      names=("embedding", "PE"), colors=D3[:2])
    assert fig.layout.legend.y == 1 and fig.layout.legend.yanchor == "bottom"
    assert fig.layout.margin.t >= title_px("Sizes", fig.layout.width) + LEGEND_ROW_PX


def test_a_crowded_map_uses_the_width_it_is_given_with_labels_of_11_px_or_more():
    """A 40-word sentence (about 50 tokens): not a 360-px square of 9-px labels, but the page's width, and every
    label at least 11 px (thinned only where 11-px labels would overlap)."""
    tokens = sentence(50, "english")
    fig = attention_heatmap(weights(50, 50), Labels(tokens, tokens), room=Room(max_width=MAX_WIDTH_PX),
                            title="Encoder · layer 1")
    assert_fits(fig)
    assert fig.layout.width >= 0.75 * MAX_WIDTH_PX, fig.layout.width
    for axis in (fig.layout.xaxis, fig.layout.yaxis):
        assert axis.tickfont.size >= 11
    assert_labels_apart(fig)


def test_a_map_held_low_wraps_its_y_title_rather_than_flatten_its_rows():
    """Compare's three maps side by side are held to 275 px: keeping "queries (target tokens)" on one line beside a
    short plot needed a band above it, and rows came out 2 px tall. Wrapped, they keep four times that; where
    there is height to spare, the title stays on one line."""
    queries, keys = sentence(12, "cjk"), sentence(10, "english")
    low = attention_heatmap(weights(12, 10),
                            Labels(queries, keys, query_title="queries (target tokens)",
                                   key_title="keys (source tokens)"),
                            room=Room(max_width=290, max_height=275), title="")
    assert_fits(low, 290, 275)
    plot_h = low.layout.height - low.layout.margin.t - low.layout.margin.b
    assert plot_h / 12 >= 8, plot_h / 12
    assert "<br>" in y_title(low)  # the title wrapped to the plot's height
    assert_labels_apart(low)
    tall = attention_heatmap(weights(12, 10),
                             Labels(queries, keys, query_title="queries (target tokens)",
                                    key_title="keys (source tokens)"),
                             room=Room(max_width=560, max_height=600), title="")
    assert "<br>" not in y_title(tall)


def plot_cell_px(fig, cols: int) -> float:
    return (fig.layout.width - fig.layout.margin.l - fig.layout.margin.r) / cols


def test_a_narrow_columns_map_puts_a_compact_colour_bar_where_its_cells_are_largest():
    """A third of Compare's page (262 px): the usual colour bar, titled along its side, took 100 of them. compact_scale
    titles it above the bar and lays it across under a wide map (17 keys: the usual bar had no room beside cells as
    large), upright beside a tall one (8 rows held to 290 px), and never drops it where one place has room for it."""
    queries, keys = sentence(11, "cjk"), sentence(17, "english")
    titles = dict(query_title="queries", key_title="keys")
    wide = attention_heatmap(weights(11, 17), Labels(queries, keys, **titles), room=Room(max_width=262, max_height=370),
                             compact_scale=True)
    usual = attention_heatmap(weights(11, 17), Labels(queries, keys, **titles),
                              room=Room(max_width=262, max_height=370))
    assert_fits(wide, 262, 370)
    assert_labels_apart(wide)
    bar = wide.data[0].colorbar
    assert wide.data[0].showscale and bar.orientation == "h" and bar.title.side == "top", bar
    assert bar.len <= plot_cell_px(wide, 17) * 17  # no longer than the plot it lies under
    assert list(bar.tickvals) == [0, 0.5, 1] and list(bar.ticktext) == ["0", "0.5", "1"]  # its ends and middle
    assert not usual.data[0].showscale  # the usual bar only fits beside 6-px cells: this room had none
    assert plot_cell_px(wide, 17) >= plot_cell_px(usual, 17), (plot_cell_px(wide, 17), plot_cell_px(usual, 17))
    tall = attention_heatmap(weights(8, 6), Labels(sentence(8, "cjk"), sentence(6, "english"), **titles),
                             room=Room(max_width=262, max_height=290), compact_scale=True)
    assert_fits(tall, 262, 290)
    bar = tall.data[0].colorbar
    assert tall.data[0].showscale and bar.orientation != "h" and bar.title.side == "top", bar
    assert tall.layout.margin.r < 100
    crowded = attention_heatmap(weights(13, 13), Labels(sentence(13, "cjk"), sentence(13, "english"), **titles),
                                room=Room(max_width=262, max_height=290), compact_scale=True)
    assert crowded.data[0].showscale  # upright: 8-px cells with it rather than 9-px rows without it


def test_a_compact_colour_bar_cannot_go_where_the_x_labels_are():
    with pytest.raises(ValueError, match="x_side='bottom'"):
        heatmap_figure(weights(3, 3), Labels(["a", "b", "c"], ["a", "b", "c"], "r", "c", "v"),
                       scale=ColourScale(compact=True), extras=Extras(x_side="top"))


def y_title(fig) -> str:
    """The y title, on whichever y axis draws the labels (a thinned axis's overlay carries it)."""
    return next(axis.title.text for axis in fig.select_yaxes() if axis.title.text)


def test_a_wrapped_title_breaks_between_its_phrases_not_inside_one():
    """A narrow map's title ("… · layer 1 · average of heads") goes on at a " · ", so "average of heads" stays whole."""
    fig = attention_heatmap(np.full((6, 6), 1 / 6),
                            Labels(list("abcdef"), list("abcdef"), query_title="queries", key_title="keys",
                                   value_label="weight"),
                            room=Room(max_width=340), title="Encoder self-attention · layer 1 · average of heads")
    lines = html.unescape(fig.layout.title.text).split("<br>")
    assert len(lines) > 1
    assert all(line.endswith(" ·") for line in lines[:-1])
    phrases = [phrase for line in lines for phrase in line.removesuffix(" ·").split(" · ")]
    assert phrases == ["Encoder self-attention", "layer 1", "average of heads"]


def test_a_one_row_map_keeps_above_it_only_what_its_wrapped_y_title_reaches():
    """Decoding's mask row (one query, the step): "query (this step)" is longer than the band a one-line title may
    take there, so it wraps, and it reaches past the plot only as far as its longest line (each line is centred on
    the plot). At the far left, that reach shares the band above the plot with the grey cells' note and Plotly's
    mode bar, which sit at the right: the band is the larger of the two, not both stacked. 124 px before, 64 now
    (24 of the one-line reach, 36 shared)."""
    tokens = ["<s>", *["·"] * 9]
    note = "grey · = not written yet (masked)"
    fig = causal_mask_row(weights(1, 10)[0],
                          Labels(None, tokens, query_title="query (this step)", key_title="keys (target tokens)",
                                 masked_label=note),
                          0, room=Room(max_width=470))
    lines = html.unescape(y_title(fig)).split("<br>")
    assert len(lines) == 2
    margin = fig.layout.margin
    plot_w, plot_h = fig.layout.width - margin.l - margin.r, fig.layout.height - margin.t - margin.b
    assert text_em(note) * CELL_TEXT_PX < plot_w  # the note sits over the plot, right of the y title
    reach = (max(text_em(line) for line in lines) * BASE_FONT_PX - plot_h) / 2
    assert margin.t <= EDGE_PX + max(reach, NOTE_PX + MODEBAR_PX) + 1, (margin.t, reach)
    assert_fits(fig, 470, MAX_HEIGHT_PX)
    assert_labels_apart(fig)


@pytest.mark.parametrize(("low", "high", "widest"), [
    (0, 20000, "88888"),  # steps: Plotly writes "20k", narrower
    (0, 1000, "8888"),  # a log axis's powers of ten up to 1000
    (1.2, 9.6, "8"),  # losses: whole ticks
    (-1.1, 1.1, "−88.8"),  # PE: "−0.5", the minus with a digit's room more
    (0.0, 0.3, "8.88"),  # a short span: ticks of 0.05
])
def test_widest_tick_is_at_least_as_long_as_the_labels_plotly_writes(low, high, widest):
    assert widest_tick(low, high) == widest


def test_label_bands_hold_each_title_line_and_the_widest_label():
    """The margins figures give (Plotly's automargin has then nothing to grow: tests/test_tour_browser.py checks it
    on the page): one more title line, or a wider label, takes that much more room."""
    one = y_labels_band("100%", "share")
    assert y_labels_band("100%", "") == one - LINE_EM * BASE_FONT_PX
    assert y_labels_band("1000%", "share") == math.ceil(one + text_em("0") * BASE_FONT_PX)
    assert x_labels_band("training step") - x_labels_band("") == LINE_EM * BASE_FONT_PX
    assert y_labels_band("8", "a title long enough to wrap into lines", plot_px=100) > y_labels_band("8", "a title")


def test_chinese_characters_stay_upright_in_a_smaller_font_before_turning_on_their_side():
    """A Chinese source on an x axis (issue 49): one character per slot, "</s>" last. Where 16 px does not fit, the
    characters shrink (to no less than the minimum) rather than lie on their side; English words still turn."""
    from viz.style import BASE_FONT_PX, MIN_FONT_PX, tick_layout

    chinese = tick_layout(list("我有一个梦想。") + ["</s>"], 26.0)  # 16 px upright needs 34
    assert chinese.angle == 0 and MIN_FONT_PX <= chinese.size < BASE_FONT_PX and chinese.step == 1
    english = tick_layout(["▁students", "▁finally", "▁arrived", "▁station", "</s>"], 26.0)
    assert english.angle == -90


def test_a_map_stands_chinese_labels_upright_with_the_end_token_on_two_lines_where_that_fits():
    """Compare's zh-en maps (issue 60 §1, §3): 。 beside </s> needs about 23.5-px columns at the 11-px minimum, so
    22-px columns turned every Chinese label on its side. </s> now goes on two lines ("</" over "s>") where that keeps
    the labels upright, as byte tokens do in the bars; labels that fit on one line are left as they are."""
    from viz.heatmap import heatmap_figure
    from viz.style import LINE_EM, MIN_FONT_PX

    rows = ["<s>", "▁Tom", "▁bought", "▁three", "▁books", "▁yesterday", "."]
    cols = list("汤姆昨天买了三本书。") + ["</s>"]

    def axis(columns, width=340):
        fig = heatmap_figure(np.full((len(rows), len(columns)), 1 / len(columns), dtype=np.float32),
                             Labels(rows, columns), room=Room(width))
        return fig, fig.layout.xaxis

    fig, x = axis(cols)
    assert x.tickangle == 0 and x.tickfont.size >= MIN_FONT_PX
    assert list(x.ticktext[-2:]) == ["。", "&lt;/<br>s&gt;"]
    assert fig.layout.margin.b >= 2 * LINE_EM * x.tickfont.size  # the bottom margin holds both lines
    _, x = axis(list("我有一个梦想。") + ["</s>"], width=600)  # room for </s> on one line: unchanged
    assert x.tickangle == 0 and "<br>" not in "".join(x.ticktext)
    _, x = axis(["▁I", "▁have", "▁a", "▁dream", ".", "</s>"] * 2)  # English words turn anyway: </s> stays whole
    assert x.tickangle == -90 and "<br>" not in "".join(x.ticktext)


def test_every_titled_left_y_axis_sets_its_title_beyond_its_widest_label():
    """A y title at a standoff from the widest label, not beside the labels level with it (there "键 ▁every" read as
    one label; the tour's CHART_PROBLEMS sees it in the browser); a right-hand axis keeps Plotly's own place."""
    for name, build in EVERY_FIGURE.items():
        layout = build().layout
        for axis in (layout[key] for key in layout if key.startswith("yaxis")):
            if axis.title.text and axis.side != "right":
                assert axis.title.standoff is not None, (name, axis.title.text)  # TICK_PAD_PX, or the figure's own
            elif axis.side == "right":
                assert axis.title.standoff is None, name
    assert y_titles_beyond_labels({"yaxis": {"title": {"text": "a"}}, "yaxis2": {"title": {"text": "b", "standoff": 2}},
                                   "xaxis": {"title": {"text": "c"}}}) == {
        "yaxis": {"title": {"text": "a", "standoff": TICK_PAD_PX}}, "yaxis2": {"title": {"text": "b", "standoff": 2}}}
