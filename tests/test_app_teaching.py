"""AppTest: every teaching page renders in English and Chinese; the worked example shows the notes' numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from model import DEFAULT_CHECKPOINT

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PAGES = ("qkv", "masks", "positional", "scaling", "multihead", "anatomy")

pytestmark = pytest.mark.skipif(
    not (DEFAULT_CHECKPOINT / "model.safetensors").is_file(), reason=f"needs the shipped checkpoint in {DEFAULT_CHECKPOINT}"
)


def open_page(page: str, lang: str = "en", **state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state["lang"] = lang
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def page_text(at: AppTest) -> str:
    """Everything the page shows as text: Markdown, LaTeX, messages, titles and table cells."""
    parts = [el.value for kind in ("markdown", "latex", "success", "info", "warning", "error", "caption", "title",
                                   "header", "subheader") for el in getattr(at, kind)]
    parts += [frame.value.to_string() for frame in at.dataframe]
    return "\n".join(str(p) for p in parts)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_teaching_page_renders(page, lang):
    at = open_page(page, lang)
    assert at.get("plotly_chart"), "every teaching page draws at least one figure"
    text = page_text(at)
    has_chinese = re.search(r"[\u4e00-\u9fff]{4}", text) is not None
    assert has_chinese == (lang == "zh")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_worked_example_shows_the_notes_numbers(lang):
    at = open_page("qkv", lang)
    text = page_text(at)
    for number in ("112", "96", "14", "12", "0.88", "0.12"):
        assert re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text), number


@pytest.mark.parametrize("step", ["project", "dot", "scale", "softmax", "sum"])
def test_every_step_of_the_worked_example_renders(step):
    at = open_page("qkv", **{"qkv.step": step})
    text = page_text(at)
    expected = {"project": r"q_1 = x_1 W_Q", "dot": "= 112", "scale": "= 14", "softmax": "0.8808", "sum": "z_1"}[step]
    assert expected in text


@pytest.mark.parametrize("kind", ["encoder_self", "decoder_self", "cross"])
def test_live_walkthrough_agrees_with_the_model_for_each_kind(kind):
    at = open_page("qkv", **{"qkv.live.kind": kind, "qkv.live.layer": 2, "qkv.live.head": 5, "qkv.live.query": 1})
    checks = [s.value for s in at.success if "the attention the model returned" in s.value]
    assert len(checks) == 1 and not at.error
    explained = {"encoder_self": "of the **encoder**", "decoder_self": "decoder's self-attention", "cross": "cross-attention"}
    assert explained[kind] in page_text(at) and "Layer 3, head 6" in page_text(at)


def test_indivisible_heads_explain_themselves():
    at = open_page("multihead", **{"mh.heads": 7})
    assert any("300 / 7" in e.value for e in at.error)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_slowest_positional_period_depends_on_d_model(lang):
    """The last (sin, cos) pair turns once every 2π·10000^((d−2)/d) positions, not 2π·10000 whatever d is."""
    import math

    at = open_page("positional", lang)
    d = at.select_slider(key="pe.d_model").value
    expected = f"{2 * math.pi * 10000 ** ((d - 2) / d):,.0f}"
    assert expected in page_text(at) and f"{2 * math.pi * 10000:,.0f}" not in page_text(at)
    at.select_slider(key="pe.d_model").set_value(16).run()
    assert f"{2 * math.pi * 10000 ** (14 / 16):,.0f}" in page_text(at)
