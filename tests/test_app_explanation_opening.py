"""The "Is attention an explanation?" page for a class: it opens with three sentences whose numbers are the training
log's, and its word-alignment tab works from a fresh clone, where the Tatoeba corpus is not next to the repository
(the gold pairs ship in the repository) — in English and 中文."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import result_cache
from i18n import strings
from evaluation.alignment import gold
from evaluation.alignment.gold import load_examples
from model import Translator
from tests.support.explanation import page  # the page in a new session, on one tab, on "I have a dream."


def opening_text(at: AppTest) -> str:
    """The numbered sentences in the bordered box above the tabs: the page's first Markdown."""
    first = at.markdown[0].value
    assert first.startswith("1. ") and "\n2. " in first and "\n3. " in first, first
    return first


def expected_numbers(log: dict, lang: str) -> list[str]:
    """The figures the three sentences must carry, read off the log here, not through the page's helpers."""
    ig = log["agreement"]["integrated_gradients"]
    best = max(v for row in ig["rho"] for v in row)
    curves = log["heads"]["pruning"]

    def free(curve):  # points removed before the first drop whose interval lies above 0
        first = next((p for p in curve[1:] if p["low"] > 0), None)
        return curve[curve.index(first) - 1] if first else curve[-1]

    kind = max(curves, key=lambda k: free(curves[k])["removed"])
    kept = free(curves[kind])
    after = curves[kind][kept["removed"] + 1]
    mean = np.mean([v for row in ig["rho"] for v in row])
    numbers = [f"{log['agreement']['sentences']}", f"ρ = {mean:.2f}", f"{best:.2f}", f"{ig['layer_mean'][-1][0]:.2f}",
               f"{log['heads']['test_pairs']:,}", f"{kept['removed']}", f"{curves[kind][0]['bleu']:.2f} → "
               f"{kept['bleu']:.2f}", f"{after['removed']} ", f"{after['bleu_drop']:.2f}", f"{after['low']:.2f}", f"{after['high']:.2f}",
               f"{curves['cross'][-1]['bleu']:.2f}", f"{log['alignment']['pairs']}"]
    for key in ("chosen", "integrated_gradients", "baseline"):
        found = log["alignment"][key]
        left, right = ("(", ")") if lang == "en" else ("（", "）")
        numbers.append(f"{found['aer']:.3f} {left}{found['low']:.3f}–{found['high']:.3f}{right}".replace(
            " （", "（"))
    return numbers


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_opens_with_three_sentences_carrying_the_logs_numbers(translator, lang):
    text = opening_text(page(lang))
    for number in expected_numbers(translator.training_log, lang):
        assert number in text, (number, text)
    if lang == "en":
        assert "10 of the 24 encoder self-attention heads" in text  # the kind with the most free removals, named
        assert "integrated gradients" in text and "IBM Model 1" in text
    else:
        assert "编码器自注意力的 24 个头中可以去掉 10 个" in text and "IBM 模型 1" in text


class OtherLog:
    """The shared model with another training log: everything else is the model's own."""

    def __init__(self, inner, training_log: dict):
        self._inner, self.training_log = inner, training_log

    def __getattr__(self, name):
        return getattr(self._inner, name)


def test_the_opening_sentences_follow_the_log(monkeypatch):
    """Another log, other numbers: the sentences are computed, not written in."""
    from app_pages.state import models

    shared = models.translator

    def other(name=None):
        real = shared(name)
        ig = {"method": "integrated_gradients", "aer": 0.5, "low": 0.4, "high": 0.6}
        return OtherLog(real, {**real.training_log, "alignment": {**real.training_log["alignment"],
                                                                  "integrated_gradients": ig}})

    monkeypatch.setattr(models, "translator", other)
    assert "integrated gradients 0.500 (0.400–0.600)" in opening_text(page("en"))


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
