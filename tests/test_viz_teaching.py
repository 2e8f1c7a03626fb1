"""Structure of the teaching figures: orientation, labels, fixed scales, −∞ cells, escaping, input checks."""

from __future__ import annotations

import numpy as np
import pytest

from lessons import positional as lp
from viz.teaching_anatomy import horizontal_bars, label_smoothing_figure, lr_figure, training_curves_figure
from viz.teaching_base import NEG_INF, matrix_heatmap
from viz.teaching_heads import head_split_figure
from viz.teaching_masks import mask_stage_figure, padding_figure
from viz.teaching_positional import norms_figure, pe_curves, pe_heatmap, rotation_figure, similarity_heatmap
from viz.teaching_qkv import score_steps_figure, weighted_sum_figure
from viz.teaching_scaling import softmax_comparison_figure, variance_figure

TITLES = dict(query_title="queries", key_title="keys", value_label="weight")


def masked_scores() -> np.ndarray:
    scores = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [1.5, 0.0, -0.5]])
    return np.where(np.tril(np.ones((3, 3), dtype=bool)), scores, -np.inf)


def test_matrix_heatmap_rows_are_queries_and_repeated_tokens_stay_apart():
    tokens = ["the", "cat", "the"]
    fig = matrix_heatmap(np.eye(3), tokens, tokens, row_title="queries", col_title="keys")
    heat = fig.data[0]
    assert heat.z.dtype == np.float32
    assert list(fig.layout.yaxis.tickvals) == [0, 1, 2] and list(fig.layout.yaxis.ticktext) == tokens
    assert fig.layout.yaxis.title.text == "queries" and fig.layout.xaxis.title.text == "keys"
    assert list(fig.layout.yaxis.range) == [2.5, -0.5]  # first query at the top


def test_minus_infinity_cells_are_gaps_labelled_as_such():
    fig = mask_stage_figure("masked", masked_scores(), ["a", "b", "c"], ["a", "b", "c"], title="t", **TITLES)
    heat, labels = fig.data
    assert np.isnan(heat.z[0, 1]) and np.isnan(heat.z[0, 2]) and not np.isnan(heat.z[1, 0])
    assert list(labels.text) == [NEG_INF] * 3
    assert heat.texttemplate == "%{z:.2f}"  # small matrices print every number
    assert sorted(zip(labels.y, labels.x)) == [(0, 1), (0, 2), (1, 2)]


def test_weights_stage_uses_a_fixed_zero_to_one_scale():
    fig = mask_stage_figure("weights", np.full((2, 2), 0.5), ["a", "b"], ["a", "b"], title="", **TITLES)
    assert (fig.data[0].zmin, fig.data[0].zmax) == (0.0, 1.0)
    with pytest.raises(ValueError, match="stage"):
        mask_stage_figure("nope", np.eye(2), ["a", "b"], ["a", "b"], title="", **TITLES)
    with pytest.raises(ValueError, match="NaN or infinite"):
        mask_stage_figure("weights", masked_scores(), list("abc"), list("abc"), title="", **TITLES)


def test_user_text_is_escaped_in_labels():
    fig = matrix_heatmap(np.eye(2), ["<b>x</b>", "ok"], ["<s>", "&"], row_title="<i>q</i>", col_title="k")
    assert fig.layout.yaxis.ticktext[0] == "&lt;b&gt;x&lt;/b&gt;"
    assert list(fig.layout.xaxis.ticktext) == ["&lt;s&gt;", "&amp;"]
    assert fig.layout.yaxis.title.text == "&lt;i&gt;q&lt;/i&gt;"
    pad = padding_figure(np.array([[True, False]]), [["a", "<pad>"]], title="", sentence_title="s", position_title="p",
                         real_label="real", pad_label="<pad>")
    assert pad.data[0].text[0][1] == "&lt;pad&gt;"
    assert pad.data[2].name == "&lt;pad&gt;"


def test_label_counts_are_checked():
    with pytest.raises(ValueError, match="labels"):
        matrix_heatmap(np.eye(3), ["a", "b"], ["a", "b", "c"], row_title="q", col_title="k")
    with pytest.raises(ValueError, match="not one string"):
        matrix_heatmap(np.eye(3), "abc", ["a", "b", "c"], row_title="q", col_title="k")


def test_score_steps_figure_shows_three_stages_and_marks_masked_keys():
    scaled = np.array([1.0, -np.inf, 0.5])
    weights = np.array([0.6, 0.0, 0.4])
    fig = score_steps_figure(["a", "b", "c"], [2.0, 3.0, 1.0], scaled, weights, titles=("1", "2", "3"),
                             key_title="keys", masked_label="masked")
    assert len(fig.data) == 3
    assert fig.data[1].text[1] == NEG_INF
    assert list(fig.data[2].y) == pytest.approx(weights)
    assert list(fig.layout.yaxis3.range) == [0, 1.15]
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
    rot = rotation_figure(table[:, :2], 2, 3, title="", sin_title="s", cos_title="c", start_label="p",
                          end_label="p+k", path_label="all")
    assert list(rot.data[2].x) == pytest.approx([table[2, 0]]) and list(rot.data[3].y) == pytest.approx([table[5, 1]])
    with pytest.raises(ValueError):
        rotation_figure(table[:, :2], 18, 3, title="", sin_title="s", cos_title="c", start_label="p", end_label="q",
                        path_label="all")
    norms = norms_figure(["▁I", "</s>"], [16.0, 15.0], [2.0, 2.0], title="", token_title="t", embedding_label="e",
                         pe_label="p")
    assert [b.name for b in norms.data] == ["e", "p"] and list(norms.layout.xaxis.ticktext) == ["▁I", "&lt;/s&gt;"]


def test_scaling_figures():
    fig = variance_figure([1, 4, 16], [1.0, 4.1, 15.8], [1.0, 1.02, 0.99], 4, title="", dk_title="d_k",
                          var_title="var", raw_label="raw", scaled_label="scaled", theory_label="theory")
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log" and len(fig.data) == 3
    bars = softmax_comparison_figure(["k0", "k1"], [0.99, 0.01], [0.6, 0.4], title="", key_title="keys",
                                     weight_title="w", raw_label="raw", scaled_label="scaled")
    assert list(bars.layout.yaxis.range) == [0, 1.15] and len(bars.data) == 2


def test_anatomy_figures():
    bars = horizontal_bars(["a", "b"], [10, 30], title="", value_title="n")
    assert list(bars.data[0].x) == [10, 30] and list(bars.layout.yaxis.ticktext) == ["a", "b"]
    lr = lr_figure([1, 2, 3], [0.1, 0.2, 0.15], [2], [0.2], 2, title="", step_title="s", lr_title="lr",
                   formula_label="f", logged_label="l", warmup_label="w")
    assert [d.name for d in lr.data] == ["f", "l"]
    curves = training_curves_figure([50, 100], [6.0, 5.0], [100], [4.5], [2.0], [7.0], title="", step_title="s",
                                    loss_title="l", score_title="sc", labels=("train", "dev", "BLEU", "chrF"))
    assert [d.name for d in curves.data] == ["train", "dev", "BLEU", "chrF"]
    with pytest.raises(ValueError):
        training_curves_figure([1], [1.0, 2.0], [], [], [], [], title="", step_title="s", loss_title="l",
                               score_title="sc", labels=("a", "b", "c", "d"))
    ls = label_smoothing_figure(["c0", "c1"], [1.0, 0.0], [0.95, 0.05], title="", class_title="c", prob_title="p",
                                hard_label="hard", smooth_label="smooth")
    assert list(ls.data[1].y) == pytest.approx([0.95, 0.05])


def test_head_split_figure_draws_one_boundary_between_each_pair_of_heads():
    fig = head_split_figure(np.random.default_rng(0).standard_normal((3, 12)), 4, ["a", "b", "a"], title="",
                            token_title="tokens", dimension_title="dim", head_label="head")
    assert len(fig.layout.shapes) == 3
    assert [a.text for a in fig.layout.annotations] == ["head 1", "head 2", "head 3", "head 4"]
    with pytest.raises(ValueError, match="split evenly"):
        head_split_figure(np.zeros((2, 10)), 4, ["a", "b"], title="", token_title="t", dimension_title="d",
                          head_label="h")
