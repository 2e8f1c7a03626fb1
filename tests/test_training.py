"""The training loop trains: a tiny model learns a generated word→character task in seconds, and resumes."""

import json
import random

import pytest

from model import Translator
from model.checkpoint import TRAINING_LOG
from model.schedule import learning_rate
from model.train import main

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


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("train")
    write_task(tmp / "train.tsv", 600, seed=0)
    write_task(tmp / "dev.tsv", 40, seed=1)
    args = ["--train", str(tmp / "train.tsv"), "--dev", str(tmp / "dev.tsv"), "--out", str(tmp / "ck"),
            "--work-dir", str(tmp / "work"), *TINY]
    assert main(args + ["--epochs", "10"]) == 0
    first = json.loads((tmp / "ck" / TRAINING_LOG).read_text())
    assert main(args + ["--epochs", "24"]) == 0  # the same command again resumes and continues
    return tmp, first


def test_tiny_model_learns_the_task(trained):
    tmp, _ = trained
    log = json.loads((tmp / "ck" / TRAINING_LOG).read_text())
    assert log["dev"][0]["bleu"] < log["best"]["bleu"] and log["best"]["bleu"] > 75, log["dev"]
    translator = Translator.from_checkpoint(tmp / "ck", device="cpu")
    rows = [line.split("\t") for line in (tmp / "dev.tsv").read_text(encoding="utf-8").splitlines()]
    right = sum(translator.translate(en).translation == zh for en, zh, _ in rows)
    assert right >= 0.6 * len(rows), f"{right}/{len(rows)} exact"
    assert log["dev"][-1]["loss"] < log["dev"][0]["loss"]


def test_training_resumes_from_its_state(trained):
    tmp, first = trained
    log = json.loads((tmp / "ck" / TRAINING_LOG).read_text())
    assert first["epochs"] == 10 and log["epochs"] == 24
    steps = [e["step"] for e in log["train"]]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)  # one continuous run, not a restart
    assert [e["epoch"] for e in log["dev"]] == [10, 24]


def test_learning_rate_warms_up_then_decays_as_inverse_square_root():
    lrs = [learning_rate(s, 256, 1000, 1.0) for s in (1, 500, 1000, 4000)]
    assert lrs[0] < lrs[1] < lrs[2] and lrs[3] == pytest.approx(lrs[2] / 2)
    assert lrs[2] == pytest.approx(256**-0.5 * 1000**-0.5)


def test_the_log_keeps_the_training_arguments_as_data(trained):
    """Pages read warm-up and label smoothing from here, never by re-parsing the command line."""
    tmp, _ = trained
    log = json.loads((tmp / "ck" / TRAINING_LOG).read_text())
    assert log["args"]["warmup"] == 100 and log["args"]["lr_factor"] == 0.3 and log["args"]["d_model"] == 64
    assert log["args"]["epochs"] == 24  # the latest (resumed) command's


def test_dev_scores_use_the_apps_decoding(trained):
    """Training's dev BLEU is computed from the same translations the app shows for those sentences."""
    from model.train import dev_scores

    tmp, _ = trained
    translator = Translator.from_checkpoint(tmp / "ck", device="cpu")
    rows = [line.split("\t")[:2] for line in (tmp / "dev.tsv").read_text(encoding="utf-8").splitlines()]
    scores = dev_scores(translator.model, translator.src_tok, translator.tgt_tok, rows)
    assert scores["samples"] == [translator.translate(en).translation for en, _ in rows[:3]]
