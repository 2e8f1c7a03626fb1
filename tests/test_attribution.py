"""Does attention explain the translation? Head knock-out and gradient attribution, checked independently."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from captum.attr import IntegratedGradients

from model import InputError
from model.architecture.attention import MultiHeadAttention
from model.architecture.transformer import HeadMask
from model.translation import attribution
from model.translation.attribution import METHODS
from model.translation.cli import main as cli
from tests.support.attribution import independent_log_probs
from tests.support.tiny import tiny_translator

ALL_CROSS = tuple(("cross", layer, head) for layer in range(3) for head in range(8))


def test_a_knocked_out_heads_output_never_reaches_w_o():
    torch.manual_seed(0)
    mha = MultiHeadAttention(8, 2).eval()
    x = torch.randn(1, 3, 8)
    keep = torch.tensor([0.0, 1.0])
    out, _ = mha(x, mha.keys_values(x), keep=keep)
    # By hand: head 1's half of the concatenation through W_O, plus the bias; head 0's half contributes nothing.
    _, trace = mha(x, mha.keys_values(x), trace=True)
    head1 = trace.weights[0, 1] @ trace.v[0, 1]  # (3, d_head)
    expected = head1 @ mha.out_proj.weight[:, 4:].T + mha.out_proj.bias
    torch.testing.assert_close(out[0], expected, atol=1e-5, rtol=1e-5)


def test_knocking_out_no_head_leaves_everything_identical():
    tr = tiny_translator()
    plain, masked = tr.translate("I have a dream."), tr.translate("I have a dream.", knock_out=())
    assert plain.translation == masked.translation and masked.knocked_out == ()
    np.testing.assert_array_equal(plain.cross, masked.cross)
    everything_kept = HeadMask.knocking_out(tr.config, [])
    assert all(bool((getattr(everything_kept, k) == 1).all()) for k in ("encoder_self", "decoder_self", "cross"))


def test_knocking_out_every_cross_head_changes_the_translation(translator):
    plain = translator.translate("I have a dream.")
    blind = translator.translate("I have a dream.", knock_out=ALL_CROSS)
    # Without cross-attention the decoder never sees the source: it writes something else.
    assert blind.translation != plain.translation
    assert blind.knocked_out == ALL_CROSS


def test_a_head_the_model_lacks_is_a_clear_input_error(translator):
    with pytest.raises(InputError, match="no cross head at layer 9, head 1: it has 3 layers of 8 heads"):
        translator.translate("I have a dream.", knock_out=(("cross", 8, 0),))
    with pytest.raises(InputError, match="attribution method"):
        translator.attribute(translator.translate("Hi."), "saliency")


def test_input_x_gradient_is_the_embedding_times_its_gradient(translator):
    result = translator.translate("The cat sat on the mat.")
    got = translator.attribute(result, "input_x_gradient").scores
    src = torch.tensor([result.source_embeddings.ids.tolist()])
    rows = []
    for t in range(len(result.steps)):
        token = translator.model.src_embed(src).detach().requires_grad_(True)
        (grad,) = torch.autograd.grad(independent_log_probs(translator, result, token)[0, t], token)
        rows.append((token * grad).sum(-1)[0].detach().numpy())
    np.testing.assert_allclose(got, np.stack(rows), atol=1e-4)
    assert got.shape == result.cross.shape[2:]  # [target step][source token], as a cross-attention map


# The third has a step whose log-probability turns sharply on the path: evenly spaced, it needs 97 points (0.33 at 49).
@pytest.mark.parametrize("sentence", ["I have a dream.", "The weather is very nice today, so we will go to the park.",
                                      "He likes mathematics, but I don't."])
def test_integrated_gradients_add_up_to_the_change_from_the_baseline(translator, sentence):
    result = translator.translate(sentence)
    ig = translator.attribute(result, "integrated_gradients")
    src = torch.tensor([result.source_embeddings.ids.tolist()])
    with torch.no_grad():
        token = translator.model.src_embed(src)
        change = (independent_log_probs(translator, result, token)
                  - independent_log_probs(translator, result, torch.zeros_like(token)))[0]
    # Completeness (Sundararajan et al. 2017): each step's attributions sum to f(input) − f(zero embedding).
    error = np.abs(ig.scores.sum(1) - change.numpy()) / np.maximum(np.abs(change.numpy()), 1.0)
    assert error.max() <= 0.05 and ig.gap <= 0.05
    assert ig.gap == pytest.approx(error.max(), abs=1e-3)
    # The gap is Captum's own convergence delta (row t: step t's log-probability), relative as above.
    steps = len(result.steps)
    end = token.expand(steps, -1, -1).detach()
    delta = IntegratedGradients(lambda x: independent_log_probs(translator, result, x)).compute_convergence_delta(
        torch.from_numpy(ig.scores), torch.zeros_like(end), end, target=list(range(steps)))
    assert ig.gap == pytest.approx(float((delta.abs().numpy() / np.maximum(np.abs(change.numpy()), 1.0)).max()),
                                   abs=1e-3)


def evenly(translator, result, points: int):
    """Integrated gradients on exactly `points` evenly spaced points, none added."""
    return attribution.attribute(translator.model, translator.generation_config, result.source_embeddings.ids.tolist(),
                                 result.target_embeddings.ids.tolist(), [s.chosen.token_id for s in result.steps],
                                 "integrated_gradients", points=points)


def counting_points(monkeypatch) -> list:
    """Every batch of path points evaluated, as the alphas handed to _Path.at."""
    evaluated, at = [], attribution._Path.at

    def counted(path, alphas):
        evaluated.append(alphas.tolist())
        return at(path, alphas)

    monkeypatch.setattr(attribution._Path, "at", counted)
    return evaluated


def test_integrated_gradients_add_points_only_where_the_integral_misses(translator, monkeypatch):
    result = translator.translate("He likes mathematics, but I don't.")
    evaluated = counting_points(monkeypatch)
    ig = translator.attribute(result, "integrated_gradients")
    alphas = sorted(sum(evaluated, []))
    assert len(evaluated) > 1 and len(alphas) == len(set(alphas)) == ig.points < 49  # each point computed once
    assert evaluated[0] == pytest.approx(np.linspace(0, 1, attribution.IG_START).tolist())
    # The added points crowd where this sentence's sharp step turns (α 0.4–0.7), not evenly along the path.
    added = sum(evaluated[1:], [])
    assert sum(0.4 <= a <= 0.7 for a in added) > len(added) / 2
    evaluated.clear()
    even = evenly(translator, result, 49)
    assert len(evaluated) == 1 and evaluated[0] == pytest.approx(np.linspace(0, 1, 49).tolist())
    assert even.gap > 0.2 and ig.gap <= attribution.GAP_BOUND


def test_integrated_gradients_halve_every_interval_when_no_gap_will_do(translator, monkeypatch):
    result = translator.translate("I have a dream.")
    evaluated = counting_points(monkeypatch)
    monkeypatch.setattr(attribution, "GAP_BOUND", 1e9)  # any gap will do: the first points are kept
    assert translator.attribute(result).points == attribution.IG_START and len(evaluated) == 1
    evaluated.clear()
    monkeypatch.setattr(attribution, "GAP_BOUND", 0.0)  # no gap will do: every interval halved until the path is full
    refined = translator.attribute(result)
    assert refined.points == 97 and [len(e) for e in evaluated] == [13, 12, 24, 48]
    fixed = evenly(translator, result, 97)  # the same 97 points at once
    np.testing.assert_allclose(refined.scores, fixed.scores, atol=1e-4 * np.abs(fixed.scores).max())
    assert refined.gap == pytest.approx(fixed.gap, abs=1e-4)


def test_a_small_tangent_budget_splits_passes_over_tangents_with_the_same_scores(translator, monkeypatch):
    """Below one point's worth of tangents, a pass takes fewer tangents at a time (vmap's chunks): the memory a
    1,000-character input's attribution needs is bounded, and the scores are those of whole passes."""
    result = translator.translate("The children are playing in the park near the old library.")
    whole = translator.attribute(result, "input_x_gradient").scores
    s, t = len(result.source_tokens), len(result.target_tokens)
    chunks = []
    real_vmap = attribution.vmap
    monkeypatch.setattr(attribution, "vmap", lambda f, chunk_size=None: chunks.append(chunk_size) or real_vmap(
        f, chunk_size=chunk_size))
    monkeypatch.setattr(attribution, "TANGENT_BUDGET", 3 * (s + t) * translator.model.config.d_ff)
    split = translator.attribute(result, "input_x_gradient").scores
    assert chunks == [3]  # three tangents at a time
    np.testing.assert_allclose(split, whole, rtol=1e-5, atol=1e-6)


def test_the_trapezoid_rule_on_uneven_points_by_hand():
    # f(α) = α³ along the path, its derivative 3α² split evenly over two source tokens; one step.
    alphas = torch.tensor([0.0, 0.5, 0.75, 1.0], dtype=torch.float64)
    changes = (3 * alphas**2 / 2)[:, None, None].expand(-1, 1, 2)  # (n, T=1, S=2)
    widths, errors = attribution._trapezoid(alphas, changes, (alphas**3)[:, None])
    assert widths.tolist() == [0.25, 0.375, 0.25, 0.125]  # half of each neighbouring interval: they add up to 1
    # The trapezoid's error on [a, b] for 3α² is (b − a)³ / 2; relative to max(|f(1) − f(0)|, 1 nat) = 1.
    assert errors[:, 0].tolist() == pytest.approx([0.5**3 / 2, 0.25**3 / 2, 0.25**3 / 2])


def test_integrated_gradients_in_bfloat16_stay_within_the_bound(translator, monkeypatch):
    """Where the CPU multiplies bfloat16 natively the path is computed in it; the gap, in float32, includes that."""
    result = translator.translate("I have a dream.")
    full = translator.attribute(result, "integrated_gradients")
    monkeypatch.setattr(attribution, "native_bf16", lambda device: True)
    low = translator.attribute(result, "integrated_gradients")
    assert low.gap <= attribution.GAP_BOUND
    np.testing.assert_allclose(low.scores, full.scores, atol=0.02 * np.abs(full.scores).max())


def test_attribution_follows_the_results_knocked_out_heads(translator):
    result = translator.translate("I have a dream.", knock_out=ALL_CROSS)
    # With every cross head out no source token can matter to any output token.
    assert np.abs(translator.attribute(result, "input_x_gradient").scores).max() < 1e-6


def test_the_cli_adds_attribution_and_knocks_heads_out(capsys):
    assert cli(["--attribution", "I have a dream."]) == 0
    data = json.loads(capsys.readouterr().out)
    cross = np.array(data["attention"]["cross"])
    for method in METHODS:
        assert np.array(data["attribution"][method]).shape == cross.shape[2:]
    assert 0 <= data["attribution_gap"]["integrated_gradients"] <= 0.05
    assert cli(["I have a dream."]) == 0
    plain = capsys.readouterr().out.strip()
    assert cli(["--ablate", "cross:all", "I have a dream."]) == 0
    assert capsys.readouterr().out.strip() != plain
    assert cli(["--json", "--ablate", "cross:1.2,encoder_self:3.8", "I have a dream."]) == 0
    assert json.loads(capsys.readouterr().out)["knocked_out"] == ["cross:1.2", "encoder_self:3.8"]


@pytest.mark.parametrize("spec, said", [("heads:1.1", "the kind must be one of"), ("cross:2", "KIND:LAYER.HEAD"),
                                        ("cross:4.1", "no cross head at layer 4, head 1")])
def test_the_cli_says_what_is_wrong_with_an_ablation(capsys, spec, said):
    assert cli(["--ablate", spec, "I have a dream."]) == 2
    assert said in capsys.readouterr().err
