"""An attention map's numbers out: the CSV / TSV text holds exactly the weights a map draws, labelled by token."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from lessons.attention_maps import ALL, pick, strongest_key
from lessons.attention_table import (MapName, attention_table, header, read_table, unique_labels,
                                     weight_text)


def test_labels_carry_positions_so_repeated_tokens_stay_apart():
    assert unique_labels(["▁the", "▁cat", "▁the"]) == ["0:▁the", "1:▁cat", "2:▁the"]


def test_header_names_the_map_in_one_line():
    assert header(MapName("cross", 1, ALL, "I have\na dream.")) == ("# kind=cross, layer=2, head=average, "
                                                                  "sentence=I have a dream.")
    assert header(MapName("encoder_self", 0, 4, "Hi")) == "# kind=encoder_self, layer=1, head=5, sentence=Hi"


def test_weights_round_trip_as_float32_without_exponents():
    values = np.array([0.1, 1e-8, 1.0, 0.123456789, 0.0], dtype=np.float32)
    texts = [weight_text(v) for v in values]
    assert "e" not in "".join(texts)
    assert np.array_equal(np.array([float(t) for t in texts], dtype=np.float32), values)


def test_a_hand_made_map_as_csv():
    text = attention_table([[0.25, 0.75], [1, 0]], ["<s>", "我"], ["▁I", "</s>"], about=MapName("cross", 0, 1, "I"))
    assert text == ("# kind=cross, layer=1, head=2, sentence=I\n"
                    "query \\ key,0:▁I,1:</s>\n"
                    "0:<s>,0.25,0.75\n"
                    "1:我,1,0\n")


def test_tokens_with_commas_quotes_and_formula_marks_stay_in_their_cell():
    tokens = [",", '"', "=SUM(A1)", "\t"]
    text = attention_table(np.eye(4), tokens, tokens, about=MapName("encoder_self", 0, 0, "x"))
    _, queries, keys, weights = read_table(text)
    assert queries == keys == unique_labels(tokens)
    assert not any(label[0] in "=+-@" for label in keys)  # a spreadsheet reads none of them as a formula
    assert np.array_equal(weights, np.eye(4, dtype=np.float32))
    tsv = attention_table(np.eye(4), tokens, tokens, about=MapName("encoder_self", 0, 0, "x"), delimiter="\t")
    rows = list(csv.reader(io.StringIO(tsv.split("\n", 1)[1]), delimiter="\t"))
    assert [len(row) for row in rows] == [5] * 5


def test_labels_must_fit_the_weights():
    with pytest.raises(ValueError, match="axis tokens"):
        attention_table(np.ones((2, 3)), ["a", "b"], ["a", "b"], about=MapName("cross", 0, 0, ""))
    with pytest.raises(TypeError, match=r"about=MapName\(kind, layer, head, sentence\)"):
        attention_table(np.ones((2, 2)), ["a", "b"], ["a", "b"], about={"kind": "cross"})


def test_the_explorers_default_view_is_written_exactly(translator):
    """Encoder self-attention, layer 1, the average of the heads: the numbers the explorer first draws."""
    result = translator.translate("The dog saw the cat and the cat saw the dog.")
    weights = result.attention("encoder_self")
    drawn = pick(weights, 0, ALL)
    about = MapName("encoder_self", 0, ALL, result.source_text)
    text = attention_table(drawn, *result.axis_tokens("encoder_self"), about=about)
    first, queries, keys, read = read_table(text)
    assert first == "# kind=encoder_self, layer=1, head=average, sentence=" + result.source_text
    assert queries == keys == unique_labels(result.source_tokens)
    assert np.array_equal(read, weights[0].mean(0))
    tsv = attention_table(drawn, *result.axis_tokens("encoder_self"), about=about, delimiter="\t")
    assert np.array_equal(read_table(tsv, delimiter="\t")[3], weights[0].mean(0))


def test_strongest_key_is_the_rows_argmax():
    weights = np.zeros((2, 2, 3, 4), dtype=np.float32)
    weights[1, 0, 2] = [0.1, 0.2, 0.6, 0.1]
    weights[1, 1, 2] = [0.1, 0.5, 0.3, 0.1]
    assert strongest_key(weights, 1, 0, 2) == 2
    assert strongest_key(weights, 1, 1, 2) == 1
    assert strongest_key(weights, 1, ALL, 2) == 2  # mean: 0.1, 0.35, 0.45, 0.1
