"""python -m evaluation.agreement: every cross head's agreement with attribution, averaged over sentences."""

from __future__ import annotations

import numpy as np

from evaluation.agreement import main, sentence_agreement, summarise
from lessons.explanation import spearman
from model import save_checkpoint
from model.loading.checkpoint import read_training_log
from tests.support.tiny import CHINESE, ENGLISH, tiny_model, tiny_translator, tokenizers


def test_one_sentences_agreement_is_each_heads_rank_correlation_with_attribution():
    tr = tiny_translator()
    found = sentence_agreement(tr, ENGLISH[0])
    result = tr.translate(ENGLISH[0], beam=1)
    scores = np.abs(tr.attribute(result, "input_x_gradient").scores)
    layer, head = 1, 2
    expected = np.mean([spearman(result.cross[layer, head, t], scores[t]) for t in range(len(scores))])
    assert np.isclose(found["input_x_gradient"]["rho"][layer, head], expected)
    assert found["integrated_gradients"]["rho"].shape == (2, 4) and len(found["integrated_gradients"]["layer_mean"]) == 2


def test_summary_is_the_mean_over_sentences():
    one = {"rho": np.zeros((1, 2)), "top1": np.ones((1, 2)), "layer_mean": [(0.2, 1.0)], "rollout": (0.4, 0.0)}
    two = {"rho": np.ones((1, 2)), "top1": np.zeros((1, 2)), "layer_mean": [(0.4, 0.0)], "rollout": (0.0, 1.0)}
    summary = summarise([{m: one for m in ("input_x_gradient", "integrated_gradients")},
                         {m: two for m in ("input_x_gradient", "integrated_gradients")}])
    assert summary["integrated_gradients"] == {"rho": [[0.5, 0.5]], "top1": [[0.5, 0.5]], "layer_mean": [[0.3, 0.5]],
                                               "rollout": [0.2, 0.5]}


def test_the_command_writes_agreement_into_the_training_log(tmp_path):
    src, tgt = tokenizers()
    folder = save_checkpoint(tmp_path / "ck", tiny_model(), src, tgt, training_log={"train_pairs": 1})
    pairs = list(dict.fromkeys(zip(ENGLISH, CHINESE)))
    dev, train = tmp_path / "dev.tsv", tmp_path / "train.tsv"
    dev.write_text("".join(f"{e}\t{z}\n" for e, z in pairs), encoding="utf-8")
    train.write_text("Completely different words here.\t完全不同。\n", encoding="utf-8")
    assert main(["--checkpoint", str(folder), "--dev", str(dev), "--train", str(train), "--sentences", "2"]) == 0
    log = read_training_log(folder)
    assert log["train_pairs"] == 1 and 1 <= log["agreement"]["sentences"] <= 2
    assert np.array(log["agreement"]["input_x_gradient"]["rho"]).shape == (2, 4)
