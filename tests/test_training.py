"""The training loop trains: a tiny model learns a generated word→character task in seconds, and resumes."""

import json
import random

import numpy as np
import pytest
import torch

from model import TrainingLog, Translator
from model.loading.checkpoint import TRAINING_LOG
from model.training.schedule import learning_rate
from model.training.train import STATE, main

WORDS = dict(zip("red blue green cat dog big small sun".split(), "红蓝绿猫狗大小日"))


def write_task(path, n, seed):
    rng = random.Random(seed)
    words = list(WORDS)
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(n):
            sentence = rng.choices(words, k=rng.randint(1, 4))
            f.write(" ".join(sentence) + "\t" + "".join(WORDS[w] for w in sentence) + "\tgenerated\n")


# Vocabularies hold the 256 byte tokens and printable ASCII besides the words: 500 leaves room for whole words.
TINY = ["--d-model", "64", "--heads", "4", "--encoder-layers", "2", "--decoder-layers", "2", "--d-ff", "128",
        "--dropout", "0.0", "--max-len", "32", "--src-vocab", "500", "--tgt-vocab", "500", "--max-tokens", "150",
        "--warmup", "100", "--lr-factor", "0.3", "--eval-every", "100", "--final-beam", "1", "--amp", "off", "--threads", "1"]


PROBES = ["--probe", "red cat", "--probe", "big dog sun"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("train")
    write_task(tmp / "train.tsv", 600, seed=0)
    write_task(tmp / "dev.tsv", 40, seed=1)
    args = ["--train", str(tmp / "train.tsv"), "--dev", str(tmp / "dev.tsv"), "--out", str(tmp / "ck"),
            "--work-dir", str(tmp / "work"), "--average-last", "3", *PROBES, *TINY]
    assert main(args + ["--epochs", "10"]) == 0
    first = json.loads((tmp / "ck" / TRAINING_LOG).read_text())
    assert main(args + ["--epochs", "24"]) == 0  # the same command again resumes and continues
    return tmp, first


@pytest.mark.slow
def test_tiny_model_learns_the_task(trained):
    tmp, _ = trained
    log = json.loads((tmp / "ck" / TRAINING_LOG).read_text())
    assert log["dev"][0]["bleu"] < log["best"]["bleu"] and log["best"]["bleu"] > 75, log["dev"]
    translator = Translator.from_checkpoint(tmp / "ck", device="cpu")
    rows = [line.split("\t") for line in (tmp / "dev.tsv").read_text(encoding="utf-8").splitlines()]
    right = sum(translator.translate(en).translation == zh for en, zh, _ in rows)
    assert right >= 0.6 * len(rows), f"{right}/{len(rows)} exact"
    assert log["dev"][-1]["loss"] < log["dev"][0]["loss"]


@pytest.mark.slow
def test_training_resumes_from_its_state(trained):
    tmp, first = trained
    log = json.loads((tmp / "ck" / TRAINING_LOG).read_text())
    assert first["epochs"] == 10 and log["epochs"] == 24
    steps = [e["step"] for e in log["train"]]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)  # one continuous run, not a restart
    assert [e["epoch"] for e in log["dev"]] == [10, 24]


@pytest.mark.slow
def test_the_trainer_writes_its_log_and_python_m_cards_the_card(trained, tmp_path):
    """Training leaves weights, config, tokenizers and log, no model card; `python -m cards` writes both cards."""
    import shutil

    from cards.writer import main as write_cards_cli
    from model.loading.checkpoint import CARDS, CONFIG

    tmp, _ = trained
    assert (tmp / "ck" / TRAINING_LOG).is_file() and (tmp / "ck" / CONFIG).is_file()
    assert not [name for name in CARDS.values() if (tmp / "ck" / name).exists()]
    folder = tmp_path / "ck"
    shutil.copytree(tmp / "ck", folder)
    assert write_cards_cli([str(folder)]) == 0
    log = json.loads((folder / TRAINING_LOG).read_text())
    for name in CARDS.values():
        card = (folder / name).read_text(encoding="utf-8")
        assert card.startswith("# ") and f"{log['parameters']:,}" in card


@pytest.mark.slow
def test_the_trainer_steps_with_the_papers_adam_settings(trained):
    """What the "How it was trained" page states: β₁ = 0.9, β₂ = 0.98, ε = 1e-9 (§5.3), not PyTorch's defaults;
    read from the optimizer state the run saved."""
    tmp, _ = trained
    state = torch.load(tmp / "work" / STATE, map_location="cpu", weights_only=True)
    (group,) = state["optimizer"]["param_groups"]
    assert (group["betas"], group["eps"]) == ((0.9, 0.98), 1e-9)


def test_learning_rate_warms_up_then_decays_as_inverse_square_root():
    lrs = [learning_rate(s, 256, 1000, 1.0) for s in (1, 500, 1000, 4000)]
    assert lrs[0] < lrs[1] < lrs[2] and lrs[3] == pytest.approx(lrs[2] / 2)
    assert lrs[2] == pytest.approx(256**-0.5 * 1000**-0.5)


@pytest.mark.slow
def test_the_log_keeps_the_training_arguments_as_data(trained):
    """Pages read warm-up and label smoothing from here, never by re-parsing the command line."""
    tmp, _ = trained
    log = json.loads((tmp / "ck" / TRAINING_LOG).read_text())
    assert log["args"]["warmup"] == 100 and log["args"]["lr_factor"] == 0.3 and log["args"]["d_model"] == 64
    assert log["args"]["epochs"] == 24  # the latest (resumed) command's


@pytest.mark.slow
def test_dev_scores_use_the_apps_decoding(trained):
    """Training's dev BLEU is computed from the same translations the app shows for those sentences."""
    from model.training.train import dev_scores

    tmp, _ = trained
    translator = Translator.from_checkpoint(tmp / "ck", device="cpu")
    rows = [line.split("\t")[:2] for line in (tmp / "dev.tsv").read_text(encoding="utf-8").splitlines()]
    scores = dev_scores(translator.model, translator.src_tok, translator.tgt_tok, rows, dedup=[0, 1, 2])
    assert scores["samples"] == [translator.translate(en).translation for en, _ in rows[:3]]
    assert scores["dedup_bleu"] is not None and 0 <= scores["dedup_bleu"] <= 100


@pytest.mark.slow
def test_checkpoint_averaging_is_scored_and_the_winner_shipped(trained):
    tmp, _ = trained
    log = json.loads((tmp / "ck" / TRAINING_LOG).read_text())
    assert log["average"]["epochs"] == [22, 23, 24] and log["average"]["bleu"] is not None
    assert len(list((tmp / "work" / "average").glob("epoch*.pt"))) == 3  # older epochs pruned
    assert log["shipped"].startswith("average") == (log["average"]["bleu"] > log["best"]["bleu"])


@pytest.mark.slow
def test_attention_snapshots_record_each_probe_through_training(trained):
    """Every map of every probe at each snapshot, float16 on disk, consistent with its tokens; resumed runs keep them."""
    from model.training.snapshots import SNAPSHOTS, read_snapshots

    tmp, _ = trained
    log = json.loads((tmp / "ck" / TRAINING_LOG).read_text())
    assert log["probes"] == ["red cat", "big dog sun"]
    steps = [s["step"] for s in log["snapshots"]]
    assert steps[0] == 0 and steps == sorted(steps) and log["steps"] == steps[-1]
    assert [s["epoch"] for s in log["snapshots"]] == [0, 1, 2, 10, 24]  # untrained, first epochs, evaluations
    snaps = read_snapshots(tmp / "ck", TrainingLog.from_dict(log))
    assert len(snaps) == len(steps)
    for snap in snaps:
        for probe in snap.probes:
            S, T = len(probe.source_tokens), len(probe.target_tokens)
            assert probe.attention("encoder_self").shape == (2, 4, S, S)
            assert probe.attention("decoder_self").shape == (2, 4, T, T)
            assert probe.attention("cross").shape == (2, 4, T, S)
            for kind in ("encoder_self", "decoder_self", "cross"):
                assert abs(probe.attention(kind).sum(-1) - 1).max() < 1e-2  # rows are softmax outputs (float16 on disk)
            assert np.triu(probe.attention("decoder_self"), 1).max() == 0  # the causal mask held
    assert snaps[-1].probes[0].translation == "红猫"  # the trained model translates its probe
    assert (tmp / "ck" / SNAPSHOTS).stat().st_size < 200_000


def test_token_dropout_hides_real_tokens_only():
    import torch

    from model.architecture.config import ModelConfig
    from model.training.train import drop_tokens

    config = ModelConfig(src_vocab_size=50, tgt_vocab_size=50)
    ids = torch.tensor([[2, 10, 11, 12, 13, 3, 0, 0]] * 500)
    torch.manual_seed(0)
    dropped = drop_tokens(ids, 0.25, config)
    real = ids > 3
    assert (dropped[~real] == ids[~real]).all()  # <pad>, <s>, </s> untouched
    share = (dropped[real] == config.unk_id).float().mean().item()
    assert 0.2 < share < 0.3
    assert (drop_tokens(ids, 0.0, config) == ids).all()


def test_dev_pairs_one_word_from_training_are_not_counted_as_unseen():
    from model.training.data import unlike_training

    train = [("Tom is happy.", "汤姆很开心。"), ("I like tea.", "我喜欢茶。")]
    dev = [
        ("Tom is sad.", "汤姆很难过。"),  # one word substituted
        ("Tom is very happy!", "汤姆非常开心。"),  # one word added (punctuation does not count)
        ("I like.", "我喜欢。"),  # one word removed
        ("tom is HAPPY", "汤姆很快乐"),  # the same words
        ("Where is my tea?", "我喜欢茶。"),  # the Chinese of a training pair
        ("Tom is a happy man.", "汤姆是个快乐的人。"),  # two words away: a new sentence
        ("Birds build nests.", "鸟儿筑巢。"),
    ]
    assert unlike_training(dev, train) == [5, 6]


@pytest.mark.slow
def test_the_recipe_study_scores_runs_alike_and_fills_the_model_card(trained, tmp_path):
    import shutil

    from model.loading.checkpoint import CARD, CARDS
    from evaluation.study import main as study

    tmp, _ = trained
    variant = tmp_path / "variant"
    shutil.copytree(tmp / "ck", variant)
    log = json.loads((variant / TRAINING_LOG).read_text())
    log["args"]["token_dropout"] = 0.2  # as if trained with another recipe: the row must name the difference
    (variant / TRAINING_LOG).write_text(json.dumps(log))
    into = tmp_path / "shipped"
    shutil.copytree(tmp / "ck", into)
    assert study(["--train", str(tmp / "train.tsv"), "--dev", str(tmp / "dev.tsv"),
                  "--group", str(tmp / "ck"), str(variant), "--into", str(into)]) == 0
    rows = json.loads((into / TRAINING_LOG).read_text())["study"]
    assert [r["changes"] for r in rows] == ["reference", "token_dropout=0.2"]
    assert rows[0]["bleu"] == rows[1]["bleu"]  # the same weights decode the same way
    card = (into / CARD).read_text()
    assert "## Recipe study" in card and "| token_dropout=0.2 |" in card and "+0.00 | no clear effect |" in card
    card_zh = (into / CARDS["zh"]).read_text()
    assert "| token_dropout=0.2 |" in card_zh and "+0.00 | 无明显影响 |" in card_zh


@pytest.mark.slow
def test_the_study_scores_the_held_out_half_apart_and_appends(trained, tmp_path):
    import shutil

    from model.loading.checkpoint import CARD, CARDS
    from model.training.data import read_pairs, split_dev
    from evaluation.study import main as study

    tmp, _ = trained
    into = tmp_path / "shipped"
    shutil.copytree(tmp / "ck", into)
    args = ["--train", str(tmp / "train.tsv"), "--dev", str(tmp / "dev.tsv"), "--into", str(into)]
    assert study(args + ["--group", str(tmp / "ck")]) == 0
    assert study(args + ["--group", str(tmp / "ck"), "--test-split", "--append", "--finding", "Round 2.",
                         "--finding-zh", "第 2 轮。"]) == 0
    log = json.loads((into / TRAINING_LOG).read_text())
    assert [r["group"] for r in log["study"]] == [1, 2]
    assert "test_bleu" not in log["study"][0] and log["study"][1]["scored_on"] == "selection half"
    _, test = split_dev(read_pairs(tmp / "dev.tsv"))
    assert log["test"]["pairs"] == len(test) and log["test"]["beam"] >= 1 and "tok:zh" in log["test"]["bleu_signature"]
    card = (into / CARD).read_text()
    assert f"| {log['study'][1]['test_bleu']} |" in card and "- Round 2." in card
    assert "## Held-out test half" in card and str(log["test"]["bleu"]) in card
    assert log["test"]["untouched"] is False and "chosen on all of dev.tsv" in card  # trained without --test-split
    card_zh = (into / CARDS["zh"]).read_text()  # the same table and findings in Chinese
    assert f"| {log['study'][1]['test_bleu']} |" in card_zh and "- 第 2 轮。" in card_zh and "## 留出测试半集" in card_zh


@pytest.mark.slow
def test_a_run_scored_on_another_machine_joins_the_study_by_its_recorded_row(trained, tmp_path):
    """A lent GPU trains and scores runs whose weights cannot all come back: their logs carry their rows."""
    import shutil

    from evaluation.study import main as study

    tmp, _ = trained
    args = ["--train", str(tmp / "train.tsv"), "--dev", str(tmp / "dev.tsv"), "--test-split"]
    away = tmp_path / "g-away"
    shutil.copytree(tmp / "ck", away)
    log = json.loads((away / TRAINING_LOG).read_text())
    log["args"]["dropout"] = 0.3
    (away / TRAINING_LOG).write_text(json.dumps(log))
    assert study(args + ["--group", str(away), "--into", str(away)]) == 0  # what the GPU machine ran
    scored_there = json.loads((away / TRAINING_LOG).read_text())["study"][0]
    (away / "model.safetensors").unlink()  # only its log came back
    into = tmp_path / "shipped"
    shutil.copytree(tmp / "ck", into)
    assert study(args + ["--group", str(tmp / "ck"), str(away), "--into", str(into)]) == 0
    rows = json.loads((into / TRAINING_LOG).read_text())["study"]
    assert rows[1]["test_bleu"] == scored_there["test_bleu"] and rows[1]["bleu"] == scored_there["bleu"]
    assert rows[1]["changes"] == "dropout=0.3" and scored_there["changes"] == "reference"
    (away / TRAINING_LOG).write_text(json.dumps({**log, "study": []}))  # neither weights nor a row: say so
    with pytest.raises(SystemExit, match="no model.safetensors"):
        study(args + ["--group", str(tmp / "ck"), str(away), "--into", str(into)])


@pytest.mark.slow
def test_the_same_file_trains_the_other_direction(tmp_path):
    """--direction zh-en: the same english<TAB>chinese file, read Chinese first; characters in, words out."""
    write_task(tmp_path / "train.tsv", 600, seed=0)
    write_task(tmp_path / "dev.tsv", 40, seed=1)
    args = ["--train", str(tmp_path / "train.tsv"), "--dev", str(tmp_path / "dev.tsv"), "--out", str(tmp_path / "ck"),
            "--work-dir", str(tmp_path / "work"), "--direction", "zh-en", "--epochs", "16", *TINY]
    assert main(args) == 0
    log = json.loads((tmp_path / "ck" / TRAINING_LOG).read_text())
    translator = Translator.from_checkpoint(tmp_path / "ck", device="cpu")
    assert (translator.config.source_language, translator.config.target_language) == ("zh", "en")
    assert "tok:13a" in log["best"]["bleu_signature"] and log["probes"][0] == "我有一个梦想。"
    result = translator.translate("红猫", beam=1)
    assert result.source_tokens == ["红", "猫", "</s>"] and result.target_tokens[0] == "<s>"
    assert log["best"]["bleu"] > 30, log["dev"]  # it learned characters → words, scored on words


@pytest.mark.slow
def test_max_steps_stops_at_the_step_count_whatever_the_clock(tmp_path):
    """An arm's compute is a shipped run's steps (--max-steps), so a machine shared with other work trains it as far."""
    write_task(tmp_path / "train.tsv", 300, seed=0)
    args = ["--train", str(tmp_path / "train.tsv"), "--out", str(tmp_path / "ck"), "--work-dir", str(tmp_path / "w"),
            "--epochs", "50", "--max-minutes", "60", "--max-steps", "25", *TINY]
    assert main(args) == 0
    log = json.loads((tmp_path / "ck" / TRAINING_LOG).read_text())
    assert log["steps"] == 25 and log["epochs"] < 50
