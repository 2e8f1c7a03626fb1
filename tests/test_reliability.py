"""evaluation/reliability.py: confidence bins under teacher forcing, and what it writes."""

from __future__ import annotations

import numpy as np
import pytest

from evaluation.reliability import bin_table, confidences, reliability


def test_bins_split_confidence_into_equal_widths():
    conf = np.array([0.05, 0.1, 0.15, 0.95, 1.0, 0.0])
    right = np.array([False, True, True, True, False, False])
    table = bin_table(conf, right, bins=10)
    assert [b["positions"] for b in table] == [3, 1] + [0] * 7 + [2]  # 0.1 falls in (0, 0.1], 0 in the first bin
    assert table[0]["confidence"] == pytest.approx(0.05) and table[0]["right"] == pytest.approx(1 / 3, abs=1e-4)  # stored to 4 decimals
    assert table[9] == {"low": 0.9, "high": 1.0, "positions": 2, "confidence": 0.975, "right": 0.5}
    assert table[5]["confidence"] is None and table[5]["right"] is None


def test_reliability_counts_every_teacher_forced_position(translator):
    pairs = [("I have a dream.", "我有一个梦想。"), ("Who are you?", "你是谁？")]
    conf, right = confidences(translator, pairs)
    steps = [translator.teacher_forced(en, zh, top_k=1).steps for en, zh in pairs]
    assert conf.size == sum(len(s) for s in steps)  # </s> included
    first = steps[0][0]
    assert conf[0] == pytest.approx(first.candidates[0].prob) and right[0] == (first.candidates[0].token_id ==
                                                                               first.chosen.token_id)
    found = reliability(translator, pairs)
    assert found["pairs"] == 2 and sum(b["positions"] for b in found["bins"]) == found["positions"] == conf.size
    with pytest.raises(ValueError, match="at least one"):
        reliability(translator, [])
