"""Head importance (python -m model.training.heads): single-head knock-outs and pruning curves, on a tiny model."""

from __future__ import annotations

import json

import pytest
import torch

from model import save_checkpoint
from model.loading.checkpoint import read_training_log
from model.training.heads import chance, every_head, main, mean_nll, measure
from tests.tiny import CHINESE, ENGLISH, tiny_model, tiny_translator, tokenizers

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


def test_measure_covers_every_head_and_prunes_each_kind_to_nothing():
    tr = tiny_translator()
    result = measure(tr, PAIRS, progress=lambda line: None)
    assert result["bleu_chance"] >= 0
    assert len(result["single"]) == len(every_head(tr)) == 3 * 2 * 4
    for kind, curve in result["pruning"].items():
        assert [point["removed"] for point in curve] == list(range(9))  # 2 layers × 4 heads, one at a time
        drops = {(s["layer"], s["head"]): (s["bleu_drop"], s["nll_rise"]) for s in result["single"] if s["kind"] == kind}
        removed = [tuple(point["head"][1:]) for point in curve[1:]]
        assert [drops[h] for h in removed] == sorted(drops[h] for h in removed)  # least important first


def test_the_command_writes_heads_into_the_training_log(tmp_path, capsys):
    src, tgt = tokenizers()
    folder = save_checkpoint(tmp_path / "ck", tiny_model(), src, tgt, training_log={"train_pairs": 6})
    dev = tmp_path / "dev.tsv"
    dev.write_text("".join(f"{e}\t{z}\n" for e, z in PAIRS), encoding="utf-8")
    assert main(["--checkpoint", str(folder), "--dev", str(dev), "--pairs", "4"]) == 0
    log = read_training_log(folder)
    assert log["train_pairs"] == 6 and log["heads"]["pairs"] <= 4 and len(log["heads"]["single"]) == 24
    json.dumps(log)
    assert main(["--checkpoint", str(folder), "--dev", str(tmp_path / "missing.tsv")]) == 2
    assert "cannot read" in capsys.readouterr().err
    # --chance-only adds the whole model's interval to the entry, on the entry's own pairs, and keeps the rest.
    del log["heads"]["bleu_chance"]
    (folder / "training_log.json").write_text(json.dumps(log), encoding="utf-8")
    assert main(["--checkpoint", str(folder), "--dev", str(dev), "--chance-only"]) == 0
    again = read_training_log(folder)["heads"]
    assert again["single"] == log["heads"]["single"] and again["bleu_chance"] >= 0
    fresh = save_checkpoint(tmp_path / "fresh", tiny_model(), src, tgt, training_log={})
    assert main(["--checkpoint", str(fresh), "--dev", str(dev), "--chance-only"]) == 2


def test_chance_is_half_of_bleus_bootstrap_interval():
    references = [f"第{i}个句子说的是一件事情。" for i in range(80)]
    assert chance(references, references, resamples=200) == 0.0  # every resample of a perfect output scores 100
    mixed = [r if i % 3 else f"第{i}个东西。" for i, r in enumerate(references)]
    spread = chance(mixed, references, resamples=200)
    assert 0 < spread < 50
    assert chance(mixed[:20], references[:20], resamples=200) > spread  # fewer pairs, more noise
