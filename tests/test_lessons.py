"""The teaching arithmetic: the notes' worked examples pinned down exactly, and checked against the real model."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from lessons import anatomy as la
from lessons import masks as lm
from lessons import positional as lp
from lessons import scaling as ls
from lessons import shapes as lsh
from lessons import worked_example as we
from lessons.attention_math import apply_mask, attention_steps, softmax
from model import ModelConfig, Transformer, sinusoidal_table

# ---------------------------------------------------------------- Thinking Machines


def test_worked_example_reproduces_the_notes_numbers_exactly():
    ex = we.thinking_machines()
    assert ex.x.shape == (2, 4) and ex.w_q.shape == ex.w_k.shape == ex.w_v.shape == (4, 3)
    assert ex.q.shape == ex.k.shape == ex.v.shape == (2, 3)
    assert ex.scores.tolist() == [112.0, 96.0]  # q1·k1, q1·k2
    assert int(ex.q[0] @ ex.k[0]) == 112 and int(ex.q[0] @ ex.k[1]) == 96
    assert ex.divisor == 8.0 == math.sqrt(we.PAPER_D_K)
    assert ex.scaled.tolist() == [14.0, 12.0]
    assert ex.weights == pytest.approx([0.8808, 0.1192], abs=5e-5)
    assert [f"{w:.2f}" for w in ex.weights] == ["0.88", "0.12"]
    assert ex.weights[0] == pytest.approx(1 / (1 + math.exp(-2)), abs=1e-15)


def test_z1_is_exactly_the_softmax_weighted_sum_of_the_values():
    ex = we.thinking_machines()
    w1, w2 = ex.weights
    np.testing.assert_allclose(ex.z1, w1 * ex.v[0] + w2 * ex.v[1], rtol=0, atol=1e-12)
    # the notes' rounded 0.88·v1 + 0.12·v2 is close but not equal: the page uses the exact weights
    assert np.abs(ex.z1 - (0.88 * ex.v[0] + 0.12 * ex.v[1])).max() < 0.01


def test_matrix_form_matches_the_step_by_step_result_for_both_words():
    ex = we.thinking_machines()
    q, k, v = ex.x @ ex.w_q, ex.x @ ex.w_k, ex.x @ ex.w_v
    scores = q @ k.T / 8
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(ex.steps.output, weights @ v, atol=1e-12)
    np.testing.assert_allclose(ex.steps.output[0], ex.z1)
    np.testing.assert_allclose(ex.steps.weights.sum(axis=1), 1.0)


def test_the_toy_width_would_saturate_the_softmax():
    toy = we.thinking_machines(d_k=3)
    assert toy.divisor == pytest.approx(math.sqrt(3))
    assert toy.weights[0] > 0.999


# ---------------------------------------------------------------- attention arithmetic and masks


def test_softmax_handles_masked_and_fully_masked_rows():
    scores = np.array([[1.0, 2.0, 3.0], [1.0, -np.inf, 0.0], [-np.inf, -np.inf, -np.inf]])
    w = softmax(scores)
    assert not np.isnan(w).any()
    np.testing.assert_allclose(w[:2].sum(axis=1), 1.0)
    assert w[1, 1] == 0.0
    assert (w[2] == 0).all()


def test_apply_mask_puts_minus_infinity_where_masked():
    masked = apply_mask(np.ones((2, 2)), np.array([[True, False], [True, True]]))
    assert masked[0, 1] == -np.inf and masked[1, 1] == 1.0
    with pytest.raises(ValueError, match="does not fit"):
        apply_mask(np.ones((2, 3)), np.ones((2, 2), dtype=bool))


def test_i_have_a_dream_causal_mask_is_4x4_lower_triangular():
    mask = lm.causal_mask(len(lm.DOC_SENTENCE))
    assert mask.shape == (4, 4)
    assert (mask == np.tril(np.ones((4, 4), dtype=bool))).all()
    assert lm.visible_keys(mask, list(lm.DOC_SENTENCE)) == [
        ["i"], ["i", "have"], ["i", "have", "a"], ["i", "have", "a", "dream"]
    ]
    q, k = lm.toy_qk(4, 4)
    w = attention_steps(q, k, k, mask).weights
    np.testing.assert_allclose(w.sum(axis=1), 1.0)
    assert (w[~mask] == 0).all()  # zeros above the diagonal


def test_padding_combined_and_cross_masks():
    lengths = [len(s) for s in lm.BATCH_SOURCES]  # 5 and 3
    keep = lm.padding_mask(lengths)
    assert keep.tolist() == [[True] * 5, [True, True, True, False, False]]
    enc = lm.self_attention_mask(lengths, causal=False)
    assert enc.shape == (2, 5, 5) and not enc[1][:, 3:].any() and enc[1][:, :3].all()
    dec = lm.self_attention_mask(lengths, causal=True)
    assert (dec[0] == np.tril(np.ones((5, 5), dtype=bool))).all()
    assert (dec[1] == (np.tril(np.ones((5, 5), dtype=bool)) & keep[1])).all()
    targets = [len(t) for t in lm.BATCH_TARGETS]
    cross = lm.cross_mask(targets, lengths)
    assert cross.shape == (2, max(targets), max(lengths))
    assert cross[0].all() and (cross[1] == keep[1]).all()  # padding only, no causal part
    assert lm.pad_tokens([["a", "b"], ["c"]]) == [["a", "b"], ["c", "<pad>"]]
    assert (lm.additive_mask(np.array([True, False])) == np.array([0.0, -np.inf])).all()
    with pytest.raises(ValueError):
        lm.padding_mask([3, 0])


# ---------------------------------------------------------------- positional encoding


def test_pe_follows_the_papers_formula():
    d, table = 16, lp.pe_table(50, 16)
    for pos in (0, 1, 7, 49):
        for i in range(d // 2):
            angle = pos / 10000 ** (2 * i / d)
            assert table[pos, 2 * i] == pytest.approx(math.sin(angle), abs=1e-12)
            assert table[pos, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-12)


@pytest.mark.parametrize(("length", "d_model"), [(128, 256), (10, 6), (300, 512)])
def test_pe_matches_the_models_table(length, d_model):
    np.testing.assert_allclose(lp.pe_table(length, d_model), sinusoidal_table(length, d_model).numpy(), atol=1e-6)


@pytest.mark.parametrize("k", [1, 5, 40])
def test_rotation_property_holds_numerically(k):
    table = lp.pe_table(128, 256)
    assert lp.rotation_error(table, k) < 1e-9
    # The lesson's rotations carry the model's own table k positions on: PE(pos+k) = R_k · PE(pos), pair by pair.
    model_table = sinusoidal_table(128, 256).double().numpy()
    pairs = model_table.reshape(128, 128, 2)  # (pos, i, [sin, cos])
    moved = np.einsum("iab,pib->pia", lp.rotation(k, 256), pairs[: 128 - k]).reshape(128 - k, 256)
    np.testing.assert_allclose(moved, model_table[k:], atol=1e-5)


def test_the_notes_cosine_exponent_breaks_the_rotation():
    paper = lp.pe_table(6 + 1, 6)
    literal = lp.note_variant_table(7, 6, literal=True)
    meant = lp.note_variant_table(7, 6, literal=False)
    assert (paper[:, 0::2] == literal[:, 0::2]).all()  # the sines agree, only the cosines differ
    assert not np.allclose(paper[1], literal[1]) and not np.allclose(paper[1], meant[1])
    assert lp.rotation_error(lp.note_variant_table(64, 6, literal=False), 1) > 0.1


def test_pe_similarity_depends_only_on_distance_and_norm():
    sim = lp.similarity(lp.pe_table(40, 32))
    assert sim[3, 10] == pytest.approx(sim[20, 27])
    np.testing.assert_allclose(lp.row_norms(lp.pe_table(40, 32)), lp.pe_norm(32))


# ---------------------------------------------------------------- scaling


def test_dot_product_variance_grows_like_d_k_and_scaling_removes_it():
    raw, scaled = ls.dot_product_variance((4, 64, 256), samples=4000)
    assert raw == pytest.approx([4, 64, 256], rel=0.15)
    assert scaled == pytest.approx([1, 1, 1], rel=0.15)


def test_unscaled_softmax_saturates():
    raw, scaled = ls.mean_max_weight(256)
    assert raw > 0.9 and scaled < 0.6
    sat = ls.saturation(256)
    assert sat.largest_gradient(sat.raw_weights) < sat.largest_gradient(sat.scaled_weights)


# ---------------------------------------------------------------- multi-head shapes


def test_notes_shape_walk_through():
    steps = {s.key: s.shape for s in lsh.multihead_shapes(**lsh.DOC_EXAMPLE)}
    assert lsh.head_width(300, 6) == 50
    assert steps["project_q"] == (64, 12, 300)
    assert steps["split_q"] == (64, 12, 6, 50)
    assert steps["transpose_q"] == (64, 6, 12, 50)
    assert steps["split_kv"] == (64, 6, 10, 50)
    assert steps["scores"] == steps["weights"] == (64, 6, 12, 10)
    assert steps["heads_out"] == (64, 6, 12, 50)
    assert steps["concat"] == steps["output"] == (64, 12, 300)


def test_shapes_match_a_real_multi_head_attention():
    from model.architecture.attention import MultiHeadAttention

    mha = MultiHeadAttention(48, 6)
    query, memory = torch.randn(2, 5, 48), torch.randn(2, 7, 48)
    with torch.no_grad():
        out, trace = mha(query, mha.keys_values(memory), None, trace=True)
    q, k, weights = trace.q, trace.k, trace.weights
    steps = {s.key: s.shape for s in lsh.multihead_shapes(2, 5, 7, 48, 6)}
    assert tuple(q.shape) == steps["transpose_q"] and tuple(k.shape) == steps["split_kv"]
    assert tuple(weights.shape) == steps["weights"] and tuple(out.shape) == steps["output"]


def test_hidden_must_divide_by_heads():
    with pytest.raises(ValueError, match="not divisible"):
        lsh.multihead_shapes(64, 12, 10, 300, 7)
    assert lsh.valid_heads(12) == [1, 2, 3, 4, 6, 12]


# ---------------------------------------------------------------- anatomy


@pytest.mark.parametrize("d_model", [256, 64])
def test_parameter_formula_matches_a_real_transformer(d_model):
    config = ModelConfig(src_vocab_size=300, tgt_vocab_size=200, d_model=d_model, n_heads=8, d_ff=4 * d_model,
                         n_encoder_layers=2, n_decoder_layers=3)
    model = Transformer(config)
    counts = {n: p.numel() for n, p in model.named_parameters()}
    assert la.total_parameters(config) == sum(counts.values())
    grouped = la.group_parameter_names(counts)
    for c in la.parameter_breakdown(config):
        assert grouped.get(c.key, 0) == c.total, c.key
    h = d_model
    assert sum(p.numel() for p in model.encoder_layers[0].parameters()) == la.note_formula(h) == 12 * h * h + 13 * h
    assert sum(p.numel() for p in model.decoder_layers[0].parameters()) == la.decoder_formula(h) == 16 * h * h + 19 * h


def test_flops_agree_with_the_notes_formula_when_d_ff_is_4h():
    config = ModelConfig(src_vocab_size=100, tgt_vocab_size=100, d_model=64, d_ff=256, n_encoder_layers=1)
    s, h = 9, 64
    encoder = sum(f.flops for f in la.forward_flops(config, s, 4) if f.key.startswith("encoder"))
    assert encoder == 24 * s * h * h + 4 * s * s * h


def test_label_smoothing_matches_pytorch():
    target = la.smoothed_target(5, 2, 0.1)
    assert target.sum() == pytest.approx(1.0)
    assert target[2] == pytest.approx(0.9 + 0.02) and target[0] == pytest.approx(0.02)
    logits = torch.randn(1, 5, dtype=torch.float64)
    torch_loss = torch.nn.functional.cross_entropy(logits, torch.tensor([2]), label_smoothing=0.1)
    ours = -(torch.from_numpy(target) * torch.log_softmax(logits, -1)).sum()
    assert float(torch_loss) == pytest.approx(float(ours))
    # the floor is reached when the prediction equals the smoothed target
    floor = la.smoothed_loss_floor(5, 0.1)
    assert floor == pytest.approx(float(-(torch.from_numpy(target) * torch.log(torch.from_numpy(target))).sum()))


def test_an_untrained_models_repeated_token_is_named():
    from lessons.replay import repeated_token

    assert repeated_token(["<s>", "119", "119", "119"]) == "119"
    assert repeated_token(["<s>", "我", "有", "</s>"]) is None
    assert repeated_token(["<s>", "我", "</s>"]) is None  # one token is not a repetition


def test_consensus_head_passes_over_a_sink_and_picks_the_closest_to_the_average():
    from lessons.replay import consensus_head

    tq = tk = 4
    eye = np.eye(tq, tk) * 0.9 + 0.1 / tk  # rows read their own position: an alignment
    sink = np.zeros((tq, tk))
    sink[:, 0] = 1.0  # every row on token 0: the lowest entropy of all
    shifted = np.roll(eye, 1, axis=1)
    cross = np.stack([np.stack([sink, shifted, eye, eye])])  # (1 layer, 4 heads, Tq, Tk)
    layer, head, agree, rows = consensus_head(cross)
    # row 3: the sink and the shifted head both read token 0, which outweighs the two heads on token 3
    assert (layer, rows) == (0, 4) and head in (2, 3) and agree == 3
    with pytest.raises(ValueError, match="layers, heads"):
        consensus_head(np.ones((4, 4)))


# ---------------------------------------------------------------- topics: several heads, dead units, √d_model, length
def test_the_two_heads_picked_look_furthest_apart_for_one_query():
    from lessons.multihead import most_different_heads

    layer = np.full((3, 2, 4), 0.25)  # 3 heads, 2 queries, 4 keys
    layer[0, 1] = [0.7, 0.1, 0.1, 0.1]  # query 1: head 0 on key 0 …
    layer[2, 1] = [0.1, 0.1, 0.1, 0.7]  # … head 2 on key 3, as far apart as keys go
    layer[1, 0] = [0.0, 0.0, 0.1, 0.9]
    pair = most_different_heads(layer)
    assert (pair.query, pair.heads, pair.keys) == (1, (0, 2), (0, 3))
    assert pair.peaks() == pytest.approx((0.7, 0.7))
    assert pair.average == pytest.approx([0.4, 0.1, 0.1, 0.4])
    with pytest.raises(ValueError, match="heads ≥ 2"):
        most_different_heads(layer[:1])


def test_a_unit_is_dead_when_no_token_of_any_sentence_fires_it():
    one = np.array([[[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]])  # 1 layer, 2 tokens, 3 units: unit 1 fires
    two = np.array([[[0.0, 0.0, 2.0]]])  # another sentence fires unit 2
    assert la.units_fired(one).tolist() == [[False, True, False]]
    assert la.dead_units([one]).tolist() == [2] and la.dead_units([one, two]).tolist() == [1]


def test_embedding_scale_compares_typical_rows_with_the_pe_length():
    table = np.array([[0.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.5, 0.5], [0.0, 2.0, 0.0, 0.0], [3.0, 0.0, 0.0, 0.0]])
    scale = ls.embedding_scale(table, pad_id=0)  # rows 1–3: lengths 1, 2, 3 → median 2
    assert (scale.raw, scale.scaled, scale.positional) == pytest.approx((2.0, 4.0, math.sqrt(2)))
    assert scale.ratio(True) == pytest.approx(4 / math.sqrt(2)) and scale.ratio(False) == pytest.approx(2 / math.sqrt(2))
    assert np.linalg.norm(lp.pe_table(50, 4), axis=1) == pytest.approx(scale.positional)  # every PE row


def test_pieces_past_the_longest_training_sentence():
    assert lp.pieces_past([5, 5, 5, 5], longest=12, room=30) == 3  # 1 + 5 + 5 + 5 = 16 > 12
    assert lp.pieces_past([5, 5], longest=40, room=30) == 2  # all of them, still within
    assert lp.pieces_past([20, 20], longest=15, room=30) == 1  # the first piece already goes past
    assert lp.pieces_within([5, 5, 5, 5], 12) == 2 and lp.pieces_within([20], 15) == 0  # 1 + 5 + 5 = 11 ≤ 12
    cross = np.zeros((1, 1, 2, 4))
    cross[0, 0, :, 3] = 1.0  # every step reads the last source position
    assert lp.attention_share_past(cross, 3) == pytest.approx((1.0, 0.25))
    assert lp.received_attention(cross).tolist() == [0, 0, 0, 2]
