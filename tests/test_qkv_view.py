"""The Q·K·V page's view, computed without Streamlit (app_pages/pages/qkv_view.py): the notes' worked example and
its steps, the matrix form, and one head of the live model walked through for one query, with Pin to deck's slide,
in both interface languages. The checks that were AppTests of the page's texts and numbers."""

from __future__ import annotations

import re

import pytest

from app_pages.components import teaching_slides
from app_pages.components.parts import Chart, Notice, Table, Tables, every, texts
from app_pages.components.teaching_shared import DIMS_PER_TABLE
from app_pages.pages import qkv_view
from app_pages.shell.text import in_language
from model import DEFAULT_BEAM
from tests.support.paths import needs_checkpoint

SENTENCE = "I have a dream."


def number_in(number: str, text: str) -> bool:
    return re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text) is not None


@pytest.fixture(scope="module")
def result(translator):
    return translator.translate(SENTENCE, beam=DEFAULT_BEAM)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_worked_example_shows_the_notes_numbers(lang):
    with in_language(lang):
        shown = qkv_view.example()
        text = texts(qkv_view.overview(shown)) + "\n".join(texts(qkv_view.step_parts(s, shown))
                                                          for s in qkv_view.STEPS)
    for number in ("112", "96", "14", "12", "0.88", "0.12"):
        assert number_in(number, text), number
    assert [c.key for c in every(qkv_view.overview(shown)) if isinstance(c, Chart)] == ["qkv.example.steps"]


@pytest.mark.parametrize("step, expected", [("project", "q_1 = x_1 W_Q"), ("dot", "= 112"), ("scale", "= 14"),
                                            ("softmax", "0.8808"), ("sum", "z_1")])
def test_every_step_of_the_worked_example_says_its_result(step, expected):
    with in_language("en"):
        assert expected in texts(qkv_view.step_parts(step, qkv_view.example()))


def test_the_example_tables_show_every_input_and_the_matrix_form_checks_itself():
    with in_language("en"):
        shown = qkv_view.example()
        (inputs,) = [p for p in every(qkv_view.overview(shown)) if isinstance(p, Tables)]
        matrix = qkv_view.matrix_parts(shown)
    names, frames = zip(*inputs.tables)
    assert names == ("x", "W_Q", "W_K", "W_V")
    assert list(frames[0].columns) == ["0", "1", "2", "3"] and frames[0].loc["x₁ · Thinking"].tolist() == ["2", "2",
                                                                                                           "1", "1"]
    (check,) = [p for p in matrix if isinstance(p, Notice)]
    assert check.level == "success" and "112" in check.text


@needs_checkpoint
@pytest.mark.parametrize("kind", ["encoder_self", "decoder_self", "cross"])
def test_the_live_walkthrough_agrees_with_the_model_for_each_kind(result, kind):
    with in_language("en"):
        shown = qkv_view.live_view(result, teaching_slides.Pick(kind, 2, 5, 1), "en-zh", False)
    (check,) = [p for p in every(shown.after) if isinstance(p, Notice)]
    assert check.level == "success" and "the attention the model returned" in check.text
    explained = {"encoder_self": "of the **encoder**", "decoder_self": "decoder's self-attention",
                 "cross": "cross-attention"}
    text = texts(shown.before)
    assert explained[kind] in text and "Layer 3, head 6" in text
    query = next(p.data for p in every(shown.before)
                 if isinstance(p, Table) and list(p.data.columns)[0] == "+0")  # under the query's label
    assert query.index.name.startswith("1: ")
    assert query.size == 32 and query.index[-1] == "dimensions 24–31"
    assert max(len(f.columns) for p in every(shown.before) if isinstance(p, Tables) for _, f in p.tables) \
        <= DIMS_PER_TABLE
    assert shown.chart.key == "qkv.live.steps"


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_live_view_pins_its_head_and_query_titled_in_the_session_language(result, lang):
    with in_language(lang):
        shown = qkv_view.live_view(result, teaching_slides.Pick("cross", 1, 3, 2), "en-zh", True)
    assert shown.pin.page == "qkv"
    assert shown.pin.query == {"s": SENTENCE, "model": "en-zh", "tab": "live", "kind": "cross", "layer": "2",
                               "head": "4", "query": "2"}
    assert shown.pin.title == {"en": "Q·K·V · Cross-attention · layer 2 · head 4 · query position 2 — I have a dream.",
                               "zh": "Q·K·V · 交叉注意力 · 第 2 层 · 第 4 个头 · 查询位置 2 — I have a dream."}[lang]
    marian = [p for p in every(shown.before) if type(p).__name__ == "Caption"]
    assert marian, "a model that scales q first says so"
