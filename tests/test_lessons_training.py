"""The "How it was trained" page's arithmetic (lessons/training.py) and figure (viz/teaching_training.py): Adam as
PyTorch computes it, with the trainer's own settings; dropout; padding of make_batches' batches; BLEU as sacrebleu."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
import torch
from sacrebleu.metrics import BLEU

from lessons import training as lt
from model.text.pairs import Example
from model.training.data import ShuffledOrder, make_batches
from model.training.schedule import ADAM_BETAS, ADAM_EPS
from tests.support.checkpoints import checkpoint_tokenizers
from viz.options import Frame
from viz.teaching_training import batch_padding_figure, optimizer_paths_figure

SIGNATURE = "nrefs:1|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0"


# ---------------------------------------------------------------- the trainer's settings
def test_pytorch_defaults_are_pytorchs():
    defaults = torch.optim.Adam([torch.zeros(1, requires_grad=True)]).defaults
    assert defaults["betas"][1] == lt.PYTORCH_DEFAULT_BETA2 and defaults["eps"] == lt.PYTORCH_DEFAULT_EPS


def test_the_pages_pairs_are_what_the_model_reads_in_training(translator):
    """Translator.encode_pairs (the page batches its pairs) against inference: the source ids are those translate()
    feeds the encoder; without </s> the target ids are what teacher forcing feeds the decoder, and without <s> the
    tokens it is trained to write. Tokens read with the checkpoint's own tokenizer files."""
    pairs = [("I have a dream.", "我有一个梦想。"), ("Who are you?", "你是谁？")]
    src, tgt = checkpoint_tokenizers()
    for (english, chinese), example in zip(pairs, translator.encode_pairs(pairs), strict=True):
        forced = translator.teacher_forced(english, chinese)
        assert list(example.src) == translator.prepare(english)[1]
        assert src.tokens(example.src) == forced.source_tokens
        assert tgt.tokens(example.tgt[:-1]) == forced.target_tokens
        assert tgt.tokens(example.tgt[1:]) == forced.output_tokens


# ---------------------------------------------------------------- Adam and SGD
def test_adam_steps_are_torchs():
    w = torch.tensor(lt.TOY_START, requires_grad=True)
    opt = torch.optim.Adam([w], lr=lt.TOY_ADAM_LR, betas=ADAM_BETAS, eps=ADAM_EPS)
    ours = lt.adam_steps(lt.TOY_START, lt.TOY_ADAM_LR, 25, ADAM_BETAS, ADAM_EPS)
    for step in ours:
        opt.zero_grad()
        (0.5 * (w**2 * torch.tensor(lt.TOY_CURVATURES)).sum()).backward()
        opt.step()
        np.testing.assert_allclose(step.params, w.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_first_adam_step_is_lr_times_the_gradients_sign():
    first = lt.adam_steps([3.0, -0.001], 0.5, 1, ADAM_BETAS, ADAM_EPS)[0]
    np.testing.assert_allclose(first.update, [0.5, -0.5], rtol=1e-5)
    np.testing.assert_allclose(first.m_hat, first.grad)


def test_sgd_diverges_past_its_stable_rate_and_adam_beats_it_below():
    limit = lt.largest_stable_sgd_lr()
    assert lt.toy_loss(lt.sgd_path(lt.TOY_START, limit * 1.05, 60)[-1]) > lt.toy_loss(lt.TOY_START)
    sgd = lt.sgd_path(lt.TOY_START, lt.TOY_SGD_SHARE * limit, lt.TOY_STEPS)
    adam = lt.adam_path(lt.TOY_START, lt.adam_steps(lt.TOY_START, lt.TOY_ADAM_LR, lt.TOY_STEPS, ADAM_BETAS, ADAM_EPS))
    assert sgd.shape == adam.shape == (lt.TOY_STEPS + 1, 2)
    assert lt.toy_loss(adam[-1]) < lt.toy_loss(sgd[-1]) / 3


def test_bad_adam_settings_say_so():
    with pytest.raises(ValueError, match="steps"):
        lt.adam_steps(lt.TOY_START, 0.1, 0, ADAM_BETAS, ADAM_EPS)


def test_window():
    assert lt.window(0.9) == pytest.approx(10) and lt.window(0.98) == pytest.approx(50)


# ---------------------------------------------------------------- dropout
def test_inverted_dropout_zeroes_and_rescales_like_torch():
    x = np.arange(1.0, 2001.0)
    keep, out = lt.inverted_dropout(x, 0.2, np.random.default_rng(1))
    np.testing.assert_allclose(out[keep], x[keep] / 0.8)
    assert not out[~keep].any() and 0.15 < 1 - keep.mean() < 0.25
    torch_out = torch.nn.functional.dropout(torch.tensor(x), 0.2, training=True).numpy()
    kept = torch_out != 0
    np.testing.assert_allclose(torch_out[kept], x[kept] / 0.8)


def test_dropout_mean_approaches_the_input():
    x = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(lt.mean_over_draws(x, 0.2, 20000), x, atol=0.05)
    with pytest.raises(ValueError, match="p must be"):
        lt.inverted_dropout(x, 1.0, np.random.default_rng(0))


# ---------------------------------------------------------------- padding
def examples(lengths) -> list[Example]:
    return [Example(tuple(range(s)), tuple(range(t))) for s, t in lengths]


def test_padding_counts_what_collate_pads():
    stats = lt.padding([[(3, 4), (5, 2)], [(2, 3)]])
    # source: batch 1 → 2 rows × 5, 8 real; batch 2 → 2 of 2. Decoder input: lengths − 1 → (3, 1): 2 × 3, 4 real; 2.
    assert (stats.source_real, stats.source_slots, stats.target_real, stats.target_slots) == (10, 12, 6, 8)
    assert stats.fraction == pytest.approx(1 - 16 / 20) and stats.sentences == 3 and stats.batches == 2
    with pytest.raises(ValueError):
        lt.padding([[]])


def test_shuffled_order_turns_make_batches_sort_off_but_keeps_its_budget():
    rng = random.Random(5)
    targets = [rng.randint(3, 40) for _ in range(600)]
    data = examples([(max(2, t + rng.randint(-3, 3)), t) for t in targets])  # a translation is about as long
    sorted_batches = make_batches(data, 400, random.Random(0))
    random_batches = make_batches(data, 400, ShuffledOrder(0))
    for batches in (sorted_batches, random_batches):
        assert sorted(id(e) for b in batches for e in b) == sorted(id(e) for e in data)
        assert all(len(b) * max(max(len(e.src), len(e.tgt)) for e in b) <= 400 for b in batches)

    def lengths(batches):
        return [[(len(e.src), len(e.tgt)) for e in b] for b in batches]

    bucketed, shuffled = lt.padding(lengths(sorted_batches)), lt.padding(lengths(random_batches))
    assert bucketed.fraction < 0.5 * shuffled.fraction
    assert shuffled.batches > bucketed.batches


def test_dev_file_is_found_relative_to_the_root(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "dev.tsv").write_text("a\tb\n")
    assert lt.dev_file("d/dev.tsv", tmp_path) == tmp_path / "d" / "dev.tsv"
    assert lt.dev_file("d/missing.tsv", tmp_path) is None
    assert lt.dev_file(None, tmp_path) is None


# ---------------------------------------------------------------- BLEU
def test_metric_from_signature_reproduces_the_signature():
    metric = lt.metric_from_signature(SIGNATURE)
    metric.corpus_score(["我"], [["我"]])
    assert str(metric.get_signature()).rsplit("|", 1)[0] == SIGNATURE.rsplit("|", 1)[0]
    with pytest.raises(ValueError, match="lacks"):
        lt.metric_from_signature("tok:zh")
    with pytest.raises(ValueError, match="smoothing"):
        lt.metric_from_signature(SIGNATURE.replace("smooth:exp", "smooth:floor[0.10]"))


def test_breakdown_by_hand():
    parts = lt.bleu_breakdown("我有一个梦想。", "我有个梦想。", SIGNATURE)
    assert [(o.matches, o.total) for o in parts.orders] == [(6, 7), (4, 6), (2, 5), (1, 4)]
    assert parts.orders[3].matched == ("个 梦 想 。",)
    assert parts.brevity_penalty == 1.0
    expected = (6 / 7 * 4 / 6 * 2 / 5 * 1 / 4) ** 0.25 * 100
    assert parts.score == pytest.approx(expected) and parts.sacrebleu_score == pytest.approx(expected)


def test_brevity_penalty_and_smoothing():
    parts = lt.bleu_breakdown("我有梦想", "我有一个美丽的梦想", SIGNATURE)  # 4 of 9 characters, no 3-gram match
    assert parts.brevity_penalty == pytest.approx(np.exp(1 - 9 / 4))
    assert [o.smoothed for o in parts.orders] == [False, False, True, True]
    assert parts.orders[2].precision == pytest.approx(100 / (2 * 2)) and parts.orders[3].precision == pytest.approx(100 / 4)
    assert parts.score == pytest.approx(parts.sacrebleu_score)


@pytest.mark.parametrize("signature", [SIGNATURE, SIGNATURE.replace("eff:no", "eff:yes"),
                                       SIGNATURE.replace("smooth:exp", "smooth:none"),
                                       SIGNATURE.replace("case:mixed", "case:lc")])
def test_breakdown_agrees_with_sacrebleu_on_many_pairs(signature):
    rng = random.Random(3)
    pool = ["我有一个梦想。", "你是谁？", "汤姆昨天买了三个苹果。", "医院在哪里？", "我喜欢我的狗。", "Tom 喜欢 iPhone。",
            "我", "", "狗狗狗狗", "我的狗喜欢我。"]
    for _ in range(200):
        hyp, ref = rng.choice(pool), rng.choice(pool[:-3] + pool[-2:])
        if not ref:
            continue
        parts = lt.bleu_breakdown(hyp, ref, signature)
        official = lt.metric_from_signature(signature).corpus_score([hyp], [[ref]])
        assert parts.score == pytest.approx(official.score, abs=1e-9), (hyp, ref)
        assert parts.sacrebleu_counts == (tuple(o.matches for o in parts.orders), tuple(o.total for o in parts.orders))


def test_the_default_metric_is_the_trainers():
    """model/training/metrics.py scores with BLEU(tokenize="zh"): the log's signature must rebuild exactly that."""
    plain = BLEU(tokenize="zh")
    plain.corpus_score(["我"], [["我"]])
    assert str(plain.get_signature()).rsplit("|", 1)[0] == SIGNATURE.rsplit("|", 1)[0]


# ---------------------------------------------------------------- the figure
def test_optimizer_paths_figure():
    w = np.linspace(-1, 1, 5)
    loss = lt.toy_loss(np.stack(np.meshgrid(w, w), axis=-1))
    path = np.zeros((3, 2))
    fig = optimizer_paths_figure(w, w, loss, [path, path], ["a", "b"], frame=Frame("t", "w1", "w2"), loss_label="loss",
                                 step_label="step")
    assert [tr.type for tr in fig.data] == ["contour", "scatter", "scatter"]
    assert list(fig.data[1].customdata) == [0, 1, 2] and fig.layout.height <= 560
    with pytest.raises(ValueError, match="shape"):
        optimizer_paths_figure(w, w[:3], loss, [path], ["a"], frame=Frame("t", "", ""), loss_label="", step_label="")
    with pytest.raises(ValueError, match="one name per path"):
        optimizer_paths_figure(w, w, loss, [path], ["a", "b"], frame=Frame("t", "", ""), loss_label="", step_label="")
    with pytest.raises(ValueError, match=r"\(steps \+ 1, 2\)"):
        optimizer_paths_figure(w, w, loss, [np.zeros((3, 3))], ["a"], frame=Frame("t", "", ""), loss_label="",
                               step_label="")


def test_padding_figure():
    fig = batch_padding_figure(["sorted", "random"], [100, 100], [20, 80], title="t", count_title="positions",
                         real_label="real", padding_label="padding")
    assert fig.layout.barmode == "stack" and fig.layout.height <= 560
    assert list(fig.data[1].text) == ["20 (17%)", "80 (44%)"]
    assert list(fig.layout.yaxis.ticktext) == ["sorted", "random"]
    with pytest.raises(ValueError, match="one real and one padding"):
        batch_padding_figure(["a"], [1, 2], [1], title="", count_title="", real_label="", padding_label="")
    with pytest.raises(ValueError, match="negative"):
        batch_padding_figure(["a"], [1], [-1], title="", count_title="", real_label="", padding_label="")


def test_a_zero_bleu_says_why_and_chrf_still_counts():
    """A one-token translation has no 4-gram: BLEU 0 by a zero factor, which smoothing cannot mend; chrF is not 0."""
    short = lt.bleu_breakdown("猫。", "猫坐在垫子上。", SIGNATURE)
    assert short.score == 0 and lt.zero_reason(short) == ("short", 3)  # 2 tokens: no trigram, the first empty order
    assert lt.sentence_chrf("猫。", "猫坐在垫子上。") > 0
    unmatched = lt.bleu_breakdown("狗跑得很快", "猫坐在垫子上。", SIGNATURE)
    assert unmatched.score == 0 and lt.zero_reason(unmatched) == ("nomatch", 0)
    assert lt.zero_reason(lt.bleu_breakdown("猫坐在垫子上。", "猫坐在垫子上。", SIGNATURE)) is None


def test_bleu_limits_cut_chinese_into_characters_and_13a_does_not():
    limits = lt.bleu_limits("我肚子饿了。", "我饿了。", SIGNATURE)
    assert limits.tokens_zh == ("我", "肚", "子", "饿", "了", "。") and limits.tokens_13a == ("我肚子饿了。",)
    # characters: 1-grams 4/6, 2-grams 2/5 (饿了, 了。), 3-grams 1/4 (饿了。), 4-grams none: exp smoothing, 1/(2·3)
    expected = 100 * math.exp((math.log(4 / 6) + math.log(2 / 5) + math.log(1 / 4) + math.log(1 / 6)) / 4)
    assert limits.bleu_zh == pytest.approx(expected)
    assert limits.bleu_13a == 0  # one "word" each, and they differ
    assert limits.chrf > limits.bleu_zh and limits.gap == pytest.approx(limits.chrf - limits.bleu_zh)


def test_widest_gap_skips_exact_and_cut_off_outputs():
    refs = ["我饿了。", "翻译很难。", "你好。"]
    outs = ["我肚子饿了。", "翻译。", "你好。"]
    limits = [lt.bleu_limits(o, r, SIGNATURE) for o, r in zip(outs, refs)]
    assert limits[1].gap > limits[0].gap  # the cut-off one gains more from chrF, and is still not the example
    assert lt.widest_gap(outs, refs, limits) == 0
    assert lt.widest_gap(outs[1:], refs[1:], limits[1:]) == 0  # only a cut-off one differs: it is shown
    assert lt.widest_gap(refs, refs, limits) is None


def test_reliability_ece_hand_worked():
    bins = [{"low": 0.0, "high": 0.5, "positions": 0, "confidence": None, "right": None},
            {"low": 0.5, "high": 0.8, "positions": 10, "confidence": 0.6, "right": 0.5},
            {"low": 0.8, "high": 1.0, "positions": 30, "confidence": 0.9, "right": 0.95}]
    r = lt.reliability(bins)
    assert r.positions.tolist() == [10, 30]  # the empty bin has no point to draw
    assert r.ece == pytest.approx(10 / 40 * 0.1 + 30 / 40 * 0.05)
    assert r.over == 1  # right 0.5 < confident 0.6; the top bin is under-confident
    with pytest.raises(ValueError, match="no bin"):
        lt.reliability(bins[:1])
