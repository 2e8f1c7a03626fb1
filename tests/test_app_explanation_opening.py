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
from tests.support.paths import ZH_CHECKPOINT
from tests.support.explanation import expected_numbers, free, minus, page  # page: on "I have a dream."


def opening_text(at: AppTest) -> str:
    """The numbered sentences in the bordered box above the tabs: the page's first Markdown."""
    first = at.markdown[0].value
    assert first.startswith("1. ") and "\n2. " in first and "\n3. " in first, first
    return first


def tied_heads(log: dict) -> list[tuple[int, int]]:
    """The cross heads whose ρ, as shown (2 decimals), is the best: 1-based (layer, head)."""
    rho = log["agreement"]["integrated_gradients"]["rho"]
    best = max(round(v, 2) for row in rho for v in row)
    return [(l + 1, h + 1) for l, row in enumerate(rho) for h, v in enumerate(row) if round(v, 2) == best]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_opens_with_three_sentences_carrying_the_logs_numbers(translator, lang):
    text = opening_text(page(lang))
    log = translator.training_log
    for number in expected_numbers(log, lang):
        assert number in text, (number, text)
    words = np.mean([len(gold.english_words(p.english)) for p in gold.load_gold()])
    ties = tied_heads(log)
    layer = ties[0][0]
    assert len(ties) > 1 and {l for l, _ in ties} == {layer}  # en-zh: several heads of one layer tie at 0.27
    if lang == "en":
        # Every kind of head said as its numbers do: the last removal within noise is a drop, not "free".
        kept = free(log["heads"]["pruning"]["encoder_self"])
        assert f"encoder self-attention: with {kept['removed']} of 24 heads out, BLEU is {minus(kept['bleu_drop'])} " \
               f"lower" in text
        assert "go before BLEU drops" not in text and "ranks the source tokens" in text
        assert f"tie at {max(round(v, 2) for r in log['agreement']['integrated_gradients']['rho'] for v in r):.2f} " \
               f"(layer {layer} · heads {', '.join(str(h) for _, h in ties)})" in text
        assert f"short sentences from the dev set's test half ({words:.1f} English words on average)" in text
        assert "optimistic" in text and "integrated gradients" in text and "IBM Model 1" in text
    else:
        kept = free(log["heads"]["pruning"]["encoder_self"])
        assert f"编码器自注意力：去掉 24 个头中的 {kept['removed']} 个，BLEU 低 {minus(kept['bleu_drop'])}" in text
        assert f"第 {layer} 层第 {'、'.join(str(h) for _, h in ties)} 个头" in text
        assert f"平均 {words:.1f} 个英文单词" in text and "偏乐观" in text and "IBM 模型 1" in text
        assert "源词" not in text and "源语言词元" in text


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


def test_the_opening_sentences_follow_the_log(monkeypatch):
    """Another log, other numbers: the sentences are computed, not written in."""
    ig = {"method": "integrated_gradients", "aer": 0.5, "low": 0.4, "high": 0.6}
    with_log(monkeypatch, lambda log: {**log, "alignment": {**log["alignment"], "integrated_gradients": ig}})
    assert "integrated gradients 0.500 (0.400–0.600)" in opening_text(page("en"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_largest_drop_is_given_on_the_test_half_where_the_log_has_it(monkeypatch, lang):
    """evaluation.heads --largest-only stores the tied heads' drops on the test half: each is said, with its
    interval, and the command to measure them is not."""
    def tested(log):
        top = max(s["bleu_drop"] for s in log["heads"]["single"])
        again = [{"kind": s["kind"], "layer": s["layer"], "head": s["head"], "bleu_drop": 0.09 - i, "low": -0.61 - i,
                  "high": 0.82 - i} for i, s in enumerate(s for s in log["heads"]["single"] if s["bleu_drop"] == top)]
        return {**log, "heads": {**log["heads"], "largest_on_test": again}}

    with_log(monkeypatch, tested)
    at = page(lang, "importance")
    text = "\n".join(m.value for m in at.markdown)
    s = strings(lang)
    for found in tested(Translator.from_checkpoint("checkpoints/en-zh").training_log)["heads"]["largest_on_test"]:
        assert f"{found['bleu_drop']:.2f}" in text and f"{found['low']:.2f}" in text and f"{found['high']:.2f}" in text
    assert s["explain.importance.largest_untested"].split("{")[0] not in text
    assert s["explain.importance.largest_test"].split("{")[0] in text


@pytest.mark.parametrize("model", ["en-zh", "zh-en"])
def test_every_measure_it_command_names_the_checkpoint_it_measures(monkeypatch, tmp_path, model):
    """A log without the dev-set figures: each tab says how to measure them, for the model in use, not the
    default one (--checkpoint checkpoints/<model>); the alignment's command where not even the live figures can be
    measured (the gold pairs unreadable)."""
    if model == "zh-en" and not (ZH_CHECKPOINT / "model.safetensors").is_file():
        pytest.skip(f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")
    bare = ("agreement", "heads", "alignment", "head_roles")
    with_log(monkeypatch, lambda log: {k: v for k, v in log.items() if k not in bare})
    sentence = "我有一个梦想。" if model == "zh-en" else "I have a dream."
    shown = []
    for tab in ("heads", "importance", "align", "unreadable"):
        if tab == "unreadable":
            monkeypatch.setattr(gold, "PAIRS", tmp_path / "missing.tsv")
            result_cache.shared().clear()
        try:
            at = page("en", "align" if tab == "unreadable" else tab, model=model, sentence=sentence)
        finally:
            result_cache.shared().clear()  # neither the unreadable pairs nor the bare log stay in later tests' cache
        shown.append([i.value for i in at.info if "python -m evaluation." in i.value])
    assert [len(commands) for commands in shown] == [1, 1, 1, 1], shown  # agreement, heads, roles, alignment
    for (command,) in shown:
        assert f"--checkpoint checkpoints/{model} " in command, command


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_completeness_bound_is_said_to_hold_only_below_the_point_cap(monkeypatch, lang):
    """Where the log's alignment figures count the gold pairs whose path hit the cap, the gap caption gives them."""
    gaps = {"pairs": 150, "bound": 0.05, "most": 97, "above": 6, "worst": 0.139, "at_cap": 6}
    with_log(monkeypatch, lambda log: {**log, "alignment": {**log["alignment"], "completeness": gaps}})
    caption = "\n".join(c.value for c in page(lang).caption)
    s = strings(lang)
    assert s["explain.gap.gold"].format(pairs=150, above=6, bound="5%", worst="13.9%") in caption
    assert "97" in caption


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
