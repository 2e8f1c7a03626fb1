"""Structure of the teaching figures: orientation, labels, fixed scales, −∞ cells, escaping, input checks."""

from __future__ import annotations

import ast
import importlib
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from lessons import positional as lp
from tests.support.figures import EVERY_FIGURE, T3, TITLES, masked_scores
from tests.support.paths import ROOT
from viz.explanation import pruning_figure
from viz.heatmap import matrix_heatmap
from viz.labels import NEG_INF
from viz.options import Frame, Labels, Room
from viz.style import AXIS_TITLE_PX, FONT, TITLE_PX, styled_figure, text_px, title_lines, title_px
from viz.teaching_anatomy import horizontal_bars, label_smoothing_figure, lr_figure, training_curves_figure
from viz.teaching_multihead import head_split_figure, two_heads_figure
from viz.teaching_masks import mask_stage_figure, padding_figure
from viz.teaching_positional import norms_figure, pe_curves, pe_heatmap, rotation_figure, similarity_heatmap
from viz.teaching_qkv import score_steps_figure, weighted_sum_figure
from viz.teaching_scaling import softmax_comparison_figure, variance_figure


def test_matrix_heatmap_rows_are_queries_and_repeated_tokens_stay_apart():
    tokens = ["the", "cat", "the"]
    fig = matrix_heatmap(np.eye(3), Labels(tokens, tokens, query_title="queries", key_title="keys", value_label=""))
    heat = fig.data[0]
    assert heat.z.dtype == np.float32
    assert list(fig.layout.yaxis.tickvals) == [0, 1, 2] and list(fig.layout.yaxis.ticktext) == tokens
    assert fig.layout.yaxis.title.text == "queries" and fig.layout.xaxis.title.text == "keys"
    assert list(fig.layout.yaxis.range) == [2.5, -0.5]  # first query at the top


def test_minus_infinity_cells_are_gaps_labelled_as_such():
    fig = mask_stage_figure("masked", masked_scores(), Labels(["a", "b", "c"], ["a", "b", "c"], **TITLES), title="t")
    heat, labels = fig.data
    assert np.isnan(heat.z[0, 1]) and np.isnan(heat.z[0, 2]) and not np.isnan(heat.z[1, 0])
    assert list(labels.text) == [NEG_INF] * 3
    assert heat.texttemplate == "%{z:.2f}"  # small matrices print every number
    assert sorted(zip(labels.y, labels.x)) == [(0, 1), (0, 2), (1, 2)]


def test_weights_stage_uses_a_fixed_zero_to_one_scale():
    fig = mask_stage_figure("weights", np.full((2, 2), 0.5), Labels(["a", "b"], ["a", "b"], **TITLES), title="")
    assert (fig.data[0].zmin, fig.data[0].zmax) == (0.0, 1.0)
    with pytest.raises(ValueError, match="stage"):
        mask_stage_figure("nope", np.eye(2), Labels(["a", "b"], ["a", "b"], **TITLES), title="")
    with pytest.raises(ValueError, match="NaN or infinite"):
        mask_stage_figure("weights", masked_scores(), Labels(list("abc"), list("abc"), **TITLES), title="")


def test_user_text_is_escaped_in_labels():
    fig = matrix_heatmap(np.eye(2),
                         Labels(["<b>x</b>", "ok"], ["<s>", "&"], query_title="<i>q</i>", key_title="k",
                                value_label=""))
    assert fig.layout.yaxis.ticktext[0] == "&lt;b&gt;x&lt;/b&gt;"
    assert list(fig.layout.xaxis.ticktext) == ["&lt;s&gt;", "&amp;"]
    assert fig.layout.yaxis.title.text == "&lt;i&gt;q&lt;/i&gt;"
    pad = padding_figure(np.array([[True, False]]), [["a", "<pad>"]], title="", sentence_title="s", position_title="p",
                         real_label="real", pad_label="<pad>")
    assert pad.data[0].text[0][1] == "&lt;pad&gt;"
    assert pad.data[2].name == "&lt;pad&gt;"


def test_label_counts_are_checked():
    with pytest.raises(ValueError, match="labels"):
        matrix_heatmap(np.eye(3), Labels(["a", "b"], ["a", "b", "c"], query_title="q", key_title="k", value_label=""))
    with pytest.raises(ValueError, match="not one string"):
        matrix_heatmap(np.eye(3), Labels("abc", ["a", "b", "c"], query_title="q", key_title="k", value_label=""))


def test_score_steps_figure_shows_three_stages_and_marks_masked_keys():
    scaled = np.array([1.0, -np.inf, 0.5])
    weights = np.array([0.6, 0.0, 0.4])
    fig = score_steps_figure(["a", "b", "c"], [2.0, 3.0, 1.0], scaled, weights, titles=("1", "2", "3"),
                             key_title="keys", masked_label="masked")
    assert len(fig.data) == 3
    assert fig.data[1].text[1] == NEG_INF
    assert list(fig.data[2].y) == pytest.approx(weights)
    low, high = fig.layout.yaxis3.range
    assert low == 0 and high >= 1  # weights on a fixed 0–1 scale, with room for any numbers above the bars
    assert fig.layout.xaxis3.title.text == "keys"
    with pytest.raises(ValueError, match="one entry per key"):
        score_steps_figure(["a"], [1.0, 2.0], [1.0], [1.0], titles=("1", "2", "3"), key_title="k")


def test_weighted_sum_figure_stacks_to_the_output():
    w, v = np.array([0.75, 0.25]), np.array([[4.0, 0.0], [0.0, 8.0]])
    fig = weighted_sum_figure(w, v, ["x", "y"], title="", dim_title="dim", output_label="z")
    bars, total = fig.data[:-1], fig.data[-1]
    assert len(bars) == 2 and fig.layout.barmode == "relative"
    np.testing.assert_allclose(sum(np.asarray(b.y) for b in bars), total.y)
    np.testing.assert_allclose(total.y, w @ v)


def test_positional_figures():
    table = lp.pe_table(20, 8)
    heat = pe_heatmap(table, title="", position_title="pos", dimension_title="dim", value_label="PE")
    assert heat.data[0].z.shape == (20, 8) and (heat.data[0].zmin, heat.data[0].zmax) == (-1, 1)
    curves = pe_curves(table, [0, 1], title="", position_title="pos", names=["sin", "cos"])
    assert len(curves.data) == 2 and curves.data[1].line.dash == "dash"
    with pytest.raises(ValueError, match="dims"):
        pe_curves(table, [8], title="", position_title="pos", names=["x"])
    sim = similarity_heatmap(lp.similarity(table), title="", query_title="a", key_title="b", value_label="dot")
    assert sim.data[0].z.shape == (20, 20)
    rot = rotation_figure(table[:, :2], 2, 3, frame=Frame("", "s", "c"), start_label="p", end_label="p+k",
                          path_label="all")
    assert list(rot.data[2].x) == pytest.approx([table[2, 0]]) and list(rot.data[3].y) == pytest.approx([table[5, 1]])
    with pytest.raises(ValueError):
        rotation_figure(table[:, :2], 18, 3, frame=Frame("", "s", "c"), start_label="p", end_label="q",
                        path_label="all")
    norms = norms_figure(["▁I", "</s>"], [16.0, 15.0], [2.0, 2.0], title="", token_title="t", embedding_label="e",
                         pe_label="p")
    assert [b.name for b in norms.data] == ["e", "p"] and list(norms.layout.xaxis.ticktext) == ["▁I", "&lt;/s&gt;"]


def test_scaling_figures():
    fig = variance_figure([1, 4, 16], [1.0, 4.1, 15.8], [1.0, 1.02, 0.99], 4, frame=Frame("", "d_k", "var"),
                          raw_label="raw", scaled_label="scaled", theory_label="theory")
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log" and len(fig.data) == 3
    bars = softmax_comparison_figure(["k0", "k1"], [0.99, 0.01], [0.6, 0.4], title="", key_title="keys",
                                     weight_title="w", raw_label="raw", scaled_label="scaled")
    assert bars.layout.yaxis.range[0] == 0 and bars.layout.yaxis.range[1] >= 1 and len(bars.data) == 2


def test_anatomy_figures():
    bars = horizontal_bars(["a", "b"], [10, 30], title="", value_title="n")
    assert list(bars.data[0].x) == [10, 30] and list(bars.layout.yaxis.ticktext) == ["a", "b"]
    lr = lr_figure([1, 2, 3], [0.1, 0.2, 0.15], [2], [0.2], 2, frame=Frame("", "s", "lr"), names=("f", "l", "w"))
    assert [d.name for d in lr.data] == ["f", "l"]
    curves = training_curves_figure([50, 100], [6.0, 5.0], [100], [4.5], [2.0], [7.0], frame=Frame("", "s", "l", "sc"),
                                    labels=("train", "dev", "BLEU", "chrF"))
    assert [d.name for d in curves.data] == ["train", "dev", "BLEU", "chrF"]
    with pytest.raises(ValueError):
        training_curves_figure([1], [1.0, 2.0], [], [], [], [], frame=Frame("", "s", "l", "sc"),
                               labels=("a", "b", "c", "d"))
    ls = label_smoothing_figure(["c0", "c1"], [1.0, 0.0], [0.95, 0.05], title="", class_title="c", prob_title="p",
                                hard_label="hard", smooth_label="smooth")
    assert list(ls.data[1].y) == pytest.approx([0.95, 0.05])


def test_head_split_figure_draws_one_boundary_between_each_pair_of_heads():
    fig = head_split_figure(np.random.default_rng(0).standard_normal((3, 12)), 4, ["a", "b", "a"], title="",
                            token_title="tokens", dimension_title="dim", head_label="head {n}")
    assert len(fig.layout.shapes) == 3
    assert [a.text for a in fig.layout.annotations] == ["head 1", "head 2", "head 3", "head 4"]
    chinese = head_split_figure(np.ones((1, 4)), 2, ["a"], title="", token_title="t", dimension_title="d",
                                head_label="第 {n} 个头")
    assert [a.text for a in chinese.layout.annotations] == ["第 1 个头", "第 2 个头"]  # the language orders the words
    with pytest.raises(ValueError, match="split evenly"):
        head_split_figure(np.zeros((2, 10)), 4, ["a", "b"], title="", token_title="t", dimension_title="d",
                          head_label="h")


# --- Every figure in viz/ (tests/support/figures.EVERY_FIGURE): one way to build it, one look --------------------

UPDATES_AFTER = ("update", "update_layout", "update_traces", "update_xaxes", "update_yaxes", "add_trace", "add_traces",
                 "add_annotation", "add_shape", "add_vline", "add_hline", "add_vrect", "add_hrect", "set_subplots")


def test_every_public_figure_function_is_covered():
    modules = [importlib.import_module(f"viz.{path.stem}") for path in sorted((ROOT / "viz").glob("*.py"))]
    public = {name for m in modules for name, f in vars(m).items()
              if callable(f) and getattr(f, "__module__", "") == m.__name__ and not name.startswith("_")
              and getattr(f, "__annotations__", {}).get("return") == "go.Figure"}
    builders = {"styled_figure", "heatmap_figure", "paired_bars", "grouped_bars", "bar_figure", "row_bars"}  # what the others are built with
    # These remake figures already built: enlarged, with a new layout, side by side (tests/test_viz_tiling.py), as
    # the browser gets them (tests/test_charts_sent.py).
    remade = {"scaled", "rebuilt", "side_by_side", "spec_figure", "sent_figure"}
    assert public - builders - remade == set(EVERY_FIGURE)


@pytest.mark.parametrize("name", sorted(EVERY_FIGURE))
def test_figure_is_built_in_one_call_with_the_shared_look(name, monkeypatch):
    """Adding to a figure after building it re-validates all of it (3–5× slower): every figure is one constructor call."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"{name} changes its figure after building it")

    for method in UPDATES_AFTER:
        monkeypatch.setattr(go.Figure, method, refuse)
    fig = EVERY_FIGURE[name]()
    assert fig.layout.font.family == FONT and fig.layout.title.x == 0
    assert fig.layout.template.layout.colorway is None  # not Plotly's default template: it adds ~9 KB to every figure


def test_go_figure_is_constructed_in_one_place():
    sources = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "viz").glob("*.py"))}
    assert [name for name, text in sources.items() if re.search(r"go\.Figure\(", text)] == ["style.py"]
    assert not [name for name, text in sources.items() if "make_subplots" in text.replace("make_subplots)", "")]


def test_constants_and_colours_are_defined_once():
    assigned, colours = [], []
    for path in sorted((ROOT / "viz").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = [t for node in ast.walk(tree) if isinstance(node, ast.Assign) for t in node.targets]
        assigned += [n.id for t in targets for n in (t.elts if isinstance(t, ast.Tuple) else [t]) if isinstance(n, ast.Name)]
        colours += [node.value.lower() for node in ast.walk(tree) if isinstance(node, ast.Constant)
                    and isinstance(node.value, str) and re.fullmatch(r"#[0-9a-fA-F]{3,6}", node.value)]
    for constant in ("FONT", "NEG_INF", "MASKED_COLOR", "QUERY_COLOR", "ATTENTION_COLORSCALE"):
        assert assigned.count(constant) == 1, constant
    assert sorted(c for c in set(colours) if colours.count(c) > 1) == []


def test_a_title_never_overprints_an_axis_on_top():
    """Above a teaching matrix: the title's lines, then the top axis's title and its labels, each in its own room."""
    long = [f"▁internationalisation{i}" for i in range(20)]
    for title in ("A title", "A title long enough to need a second line and a third one in a narrow figure"):
        fig = matrix_heatmap(np.eye(20), Labels(long, long, query_title="q", key_title="k", value_label=""),
                             room=Room(max_width=450), title=title)
        shown = fig.layout.xaxis2 if fig.layout.xaxis2.tickvals else fig.layout.xaxis  # the axis with the labels
        assert shown.side == "top" and shown.tickangle == -90
        # The title sits at the top of the figure; below it the margin holds the vertical labels and the axis title.
        assert fig.layout.title.yref == "container" and fig.layout.title.y == 1
        assert fig.layout.title.text.count("<br>") == len(title_lines(title, fig.layout.width - 20)) - 1
        labels_px = max(text_px(t, shown.tickfont.size) for t in long[:: len(long) // len(shown.tickvals)])
        assert fig.layout.margin.t >= title_px(title, fig.layout.width) + labels_px + AXIS_TITLE_PX


def test_figure_without_minus_infinity_has_no_gap_labels_and_large_ones_no_cell_text():
    fig = matrix_heatmap(np.eye(3), Labels(T3, T3, query_title="q", key_title="k", value_label=""), allow_neg_inf=True)
    assert len(fig.data) == 1 and fig.layout.plot_bgcolor == "white"
    big = np.where(np.tril(np.ones((20, 20), bool)), 1.0, -np.inf)
    fig = matrix_heatmap(big,
                         Labels([str(i) for i in range(20)], [str(i) for i in range(20)], query_title="q",
                                key_title="k", value_label=""),
                         allow_neg_inf=True)
    (heat,) = fig.data  # too many cells to write numbers or "−∞" in; the gaps still show
    assert heat.texttemplate is None and np.isnan(heat.z[0, 1]) and heat.hoverongaps is False
    with pytest.raises(ValueError, match="only −∞"):
        mask_stage_figure("masked", np.array([[1.0, np.inf]]), Labels(["a"], ["a", "b"], **TITLES), title="")


def test_styled_figure_takes_traces_and_layout_in_one_call():
    fig = styled_figure([dict(type="bar", x=[0], y=[1])], "<b>t</b>", top=5, height=200)
    assert fig.layout.title.text == "&lt;b&gt;t&lt;/b&gt;" and fig.layout.height == 200
    assert fig.layout.margin.t == 5 + TITLE_PX  # the title's room comes on top of the caller's margin
    assert fig.layout.font.size == fig.layout.title.font.size == 16 and fig.layout.hoverlabel.font.size >= 16
    wrapped = styled_figure([], "a title of many words that cannot fit one line", width=200, top=5)
    assert wrapped.layout.title.text.count("<br>") >= 1 and wrapped.layout.margin.t > 5 + TITLE_PX


def test_pruning_figure_draws_one_line_per_kind_with_exact_hover():
    fig = pruning_figure([0, 1, 2], [[35.0, 35.5, 20.1], [35.0, 30.0, 1.0]], ["encoder", "<cross>"],
                         frame=Frame("t", "heads removed", "BLEU"), drop_title="BLEU drop")
    assert [trace.name for trace in fig.data] == ["encoder", "&lt;cross&gt;"]  # never rendered as markup
    assert list(fig.data[1].y) == pytest.approx([35.0, 30.0, 1.0])
    assert "BLEU: <b>%{y:.2f}</b>" in fig.data[0].hovertemplate
    with pytest.raises(ValueError, match="one column per count"):
        pruning_figure([0, 1], [[1.0, 2.0, 3.0]], ["x"], frame=Frame("", "", ""), drop_title="")


def test_two_heads_and_their_average_are_three_series_on_one_scale():
    fig = EVERY_FIGURE["two_heads_figure"]()
    assert [bar.name for bar in fig.data] == ["a", "b", "c"]
    assert list(fig.data[2].y) == pytest.approx([0.475, 0.05, 0.475])
    assert list(fig.layout.yaxis.range)[0] == 0 and list(fig.layout.yaxis.tickvals)[-1] == 1
    with pytest.raises(ValueError, match="one value of each series per label"):
        two_heads_figure(T3, [1.0, 0, 0], [0, 1.0], [0.5, 0.5, 0], frame=Frame("t", "k", "w"), names=("a", "b", "c"))


def test_dead_units_are_whole_numbers_per_layer_and_the_trained_length_is_marked():
    fig = EVERY_FIGURE["dead_units_figure"]()
    assert [list(bar.y) for bar in fig.data] == [[10, 20], [5, 8]] and list(fig.data[0].text) == ["10", "20"]
    fig = EVERY_FIGURE["received_attention_figure"]()
    assert fig.layout.shapes[0].x0 == 1.5  # between the last trained position (1) and the first past it (2)
