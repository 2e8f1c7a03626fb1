"""The built-in patching study (evaluation/patching_study.py): the bootstrap over pairs on made-up effects, the pair
filter on the shipped model, the log's shape, the page's view of a made-up log in both languages, and the findings'
lines written from each checkpoint's log (evaluation/patching_figures.py)."""

from __future__ import annotations

import numpy as np
import pytest

from app_pages.pages import patching_study_view
from app_pages.shell.text import in_language
from app_pages.state import state_keys
from evaluation import patching_figures, patching_study
from evaluation.patching_study import STUDIES, bootstrap, consistent, one_pair, summarise
from i18n import strings
from model.loading.checkpoint import read_training_log
from tests.support.apptest import open_page
from tests.support.paths import ROOT, ZH_CHECKPOINT


def made_up_effects(pairs: int, seed: int = 0) -> np.ndarray:
    """(pairs, 2, 3) effects, noise of sd 0.05 centred so that the mean over pairs is known exactly: head (0, 0)
    0.5, head (1, 2) −0.3, every other head 0."""
    rng = np.random.default_rng(seed)
    values = rng.normal(0.0, 0.05, size=(pairs, 2, 3))
    values -= values.mean(axis=0)
    values[:, 0, 0] += 0.5
    values[:, 1, 2] -= 0.3
    return values


def test_the_bootstrap_interval_holds_the_mean_and_narrows_with_more_pairs():
    few, many = made_up_effects(20), made_up_effects(400)
    mean, low, high = bootstrap(few)
    assert mean.shape == low.shape == high.shape == (2, 3)
    assert np.allclose(mean[0, 0], 0.5) and np.allclose(mean[1, 2], -0.3) and np.allclose(mean[0, 1], 0.0)
    assert np.all(low <= mean) and np.all(mean <= high)
    assert low[0, 0] < 0.5 < high[0, 0] and low[1, 2] < -0.3 < high[1, 2]
    assert high[0, 0] < 0.6 and low[1, 2] > -0.4  # a ±0.05 noise over 20 pairs: about ±0.02
    _, low_many, high_many = bootstrap(many)
    assert np.all(high_many - low_many < high - low)
    assert np.array_equal(bootstrap(few)[1], low)  # the seed fixes the resamples


def test_consistent_heads_exclude_0_and_reach_the_threshold():
    mean, low, high = bootstrap(made_up_effects(30))
    heads = {"cross": {"mean": mean.tolist(), "low": low.tolist(), "high": high.tolist()}}
    found = consistent(heads, threshold=0.1)
    assert [(h["kind"], h["layer"], h["head"]) for h in found] == [("cross", 0, 0)]  # −0.3 is below the threshold
    assert consistent(heads, threshold=0.6) == []


def test_summarise_writes_the_logs_shape_and_averages_only_kept_pairs():
    grids = made_up_effects(4)
    entries = [{"clean": f"He {i}.", "corrupt": f"She {i}.", "kept": True, "heads": {"cross": grids[i].tolist()}}
               for i in range(3)]
    entries.append({"clean": "He x.", "corrupt": "She x.", "kept": False, "reason": "writes 我 / 你"})
    for entry in entries[:3]:
        entry |= {"target": "他", "foil": "她"}
    found = summarise("pronoun", STUDIES["en"]["pronoun"], entries)
    assert (found["tried"], found["kept"], found["seed"], found["resamples"]) == (4, 3, patching_study.SEED, 1000)
    assert found["kind"] == "pronoun" and found["couples"] == [["他", "她"]]
    assert found["threshold"] == patching_study.THRESHOLD
    assert np.allclose(found["heads"]["cross"]["mean"], grids[:3].mean(axis=0), atol=1e-4)
    assert set(found["heads"]["cross"]) == {"mean", "low", "high"}
    assert found["pairs"][3]["kept"] is False
    assert summarise("pronoun", STUDIES["en"]["pronoun"], entries[3:])["heads"] == {}


@pytest.mark.parametrize("kind", patching_study.KINDS)
def test_each_direction_has_at_least_20_pairs_of_each_kind_one_token_apart(kind, translator, zh_translator):
    for tr in (translator, zh_translator):
        pairs = STUDIES[tr.config.source_language][kind]["pairs"]
        assert len(pairs) >= 20 and len(set(pairs)) == len(pairs)
        vocab = set(tr.tgt_tok.tokens(range(tr.tgt_tok.vocab_size)))
        for clean, corrupt, target, foil in pairs:
            a, b = tr.prepare(clean)[1], tr.prepare(corrupt)[1]
            assert len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1, (clean, corrupt)
            assert target != foil and {target, foil} <= vocab, (target, foil)


def test_a_pair_whose_target_the_model_does_not_write_is_dropped(translator):
    kept = one_pair(translator, "He bought a book.", "She bought a book.", "他", "她")
    assert kept["kept"] and set(kept["heads"]) == {"encoder_self", "decoder_self", "cross"}
    assert np.asarray(kept["heads"]["cross"]).shape == (translator.config.n_decoder_layers, translator.config.n_heads)
    wrong = one_pair(translator, "I like cats.", "I like dogs.", "他", "她")  # writes 猫 / 狗 where they part
    assert not wrong["kept"] and "heads" not in wrong and wrong["reason"].startswith("writes ")
    same = one_pair(translator, "He is tired.", "He is tired.", "他", "她")
    assert not same["kept"] and same["reason"]


PRONOUNS = {
    "kind": "pronoun", "name": "pronoun He → She", "couples": [["他", "她"]], "tried": 3, "kept": 2, "pairs": [],
    "threshold": 0.1, "resamples": 1000, "seed": 12345,
    "heads": {"cross": {"mean": [[0.5, 0.0]], "low": [[0.4, -0.1]], "high": [[0.6, 0.1]]}},
    "consistent": [{"kind": "cross", "layer": 0, "head": 0, "mean": 0.5, "low": 0.4, "high": 0.6}]}
ADJECTIVES = {**PRONOUNS, "kind": "adjective", "name": "adjective", "couples": [["累", "饿"], ["热", "冷"]],
              "tried": 30, "kept": 0, "heads": {}, "consistent": []}
MADE_UP = {"patching_study": {"pronoun": PRONOUNS}}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_view_of_a_made_up_log_names_the_consistent_heads_and_intervals(lang):
    with in_language(lang):
        (shown,) = patching_study_view.view(MADE_UP, "checkpoints/en-zh")
        kind = patching_study_view.t("patching.kind.cross")
    assert "2" in shown.title and "3" in shown.lines[0] and "1,000" in shown.lines[0]
    assert kind in shown.lines[1] and "0.50" in shown.lines[1] and "0.40" in shown.lines[1]
    hovers = shown.chart.figure.data[1].hovertext
    assert len(hovers) == 2 and "0.40" in hovers[0] and "0.60" in hovers[0] and "-0.10" in hovers[1]
    assert list(shown.chart.figure.data[0].z[0]) == [0.5, 0.0]
    assert ("Cross-attention" in shown.lines[1]) == (lang == "en")
    with in_language(lang):
        (none,) = patching_study_view.view({"patching_study": {"pronoun": {**PRONOUNS, "consistent": []}}}, "x")
    assert "0.10" in none.lines[1] and kind not in none.lines[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_kind_of_pair_has_its_own_view_naming_its_couples(lang):
    with in_language(lang):
        pronouns, adjectives = patching_study_view.view({"patching_study": {"pronoun": PRONOUNS,
                                                                             "adjective": ADJECTIVES}}, "x")
    said = strings(lang)
    assert (pronouns.kind, adjectives.kind) == ("pronoun", "adjective")
    assert said["patching.study.short.adjective"] in adjectives.title and "0" in adjectives.title
    assert said["patching.study.kind.adjective"] in adjectives.lines[0]
    assert said["patching.study.couple"].format(target="累", foil="饿") in adjectives.lines[0]
    assert said["patching.study.couples_sep"] + said["patching.study.couple"].format(target="热", foil="冷") \
        in adjectives.lines[0] and "30" in adjectives.lines[0]
    assert adjectives.chart is None and adjectives.lines[1] == said["patching.study.empty"]
    assert pronouns.chart.name != "patching_study_adjective.csv"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_checkpoint_without_the_study_gives_the_command(lang):
    with in_language(lang):
        (shown,) = patching_study_view.view({"steps": 10}, "checkpoints/zh-en")
    assert shown.chart is None
    assert "python -m evaluation.patching_study --checkpoint checkpoints/zh-en" in shown.lines[0]


def test_a_words_start_mark_is_not_shown():
    study = {**PRONOUNS, "couples": [["▁He", "▁She"]]}
    (shown,) = patching_study_view.view({"patching_study": {"pronoun": study}}, "x")
    assert "He" in shown.lines[0] and "▁" not in shown.lines[0]


@pytest.mark.parametrize("checkpoint", ["en-zh", "zh-en"])
def test_the_findings_show_each_models_logged_study(checkpoint):
    if checkpoint == "zh-en" and not (ZH_CHECKPOINT / "model.safetensors").is_file():
        pytest.skip(f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")
    log = read_training_log(ROOT / "checkpoints" / checkpoint)
    assert "patching_study" in log, f"python -m evaluation.patching_study --checkpoint checkpoints/{checkpoint}"
    assert list(log["patching_study"]) == list(patching_study.KINDS)
    for kind, study in log["patching_study"].items():
        assert study["kind"] == kind and study["kept"] == sum(p["kept"] for p in study["pairs"])
        assert study["kept"] >= 20, f"{kind}: fewer than 20 pairs the model gets right"
        assert all(len(g["mean"]) * len(g["mean"][0]) for g in study["heads"].values())
    findings = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    lines = patching_figures.rows(log, checkpoint)
    assert len(lines) == len(patching_study.KINDS)
    for line in lines:
        assert line in findings, (f"docs/findings.md lacks (python -m evaluation.patching_figures --checkpoint "
                                  f"checkpoints/{checkpoint}): {line}")
    assert "is not measured\nyet" not in findings


@pytest.mark.parametrize("model, lang", [("en-zh", "en"), ("zh-en", "zh")])
def test_the_page_shows_the_study_under_the_pairs_grids(model, lang):
    at = open_page("patching", lang=lang, **{state_keys.CHECKPOINT: model})
    assert not at.exception, [e.message for e in at.exception]
    said = strings(lang)
    for kind, study in read_training_log(ROOT / "checkpoints" / model)["patching_study"].items():
        title = said["patching.study.title"].format(n=study["kept"], kind=said[f"patching.study.short.{kind}"])
        assert title in [e.label for e in at.expander]
        assert f"patching.chart.study.{kind}" in [chart.key for chart in at.get("plotly_chart")]
