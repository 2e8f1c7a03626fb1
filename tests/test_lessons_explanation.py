"""The arithmetic behind "Is attention an explanation?": rollout, agreement and AER, against hand-worked cases."""

from __future__ import annotations

import numpy as np
import pytest

from lessons.explanation import (
    agreement, alignment_error_rate, argmax_links, cross_rollout, head_agreement, ranks, rollout, spearman,
)


def test_rollout_of_one_layer_is_half_attention_half_identity():
    a = np.array([[[[0.0, 1.0], [1.0, 0.0]]]])  # 1 layer, 1 head: each token reads only the other
    np.testing.assert_allclose(rollout(a), [[0.5, 0.5], [0.5, 0.5]])


def test_rollout_multiplies_layers_in_order():
    first = np.array([[[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]])  # token 1 copies token 0
    second = np.array([[[0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]]])  # everyone reads position 1
    maps = np.stack([first, second])  # (2 layers, 1 head, 3, 3)
    m1 = 0.5 * first[0] + 0.5 * np.eye(3)
    m2 = 0.5 * second[0] + 0.5 * np.eye(3)
    np.testing.assert_allclose(rollout(maps), m2 @ m1)
    # By hand, row 2: ½ of itself (still all token 2) + ½ of position 1, which layer 1 made ½ token 0 + ½ token 1
    np.testing.assert_allclose(rollout(maps)[2], [0.25, 0.25, 0.5])
    assert np.allclose(rollout(maps).sum(axis=1), 1.0)


def test_cross_rollout_traces_the_decoders_reading_to_input_tokens():
    enc = np.array([[[[0.0, 1.0], [1.0, 0.0]]]])
    cross = np.array([[[[1.0, 0.0]]]])  # one step reading encoder position 0 only
    np.testing.assert_allclose(cross_rollout(cross, enc), [[0.5, 0.5]])


def test_ranks_and_spearman_by_hand():
    np.testing.assert_allclose(ranks([10, 30, 20, 30]), [1, 3.5, 2, 3.5])
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 2, 3], [5, 5, 5]) == 0.0
    # ranks (1,2,3) and (2,1,3): d = (−1, 1, 0), ρ = 1 − 6·2 / (3·8) = 0.5
    assert spearman([1, 2, 3], [2, 1, 3]) == pytest.approx(0.5)


def test_ranks_and_spearman_of_arrays_are_each_rows_by_the_definition():
    """Every row at once (head_agreement's heads and steps) gives what the definition gives row by row: a value's
    rank is 1 + the values below it + half the others equal to it; ρ is Pearson's correlation of the ranks."""
    rng = np.random.default_rng(0)
    a = np.round(rng.random((2, 3, 7)), 1)  # one decimal: ties in most rows
    b = rng.normal(size=(2, 3, 7))
    b[1, 2] = 0.25  # a constant row: no order to agree with

    def by_definition(v):
        return np.array([1 + (v < x).sum() + ((v == x).sum() - 1) / 2 for x in v])

    rho = spearman(a, b)
    assert rho.shape == (2, 3) and rho[1, 2] == 0.0
    for i, j in [(i, j) for i in range(2) for j in range(3) if (i, j) != (1, 2)]:
        np.testing.assert_array_equal(ranks(a)[i, j], by_definition(a[i, j]))
        assert rho[i, j] == pytest.approx(np.corrcoef(by_definition(a[i, j]), by_definition(b[i, j]))[0, 1])


def test_agreement_uses_the_attributions_magnitude():
    weights = np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])
    attribution = np.array([[-3.0, 1.0, 0.5], [0.2, 0.1, -0.9]])  # a large negative still mattered most
    rho, top1 = agreement(weights, attribution)
    assert top1 == 1.0
    assert rho == pytest.approx((1.0 + spearman([0.1, 0.1, 0.8], [0.2, 0.1, 0.9])) / 2)
    rho_table, top1_table = head_agreement(np.stack([np.stack([weights, weights[:, ::-1]])]), attribution)
    assert rho_table.shape == (1, 2) and top1_table[0, 0] == 1.0 and top1_table[0, 1] == 0.0


def test_argmax_links_plain_and_shifted():
    w = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]])  # rows: steps writing output tokens 0, 1, 2
    assert argmax_links(w) == {(0, 0), (1, 1), (0, 2)}
    assert argmax_links(w, shift=True) == {(1, 0), (0, 1)}  # token t read at step t+1; the last has no row


def test_alignment_error_rate_by_hand():
    sure, possible = {(0, 0), (1, 1)}, {(2, 1)}
    assert alignment_error_rate({(0, 0), (1, 1)}, sure, possible) == 0.0
    # A = {(0,0), (2,1), (2,2)}: |A∩S| = 1, |A∩P| = 2 (sure counts as possible) → 1 − 3/5
    assert alignment_error_rate({(0, 0), (2, 1), (2, 2)}, sure, possible) == pytest.approx(0.4)
    assert alignment_error_rate(set(), sure, possible) == 1.0


def test_sink_shares_hand_worked():
    from lessons.explanation import sink_shares

    # one layer, two heads, two queries over keys (<s>, 猫, 。): the mass on <s> is 0.5, 0.7, 0.9, 0.1 → mean 0.55
    w = np.array([[[[0.5, 0.5, 0.0], [0.7, 0.1, 0.2]], [[0.9, 0.0, 0.1], [0.1, 0.8, 0.1]]]])
    sinks, shares, uniform = sink_shares(w, ["<s>", "猫", "。"])
    assert sinks == ["<s>", "。"]
    assert shares == pytest.approx(np.array([[0.55, 0.1]]))
    assert uniform == pytest.approx([1 / 3, 1 / 3])
    causal = np.tril(np.ones((2, 3)))  # query 0 sees <s> alone, query 1 sees <s> and 猫: uniform (1 + 1/2) / 2
    assert sink_shares(w, ["<s>", "猫", "。"], mask=causal)[2] == pytest.approx([0.75, 0.0])
    with pytest.raises(ValueError, match="key tokens"):
        sink_shares(w, ["<s>", "猫"])


def test_residual_ratio_hand_worked():
    from lessons.explanation import residual_ratio

    x = np.array([[[3.0, 4.0], [1.0, 0.0]]])  # norms 5 and 1
    a = np.array([[[0.0, 1.0], [0.0, 2.0]]])  # norms 1 and 2: ratios 0.2 and 2 → 1.1
    assert residual_ratio(x, a) == pytest.approx([1.1])
    with pytest.raises(ValueError, match="both"):
        residual_ratio(x, a[:, :1])


def test_a_knocked_out_layer_averages_only_the_heads_still_in_use():
    from lessons.explanation import kept_average

    maps = np.array([[[1.0, 0.0]], [[0.0, 1.0]], [[0.5, 0.5]]])  # 3 heads, one query, two keys
    np.testing.assert_allclose(kept_average(maps, [1]), [[0.75, 0.25]])  # heads 0 and 2; all three: [0.5, 0.5]
    np.testing.assert_allclose(kept_average(maps, []), maps.mean(axis=0))
    assert kept_average(maps, [0, 1, 2]) is None  # every head out: no map describes what the layer read


def test_free_pruning_stops_before_the_first_significant_drop():
    from lessons.explanation import free_pruning, pruning_steps, significant
    from model.loading.training_log import Drop, PruningPoint

    curve = tuple(PruningPoint.from_dict(p) for p in [
        {"removed": 0, "bleu": 30.0},
        {"removed": 1, "bleu": 30.5, "bleu_drop": -0.5, "low": -1.0, "high": 0.1},
        {"removed": 2, "bleu": 29.0, "bleu_drop": 1.0, "low": -0.2, "high": 2.0},
        {"removed": 3, "bleu": 28.0, "bleu_drop": 2.0, "low": 0.4, "high": 3.5},  # the first significant drop
        {"removed": 4, "bleu": 29.5, "bleu_drop": 0.5, "low": -0.5, "high": 1.5}])  # back within noise: too late
    assert free_pruning(curve).removed == 2
    assert free_pruning(curve[:1]).removed == 0
    assert [p.removed for p in significant(curve[1:])] == [3]
    assert significant([Drop(-1.0, -2.0, -0.1)]) == [Drop(-1.0, -2.0, -0.1)]  # better, significantly
    (step,) = pruning_steps({"cross": curve})
    assert (step.kind, step.total, step.kept.removed, step.after.removed, step.none.bleu) == ("cross", 4, 2, 3, 29.5)
    (free,) = pruning_steps({"cross": curve[:3]})
    assert free.kept.removed == 2 and free.after is None  # every removal stayed within noise


def test_the_opening_figures_leave_out_what_the_log_lacks():
    from lessons.explanation import opening_figures
    from model import TrainingLog

    curve = [{"removed": 0, "bleu": 38.9}, {"removed": 1, "bleu": 38.0, "bleu_drop": 0.9, "low": 0.1, "high": 1.7}]
    log = TrainingLog.from_dict({"heads": {"test_pairs": 606, "test_bleu": 38.9, "pruning": {"cross": curve}},
                                 "alignment": {"pairs": 150, "attribution": {"aer": 0.7}}})
    found = opening_figures(log.agreement, log.heads, log.alignment)
    assert found.agreement is None and found.alignment is None  # no agreement; an alignment from before the intervals
    assert (found.pruning.pairs, found.pruning.whole) == (606, 38.9)
    (step,) = found.pruning.kinds
    assert (step.kind, step.total, step.kept.removed, step.after.removed) == ("cross", 1, 0, 1)
    aligner = {"aer": 0.4, "low": 0.3, "high": 0.5}
    log = TrainingLog.from_dict({"alignment": {"pairs": 150, "chosen": aligner, "integrated_gradients": aligner,
                                               "baseline": {**aligner, "aer": 0.2}}})
    aligned = opening_figures(None, None, log.alignment).alignment
    assert (aligned.pairs, aligned.chosen, aligned.baseline) == (150, (0.4, 0.3, 0.5), (0.2, 0.3, 0.5))


def test_completeness_counts_the_paths_that_hit_the_point_cap():
    from lessons.explanation import completeness

    found = completeness([0.01, 0.139, 0.05, 0.07], [13, 97, 25, 97], bound=0.05, most=97)
    # 0.05 is within the bound; the two above it are the two paths that took all 97 points.
    assert found == {"pairs": 4, "bound": 0.05, "most": 97, "above": 2, "worst": 0.139, "at_cap": 2}
