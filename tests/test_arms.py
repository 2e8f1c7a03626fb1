"""evaluation.arms: the newer pairs leave out what training holds; a gain is the arm's BLEU minus the baseline's."""

import random

from evaluation.arms import NEWER, compare, newer_pairs, unseen_test_half
from model.training.backtranslation.testsets import Tree
from model.training.data import split_dev
from tests.support.paths import ROOT

ENGLISH = ["Tom swims.", "I HAVE A DREAM.", "The sky is blue.", "Ｉｔ ｒａｉｎｓ．", "We ate rice."]
CHINESE = ["汤姆游泳。", "我有一个梦。", "天是蓝的。", "下雨了。", "我們吃了米飯。"]


def newer_tree(tmp_path):
    for extension, lines in (("eng", ENGLISH), ("cmn_Hans", CHINESE)):
        path = tmp_path / f"{NEWER}.{extension}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Tree(tmp_path)


def test_newer_pairs_leave_out_every_pair_with_a_side_in_training(tmp_path):
    train = [("i have a dream.", "我有一个梦想。"), ("Hello.", "天是蓝的。"), ("It rains.", "雨。"), ("Go.", "我们吃了米饭。")]
    pairs = newer_pairs(newer_tree(tmp_path), train)
    # case-folded English, full-width letters, traditional characters: each is the training sentence it folds to
    assert pairs == [("Tom swims.", "汤姆游泳。")]


def test_newer_pairs_are_written_as_the_corpus_is(tmp_path):
    pairs = newer_pairs(newer_tree(tmp_path), [])
    assert ("We ate rice.", "我们吃了米饭。") in pairs and len(pairs) == 5


def test_the_test_half_keeps_only_pairs_unlike_training():
    rng = random.Random(0)  # five random words each: no two sentences one word apart
    words = [f"w{i}" for i in range(500)]
    dev = [(" ".join(rng.sample(words, 5)) + ".", f"第{i}句。") for i in range(60)]
    train = dev[::3]
    test = unseen_test_half(dev, train)
    assert test == [pair for pair in split_dev(dev)[1] if pair not in train]
    assert test and not set(test) & set(train)


def test_the_baseline_against_itself_gains_nothing():
    folder = ROOT / "checkpoints" / "en-zh"
    sets = {"tiny": [("I have a dream.", "我有一个梦想。"), ("Tom is tired.", "汤姆累了。")]}
    result = compare([folder, folder], sets, "en-zh", say=lambda line: None)
    row = result[str(folder)]
    assert row["tiny"] == {"bleu": row["tiny"]["bleu"], "chrf": row["tiny"]["chrf"], "gain": 0.0, "low": 0.0, "high": 0.0}
    assert len(row["everyday"]) == 10
