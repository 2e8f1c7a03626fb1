"""Every figure in viz/, built once on tiny inputs (EVERY_FIGURE: name -> how to build it), for the tests that hold
each to one look (tests/test_viz_teaching.py) and one layout (tests/test_viz_layout.py, tests/test_app_presentation.py),
and what they read from a figure (label_axes)."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from lessons import positional as lp
from viz.beam_tree import beam_tree
from viz.decoding import MASK_ROW_LABELS, attention_bar, candidates_chart, causal_mask_row, coverage_chart
from viz.explanation import gold_links_figure, head_grid_figure, head_roles_figure, pruning_figure
from viz.head_view import head_view
from viz.heatmap import attention_heatmap, difference_heatmap, guess_heatmap, matrix_heatmap
from viz.model_view import model_view
from viz.patching import Panel, attribution_bars, effect_panels, lens_grid
from viz.corpus import Names, PointSet, corpus_matrix, corpus_scatter
from viz.options import Frame, Guess, Labels, Room
from viz.poll import tally_bars, tally_rows
from viz.teaching_anatomy import (dead_units_figure, horizontal_bars, label_smoothing_figure, lr_figure,
                                  training_curves_figure)
from viz.teaching_inside import DIAGRAM_LABELS, architecture_figure, tensor_panels
from viz.teaching_masks import mask_stage_figure, padding_figure
from viz.teaching_multihead import head_split_figure, two_heads_figure
from viz.teaching_positional import (norms_figure, pe_curves, pe_heatmap, received_attention_figure, rotation_figure,
                                     similarity_heatmap)
from viz.teaching_qkv import score_steps_figure, weighted_sum_figure
from viz.teaching_replay import lab_curves_figure, marked_at, share_figure
from viz.teaching_scaling import softmax_comparison_figure, variance_figure
from viz.teaching_training import batch_padding_figure, optimizer_paths_figure, reliability_figure

TITLES = dict(query_title="queries", key_title="keys", value_label="weight")


def masked_scores() -> np.ndarray:
    scores = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [1.5, 0.0, -0.5]])
    return np.where(np.tril(np.ones((3, 3), dtype=bool)), scores, -np.inf)


T3 = ["▁the", "▁cat", "▁the"]
W3 = np.full((3, 3), 1 / 3)
CORPUS_POINTS = PointSet(np.array([[0.0, 1.0], [1.0, 0.5], [0.5, 0.0]]), np.array([True, False, False]),
                         np.array([0.0, 0.0, 1.0]), T3, ["q a", "k a", "k b"])
CORPUS_NAMES = Names("query", "key", "position", "other", "PC 1", "PC 2")
EVERY_FIGURE = {
    "attention_heatmap": lambda: attention_heatmap(W3, Labels(T3, T3), title="t", mask=np.tril(np.ones((3, 3), bool))),
    "model_view": lambda: model_view(np.full((2, 2, 3, 3), 1 / 3), Labels(T3, T3), title="t", click_hint="c"),
    "head_view": lambda: head_view(np.full((2, 3, 3), 1 / 3), Labels(T3, T3), title="t"),
    "causal_mask_row": lambda: causal_mask_row(np.array([0.5, 0.5, 0.0]), replace(MASK_ROW_LABELS, keys=T3), 1,
                                                 title="t"),
    "attention_bar": lambda: attention_bar(np.array([0.2, 0.3, 0.5]), T3, title="t"),
    "candidates_chart": lambda: candidates_chart(T3, [0.5, 0.3, 0.2], 0, title="t"),
    "beam_tree": lambda: beam_tree([{"kept": [(T3[:1], -1.0)], "dropped": [(T3[1:2], -3.0)]}], T3, title="t"),
    "matrix_heatmap": lambda: matrix_heatmap(masked_scores(), Labels(T3, T3, "q", "k", value_label=""), title="t",
                                             allow_neg_inf=True),
    "mask_stage_figure": lambda: mask_stage_figure("mask", np.where(np.tril(np.ones((3, 3))), 0.0, -np.inf),
                                                   Labels(T3, T3, **TITLES), title="t"),
    "padding_figure": lambda: padding_figure(np.array([[True, False]]), [["a", "<pad>"]], title="t",
                                             sentence_title="s", position_title="p", real_label="r", pad_label="p"),
    "score_steps_figure": lambda: score_steps_figure(T3, [1.0, 2.0, 3.0], [0.5, -np.inf, 1.5], [0.4, 0.0, 0.6],
                                                     titles=("1", "2", "3"), key_title="k", masked_label="m"),
    "weighted_sum_figure": lambda: weighted_sum_figure([0.5, 0.5], np.eye(2), ["a", "b"], title="t", dim_title="d",
                                                       output_label="z"),
    "pe_heatmap": lambda: pe_heatmap(lp.pe_table(6, 4), title="t", position_title="p", dimension_title="d",
                                     value_label="v"),
    "pe_curves": lambda: pe_curves(lp.pe_table(6, 4), [0, 1], title="t", position_title="p", names=["a", "b"]),
    "similarity_heatmap": lambda: similarity_heatmap(np.eye(4), title="t", query_title="a", key_title="b",
                                                     value_label="v"),
    "rotation_figure": lambda: rotation_figure(lp.pe_table(6, 2), 1, 2, frame=Frame("t", "s", "c"), start_label="a",
                                               end_label="b", path_label="p"),
    "norms_figure": lambda: norms_figure(["a", "b"], [1.0, 2.0], [1.0, 1.0], title="t", token_title="x",
                                         embedding_label="e", pe_label="p"),
    "variance_figure": lambda: variance_figure([1, 4], [1.0, 4.0], [1.0, 1.0], 4, frame=Frame("t", "d", "v"),
                                               raw_label="r", scaled_label="s", theory_label="x"),
    "softmax_comparison_figure": lambda: softmax_comparison_figure(["a", "b"], [0.9, 0.1], [0.6, 0.4], title="t",
                                                                   key_title="k", weight_title="w", raw_label="r",
                                                                   scaled_label="s"),
    "horizontal_bars": lambda: horizontal_bars(["a", "b"], [1, 2], title="t", value_title="n"),
    "lr_figure": lambda: lr_figure([1, 2], [0.1, 0.2], [2], [0.2], 1, frame=Frame("t", "s", "l"),
                                   names=("f", "l", "w")),
    "training_curves_figure": lambda: training_curves_figure([1, 2], [2.0, 1.0], [2], [1.5], [3.0], [9.0],
                                                             frame=Frame("t", "s", "l", "c"),
                                                             labels=("a", "b", "c", "d")),
    "label_smoothing_figure": lambda: label_smoothing_figure(["a", "b"], [1.0, 0.0], [0.9, 0.1], title="t",
                                                             class_title="c", prob_title="p", hard_label="h",
                                                             smooth_label="s"),
    "head_split_figure": lambda: head_split_figure(np.ones((2, 4)), 2, ["a", "b"], title="t", token_title="x",
                                                   dimension_title="d", head_label="h"),
    "architecture_figure": lambda: architecture_figure(
        2, 2, {k: k + (" {n}" if k.endswith("_layer") else "") for k in DIAGRAM_LABELS}, title="t"),
    "tensor_panels": lambda: tensor_panels([("x", np.ones((3, 4)))], T3, title="t", token_title="x", dim_title="d",
                                           value_label="v"),
    "optimizer_paths_figure": lambda: optimizer_paths_figure(
        np.arange(3.0), np.arange(3.0), np.ones((3, 3)), [np.zeros((2, 2))], ["a"], frame=Frame("t", "a", "b"),
        loss_label="l", step_label="s"),
    "batch_padding_figure": lambda: batch_padding_figure(["a", "b"], [10, 10], [1, 5], title="t", count_title="n",
                                                         real_label="r", padding_label="p"),
    "pruning_figure": lambda: pruning_figure([0, 1], [[35.0, 30.0]], ["cross"], frame=Frame("t", "r", "b"),
                                             drop_title="d"),
    "head_grid_figure": lambda: head_grid_figure(np.zeros((3, 8)), Labels(None, None, "r", "c", "v"), title="t",
                                                 bound=1.0, intervals=np.zeros((3, 8, 2)), interval_title="i"),
    "share_figure": lambda: share_figure([0, 10], [[1.0, 0.5]], ["a"], step=10, frame=Frame("t", "s", "y"),
                                         uniform_label="u"),
    "marked_at": lambda: marked_at(lr_figure([1, 2], [0.1, 0.2], [2], [0.2], 1, frame=Frame("t", "s", "l"),
                                             names=("f", "l", "w")), 1),
    "lab_curves_figure": lambda: lab_curves_figure([1, 2], [2.0, 1.0], [0, 2], [0.0, 0.5], [0.1, 0.6], max_steps=3,
                                                   frame=Frame("t", "s", "l", "a"), labels=("l", "e", "p")),
    "tally_bars": lambda: tally_bars(T3, [2, 0, 1], answer=2, title="t"),
    "tally_rows": lambda: tally_rows(T3, np.array([2, 0, 1]), 2, frame=Frame("t", "", "o"), answer_label="a",
                                     room=Room()),
    "gold_links_figure": lambda: gold_links_figure(np.full((2, 3), 1 / 3), Labels(["a", "b"], T3, "r", "c", "v"),
                                                   {(0, 0)}, {(2, 1)}, title="t"),
    "head_roles_figure": lambda: head_roles_figure(np.full((2, 3), 0.5), [T3, T3], title="t", row_title="r",
                                                   col_title="c", value_label="v"),
    "reliability_figure": lambda: reliability_figure([0.15, 0.95], [0.1, 0.9], [10, 90], frame=Frame("t", "c", "r"),
                                                     model_label="m", ideal_label="i", positions_label="n"),
    "guess_heatmap": lambda: guess_heatmap(W3, Labels(T3, T3), Guess(revealed=True, cell=(1, 0), best=(1, 1)),
                                           title="t", mask=np.tril(np.ones((3, 3), bool))),
    "coverage_chart": lambda: coverage_chart(T3, [1.0, 0.5, 0.5], [0.2, 1.2, 0.6], names=("o", "f"), title="t"),
    "two_heads_figure": lambda: two_heads_figure(T3, [0.9, 0.05, 0.05], [0.05, 0.05, 0.9], [0.475, 0.05, 0.475],
                                                 names=("a", "b", "c"), frame=Frame("t", "k", "w")),
    "dead_units_figure": lambda: dead_units_figure(["1", "2"], ([10, 20], [5, 8]), names=("s", "e"), title="t",
                                                   layer_title="l", count_title="n"),
    "received_attention_figure": lambda: received_attention_figure([1.0, 2.0, 0.5], 2, title="t", position_title="p",
                                                                   value_title="v", limit_label="l"),
    "effect_panels": lambda: effect_panels([Panel("cross", np.array([[0.5, -0.2], [np.nan, 1.0]]), ["1", "2"],
                                                  ["1", "2"], "h")], title="t", colour_title="c",
                                           hover="{row} {column} {value}"),
    "lens_grid": lambda: lens_grid([T3, T3], np.full((2, 3), 0.5), Labels(["a", "b"], ["1", "2", "3"]), title="t"),
    "attribution_bars": lambda: attribution_bars(T3, [("a", [0.2, 0.5, 0.3]), ("b", [0.1, 0.1, 0.8])], title="t",
                                                 x_title="x", y_title="y"),
    "corpus_scatter": lambda: corpus_scatter(CORPUS_POINTS, "position", CORPUS_NAMES, title="t", width=400, height=300),
    "corpus_matrix": lambda: corpus_matrix([CORPUS_POINTS] * 2, ["a", "b"], 2, "role", CORPUS_NAMES, title="t",
                                           width=400, height=300),
    "difference_heatmap": lambda: difference_heatmap(W3 - W3.T, Labels(T3, T3, value_label="B − A"), title="t",
                                                     mask=np.tril(np.ones((3, 3), bool))),
}


def label_axes(layout: dict) -> dict[str, dict]:
    """The axes of a figure's layout (as plotly JSON) whose token labels are drawn, by layout name."""
    return {name: axis for name, axis in layout.items() if re.fullmatch(r"[xy]axis\d*", name)
            and axis.get("ticktext") is not None and axis.get("showticklabels", True) and axis.get("visible", True)}
