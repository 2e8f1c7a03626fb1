"""Confidence calibration (evaluation/calibrate.py): the thresholds, the dict the app and the card read, the CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from model import DEFAULT_BEAM, save_checkpoint
from evaluation.calibrate import calibrate, increasing_fit, main, sentence_threshold, token_is_right, token_threshold
from model.translation.confidence import assess, calibration_of, sentence_confidence
from tests.support.tiny import CHINESE, ENGLISH, tiny_model, tiny_translator, tokenizers

PAIRS = list(dict.fromkeys(zip(ENGLISH, CHINESE)))  # the six distinct tiny pairs


def assert_well_formed(result: dict, pairs: int) -> None:
    json.dumps(result)  # it goes into training_log.json as it is
    assert result["pairs"] == pairs and result["beam"] == DEFAULT_BEAM and result["method"]
    token, sentence = result["token"], result["sentence"]
    assert 0 < token["threshold"] < 1 and 0 < sentence["threshold"] < 1
    assert token["below"]["tokens"] + token["above"]["tokens"] == token["tokens"] > 0
    assert sentence["below"]["translations"] + sentence["above"]["translations"] == pairs
    for side in ("below", "above"):
        for rate in (token[side]["right"], sentence[side]["exact"]):
            assert rate is None or 0 <= rate <= 1
    assert 0 <= sentence["chrf"] <= 100


@pytest.fixture(scope="module")
def tiny_calibration() -> dict:
    return calibrate(tiny_translator(), PAIRS)


def test_calibrate_the_tiny_model(tiny_calibration):
    assert_well_formed(tiny_calibration, len(PAIRS))
    # A random model writes no right translation, and what it writes it writes with low probability.
    assert tiny_calibration["sentence"]["exact"] == 0


def test_the_counts_are_the_translations_own(tiny_calibration):
    tr = tiny_translator()
    results = [tr.translate(english) for english, _ in PAIRS]
    tokens = sum(1 for r in results for s in r.steps if s.chosen.token_id != tr.config.eos_id)
    assert tiny_calibration["token"]["tokens"] == tokens
    below = sum(sentence_confidence([s.chosen.prob for s in r.steps]) < tiny_calibration["sentence"]["threshold"]
                for r in results)
    assert tiny_calibration["sentence"]["below"]["translations"] == below


def test_calibrate_needs_pairs():
    with pytest.raises(ValueError):
        calibrate(tiny_translator(), [])


def test_sentence_confidence_is_the_geometric_mean():
    assert sentence_confidence([0.5, 0.125]) == pytest.approx(0.25)
    assert sentence_confidence([0.9]) == pytest.approx(0.9)
    assert sentence_confidence([]) == 1.0


def test_a_token_is_right_when_the_reference_has_its_characters():
    assert token_is_right("梦", "我有一个梦想。")
    assert not token_is_right("猫", "我有一个梦想。")
    assert not token_is_right("▁", "anything")
    assert not token_is_right("<0xE6>", "<0xE6>")  # a byte is no character


def test_increasing_fit_pools_violators():
    np.testing.assert_allclose(increasing_fit(np.array([0.0, 1.0, 0.0, 1.0, 1.0])), [0, 0.5, 0.5, 1, 1])
    fitted = increasing_fit(np.random.default_rng(0).random(200))
    assert (np.diff(fitted) >= -1e-12).all()


def test_token_threshold_is_where_tokens_become_mostly_right():
    probs = np.linspace(0.005, 0.995, 1000)
    assert token_threshold(probs, probs >= 0.3) == pytest.approx(0.3, abs=0.01)
    assert token_threshold(probs, np.zeros(1000, dtype=bool)) == 0.99  # never right: all but certainty is low
    assert token_threshold(probs, np.ones(1000, dtype=bool)) == 0.01  # always right: nothing is low


def test_sentence_threshold_separates_exact_matches():
    confidence = np.array([0.2, 0.3, 0.5, 0.55, 0.8, 0.9, 0.95])
    exact = np.array([False, False, False, False, True, True, True])
    assert 0.55 < sentence_threshold(confidence, exact) <= 0.8
    assert 0 < sentence_threshold(confidence, np.zeros(7, dtype=bool)) < 1


def test_assess_marks_against_the_thresholds():
    log = {"calibration": {"token": {"threshold": 0.4}, "sentence": {"threshold": 0.8}}}
    c = assess([0.9, 0.3, 0.95], log)
    assert c.low == [False, True, False]
    assert c.score == pytest.approx(math.exp(np.log([0.9, 0.3, 0.95]).mean()))
    assert c.unsure and (c.calibration.token.threshold, c.calibration.sentence.threshold) == (0.4, 0.8)
    assert not assess([0.9, 0.95], log).unsure


@pytest.mark.parametrize("log", [None, {}, {"calibration": {}}, {"calibration": {"token": {"threshold": 2}}}])
def test_without_a_calibration_nothing_is_marked(log):
    c = assess([0.01, 0.9], log)
    assert c.calibration is None and calibration_of(log) is None
    assert c.low == [False, False] and not c.unsure
    assert c.probs == [0.01, 0.9]


@pytest.mark.parametrize("training_log", [{"train": [{"step": 1}]}, None])
def test_cli_writes_the_calibration_into_the_training_log(tmp_path, training_log, capsys):
    src, tgt = tokenizers()
    folder = save_checkpoint(tmp_path / "ck", tiny_model(), src, tgt, training_log=training_log)
    dev = tmp_path / "dev.tsv"
    dev.write_text("".join(f"{en}\t{zh}\tattribution\n" for en, zh in PAIRS), encoding="utf-8")
    assert main(["--checkpoint", str(folder), "--dev", str(dev), "--limit", "4"]) == 0
    log = json.loads((folder / "training_log.json").read_text(encoding="utf-8"))
    assert_well_formed(log["calibration"], 4)
    assert log["calibration"]["dev"] == "dev.tsv"
    assert {k: v for k, v in log.items() if k != "calibration"} == (training_log or {})  # the rest is kept
    assert "calibration" in capsys.readouterr().out


def test_cli_reports_a_missing_checkpoint(tmp_path, capsys):
    dev = tmp_path / "dev.tsv"
    dev.write_text("Hi.\t你好。\n", encoding="utf-8")
    assert main(["--checkpoint", str(tmp_path / "none"), "--dev", str(dev)]) == 2
    assert "error:" in capsys.readouterr().err
