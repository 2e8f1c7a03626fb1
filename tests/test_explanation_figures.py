"""The figures docs/findings.md gives for the explanation page are the training log's
(evaluation/explanation_figures.py writes them from the log the page reads): head importance, pruning and word
alignment cannot disagree with the page."""

from __future__ import annotations

from evaluation.explanation_figures import alignment_table, importance_rows
from tests.support.paths import ROOT


def test_the_findings_show_the_logged_head_importance_pruning_and_alignment(translator):
    findings = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    log = translator.training_log
    for line in importance_rows(log["heads"]) + alignment_table(log["alignment"]):
        assert line in findings, f"docs/findings.md lacks (python -m evaluation.explanation_figures): {line}"


def test_the_pruning_row_names_each_kinds_first_significant_removal():
    curve = [{"removed": 0, "bleu": 30.0},
             {"removed": 1, "bleu": 29.9, "bleu_drop": 0.1, "low": -0.3, "high": 0.5, "head": ["cross", 0, 0]},
             {"removed": 2, "bleu": 28.0, "bleu_drop": 2.0, "low": 1.0, "high": 3.0, "head": ["cross", 0, 1]}]
    heads = {"pairs": 10, "bleu": 31.0, "resamples": 1000, "test_pairs": 12, "test_bleu": 30.0,
             "single": [{"kind": "cross", "layer": 0, "head": 0, "bleu_drop": 0.2, "low": -0.4, "high": 0.8},
                        {"kind": "cross", "layer": 0, "head": 1, "bleu_drop": 1.5, "low": 0.5, "high": 2.5}],
             "pruning": {"cross": curve}}
    single, pruning = importance_rows(heads)
    assert ("±0.60 to ±1.00 BLEU; 1 of 2 heads' intervals exclude 0 (chance alone: about 0.1); largest drop 1.50 "
            "(cross · layer 1 · head 2") in single
    assert "cross: 1 of 2 out, BLEU 29.90 (removing 2 costs 2.00, 1.00 to 3.00)" in pruning
