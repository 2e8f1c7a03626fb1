"""The "Is attention an explanation?" page's word-alignment tab reads its gold pairs as a fresh clone has them (the
Tatoeba corpus is not next to the repository: the gold pairs ship in it), says when they are damaged or unreadable,
in English and 中文 (AppTest). What the opening and each tab say of a log: tests/test_explanation_view.py."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import result_cache
from i18n import strings
from evaluation.alignment import gold
from evaluation.alignment.gold import load_examples
from model import Translator
from tests.support.explanation import page  # page: on "I have a dream."


class OtherLog:
    """The shared model with another training log: everything else is the model's own."""

    def __init__(self, inner, training_log: dict):
        self._inner, self.training_log = inner, training_log

    def __getattr__(self, name):
        return getattr(self._inner, name)


def with_log(monkeypatch, change) -> None:
    """Every model the page loads carries change(its training log) as its log."""
    from app_pages.state import models

    shared = models.translator
    monkeypatch.setattr(models, "translator",
                        lambda name=None: OtherLog(shared(name), change(shared(name).training_log)))


def test_unreadable_gold_pairs_leave_the_command_that_measures_the_alignment(monkeypatch, tmp_path):
    """A log without alignment figures and gold pairs that cannot be read: nothing can be measured live, and the tab
    says how to measure it for the model in use (what each tab says of a bare log: tests/test_explanation_view.py)."""
    with_log(monkeypatch, lambda log: {k: v for k, v in log.items() if k != "alignment"})
    monkeypatch.setattr(gold, "PAIRS", tmp_path / "missing.tsv")
    result_cache.shared().clear()
    try:
        at = page("en", "align")
    finally:
        result_cache.shared().clear()  # neither the unreadable pairs nor the bare log stay in later tests' cache
    (command,) = [i.value for i in at.info if "python -m evaluation." in i.value]
    assert "--checkpoint checkpoints/en-zh " in command, command


def all_text(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in [*at.markdown, *at.caption, *at.info, *at.text, *at.header,
                                           *at.subheader])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_alignment_tab_draws_the_gold_pairs_without_the_corpus(monkeypatch, lang):
    """A fresh clone has no ../shared: the tab reads the 150 gold pairs shipped in the repository (pairs.tsv), never
    the corpus; no note, the stored AER table, the first gold pair drawn with its links."""
    def no_corpus(*_):
        raise AssertionError("the page read the corpus")

    monkeypatch.setattr(gold, "read_dev_lines", no_corpus)
    result_cache.shared().clear()
    at = page(lang, "align")
    s = strings(lang)
    assert not at.error and not at.exception and not at.info
    assert any("| AER |" in m.value for m in at.markdown)
    first = gold.load_gold()[0]
    assert at.selectbox(key="explain.align.pair").label == s["explain.align.pick_dev"]
    assert len(at.selectbox(key="explain.align.pair").options) == 150
    assert at.selectbox(key="explain.align.pair").options[0].startswith(first.english)
    spec = next(x for x in map(lambda c: json.loads(c.proto.spec), at.get("plotly_chart")) if x["layout"].get("shapes"))
    assert len([x for x in spec["layout"]["shapes"] if x["type"] == "rect"]) == len(first.sure)
    assert len([x for x in spec["layout"]["shapes"] if x["type"] == "circle"]) == len(first.possible)
    assert any(c.value.startswith(s["explain.align.source_dev"].format(line=first.line)) for c in at.caption)
    # The note on test-half figures follows a paragraph that says the gold lies in the test half.
    noted = [m.value for m in at.markdown if s["explain.weights_touched"] in m.value]
    assert len(noted) == 1 and ("test half" if lang == "en" else "测试半集") in noted[0].split(
        s["explain.weights_touched"])[0]


@pytest.mark.parametrize(("damage", "note"), [("missing", "explain.align.no_dev"), ("changed", "explain.align.bad_dev")])
def test_damaged_shipped_pairs_are_said_so_and_the_apps_own_examples_drawn(monkeypatch, tmp_path, damage, note):
    pairs = tmp_path / "pairs.tsv"
    if damage == "changed":
        pairs.write_text(gold.PAIRS.read_text(encoding="utf-8").replace("Turn it off.", "Turn it on."), encoding="utf-8")
    monkeypatch.setattr(gold, "PAIRS", pairs)
    result_cache.shared().clear()
    try:
        at = page("en", "align")
    finally:
        result_cache.shared().clear()  # the damaged pairs stay out of later tests' cache
    assert [i.value for i in at.info] == [strings("en")[note]]
    shown = all_text(at)
    assert "Errno" not in shown and "pairs.tsv" not in shown
    first = load_examples()[0]
    assert at.selectbox(key="explain.align.pair").label == strings("en")["explain.align.pick_example"]
    assert at.selectbox(key="explain.align.pair").options[0].startswith(first.english)
    pairs_scored = Translator.from_checkpoint("checkpoints/en-zh").training_log["alignment"]["pairs"]
    assert any(c.value.startswith(strings("en")["explain.align.source_example"].format(line=1, pairs=pairs_scored))
               for c in at.caption)
