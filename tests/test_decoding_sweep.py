"""Beam size and length penalty chosen on the selection half of dev; the test half decoded only afterwards."""

from __future__ import annotations

import json
import shutil

import pytest

from model import GenerationConfig
from model.training import decoding_sweep
from model.training.data import split_dev
from tests.conftest import CHECKPOINT

PAIRS = [("I am a student.", "我是学生。"), ("Who are you?", "你是谁？"), ("Thank you.", "谢谢。"),
         ("It is raining.", "下雨了。"), ("I love you.", "我爱你。"), ("Where is the station?", "车站在哪里？"),
         ("Good morning.", "早上好。"), ("I like tea.", "我喜欢茶。")]


def test_the_grid_decodes_greedy_search_once():
    grid = decoding_sweep.settings((1, 2, 4), (0.0, 0.6))
    assert grid == [(1, None), (2, 0.0), (2, 0.6), (4, 0.0), (4, 0.6)]


def test_the_best_bleu_wins_then_chrf_then_the_smaller_beam():
    rows = [{"beam": 4, "bleu": 30.0, "chrf": 25.0}, {"beam": 2, "bleu": 30.0, "chrf": 25.0},
            {"beam": 8, "bleu": 30.0, "chrf": 26.0}, {"beam": 6, "bleu": 29.9, "chrf": 40.0}]
    assert decoding_sweep.best(rows)["beam"] == 8
    assert decoding_sweep.best(rows[:2])["beam"] == 2


def test_gnmt_alpha_is_the_penaltys_exponent():
    assert GenerationConfig(gnmt_alpha=0.0).penalty(12) == 1.0
    assert GenerationConfig().penalty(7) == pytest.approx(2.0**0.6)  # (5 + 7) / 6 = 2
    assert GenerationConfig(gnmt_alpha=1.5).penalty(7) == pytest.approx(2.0**1.5)


def test_the_sweep_chooses_on_the_selection_half_and_scores_the_test_half(translator):
    selection, test = split_dev(PAIRS)
    assert selection and test  # the hash split puts some of these pairs on each side
    result = decoding_sweep.sweep(translator, PAIRS, [(1, None), (2, 0.6), (2, 1.5)], say=lambda line: None)
    assert [(r["beam"], r["alpha"]) for r in result["rows"]] == [(1, None), (2, 0.6), (2, 1.5)]
    assert result["selection_pairs"] == len(selection) and result["test_pairs"] == len(test)
    chosen = decoding_sweep.best(result["rows"])
    assert result["chosen"] == {"beam": chosen["beam"], "alpha": chosen["alpha"]}
    # The test half's figure for the chosen setting is that setting's decoding of the test half, nothing else.
    again = decoding_sweep.decode(translator, test, chosen["beam"], chosen["alpha"])
    assert {k: result["test"]["chosen"][k] for k in ("bleu", "chrf")} == {k: again[k] for k in ("bleu", "chrf")}
    assert result["test"]["default"]["beam"] == 4  # the default (4, 0.6) was not chosen from this grid


def test_the_command_writes_its_table_into_the_checkpoints_log(tmp_path, capsys):
    folder = shutil.copytree(CHECKPOINT, tmp_path / "model")
    dev = tmp_path / "dev.tsv"
    dev.write_text("".join(f"{en}\t{zh}\n" for en, zh in PAIRS), encoding="utf-8")
    code = decoding_sweep.main(["--checkpoint", str(folder), "--dev", str(dev), "--beams", "1,2", "--alphas", "0.6"])
    assert code == 0
    stored = json.loads((folder / "training_log.json").read_text(encoding="utf-8"))[decoding_sweep.LOG_KEY]
    assert [(r["beam"], r["alpha"]) for r in stored["rows"]] == [(1, None), (2, 0.6)]
    assert "under 'decoding_sweep'" in capsys.readouterr().out
    assert decoding_sweep.main(["--checkpoint", str(tmp_path / "nothing"), "--dev", str(dev)]) == 2
