"""Head importance (python -m evaluation.heads): single-head knock-outs and pruning curves, on a tiny model."""

from __future__ import annotations

import json

import pytest
import torch
from sacrebleu.metrics import BLEU

from model import save_checkpoint
from model.loading.checkpoint import read_training_log, write_training_log
from evaluation.heads import (bleu_statistics, every_head, knocked_statistics, main, mean_nll, measure,
                             paired_drop)
from tests.support.tiny import CHINESE, ENGLISH, tiny_model, tiny_translator, tokenizers

PAIRS = list(dict.fromkeys(zip(ENGLISH, CHINESE)))


def test_mean_nll_is_the_references_cross_entropy_by_hand():
    tr = tiny_translator()
    total, count = 0.0, 0
    for english, chinese in PAIRS:
        src = torch.tensor([[*tr.src_tok.encode(english), tr.config.eos_id]])
        tgt = [tr.config.bos_id, *tr.tgt_tok.encode(chinese), tr.config.eos_id]
        with torch.no_grad():
            logp = torch.log_softmax(tr.model.decode(torch.tensor([tgt[:-1]]), tr.model.encode(src)).logits[0], -1)
        total -= float(logp[torch.arange(len(tgt) - 1), torch.tensor(tgt[1:])].sum())
        count += len(tgt) - 1
    assert mean_nll(tr, PAIRS) == pytest.approx(total / count, rel=1e-5)
    assert mean_nll(tr, PAIRS, (("cross", 0, 0),)) != pytest.approx(total / count, rel=1e-5)


def test_measure_ranks_heads_on_one_half_and_prunes_on_the_other():
    tr = tiny_translator()
    result = measure(tr, PAIRS[:4], PAIRS[4:], progress=lambda line: None)
    assert result["pairs"] == 4 and result["test_pairs"] == len(PAIRS) - 4
    assert len(result["single"]) == len(every_head(tr)) == 3 * 2 * 4
    assert all(s["low"] <= s["bleu_drop"] <= s["high"] for s in result["single"])
    for kind, curve in result["pruning"].items():
        assert [point["removed"] for point in curve] == list(range(9))  # 2 layers × 4 heads, one at a time
        assert curve[0]["bleu"] == result["test_bleu"]  # the curve starts from the whole model on the test half
        drops = {(s["layer"], s["head"]): (s["bleu_drop"], s["nll_rise"]) for s in result["single"] if s["kind"] == kind}
        removed = [tuple(point["head"][1:]) for point in curve[1:]]
        assert [drops[h] for h in removed] == sorted(drops[h] for h in removed)  # least important first
        for point in curve[1:]:
            assert round(curve[0]["bleu"] - point["bleu"], 2) == pytest.approx(point["bleu_drop"], abs=0.011)
    # Every head tied for the largest drop on the selection half, knocked out alone on the test half.
    top = max(s["bleu_drop"] for s in result["single"])
    tied = [(s["kind"], s["layer"], s["head"]) for s in result["single"] if s["bleu_drop"] == top]
    assert [(s["kind"], s["layer"], s["head"]) for s in result["largest_on_test"]] == tied
    base = knocked_statistics(tr, PAIRS[4:], ())
    for found, head in zip(result["largest_on_test"], tied):
        assert found["bleu_drop"] == paired_drop(base, knocked_statistics(tr, PAIRS[4:], (head,)))["bleu_drop"]


def test_the_command_writes_heads_into_the_training_log(tmp_path, capsys):
    src, tgt = tokenizers()
    folder = save_checkpoint(tmp_path / "ck", tiny_model(), src, tgt, training_log={"train_pairs": 6})
    dev = tmp_path / "dev.tsv"
    dev.write_text("".join(f"{e}\t{z}\n" for e, z in PAIRS), encoding="utf-8")
    assert main(["--checkpoint", str(folder), "--dev", str(dev), "--pairs", "4"]) == 0
    log = read_training_log(folder)
    assert log["train_pairs"] == 6 and log["heads"]["pairs"] <= 4 and log["heads"]["test_pairs"] <= 4
    assert len(log["heads"]["single"]) == 24
    json.dumps(log)
    # --largest-only measures the test-half drops alone and keeps everything else the log's "heads" held.
    single = [{**s, "bleu_drop": 9.0} if i == 5 else s for i, s in enumerate(log["heads"]["single"])]
    write_training_log(folder, {**log, "heads": {**log["heads"], "single": single, "largest_on_test": []}})
    assert main(["--checkpoint", str(folder), "--dev", str(dev), "--pairs", "4", "--largest-only"]) == 0
    again = read_training_log(folder)["heads"]
    assert again["single"] == single and again["pruning"] == log["heads"]["pruning"]
    assert [(s["kind"], s["layer"], s["head"]) for s in again["largest_on_test"]] == [
        (single[5]["kind"], single[5]["layer"], single[5]["head"])]
    assert main(["--checkpoint", str(folder), "--dev", str(tmp_path / "missing.tsv")]) == 2
    assert "cannot read" in capsys.readouterr().err


def consistent_pair(n: int = 200) -> tuple[list[str], list[str], list[str]]:
    """References, a system of uneven quality (0 to 7 wrong characters a sentence) and the same system with one
    more wrong character in every sixth sentence: a small loss, the same sentence by sentence."""
    references = [f"第{i}个句子说的是一件很重要的事情。" for i in range(n)]
    uneven = ["".join("X" if j in {(k * 3 + 1) % len(r) for k in range(i % 8)} else c for j, c in enumerate(r))
              for i, r in enumerate(references)]
    worse = [a[:-2] + "Y。" if i % 6 == 0 else a for i, a in enumerate(uneven)]
    return references, uneven, worse


def test_paired_bootstrap_sees_a_consistent_loss_that_one_systems_interval_hides():
    references, uneven, worse = consistent_pair()
    found = paired_drop(bleu_statistics(uneven, references), bleu_statistics(worse, references))
    bleu = BLEU(tokenize="zh")
    assert found["bleu_drop"] == round(bleu.corpus_score(uneven, [references]).score
                                       - bleu.corpus_score(worse, [references]).score, 2)
    assert 0 < found["low"] < found["bleu_drop"] < found["high"]  # the paired interval excludes 0
    unpaired = bleu.corpus_score(uneven, [references], n_bootstrap=1000)._ci  # half of one system's interval
    assert unpaired > found["bleu_drop"]  # read against it, the same loss would be "within noise"


def test_paired_bootstrap_of_a_system_against_itself_is_zero():
    references, uneven, _ = consistent_pair(60)
    stats = bleu_statistics(uneven, references)
    assert paired_drop(stats, stats) == {"bleu_drop": 0.0, "low": 0.0, "high": 0.0}
    assert paired_drop(stats, stats, seed=1) == paired_drop(stats, stats, seed=1)  # seeded: the same on every run
