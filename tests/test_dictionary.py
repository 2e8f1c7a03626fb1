"""CC-CEDICT training pairs (model.dictionary) and the held-out test split (model.data.split_dev)."""

import random

from model.training import dictionary
from model.training.data import split_dev
from model.training.dictionary import Entry

ENTRIES = [
    Entry("猫", "mao1", ("cat", "CL:隻|只[zhi1]")),
    Entry("喵星人", "miao1 xing1 ren2", ("cat (Internet slang)",)),
    Entry("狐狸", "hu2 li5", ("fox", "fig. sly and treacherous person")),
    Entry("狐", "hu2", ("fox",)),
    Entry("了去了", "liao3 qu4 le5", ("(coll.) very", "extremely")),
    Entry("北京", "Bei3 jing1", ("Beijing",)),  # a proper noun: capitalised pinyin
    Entry("跑", "pao3", ("to run",)),
    Entry("多义", "duo1 yi4", ("a", "b", "c", "d")),  # four senses: ambiguous
    Entry("爱丽丝", "Ai4 li4 si1", ("Alice (name)",)),
    Entry("鲍勃", "Bao4 bo2", ("Bob (name)",)),
]
TRAIN = [("Tom runs.", "汤姆跑。"), ("The cat is here.", "猫在这里。"), ("Is Tom a cat?", "汤姆是猫吗？")] + [
    ("I run.", "我跑。")] * 3


def test_word_pairs_keep_plain_glosses_of_words_training_lacks():
    pairs = dict(dictionary.word_pairs(ENTRIES, TRAIN, limit=100))
    assert pairs["fox"] == "狐"  # one per English word: the commonest characters, then the shorter word
    assert "cat" in pairs and pairs["cat"] == "猫"  # slang (喵星人) never chosen
    assert "run" not in pairs  # "run" is in training 3 times: Tatoeba's context beats a gloss
    assert "very" not in pairs and "beijing" not in pairs and "a" not in pairs
    assert len(dictionary.word_pairs(ENTRIES, TRAIN, limit=1)) == 1


def test_names_swap_tom_for_known_or_invented_names():
    names = dictionary.cedict_names(ENTRIES)
    assert names == [("Alice", "爱丽丝"), ("Bob", "鲍勃")]
    pairs = dictionary.name_pairs(TRAIN, names, 200, seed=3)
    assert len(pairs) == 200
    for en, zh in pairs:
        assert "Tom" not in en and "汤姆" not in zh
    known = [(en, zh) for en, zh in pairs if "Alice" in en or "Bob" in en]
    assert known and all(("爱丽丝" in zh) == ("Alice" in en) for en, zh in known)
    invented = [(en, zh) for en, zh in pairs if (en, zh) not in known]
    assert invented  # copied through in Latin letters
    for en, zh in invented:
        name = next(w.strip("?.") for w in en.split() if w[0].isupper() and w not in ("Is", "The"))
        assert name in zh
    assert pairs == dictionary.name_pairs(TRAIN, names, 200, seed=3)  # reproducible


def test_held_out_names_never_reach_training():
    names = [(f"Name{i}", "名字") for i in range(50)]
    held = {n for n, _ in names if dictionary.held_out_name(n)}
    assert 0 < len(held) < len(names)
    pairs = dictionary.name_pairs(TRAIN, names, 300, seed=0)
    used = {w.strip("?.") for en, _ in pairs for w in en.split()}
    assert not held & used


def test_invented_names_look_like_names():
    rng = random.Random(0)
    for _ in range(50):
        name = dictionary.invented_name(rng)
        assert name[0].isupper() and name[1:].islower() and 4 <= len(name) <= 7


def test_split_dev_is_stable_disjoint_and_keeps_one_sentence_on_one_side():
    pairs = [(f"Sentence {i}.", f"句{i}。") for i in range(400)] + [("sentence 7.", "另一句。")]
    select, test = split_dev(pairs)
    assert len(select) + len(test) == len(pairs)
    assert 150 < len(test) < 250
    assert (select, test) == split_dev(list(pairs))
    side = {en.lower(): ("s" if (en, zh) in select else "t") for en, zh in pairs[:400]}
    assert (("sentence 7.", "另一句。") in test) == (side["sentence 7."] == "t")
