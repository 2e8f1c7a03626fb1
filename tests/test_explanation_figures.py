"""The figures docs/findings.md gives for the explanation page are the training logs' (evaluation/explanation_figures.py
writes them from the logs the page reads, both models'): head importance, pruning, agreement, word alignment and
integrated gradients' completeness on the gold cannot disagree with the page."""

from __future__ import annotations

import pytest

from evaluation.explanation_figures import importance_rows, rows
from model import Heads, TrainingLog
from model.loading.checkpoint import read_training_log
from tests.support.paths import ROOT, ZH_CHECKPOINT


@pytest.mark.parametrize("checkpoint", ["en-zh", "zh-en"])
def test_the_findings_show_each_models_logged_figures(checkpoint):
    if checkpoint == "zh-en" and not (ZH_CHECKPOINT / "model.safetensors").is_file():
        pytest.skip(f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")
    findings = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    log = read_training_log(ROOT / "checkpoints" / checkpoint)
    for key in ("heads", "agreement", "alignment"):  # evaluation.<key> measures each
        assert key in log, f"python -m evaluation.{key} --checkpoint checkpoints/{checkpoint} measures it"
    for line in filter(None, rows(TrainingLog.from_dict(log))):
        assert line in findings, (f"docs/findings.md lacks (python -m evaluation.explanation_figures --checkpoint "
                                  f"checkpoints/{checkpoint}): {line}")


def test_the_rows_name_every_tied_head_and_each_kinds_last_removal_within_noise():
    curve = [{"removed": 0, "bleu": 30.0},
             {"removed": 1, "bleu": 29.9, "bleu_drop": 0.1, "low": -0.3, "high": 0.5, "head": ["cross", 0, 0]},
             {"removed": 2, "bleu": 28.0, "bleu_drop": 2.0, "low": 1.0, "high": 3.0, "head": ["cross", 0, 1]}]
    first = [{"removed": 0, "bleu": 30.0},
             {"removed": 1, "bleu": 29.0, "bleu_drop": 1.0, "low": 0.2, "high": 1.8, "head": ["encoder_self", 0, 0]}]
    heads = {"pairs": 10, "bleu": 31.0, "resamples": 1000, "test_pairs": 12, "test_bleu": 30.0,
             "single": [{"kind": "cross", "layer": 0, "head": 0, "bleu_drop": 1.5, "low": -0.4, "high": 2.8},
                        {"kind": "cross", "layer": 0, "head": 1, "bleu_drop": 1.5, "low": 0.5, "high": 2.5}],
             "pruning": {"encoder_self": first, "cross": curve}}
    single, pruning = importance_rows(Heads.from_dict(heads))
    assert ("±1.00 to ±1.60 BLEU; 1 of 2 heads' intervals exclude 0 (chance alone: about 0.1); largest drop 1.50, the "
            "maximum of 2 on the same pairs (cross · layer 1 · head 1, -0.40 to 2.80; cross · layer 1 · head 2, 0.50 "
            "to 2.50); on the test half: not measured yet") in single
    assert "cross: 1 of 2 out, BLEU 29.90, 0.10 lower (-0.30 to 0.50); removing 2 costs 2.00 (1.00 to 3.00)" in pruning
    assert "encoder self: none of 1 out free; removing 1 costs 1.00 (0.20 to 1.80)" in pruning
    tested = {**heads, "largest_on_test": [{"kind": "cross", "layer": 0, "head": 1, "bleu_drop": 0.09, "low": -0.61,
                                            "high": 0.82}]}
    assert "the same on the test half: cross · layer 1 · head 2 0.09 (-0.61 to 0.82)" in importance_rows(
        Heads.from_dict(tested))[0]
