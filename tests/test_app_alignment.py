"""The "Is attention an explanation?" page's gold-alignment section, as a user reads it: the AER table with the
numbers the training log stores, and one gold sentence's links drawn on a head's map — in English and 中文."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import state_keys
from i18n import strings
from evaluation.alignment.gold import load_gold
from lessons.explanation import alignment_rows
from model import DEFAULT_BEAM, Alignment, TrainingLog, Translator
from tests.support.paths import DEV, ROOT, needs_dev


def page(lang: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=240)
    at.session_state[state_keys.SENTENCE] = "I have a dream."
    at.session_state[state_keys.BEAM] = DEFAULT_BEAM
    at.session_state[state_keys.LANG] = lang
    at.session_state["explain.tab"] = strings(lang)["explain.tab.align"]  # this section's tab, as a click opens it
    at.switch_page("app_pages/pages/explanation.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


@pytest.fixture(scope="module")
def english() -> AppTest:
    return page("en")


def stored() -> Alignment:
    return TrainingLog.from_dict(Translator.from_checkpoint("checkpoints/en-zh").training_log).alignment


def table(at: AppTest) -> str:
    return next(m.value for m in at.markdown if "| AER |" in m.value)


def test_the_table_shows_the_stored_aer_of_heads_layers_attribution_and_baseline(english):
    found, shown = stored(), table(english)
    for row in alignment_rows(found):
        assert f"| {row.aer:.3f} |" in shown
    assert "IBM Model 1" in shown and "shifted" in shown and "input × gradient" in shown
    assert len([line for line in shown.splitlines() if line.startswith("| ")]) == len(alignment_rows(found)) + 1
    intro = next(m.value for m in english.markdown if "aligned by hand" in m.value)
    assert f"{found.pairs} pairs of short sentences from the dev set's test half" in intro
    assert f"{found.baseline.aer:.3f}" in intro
    # The headline figures carry their bootstrap intervals: the head chosen on the other half, IG, IBM Model 1.
    for aligner in (found.chosen, found.integrated_gradients, found.baseline):
        assert f"{aligner.aer:.3f} ({aligner.low:.3f}–{aligner.high:.3f})" in intro
        assert f"| {aligner.aer:.3f} | {aligner.low:.3f}–{aligner.high:.3f} |" in shown
    picked = found.chosen.picked[0]
    assert f"layer {picked.layer + 1} · head {picked.head + 1}" in intro


@needs_dev
def test_a_gold_sentence_is_drawn_with_its_links_on_the_best_heads_map(english):
    gold = load_gold(DEV)
    spec = next(s for s in map(lambda c: json.loads(c.proto.spec), english.get("plotly_chart"))
                if s["layout"].get("shapes"))
    shapes = spec["layout"]["shapes"]
    first = gold[0]
    assert len([s for s in shapes if s["type"] == "rect"]) == len(first.sure)
    assert len([s for s in shapes if s["type"] == "circle"]) == len(first.possible)
    best = min((r for r in alignment_rows(stored()) if r.kind == "head_plain"), key=lambda r: r.aer)
    assert f"layer {best.layer + 1} · head {best.head + 1}" in spec["layout"]["title"]["text"]
    assert english.selectbox(key="explain.align.pair").options[0].startswith(first.english)
    assert any(f"Dev line {first.line}." in c.value for c in english.caption)


def test_the_section_reads_in_chinese():
    at = page("zh")
    assert any("注意力与人工词对齐一致吗" in h.value for h in at.header)
    assert "IBM 模型 1" in table(at)


def test_head_roles_grid_labels_every_cross_head_from_the_log(english):
    from lessons.explanation import head_roles

    log = TrainingLog.from_dict(Translator.from_checkpoint("checkpoints/en-zh").training_log)
    aer = np.minimum(log.alignment.heads_plain, log.alignment.heads_shifted)
    labels, values = head_roles(log.head_roles.cross, aer)
    spec = next(json.loads(c.proto.spec) for c in english.get("plotly_chart")
                if "role" in json.loads(c.proto.spec)["layout"]["title"]["text"])
    names = [a["text"] for a in spec["layout"]["annotations"] if a.get("yshift") == 15]
    assert len(names) == labels.size and names.count("alignment") == int((labels == "alignment").sum()) > 0
    caption = next(c.value for c in english.caption if "gold pairs, teacher-forced" in c.value)
    assert f"{int((labels == 'alignment').sum())} alignment" in caption
