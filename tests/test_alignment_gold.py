"""Gold word alignments (evaluation/alignment/): the loader, the arithmetic that scores attention against them by
hand-worked cases, the IBM Model 1 baseline, and the gold set itself (in range, unseen, no sentence committed)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from evaluation.alignment.gold import (GOLD, PAIRS, GoldError, english_words, load_examples, load_gold, pair_hash,
                                       parse_links)
from evaluation.alignment.ibm1 import Model1
from evaluation.alignment.directions import unit_rows
from lessons.explanation import (aer_counts, aer_interval, alignment_rows, corpus_aer, cross_validated_choice,
                                 pooled_aer, token_words, word_weights)
from model import Alignment
from tests.support.paths import DEV, TRAIN, needs_dev


def test_english_words_keep_apostrophes_and_split_punctuation():
    assert english_words("Don't  you think so, Mr. Smith?") == ["Don't", "you", "think", "so", ",", "Mr", ".",
                                                                "Smith", "?"]


def test_source_tokens_map_to_words_and_weights_add_up():
    tokens = ["▁Don", "'", "t", "▁you", "?", "</s>"]
    assert token_words(tokens, ["Don't", "you", "?"]) == [0, 0, 0, 1, 2, -1]
    w = np.array([[0.1, 0.2, 0.3, 0.1, 0.2, 0.1]])
    np.testing.assert_allclose(word_weights(w, [0, 0, 0, 1, 2, -1], 3), [[0.6, 0.1, 0.2]])  # </s> dropped
    with pytest.raises(ValueError, match="not the same text"):
        token_words(tokens, ["Do", "you", "?"])


def test_corpus_aer_pools_the_links_of_every_pair_by_hand():
    # pair 0: A = {(0,0)}, S = {(0,0)}; pair 1: A = {(1,0), (0,1)}, S = {(0,0)}, P = {(1,0)}.
    # pooled: |A| = 3, |S| = 2, |A∩S| = 1, |A∩P| = 2 → AER = 1 − 3/5 = 0.4 (pair 1 alone: 1 − 1/3).
    aer = corpus_aer([{(0, 0)}, {(1, 0), (0, 1)}], [{(0, 0)}, {(0, 0)}], [set(), {(1, 0)}])
    assert aer == pytest.approx(0.4)


def test_parse_links_and_sure_beats_possible():
    assert parse_links("0-1 2p3 0p1") == ({(0, 1)}, {(2, 3)})
    with pytest.raises(GoldError):
        parse_links("0:1")


def write_dev(tmp_path, english="We read books.", chinese="我们读书。"):
    dev = tmp_path / "dev.tsv"
    dev.write_text(f"Hello.\t你好。\n{english}\t{chinese}\n", encoding="utf-8")
    return dev


def test_loader_joins_line_numbers_with_the_dev_file(tmp_path):
    dev = write_dev(tmp_path)
    gold = tmp_path / "gold.tsv"
    gold.write_text(f"# header\n2\t{pair_hash('We read books.', '我们读书。')}\t0-0 0-1 1-2 2-3 2p2 3-4\n")
    (pair,) = load_gold(dev, gold)
    assert pair.line == 2 and pair.words == ("We", "read", "books", ".") and pair.chars == tuple("我们读书。")
    assert pair.sure == {(0, 0), (0, 1), (1, 2), (2, 3), (3, 4)} and pair.possible == {(2, 2)}


def test_loader_refuses_a_changed_pair(tmp_path):
    gold = tmp_path / "gold.tsv"
    gold.write_text(f"2\t{pair_hash('We read books.', '我们读书。')}\t0-0\n")
    with pytest.raises(GoldError, match="changed"):
        load_gold(write_dev(tmp_path, chinese="我们看书。"), gold)


def test_loader_refuses_a_link_outside_the_sentence(tmp_path):
    gold = tmp_path / "gold.tsv"
    gold.write_text(f"2\t{pair_hash('We read books.', '我们读书。')}\t4-0\n")
    with pytest.raises(GoldError, match="outside"):
        load_gold(write_dev(tmp_path), gold)


def test_model1_learns_which_character_a_word_translates():
    pairs = [(["cat"], list("猫")), (["big", "cat"], list("大猫")), (["big", "dog"], list("大狗")), (["dog"], list("狗"))]
    model = Model1(pairs, iterations=10)
    assert model.prob("cat", "猫") > 0.9 and model.prob("big", "大") > model.prob("big", "猫")
    assert model.links(["big", "cat"], list("大猫")) == {(0, 0), (1, 1)}


def test_alignment_rows_pick_the_best_heads_and_keep_every_layer():
    found = {"heads_plain": [[0.5, 0.4], [0.3, 0.6]], "heads_shifted": [[0.9, 0.2], [0.8, 0.7]],
             "layers_plain": [0.5, 0.4], "layers_shifted": [0.8, 0.7],
             "chosen": {"aer": 0.35, "low": 0.3, "high": 0.4, "picked": []},
             "integrated_gradients": {"aer": 0.3, "low": 0.25, "high": 0.35},
             "attribution": {"aer": 0.45, "low": 0.4, "high": 0.5}, "baseline": {"aer": 0.2, "low": 0.15, "high": 0.25}}
    rows = alignment_rows(Alignment.from_dict(found), best=2)
    assert [(r.kind, r.aer, r.low) for r in rows[:4]] == [
        ("chosen", 0.35, 0.3), ("integrated_gradients", 0.3, 0.25), ("attribution", 0.45, 0.4), ("baseline", 0.2, 0.15)]
    assert [(r.kind, r.layer, r.head, r.aer) for r in rows[4:7]] == [
        ("head_plain", 1, 0, 0.3), ("head_plain", 0, 1, 0.4), ("head_shifted", 0, 1, 0.2)]
    assert [r.aer for r in rows[7:]] == [0.5, 0.4, 0.8, 0.7]
    # Figures measured on the page have no attribution nor baseline: those rows are left out, not empty.
    live = {k: v for k, v in found.items() if k not in ("integrated_gradients", "attribution", "baseline")}
    assert [r.kind for r in alignment_rows(Alignment.from_dict(live), best=2)[:2]] == ["chosen", "head_plain"]


def test_aer_counts_pool_as_corpus_aer_and_resample_by_pair():
    links, sure, possible = [{(0, 0)}, {(1, 0), (0, 1)}], [{(0, 0)}, {(0, 0)}], [set(), {(1, 0)}]
    counts = aer_counts(links, sure, possible)
    assert counts.tolist() == [[1, 1, 1, 1], [0, 1, 2, 1]]
    assert pooled_aer(counts) == pytest.approx(corpus_aer(links, sure, possible)) == pytest.approx(0.4)
    # Resamples that draw pair 0 twice, pair 1 twice: AERs 0 and 1 − 1/3.
    np.testing.assert_allclose(pooled_aer(counts[np.array([[0, 0], [1, 1]])]), [0.0, 1 - 1 / 3])
    assert aer_interval(counts, np.array([[0, 0], [1, 1], [0, 1]])) == pytest.approx(
        tuple(np.percentile([0.0, 2 / 3, 0.4], [2.5, 97.5])))


def test_cross_validated_choice_never_sees_the_fold_it_scores():
    # Aligner "a" is perfect on fold 0 and wrong on fold 1, "b" the other way round: chosen on the other fold,
    # each fold gets the aligner that is wrong on it, so the cross-validated AER is 1 where the in-sample best is 0.5.
    right, wrong = [1, 1, 1, 1], [0, 0, 1, 1]
    candidates = {"a": [right, wrong], "b": [wrong, right]}
    rows, chosen = cross_validated_choice(candidates, [0, 1])
    assert chosen == ["b", "a"] and rows == [wrong, wrong]
    assert pooled_aer(rows) == 1.0 and min(pooled_aer(c) for c in candidates.values()) == 0.5


def test_gold_file_holds_line_numbers_hashes_and_links():
    rows = [r for r in GOLD.read_text(encoding="utf-8").splitlines() if r and not r.startswith("#")]
    assert len(rows) >= 150
    assert all(re.fullmatch(r"\d+\t[0-9a-f]{12}\t[0-9p\- ]+", r) for r in rows)
    assert len({r.split("\t")[1] for r in rows}) == len(rows)  # no pair twice


def test_the_shipped_pairs_are_exactly_the_golds_credited_each_with_its_attribution():
    """The corpus is never committed; the gold's own 150 pairs are (the evaluation set the app shows), each line with
    Tatoeba's attribution and the file with the credit line the corpus's terms ask for."""
    text = PAIRS.read_text(encoding="utf-8")
    assert any("Tatoeba (tatoeba.org), CC-BY 2.0 FR" in r for r in text.splitlines() if r.startswith("#"))
    rows = [r.split("\t") for r in text.splitlines() if r and not r.startswith("#")]
    gold_lines = [int(r.split("\t")[0]) for r in GOLD.read_text(encoding="utf-8").splitlines()
                  if r and not r.startswith("#")]
    assert [int(r[0]) for r in rows] == gold_lines  # no sentence beyond the gold's
    assert all(len(r) == 4 and r[3].startswith("CC-BY 2.0 (France) Attribution: tatoeba.org #") for r in rows)
    assert len(load_gold()) == len(gold_lines)  # every pair hashes as its gold line says


@needs_dev
def test_the_shipped_pairs_are_the_dev_sets_lines():
    assert load_gold() == load_gold(DEV)


def test_gold_file_credits_the_corpus_its_links_annotate():
    """The links are made on Tatoeba's pairs (CC-BY 2.0 FR): the file says so, as the corpus's terms ask."""
    header = [r for r in GOLD.read_text(encoding="utf-8").splitlines() if r.startswith("#")]
    assert any("Tatoeba (tatoeba.org), CC-BY 2.0 FR" in r for r in header)


def test_the_example_pairs_are_written_for_the_app_and_fit_the_shipped_model(translator):
    """The pairs drawn where the corpus is missing: valid links, a sure link in every pair, one decoder step per
    character (so a head's map lays over them), and none of them a corpus sentence (checked where the data is)."""
    examples = load_examples()
    assert len(examples) >= 5
    for pair in examples:
        assert pair.sure and all(0 <= i < len(pair.words) and 0 <= j < len(pair.chars)
                                 for i, j in pair.sure | pair.possible)
        result = translator.teacher_forced(pair.english, pair.chinese)
        rows = unit_rows(result.output_tokens, pair.chars)  # what the explanation page lays over a head's map
        assert rows is not None and all(len(r) == 1 for r in rows), pair.english
    if DEV.exists() and TRAIN.exists():
        corpus = {side.strip().lower() for path in (DEV, TRAIN) for line in path.read_text(encoding="utf-8").splitlines()
                  for side in line.split("\t")[:2]}
        assert not [p.english for p in examples if p.english.lower() in corpus or p.chinese in corpus]


@needs_dev
def test_every_gold_pair_loads_and_every_link_is_in_its_sentence():
    gold = load_gold(DEV)
    assert len(gold) >= 150
    for pair in gold:
        for i, j in pair.sure | pair.possible:
            assert 0 <= i < len(pair.words) and 0 <= j < len(pair.chars), (pair.line, i, j)
        assert pair.sure, pair.line


@needs_dev
@pytest.mark.skipif(not TRAIN.exists(), reason="the Tatoeba training set is not on this machine")
def test_gold_pairs_are_unseen_test_half_pairs():
    from model.training.data import read_pairs, split_dev, unlike_training

    gold = load_gold(DEV)
    pairs = [(p.english, p.chinese) for p in gold]
    train = read_pairs(TRAIN)
    assert not {en.lower() for en, _ in pairs} & {en.lower() for en, _ in train}
    assert unlike_training(pairs, train) == list(range(len(pairs)))  # not within one word of a training pair
    assert split_dev(pairs)[1] == pairs  # all in the test half: never used for a choice


def test_role_counts_and_labels_by_hand():
    from lessons.explanation import head_roles, role_counts, role_statistics

    # One layer, two heads over 3 tokens (self-attention). Head 0 looks at the previous token (row 0 at itself);
    # head 1 puts 0.8 of every row on token 2 (a sink: "</s>").
    prev = np.array([[1.0, 0, 0], [0.9, 0.1, 0], [0, 0.9, 0.1]])
    sink = np.array([[0.1, 0.1, 0.8]] * 3)
    counts = role_counts(np.stack([prev, sink])[None], [False, False, True], rare=1, self_attention=True)
    # [rows, argmax q−1, argmax q+1, weight on sinks, argmax on the rare token 1]
    np.testing.assert_allclose(counts[0, 0], [3, 2, 0, 0.1, 1])
    np.testing.assert_allclose(counts[0, 1], [3, 0, 1, 2.4, 0])  # row 1's argmax (2) is its next token
    stats = role_statistics(counts)
    labels, values = head_roles(stats)
    assert labels.tolist() == [["previous", "sink"]]
    np.testing.assert_allclose(values.astype(float), [[2 / 3, 0.8]])
    labels, values = head_roles({k: np.full((1, 2), 0.1) for k in stats}, aer=np.array([[0.40, 0.50]]))
    assert labels.tolist() == [["alignment", "mixed"]] and values[0, 0] == 0.40
