"""evaluation.omissions: the deliberate omissions it builds from a gold pair, and the per-word shares it scores.
The finding it measured (the averaged coverage flag catches almost no omission) is stated on Decoding's what-if;
tests/test_i18n_wording.py pins that wording."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evaluation.alignment.gold import GoldPair
from evaluation.omissions import content_words, rates, without_word, word_shares

# "The dog saw the cat ." → 狗看见了猫。 (the 了 possible-linked to "saw", 。 to ".")
PAIR = GoldPair(line=1, english="The dog saw the cat.", chinese="狗看见了猫。",
                words=("The", "dog", "saw", "the", "cat", "."), chars=tuple("狗看见了猫。"),
                sure=frozenset({(1, 0), (2, 1), (2, 2), (4, 4), (5, 5)}), possible=frozenset({(2, 3)}))


def test_content_words_are_linked_words_of_letters_that_are_not_function_words():
    assert content_words(PAIR) == [1, 2, 4]  # dog, saw, cat; not The / the (function words) nor "."


def test_an_omission_deletes_only_the_characters_the_word_alone_links_to():
    assert without_word(PAIR, 4) == "狗看见了。"  # 猫 gone
    assert without_word(PAIR, 2) == "狗了猫。"  # 看见 gone; 了 is only a possible link, it stays
    assert without_word(PAIR, 0) is None  # "The" links nothing
    alone = GoldPair(1, "Cat.", "猫", ("Cat", "."), ("猫",), frozenset({(0, 0)}), frozenset())
    assert without_word(alone, 0) is None  # deleting every character leaves no translation to score


def test_word_shares_take_each_words_lowest_token_against_an_even_share():
    # 1 layer, 2 heads, 2 output rows, 3 source tokens: "▁cat", "s" (one word "cats") and "</s>"
    cross = np.array([[[[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
                       [[0.5, 0.5, 0.0], [0.5, 0.5, 0.0]]]])
    shares = word_shares(cross, ["▁cat", "s", "</s>"], ["cats"])  # even share: 2 rows / 3 tokens
    assert shares.shape == (2, 2, 1)
    np.testing.assert_allclose(shares[0, :, 0], [0.0, 1.5])  # head 1: "s" got nothing; head 2: 1 of 2 rows each
    np.testing.assert_allclose(shares[1, :, 0], [0.75, 0.75])  # the average of both heads, the page's flag


def test_rates_are_recall_over_omissions_and_false_alarms_over_kept_words():
    flagged = np.array([True, False, True, False, False])
    omitted = np.array([True, True, False, False, False])
    assert rates(flagged, omitted) == (0.5, 1 / 3)


DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "tatoeba-cmn-eng" / "dev.tsv"


@pytest.mark.skipif(not DEV.is_file(), reason="the Tatoeba dev set is not on this machine")
def test_the_averaged_flag_misses_deliberate_omissions_as_the_page_says(translator):
    """What the what-if caption states, measured on the first 40 gold pairs: a deleted word still gets about an even
    share of the averaged attention, and the page's flag (under OMISSION_SHARE of it) catches few omissions."""
    from evaluation.alignment.gold import load_gold
    from evaluation.omissions import labelled_shares
    from lessons.classroom import OMISSION_SHARE

    shares, omitted, _ = labelled_shares(translator, load_gold(DEV)[:40])
    averaged = shares[:, -1, 0]
    assert omitted.sum() >= 50 and (~omitted).sum() >= 50
    assert np.median(averaged[omitted]) > 0.5  # half an even share or more: attention still reaches the word
    recall, _ = rates(averaged < OMISSION_SHARE, omitted)
    assert recall < 0.2


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["en-zh", "zh-en"])
def test_the_stored_measurement_is_this_checkpoints_and_recomputes(folder):
    """evaluation/omissions.json, which Decoding's what-if states, holds each shipped model's measurement under the
    SHA-256 of its weights; recomputed here on the shipped gold pairs it is the same (the flag caught none of the
    deleted words when it was stored: 0 of 381 for en→zh, 0 of 164 for zh→en)."""
    from evaluation.alignment.gold import load_gold
    from evaluation.omissions import labelled_shares, stored, summary
    from model import Translator
    from tests.support.paths import ROOT

    checkpoint = ROOT / "checkpoints" / folder
    if not (checkpoint / "model.safetensors").is_file():
        pytest.skip(f"needs the shipped checkpoint in {checkpoint}")
    found = stored(checkpoint)
    assert found is not None, f"run: python -m evaluation.omissions --checkpoint checkpoints/{folder}"
    translator = Translator.from_checkpoint(checkpoint)
    shares, omitted, pairs = labelled_shares(translator, load_gold())
    assert {k: v for k, v in found.items() if k != "checkpoint"} == summary(shares, omitted, pairs,
                                                                           translator.config.source_language)
    assert found["source_language"] == folder[:2]


def test_a_measurement_is_read_back_only_for_the_weights_it_was_made_on(tmp_path):
    from evaluation.omissions import store, stored

    results = tmp_path / "omissions.json"
    folder = tmp_path / "model"
    folder.mkdir()
    assert stored(folder, results) is None  # no checksum file: nothing names the weights
    (folder / "sha256sums.txt").write_text("abc  model.safetensors\ndef  config.json\n", encoding="utf-8")
    store(folder, {"deleted": 3}, results)
    assert stored(folder, results) == {"checkpoint": "model", "deleted": 3}
    (folder / "sha256sums.txt").write_text("abd  model.safetensors\n", encoding="utf-8")
    assert stored(folder, results) is None  # other weights: not measured
