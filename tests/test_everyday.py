"""The everyday evaluation sets (evaluation/) and python -m evaluation.everyday."""

import json
from pathlib import Path

import pytest

from evaluation import everyday
from model.training import dictionary
from model.training.data import read_pairs
from tests.support.tiny import tiny_chinese_translator, tiny_translator

SHARED_TRAIN = Path(__file__).resolve().parents[2] / "shared" / "data" / "tatoeba-cmn-eng" / "train.tsv"


def test_sets_have_the_promised_shape():
    classroom, names = everyday.read_rows(everyday.CLASSROOM), everyday.read_rows(everyday.NAMES)
    assert len(classroom) == 50 and all(len(r) == 2 and r[0] and r[1] for r in classroom)
    assert len(names) == 20 and all(len(r) == 3 and r[1] in r[0] for r in names)
    assert len({r[0] for r in classroom}) == 50
    turned = everyday.read_rows(everyday.CLASSROOM_ZH)  # the same pairs, Chinese first, three Chinese sides reworded
    assert [r[1] for r in turned] == [r[0] for r in classroom] and len({r[0] for r in turned}) == 50
    assert sum(t[0] != c[1] for t, c in zip(turned, classroom)) == 3


def test_test_names_are_never_trained_on_as_dictionary_names():
    known = dict(dictionary.cedict_names(dictionary.cedict_entries()))
    for _, name, _ in everyday.read_rows(everyday.NAMES):
        assert dictionary.held_out_name(name) or name not in known


@pytest.mark.skipif(not SHARED_TRAIN.exists(), reason="the Tatoeba training file is not on this machine")
def test_sets_are_not_in_the_training_data():
    train = read_pairs(SHARED_TRAIN)
    english = {en.lower() for en, _ in train}
    assert not [r[0] for r in everyday.read_rows(everyday.CLASSROOM) if r[0].lower() in english]
    chinese = {zh for _, zh in train}  # the Chinese → English model's sources: none a training sentence either
    assert not [r[0] for r in everyday.read_rows(everyday.CLASSROOM_ZH) if r[0] in chinese]
    words = {w for en, _ in train for w in en.split()}
    assert not [name for _, name, _ in everyday.read_rows(everyday.NAMES) if name in words]


def test_a_name_survives_in_latin_letters_or_transliterated():
    assert everyday.name_survives("我见了Priya。", "Priya", "普丽娅")
    assert everyday.name_survives("亨利是医生。", "Henry", "亨利")
    assert not everyday.name_survives("幸运是医生。", "Henry", "亨利")


def test_the_cli_scores_every_sentence_and_writes_the_log(tmp_path, monkeypatch, capsys):
    translator = tiny_translator()
    (tmp_path / "c.tsv").write_text("I like tea.\t我喜欢茶。\nHi.\t你好。\n", encoding="utf-8")
    (tmp_path / "n.tsv").write_text("Priya is here.\tPriya\t普丽娅\n", encoding="utf-8")
    monkeypatch.setattr(everyday, "CLASSROOM", tmp_path / "c.tsv")
    monkeypatch.setattr(everyday, "NAMES", tmp_path / "n.tsv")
    monkeypatch.setattr(everyday.Translator, "from_checkpoint", classmethod(lambda cls, folder, device: translator))
    monkeypatch.setattr(everyday, "read_training_log", lambda folder: {"kept": 1})
    written = {}
    monkeypatch.setattr(everyday, "write_training_log", lambda folder, log: written.update(log))
    out = tmp_path / "r.json"
    assert everyday.main(["a", "b", "--beam", "2", "--json", str(out), "--into", "b"]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert set(result) == {"a", "b"} and len(result["a"]["classroom"]) == 2 and len(result["a"]["names"]) == 1
    assert result["a"]["beam"] == 2 and "tok:zh" in result["a"]["bleu_signature"]
    assert written["kept"] == 1 and written["everyday"]["sentences"] == 2
    assert "names survived" in capsys.readouterr().out


def test_the_names_effect_decodes_the_same_weights_as_typed_and_with_names_read_as_known_ones(tmp_path, monkeypatch):
    """--names-effect: dev's halves, the classroom set and the names, once as typed and once with names swapped."""
    (tmp_path / "c.tsv").write_text("I like tea.\t我喜欢茶。\n", encoding="utf-8")
    (tmp_path / "n.tsv").write_text("Where is Priya?\tPriya\t普丽娅\n", encoding="utf-8")
    monkeypatch.setattr(everyday, "CLASSROOM", tmp_path / "c.tsv")
    monkeypatch.setattr(everyday, "NAMES", tmp_path / "n.tsv")
    pairs = [("Where is Zofia?", "Zofia在哪里？"), ("I like tea.", "我喜欢茶。"), ("Call Bruno now.", "现在打电话给Bruno。"),
             ("Who are you?", "你是谁？"), ("I have a dream.", "我有一个梦想。"), ("It is cold.", "天气很冷。"),
             ("I am hungry.", "我饿了。"), ("Where is the hospital?", "医院在哪里？"), ("I like my dog.", "我喜欢我的狗。")]
    dev = "".join(f"{en}\t{zh}\n" for en, zh in pairs)
    (tmp_path / "dev.tsv").write_text(dev, encoding="utf-8")
    (tmp_path / "train.tsv").write_text("Tom is here.\t汤姆在这里。\n", encoding="utf-8")
    effect = everyday.names_effect("checkpoints/en-zh", str(tmp_path / "dev.tsv"), str(tmp_path / "train.tsv"), beam=1)
    typed, read_as = effect["as_typed"], effect["names_read_as"]
    assert (typed["names_survived"], read_as["names_survived"], read_as["names"]) == (0, 1, 1)
    assert read_as["swapped"] == 2  # Zofia and Bruno, in whichever half each fell
    for row in (typed, read_as):
        assert {"selection", "selection_unseen", "test", "test_unseen", "classroom"} <= set(row)
    assert effect["beam"] == 1


def test_a_model_reading_chinese_is_scored_on_the_turned_set_with_english_bleu():
    result = everyday.evaluate(tiny_chinese_translator(), beam=1)
    assert result["sentences"] == 50 and result["classroom"][0]["en"] == "猫坐在垫子上。"
    assert "tok:13a" in result["bleu_signature"] and result["names"] == [] and result["names_survived"] == 0
