"""AppTest: the "How it was trained" page draws each tab from its view, finds and batches the run's dev file (or
says it is missing), and its widgets reach the view: a typed reference is scored, a picked classroom sentence shown.
What each tab says and computes, in English and 中文: tests/test_training_view.py."""

from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import BLEU, CHRF

from app_pages.state import server, translations
from lessons import training as lt
from model import DEFAULT_BEAM, DEFAULT_CHECKPOINT
from model.text.pairs import encode_pairs
from model.training.data import make_batches, read_pairs
from tests.support.apptest import every_tab, open_page, page_text

pytestmark = pytest.mark.skipif(
    not (DEFAULT_CHECKPOINT / "model.safetensors").is_file(), reason=f"needs the shipped checkpoint in {DEFAULT_CHECKPOINT}"
)
REFERENCE = "我有一个梦。"  # not the model's wording: some orders match, some do not


@pytest.fixture(scope="module")
def log(translator) -> dict:
    return translator.training_log


def test_every_tab_is_drawn():
    charts = 0
    for at in every_tab("training"):
        charts += len(at.get("plotly_chart"))
        assert not at.error and not at.exception
    assert charts == 5, "Adam toy, schedule, smoothing, padding, reliability: one tab at a time"
    at = open_page("training", tab="bleu")
    assert at.text_input(key="training.bleu.reference").value == "", "no answer is typed in for the student"
    assert at.get("page_link"), "the link to the curves"


def test_padding_statistics_are_those_of_make_batches_on_the_dev_pairs(log, translator):
    args = log["args"]
    path = lt.dev_file(args["dev"], DEFAULT_CHECKPOINT.parent.parent)
    if path is None:
        pytest.skip("the run's dev file is not on this machine")
    from tests.support.checkpoints import checkpoint_tokenizers

    examples = encode_pairs(read_pairs(path), *checkpoint_tokenizers(), translator.config)
    batches = make_batches(examples, args["max_tokens"], random.Random(0))
    expected = lt.padding([[(len(e.src), len(e.tgt)) for e in b] for b in batches])
    text = page_text(open_page("training", tab="batch"))
    assert f"{len(examples):,} dev pairs" in text
    assert f"{expected.batches} batches" in text and f"{expected.fraction:.1%}" in text


def test_missing_dev_file_is_said_and_the_app_sentences_are_used(monkeypatch):
    monkeypatch.setattr(lt, "dev_file", lambda name, root: None)
    at = open_page("training", tab="batch")
    assert any("is not on this machine" in w.value for w in at.warning)
    assert not at.exception


def test_a_typed_reference_is_scored():
    at = open_page("training", tab="bleu")
    at.text_input(key="training.bleu.reference").input(REFERENCE).run()
    assert not at.exception
    hypothesis = next(el.value for el in at.text if "→" in el.value).split("→")[-1].strip()
    expected = BLEU(tokenize="zh").corpus_score([hypothesis], [[REFERENCE]]).score
    assert [s.value.count(f"{expected:.4f}") for s in at.success] == [2]


def test_bleu_limits_follow_the_sentence_picked():
    """The model's translations of the classroom sentences (model.translations, in padded batches) are asked for as
    the page asks for them (translations.translate_all): the server's result cache answers with the batch the page
    translated, not a second translation of every sentence (where the key differed, the model would translate them
    here)."""
    pairs = read_pairs(DEFAULT_CHECKPOINT.parent.parent / "evaluation" / "classroom.tsv")
    at = open_page("training", tab="bleuzh")
    outputs = translations.translate_all("en-zh", server.devices()[0], tuple(en for en, _ in pairs), DEFAULT_BEAM)
    box = at.selectbox(key="training.bleuzh.sentence")
    other = next(i for i in range(len(pairs)) if outputs[i] != pairs[i][1] and i != box.value)
    box.set_value(other).run()
    text = page_text(at)
    chrf = CHRF().sentence_score(outputs[other], [pairs[other][1]]).score
    assert f"**{chrf:.1f}**" in text
