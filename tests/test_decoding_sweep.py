"""Beam size and length penalty chosen on the selection half of dev; the test half decoded only afterwards."""

from __future__ import annotations

import json
import shutil
from types import SimpleNamespace

import pytest

from model import GenerationConfig, ModelConfig
from evaluation import decoding_sweep
from cards import model_card
from model.training.data import split_dev
from tests.support.paths import CHECKPOINT

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
    assert GenerationConfig(gnmt_alpha=0.6).penalty(7) == pytest.approx(2.0**0.6)  # (5 + 7) / 6 = 2
    assert GenerationConfig(gnmt_alpha=1.5).penalty(7) == pytest.approx(2.0**1.5)


def test_the_sweep_chooses_on_the_selection_half_and_scores_the_test_half(translator):
    selection, test = split_dev(PAIRS)
    assert selection and test  # the hash split puts some of these pairs on each side
    result = decoding_sweep.sweep(translator, PAIRS, [(1, None), (2, 0.6), (2, 1.5)], say=lambda line: None)
    own = translator.generation_config.gnmt_alpha
    assert [(r["beam"], r["alpha"]) for r in result["rows"]] == [(1, None), (2, 0.6), (2, 1.5), (4, own)]
    assert result["selection_pairs"] == len(selection) and result["test_pairs"] == len(test)
    top = decoding_sweep.best(result["rows"][:3])
    assert result["best"] == {"beam": top["beam"], "alpha": top["alpha"]}
    assert result["default"] == {"beam": 4, "alpha": translator.generation_config.gnmt_alpha}  # decoded on its own
    assert result["rows"][-1] | {"outside_grid": True} == result["rows"][-1]  # the default, decoded for comparison
    # Eight sentences cannot make any lead significant: the default stays.
    assert result["p_value"] is None or result["p_value"] > decoding_sweep.SIGNIFICANCE
    assert result["chosen"] == result["default"]
    # The test half's figures are those settings' decodings of the test half, nothing else.
    for name in ("chosen", "best"):
        again, _ = decoding_sweep.decode(translator, test, result[name]["beam"], result[name]["alpha"])
        assert {k: result["test"][name][k] for k in ("bleu", "chrf")} == {k: again[k] for k in ("bleu", "chrf")}


def wrong(i: int) -> str:
    return f"第{i}个东西。"


def test_a_significant_lead_replaces_the_default_and_chance_does_not():
    references = [f"第{i}个句子说的是一件事情。" for i in range(60)]
    worse = [wrong(i) for i in range(60)]
    assert decoding_sweep.p_value(worse, references, references) < decoding_sweep.SIGNIFICANCE
    one_in_six = [wrong(i) if i % 6 == 0 else r for i, r in enumerate(references)]  # 10 wrong
    a_little_better = [wrong(i) if i % 6 == 1 and i < 50 else r for i, r in enumerate(references)]  # 9 wrong
    assert decoding_sweep.p_value(one_in_six, a_little_better, references) > decoding_sweep.SIGNIFICANCE


def test_the_best_of_many_settings_needs_a_smaller_p_than_the_best_of_one(monkeypatch):
    """The best of nine settings leads the default by chance far more often than one setting does: the p-value a
    lead must beat is 0.05 shared among the settings compared (Bonferroni). p = 0.023 (what zh-en's best, beam 8,
    had over the default) adopts the best of one setting and not the best of nine."""
    translator = SimpleNamespace(generation_config=GenerationConfig(),
                                 config=SimpleNamespace(source_language="en", target_language="zh"))

    def decode(_, pairs, beam, alpha):  # beam 8 with α 1.2 leads; every other setting scores as the default
        return {"beam": beam, "alpha": alpha, "bleu": 30.0 + ((beam, alpha) == (8, 1.2)), "chrf": 50.0}, [f"{beam}"] * len(pairs)

    monkeypatch.setattr(decoding_sweep, "decode", decode)
    monkeypatch.setattr(decoding_sweep, "p_value", lambda *_: 0.023)
    default = (decoding_sweep.DEFAULT_BEAM, GenerationConfig().gnmt_alpha)
    many = decoding_sweep.sweep(translator, PAIRS, decoding_sweep.settings(), say=lambda line: None)
    assert (many["compared"], many["threshold"]) == (9, pytest.approx(0.05 / 9))
    assert many["best"] == {"beam": 8, "alpha": 1.2} and many["chosen"] == many["default"]
    one = decoding_sweep.sweep(translator, PAIRS, [default, (8, 1.2)], say=lambda line: None)
    assert (one["compared"], one["threshold"]) == (1, 0.05) and one["chosen"] == {"beam": 8, "alpha": 1.2}


def test_the_command_writes_its_table_into_the_checkpoints_log(tmp_path, capsys):
    folder = shutil.copytree(CHECKPOINT, tmp_path / "model")
    dev = tmp_path / "dev.tsv"
    dev.write_text("".join(f"{en}\t{zh}\n" for en, zh in PAIRS), encoding="utf-8")
    code = decoding_sweep.main(["--checkpoint", str(folder), "--dev", str(dev), "--beams", "1,2", "--alphas", "0.6"])
    assert code == 0
    log = json.loads((folder / "training_log.json").read_text(encoding="utf-8"))
    stored = log[decoding_sweep.LOG_KEY]
    own = GenerationConfig().gnmt_alpha
    assert [(r["beam"], r["alpha"]) for r in stored["rows"]] == [(1, None), (2, 0.6), (4, own)]
    config = ModelConfig.from_dict(json.loads((folder / "config.json").read_text(encoding="utf-8")))
    for language in ("en", "zh"):  # the model card shows the table and the test half's figures
        card = model_card(config, log, "en-zh", language)
        assert f"| 2 | 0.6 | {stored['rows'][1]['bleu']} | {stored['rows'][1]['chrf']} |" in card
        assert f"| {stored['test']['chosen']['bleu']} | {stored['test']['chosen']['chrf']} |" in card
    assert "under 'decoding_sweep'" in capsys.readouterr().out
    assert decoding_sweep.main(["--checkpoint", str(tmp_path / "nothing"), "--dev", str(dev)]) == 2
