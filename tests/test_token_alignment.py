"""Compare's difference map lines two sentences' tokens up (lessons/token_alignment.py): every token of both is on
the grid, a changed word included, and each merged row still sums to 1."""

from __future__ import annotations

import numpy as np

from lessons.token_alignment import on_spans, span_label, token_spans


def labels(a: list[str], b: list[str]) -> list[str]:
    return [span_label(span, a, b) for span in token_spans(a, b)]


def test_a_changed_word_of_another_length_is_one_position_not_left_out():
    tired, wide = "▁it ▁was ▁too ▁tired . </s>".split(), "▁it ▁was ▁too ▁w ide . </s>".split()
    assert labels(tired, wide) == ["▁it", "▁was", "▁too", "▁tired/▁wide", ".", "</s>"]
    spans = token_spans(tired, wide)
    assert [list(s.a) for s in spans] == [[0], [1], [2], [3], [4], [5]]
    assert [list(s.b) for s in spans] == [[0], [1], [2], [3, 4], [5], [6]]  # every token of both, once, in order


def test_a_word_only_one_sentence_has_joins_its_neighbour():
    assert labels("▁I ▁am ▁tired .".split(), "▁I ▁am ▁very ▁tired .".split()) == [
        "▁I", "▁am", "▁tired/▁very▁tired", "."]
    assert labels("▁I ▁am".split(), "▁I ▁am ▁very".split()) == ["▁I", "▁am/▁am▁very"]  # at the end: the previous
    assert labels(["x"], ["y", "z"]) == ["x/yz"]
    assert labels(list("ab"), list("ab")) == ["a", "b"]
    assert labels(["▁it", "▁was"], ["▁it", "▁is"]) == ["▁it", "▁was/▁is"]  # one token each, but not the same one


def test_a_long_run_is_cut_on_its_label_only():
    (label,) = labels(["▁extraordinarily"], ["▁x"])
    assert label == "▁extraordin…/▁x"


def test_merged_columns_add_and_merged_rows_average_so_rows_still_sum_to_one():
    rng = np.random.default_rng(0)
    weights = rng.random((4, 4))
    weights /= weights.sum(axis=1, keepdims=True)
    grid = [range(0, 1), range(1, 3), range(3, 4)]
    merged = on_spans(weights, grid, grid)
    np.testing.assert_allclose(merged.sum(axis=1), 1.0)
    np.testing.assert_allclose(merged[1, 1], weights[1:3, 1:3].sum(axis=1).mean())
    np.testing.assert_allclose(merged[0, 2], weights[0, 3])
    np.testing.assert_allclose(on_spans(weights, [range(i, i + 1) for i in range(4)], [range(i, i + 1) for i in range(4)]),
                               weights)  # one token each: the map itself
