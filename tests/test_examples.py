"""The translate page's example pills against the shipped checkpoint: each is translated right, and its line of
what to look for names the cross-attention head that links the two words. A new model that breaks a pill fails here:
change the pill (app_pages/state/examples.py, EXAMPLES), not this test."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from app_pages.state import examples
from i18n import LANGUAGES
from model.translation.alignment import word_link, word_positions
from model.translation.confidence import assess
from tests.support.apptest import app


@pytest.mark.parametrize("example", examples.EXAMPLES, ids=lambda e: e.sentence)
def test_the_shipped_model_gets_every_pill_right(translator, example):
    result = translator.translate(example.sentence)  # the default beam, as a new session's sidebar
    assert result.translation == example.reference, (example, result.translation)
    assert example.target_word in result.translation, (example, result.translation)
    assert not assess([s.chosen.prob for s in result.steps], translator.training_log).unsure, result.translation
    link = word_link(result, example.source_word, example.target_word)
    assert link is not None, (example, result.source_tokens, result.output_tokens)
    layers, heads = result.cross.shape[:2]
    assert 0 <= link.layer < layers and 0 <= link.head < heads and 0 < link.weight <= 1
    layer, head = link.layer + 1, link.head + 1
    names = {"en": f"layer {layer} · head {head}", "zh": f"第 {layer} 层第 {head} 个头"}
    for lang in LANGUAGES:
        line = examples.example_line(example, link, lang)
        assert names[lang] in line and f"{link.weight:.2f}" in line and example.target_word in line, line


@pytest.mark.parametrize("example", examples.EXAMPLES_ZH, ids=lambda e: e.sentence)
def test_the_chinese_to_english_model_gets_every_chinese_pill_right(zh_translator, example):
    """The same pills read in Chinese (issue 49): translated exactly as our English sentence, and a head found that
    links the English word to the Chinese one, named in the hint in both interface languages."""
    result = zh_translator.translate(example.sentence)
    assert result.translation == example.reference, (example, result.translation)
    link = word_link(result, example.source_word, example.target_word)
    assert link is not None, (example, result.source_tokens, result.output_tokens)
    assert "".join(link.source_tokens) == example.source_word  # a Chinese word: its characters, one token each
    for lang in LANGUAGES:
        line = examples.example_line(example, link, lang)
        assert f"{link.weight:.2f}" in line and example.target_word in line and example.source_word in line, line


# Exact match, not a score over a threshold: these are short sentences a teacher reads whole, and one wrong
# character (动物园 for 动物) is a wrong translation. A retrained model that writes another correct translation
# gets that one added as the reference, after a person has read it.
@pytest.mark.parametrize("pair", examples.SENTENCE_PAIRS, ids=lambda p: p.label())
def test_the_shipped_model_gets_both_sentences_of_every_compare_pair_right(translator, pair):
    written = tuple(translator.translate(sentence).translation for sentence in pair.sentences)
    assert written == pair.references
    (a_words, b_words) = (set(s.split()) for s in pair.sentences)
    assert len(a_words ^ b_words) == 2, pair  # one word apart


@pytest.mark.parametrize("pair", examples.SENTENCE_PAIRS_ZH, ids=lambda p: p.label())
def test_the_chinese_to_english_model_gets_both_sentences_of_every_chinese_pair_right(zh_translator, pair):
    """Compare's pairs for a Chinese source (issue 60): the page says both are translated correctly, so zh-en must
    write exactly our English for both (it wrote "three apple" for the en-zh pairs' Chinese). One word apart in both
    languages: the English by its words, the Chinese by what the button names (at most two characters each side)."""
    written = tuple(zh_translator.translate(sentence).translation for sentence in pair.sentences)
    assert written == pair.references
    (a_words, b_words) = (set(s.split()) for s in pair.references)
    assert len(a_words ^ b_words) == 2, pair
    assert all(1 <= len(part) <= 2 for part in pair.label().split(" / ")), pair.label()


def test_every_source_language_has_its_own_compare_pairs():
    """A pair's sentences are in the language its model reads: English for en-zh, Chinese for zh-en."""
    assert examples.PAIRS_BY_LANGUAGE["en"] == examples.SENTENCE_PAIRS
    assert examples.PAIRS_BY_LANGUAGE["zh"] == examples.SENTENCE_PAIRS_ZH
    assert all(" " in s for p in examples.SENTENCE_PAIRS for s in p.sentences)
    assert all(" " not in s for p in examples.SENTENCE_PAIRS_ZH for s in p.sentences)
    assert [p.label() for p in examples.SENTENCE_PAIRS_ZH] == ["病 / 累", "三 / 五"]


WRONG = [(source, pair) for source, pairs in examples.WRONG_BY_LANGUAGE.items() for pair in pairs]


@pytest.mark.parametrize(("source", "pair"), WRONG, ids=lambda p: p if isinstance(p, str) else p.label())
def test_where_it_goes_wrong_still_goes_wrong(request, source, pair):
    """The failures are kept on purpose and labelled so: each sentence's translation, by the shipped model that
    reads its language, is far from our reference (chrF on characters below WRONG_CHRF; a right translation of these
    scores 100, and near misses with one word changed scored 73 and 82), so a model that learns them fails here and
    they move to the examples."""
    translator = request.getfixturevalue({"en": "translator", "zh": "zh_translator"}[source])
    for sentence, reference in zip(pair.sentences, pair.references):
        written = translator.translate(sentence).translation
        assert sacrebleu.sentence_chrf(written, [reference]).score < examples.WRONG_CHRF, (sentence, written)


def test_every_direction_has_its_own_failures():
    """Start here shows the session's direction's: a Chinese → English class met English sentences it never typed."""
    for source, pairs in examples.WRONG_BY_LANGUAGE.items():
        assert pairs and all((" " in s) == (source == "en") for p in pairs for s in p.sentences), source


def test_the_lessons_first_examples_are_no_failures():
    failures = {s for pairs in examples.WRONG_BY_LANGUAGE.values() for pair in pairs for s in pair.sentences}
    firsts = {examples.DEFAULT_SENTENCE, *examples.DEFAULT_SENTENCES.values(),
              *(e.sentence for examples_ in examples.EXAMPLES_BY_LANGUAGE.values() for e in examples_),
              *(s for pairs in examples.PAIRS_BY_LANGUAGE.values() for pair in pairs for s in pair.sentences)}
    assert not failures & firsts


def test_a_new_session_opens_on_a_pill_and_thinking_machines_is_none():
    """A newcomer's first screen translates a pill, so it already says what to look for and offers to open that head;
    the page offers 4 to 6 pills, and not the Q·K·V page's "Thinking Machines", which the model mistranslates."""
    at = app()  # a new session on the translate page
    pills = at.pills(key="translate.example").options
    assert 4 <= len(pills) <= 6 and not [p for p in pills if "Thinking Machines" in p]
    assert at.text_area(key="translate.input").value in pills
    (line,) = [i.value for i in at.info]
    assert line.startswith("What to look for:") and "梦想" in line
    assert [b for b in at.button if b.key == "translate.show_head"]


def test_word_positions():
    assert word_positions(["▁The", "▁anim", "al", "▁was", "▁tired", ".", "</s>"], "Animal") == [1, 2]
    assert word_positions(["▁I", "▁have", "▁a", "▁dream", ".", "</s>"], "dream") == [3]
    assert word_positions(["▁a", "▁dream", "."], "dream.") == []  # punctuation is a word of its own
    assert word_positions(["我", "有", "一", "个", "梦", "想", "。"], "梦想") == [4, 5]
    assert word_positions(["我", "梦", "。"], "梦想") == []


def test_word_link_is_the_strongest_head(translator):
    result = translator.translate("I have a dream.")
    link = word_link(result, "dream", "梦想")
    rows = word_positions(result.output_tokens[:-1], "梦想")
    col = result.source_tokens.index("▁dream")
    per_head = result.cross[:, :, rows, col].mean(-1)  # (layers, heads)
    assert link.weight == pytest.approx(per_head.max()) and (link.layer, link.head) == np.unravel_index(
        per_head.argmax(), per_head.shape)
    assert link.rows == tuple(result.target_tokens[r] for r in rows)  # the map's row labels of those steps
    assert word_link(result, "nightmare", "梦想") is None and word_link(result, "dream", "噩梦") is None
