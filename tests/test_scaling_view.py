"""The scaling page's view, computed without Streamlit (app_pages/pages/scaling_view.py): the variance of q·k and the
saturated softmax for a picked d_k, the worked example's borrowed d_k, and the model's embedding rows against a PE
row, in both interface languages. The checks that were AppTests of the page's texts and numbers
(tests/test_app_teaching.py, tests/test_app_teaching_zh.py); the page's run stays an AppTest there."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from app_pages.components.parts import Chart, Notice, Text, every, texts
from app_pages.pages import scaling_view
from app_pages.shell.text import in_language
from lessons import scaling
from lessons.scaling import embedding_scale
from tests.support.paths import needs_checkpoint

NOTE_CITATION = re.compile(r"(?i)\bnotes? 0\d\d|笔记 ?0\d\d")  # "study note 000", "学习笔记 002": no student has them
CJK = r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"
ASCII_COMMA_IN_CHINESE = re.compile(rf"{CJK}\s*,|,\s*{CJK}")


def shown(number: str, text: str) -> bool:
    """`number` in the text as a number of its own (not the middle of a longer one)."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text) is not None


@pytest.mark.parametrize("d_k", [8, 64, 512])
def test_the_variance_and_the_saturation_are_the_picked_d_ks(d_k):
    with in_language("en"):
        parts = scaling_view.dk_parts(d_k)
    assert [p.key for p in parts if isinstance(p, Chart)] == ["scaling.var", "scaling.sat"]
    raw, scaled = scaling.dot_product_variance()
    i = scaling.D_K_CHOICES.index(d_k)
    sat = scaling.saturation(d_k)
    said = texts(parts)
    for number in (f"{raw[i]:.1f}", f"{scaled[i]:.2f}", f"{math.sqrt(raw[i]):.1f}", f"{sat.raw_weights.max():.3f}",
                   f"{sat.largest_gradient(sat.raw_weights):.2e}"):
        assert shown(number, said), number
    sat_chart = next(p for p in parts if isinstance(p, Chart) and p.key == "scaling.sat")
    assert f"{math.sqrt(d_k):.2f}" in " ".join(trace.name for trace in sat_chart.figure.data)


def test_the_scaling_page_says_the_borrowed_8_keeps_the_toy_example_in_range_and_why():
    """Moved from test_app_teaching (an AppTest of the page's first tab)."""
    with in_language("en"):
        parts = scaling_view.dk_parts(scaling_view.DEFAULT_D_K)
    toy = next(p.markdown for p in parts if isinstance(p, Text) and p.markdown.startswith("The worked example divides"))
    assert "borrowed 8" in toy and "mean 0 and variance 1" in toy
    assert "mean square of 32, not 1" in toy  # (8² + 6² + 10² + 2² + 7² + 3² + 7² + 1² + 5² + 3² + 2² + 6²) / 12
    assert "Dividing by √d_k is what keeps the softmax in its useful range" not in texts(parts)


@pytest.fixture(scope="module")
def tables(translator):
    return translator.weight("src_embed.weight"), translator.weight("tgt_embed.weight")


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_embedding_rows_lengths_are_computed_from_the_weights(translator, tables, lang):
    """Moved from test_app_teaching (two AppTests in each language): the models' own norms, and not "training kept
    them near that size" but the median row lengths against about 1 at initialisation (N(0, 1/d_model))."""
    with in_language(lang):
        parts = scaling_view.embedding_parts(translator.config, *tables)
    source = embedding_scale(tables[0], translator.config.pad_id)
    target = embedding_scale(tables[1], translator.config.pad_id)
    said = texts(parts)
    for number in (source.raw, source.scaled, source.ratio(False), source.ratio(True), source.positional, target.raw):
        assert shown(f"{number:.2f}", said), number
    (init,) = [p.text for p in parts if isinstance(p, Notice)]
    pad = translator.config.pad_id
    medians = [np.median(np.linalg.norm(np.delete(table, pad, axis=0), axis=1)) for table in tables]
    assert "N(0, 1/d_model)" in init and f"{medians[0]:.2f}" in init and f"{medians[1]:.2f}" in init
    assert ("about 1 at the start" in init) if lang == "en" else ("开始时约为 1" in init)
    (chart,) = [p for p in parts if isinstance(p, Chart)]
    bars = sorted(np.asarray(chart.figure.data[0].x, dtype=float))  # drawn longest first
    assert np.allclose(bars, sorted([source.raw, source.scaled, target.raw, target.scaled, source.positional]),
                       rtol=1e-6)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chinese_models_embedding_tables_are_its_own(zh_translator, lang):
    """Moved from test_app_teaching_zh (an AppTest per language): the zh-en model's tables, its own numbers."""
    source_table, target_table = (zh_translator.weight(f"{side}_embed.weight") for side in ("src", "tgt"))
    with in_language(lang):
        parts = scaling_view.embedding_parts(zh_translator.config, source_table, target_table)
    source = embedding_scale(source_table, zh_translator.config.pad_id)
    assert shown(f"{source.raw:.2f}", texts(parts)) and [p.key for p in every(parts) if isinstance(p, Chart)]


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_both_tabs_cite_no_notes_and_join_chinese_lists_with_chinese_marks(translator, tables, lang):
    """Moved from test_app_teaching's rendered-page check (every tab of every teaching page)."""
    with in_language(lang):
        text = texts((*scaling_view.dk_parts(scaling_view.DEFAULT_D_K), scaling_view.VARIANCE_FORMULA,
                      *scaling_view.embedding_parts(translator.config, *tables)))
    assert not NOTE_CITATION.search(text)
    if lang == "zh":
        assert not ASCII_COMMA_IN_CHINESE.search(text), ASCII_COMMA_IN_CHINESE.search(text).group(0)
    assert bool(re.search(r"[\u4e00-\u9fff]{4,}", text)) == (lang == "zh")
