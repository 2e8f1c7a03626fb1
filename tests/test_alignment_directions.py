"""The gold alignments in both directions (evaluation/alignment/directions.py): an English → Chinese model scores the
gold links as they stand, a Chinese → English model the same links turned round; English target words made of
several pieces are their rows averaged. Hand-worked cases, and the shipped en-zh model's figures equal its log's."""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pytest

from evaluation.alignment.directions import (attention_scores, directed, pair_maps, transpose, unit_rows,
                                             unit_weights)
from evaluation.alignment.gold import gold_pair, load_gold
from lessons.explanation import argmax_links
from tests.support.paths import CHECKPOINT

# "We read books." — "我们读书。": We↔我们, read↔读, books↔书, .↔。 (and a possible We~读 to test both kinds).
PAIR = gold_pair(1, "We read books.", "我们读书。", "0-0 0-1 1-2 2-3 3-4 0p2", "test")


@dataclass
class Result:
    """What attention_scores reads of a TranslationResult."""

    source_tokens: list
    output_tokens: list
    cross: np.ndarray


def one_hot(rows: list[int], keys: int) -> np.ndarray:
    """(1, 1, T, S): row t puts all its weight on key rows[t]."""
    return np.eye(keys)[rows][None, None]


def test_directed_keeps_or_turns_the_links_round():
    en = directed(PAIR, "en")
    assert (en.source, en.target, en.source_units, en.target_units) == (
        "We read books.", "我们读书。", ("We", "read", "books", "."), ("我", "们", "读", "书", "。"))
    assert en.sure == PAIR.sure and en.possible == PAIR.possible
    zh = directed(PAIR, "zh")
    assert (zh.source, zh.target, zh.source_units, zh.target_units) == (
        "我们读书。", "We read books.", ("我", "们", "读", "书", "。"), ("We", "read", "books", "."))
    assert zh.sure == {(0, 0), (1, 0), (2, 1), (3, 2), (4, 3)} and zh.possible == {(2, 0)}
    assert transpose(zh.sure) == PAIR.sure
    assert transpose(transpose(PAIR.sure)) == PAIR.sure
    with pytest.raises(ValueError, match="English–Chinese"):
        directed(PAIR, "fr")


def test_unit_rows_group_an_english_words_pieces_and_skip_space_tokens():
    assert unit_rows(["▁We", "▁read", "▁boo", "ks", ".", "</s>"], ("We", "read", "books", ".")) == [[0], [1], [2, 3],
                                                                                                  [4]]
    assert unit_rows(["我", "们", "▁", "读", "</s>"], ("我", "们", "读")) == [[0], [1], [3]]
    assert unit_rows(["▁Weread", "</s>"], ("We", "read")) is None  # one row cannot be split between two words
    assert unit_rows(["▁We", "<unk>", "</s>"], ("We", "read")) is None  # tokens spell other text
    assert unit_rows(["我们", "</s>"], ("我", "们")) is None


def test_unit_weights_average_a_units_rows_plain_and_shifted():
    w = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [0.2, 0.8]])
    np.testing.assert_allclose(unit_weights(w, [[0], [1, 2]]), [[1.0, 0.0], [0.25, 0.75]])
    np.testing.assert_allclose(unit_weights(w, [[0], [1, 2]], shift=True), [[0.0, 1.0], [0.35, 0.65]])


def both_directions() -> dict[str, Result]:
    """A perfect en-zh model, and a zh-en model that links every English word to one character of it."""
    en_zh = Result(["▁We", "▁read", "▁books", ".", "</s>"], ["我", "们", "读", "书", "。", "</s>"],
                   one_hot([0, 0, 1, 2, 3, 4], 5))
    zh_en = Result(["我", "们", "读", "书", "。", "</s>"], ["▁We", "▁read", "▁boo", "ks", ".", "</s>"],
                   one_hot([0, 2, 3, 3, 4, 5], 6))
    return {"en": en_zh, "zh": zh_en}


def test_both_directions_score_the_same_gold_by_hand():
    results = both_directions()
    scores = {lang: attention_scores(lambda source, target, r=results[lang]: r, [directed(PAIR, lang)])
              for lang in results}
    assert scores["en"]["heads_plain"] == [[0.0]]
    # zh-en links (character, word): 我-We, 读-read, 书-books, 。-. — 4 links, all sure, of 5 sure: 1 − 8/9.
    assert scores["zh"]["heads_plain"] == [[round(1 - 8 / 9, 3)]]
    assert scores["zh"]["source_language"] == "zh" and scores["zh"]["pairs"] == 1
    maps = pair_maps(results["zh"], directed(PAIR, "zh"))
    assert transpose(argmax_links(maps.plain[0, 0])) == {(0, 0), (1, 2), (2, 3), (3, 4)}  # (word, character)


def test_a_pair_whose_tokens_do_not_fit_is_skipped_not_scored():
    broken = Result(["我", "<unk>", "读", "书", "。", "</s>"], ["▁We", "▁read", "▁books", ".", "</s>"],
                    one_hot([0, 2, 3, 4, 5], 6))
    found = attention_scores(lambda *_: broken, [directed(PAIR, "zh")])
    assert found == {"pairs": 0, "gold_pairs": 1, "skipped": 1}


@pytest.mark.slow
def test_the_shipped_en_zh_model_scores_as_its_log_says(translator):
    """Computed live, the attention rows equal what python -m evaluation.alignment wrote to the log."""
    log = json.loads((CHECKPOINT / "training_log.json").read_text(encoding="utf-8"))["alignment"]
    found = attention_scores(translator.teacher_forced, [directed(p, "en") for p in load_gold()])
    assert (found["pairs"], found["skipped"]) == (log["pairs"], 0)
    for key in ("heads_plain", "heads_shifted", "layers_plain", "layers_shifted", "chosen"):
        assert found[key] == log[key], key


def test_the_zh_en_model_reads_the_gold_turned_round(zh_translator):
    """On the shipped Chinese → English model, most gold pairs fit its tokens and every figure is an AER."""
    gold = load_gold()[:30]
    found = attention_scores(zh_translator.teacher_forced, [directed(p, "zh") for p in gold])
    assert found["pairs"] >= 20 and found["source_language"] == "zh"
    assert all(0 <= x <= 1 for row in found["heads_plain"] + found["heads_shifted"] for x in row)
    assert 0 <= found["chosen"]["low"] <= found["chosen"]["aer"] <= found["chosen"]["high"] <= 1


def test_agreement_reads_the_side_of_the_dev_pairs_its_model_reads(tmp_path, monkeypatch):
    """python -m evaluation.agreement on a Chinese → English checkpoint translates the Chinese side of the dev pairs
    and says so in the log."""
    from evaluation import agreement
    from model import save_checkpoint
    from model.loading.checkpoint import read_training_log
    from tests.support.tiny import CHINESE, ENGLISH, tiny_chinese_translator

    zh = tiny_chinese_translator()
    folder = save_checkpoint(tmp_path / "zh-en", zh.model, zh.src_tok, zh.tgt_tok, training_log={})
    pairs = list(dict.fromkeys(zip(ENGLISH, CHINESE)))
    dev, train = tmp_path / "dev.tsv", tmp_path / "train.tsv"
    dev.write_text("".join(f"{e}\t{z}\n" for e, z in pairs), encoding="utf-8")
    train.write_text("Completely different words here.\t完全不同。\n", encoding="utf-8")
    read = []
    real = agreement.sentence_agreement
    monkeypatch.setattr(agreement, "sentence_agreement", lambda tr, s: read.append(s) or real(tr, s))
    assert agreement.main(["--checkpoint", str(folder), "--dev", str(dev), "--train", str(train),
                           "--sentences", "2"]) == 0
    assert read and set(read) <= set(CHINESE)
    assert read_training_log(folder)["agreement"]["source_language"] == "zh"
    assert agreement.source_side(("I love you.", "我爱你。"), "en") == "I love you."


def test_omissions_turned_round_delete_english_words_for_a_chinese_source():
    """evaluation.omissions on a Chinese-reading model: the content units are the source's characters, and an
    omission deletes the English words only that character links to."""
    from evaluation.omissions import content_words, without_word

    zh = directed(PAIR, "zh")  # 我们读书。 → We read books.
    assert content_words(zh) == [2, 3]  # 读, 书 (我, 们 are function characters; 。 is no letter)
    assert without_word(zh, 3) == "We read."  # books gone, the full stop attached
    assert without_word(zh, 2) == "We books."
    assert content_words(PAIR) == content_words(directed(PAIR, "en")) == [1, 2]  # read, books
    assert without_word(PAIR, 2) == "我们读。"
