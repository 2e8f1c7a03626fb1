"""Names the model never learned are read as a name it knows and written back (model/translation/names.py)."""

from __future__ import annotations

import pytest

from model.loading import MARIAN, Capabilities
from model.training import dictionary
from evaluation.everyday import NAMES, name_survives, read_rows
from model.translation import names as names_module
from model.translation import translator as translator_module
from model.translation.names import TABLE, WORDS, NameCopy, NameReader, read_table, write_back

KNOWN = {"Tom", "Mary", "John", "I", "The", "is", "my"}  # what a toy vocabulary holds whole


def reader() -> NameReader:
    words = {"translation", "hi", "bob", "happy", "year", "new", "thinking", "machines", "Kyoto", "Saturday"}
    return NameReader(lambda word: word in KNOWN, table={"Alice": "爱丽丝"}, words=frozenset(words))


@pytest.mark.parametrize("text, unknown", [
    ("I met Alice and Bob.", ["Alice", "Bob"]),  # inside a sentence: any capitalised word split into pieces
    ("Happy New Year!", []),  # English words capitalised after a capitalised word: a title, not names
    ("Thinking Machines", []),
    ("Bob is here.", []),
    ("I went to Kyoto on Saturdays.", []),  # proper English words (a whole gloss), plural or not
  # an English word ("bob") at the start: left alone, though it may be a name
    ("Alice is here.", ["Alice"]),  # at the start: a name of the table
    ("Linda is here.", ["Linda"]),  # at the start: no English word
    ("Translation is hard.", []),  # at the start: an English word, capitalised only because it starts the sentence
    ("Tom saw Mary.", []),  # names the vocabulary holds whole
    ("Hi. Translation is hard.", []),  # a second sentence starts after its full stop
    ("I saw Bob, then Bob saw me.", ["Bob"]),  # each name once
    ("I saw NASA and Ihaveadreamthatonedaythisnation.", []),  # not a name's shape
])
def test_unknown_names_are_found_where_a_reader_would_see_them(text, unknown):
    assert reader().unknown(text) == unknown


def test_names_are_read_as_carriers_the_sentence_does_not_hold_yet():
    read, copies = reader().read_as("Tom met Alice and Bob.")
    assert read == "Tom met Mary and John."
    assert copies == (NameCopy("Alice", "Mary", "玛丽", "爱丽丝"), NameCopy("Bob", "John", "约翰", "Bob"))
    # With every carrier taken, a further name is left as typed.
    assert reader().read_as("Tom, Mary and John met Alice.") == ("Tom, Mary and John met Alice.", ())


def test_write_back_needs_each_carrier_written_as_often_as_it_was_read():
    copies = (NameCopy("Alice", "Tom", "汤姆", "爱丽丝"),)
    assert write_back("汤姆是我的朋友。", copies, "Tom is my friend.") == "爱丽丝是我的朋友。"
    assert write_back("他是我的朋友。", copies, "Tom is my friend.") is None  # the model dropped the name
    assert write_back("汤姆看见了汤姆。", copies, "Tom saw Tom.") == "爱丽丝看见了爱丽丝。"
    assert write_back("汤姆看见了自己。", copies, "Tom saw Tom.") is None


def test_the_shipped_model_keeps_names_it_never_learned(translator):
    """evaluation/names.tsv: 20 names absent from training; before this each came out garbled or dropped (0 of 20).
    One, Yusuf, is also a whole CC-CEDICT gloss (a proper English word to the reader), so it is read as typed."""
    rows = read_rows(NAMES)
    results = [translator.translate(en) for en, _, _ in rows]
    kept = [name for (_, name, zh), r in zip(rows, results) if name_survives(r.translation, name, zh)]
    assert len(kept) >= 19, [r.translation for r in results]
    for (en, name, _), result in zip(rows, results):
        if result.names:
            (copy,) = result.names
            assert copy.name == name and "▁" + copy.carrier in result.source_tokens  # the maps show what it read
            assert [n.key for n in result.notices] == ["names_read_as"]
            assert f"{name} → {copy.carrier}" in str(result.notices[0])
    swapped = [en for (en, _, _), r in zip(rows, results) if r.names]
    assert translator.translations(swapped, beam=4) == [r.translation for r in results if r.names]  # the batch path


def test_names_the_model_knows_are_left_alone(translator):
    result = translator.translate("Tom and Mary are friends.")
    assert result.names == () and result.translation == "汤姆和玛丽是朋友。"


def test_a_carrier_the_model_does_not_write_back_means_the_sentence_is_translated_as_typed(translator, monkeypatch):
    monkeypatch.setattr(translator_module, "write_back", lambda *args: None)
    result = translator.translate("Alice is my friend.")
    assert result.names == () and result.notices == []
    assert "▁Al" in result.source_tokens and "▁Tom" not in result.source_tokens
    as_typed = translator.translate("Alice is my friend.", beam=1).translation
    assert translator.translations(["Alice is my friend."]) == [as_typed]


def test_only_our_model_family_swaps_names():
    assert Capabilities().copies_unseen_names and not MARIAN.copies_unseen_names


def test_the_tables_are_credited_and_rebuilt_from_cc_cedict(tmp_path):
    for path in (TABLE, WORDS):
        assert "CC-CEDICT" in path.read_text(encoding="utf-8").splitlines()[0]
        assert "CC BY-SA 4.0" in path.read_text(encoding="utf-8").splitlines()[0]
    assert read_table()["Alice"] == "爱丽丝"
    names_path, words_path = tmp_path / "names.tsv", tmp_path / "words.txt"
    dictionary.write_tables(names_path, words_path)
    assert names_path.read_bytes() == TABLE.read_bytes() and words_path.read_bytes() == WORDS.read_bytes()
    assert names_module.CARRIERS[0] == ("Tom", "汤姆")


def test_an_experiment_keeps_the_plain_runs_reading_even_where_its_output_lost_the_carrier(translator, monkeypatch):
    """Heads knocked out (the explanation page) or a forced start (what-if) are compared with the plain run: they
    read the same sentence, ▁Tom, whatever they wrote."""
    monkeypatch.setattr(translator_module, "write_back", lambda *args: None)
    knocked = translator.translate("Alice is my friend.", knock_out=(("cross", 0, 0),))
    forced = translator.translate("Alice is my friend.", forced_prefix=(translator.target_token_id("我"),))
    for result in (knocked, forced):
        assert "▁Tom" in result.source_tokens and [c.name for c in result.names] == ["Alice"]
        assert [n.key for n in result.notices] == ["names_read_as"]
    assert forced.output_tokens[0] == "我"


def test_a_batch_with_heads_knocked_out_keeps_the_reading_too(translator, monkeypatch):
    monkeypatch.setattr(translator_module, "write_back", lambda *args: None)
    heads = (("cross", 0, 0),)
    knocked = translator.translate("Alice is my friend.", beam=1, knock_out=heads)
    assert translator.translations(["Alice is my friend."], knock_out=heads) == [knocked.translation]
