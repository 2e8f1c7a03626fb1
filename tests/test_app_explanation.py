"""The "Is attention an explanation?" page drawn (AppTest): every tab, the all-cross-heads button, Pin to deck, the
page in 中文; and the words the page's texts use. What each tab says and computes: tests/test_explanation_view.py."""

from __future__ import annotations

import numpy as np
import pytest

from app_pages.state import state_keys
from i18n import strings
from tests.support.explanation import SENTENCE, page


def test_the_all_cross_heads_button_knocks_them_out_and_retranslates(translator):
    """The button picks every cross head in the picker, and the page shows the view of that re-translation (what it
    says: tests/test_explanation_view.py)."""
    at = page(tab="knock")
    at.button(key="explain.knock.cross").click().run()
    assert not at.exception
    heads = [("cross", l, h) for l in range(3) for h in range(8)]
    assert at.multiselect(key="explain.knock").value == heads
    knocked = translator.translate(SENTENCE, knock_out=tuple(heads))
    assert any(f"with 24 head(s) knocked out: **{knocked.translation}**" in m.value for m in at.markdown)


@pytest.mark.parametrize("tab", ["maps", "heads", "importance", "align", "caveat"])
def test_every_tab_is_drawn(tab):
    """Each tab drawn from its view: its charts, no error; the maps' tab with Pin to deck."""
    at = page(tab=tab)
    assert not at.error and not at.exception
    assert at.get("plotly_chart") or tab == "caveat"
    if tab == "maps":
        assert len(at.get("plotly_chart")) == 4 and at.button(key="explain.pin")


def test_pin_to_deck_adds_the_heads_map_to_the_deck():
    at = page()
    at.button(key="explain.pin").click().run()
    assert not at.exception
    (slide,) = at.session_state[state_keys.DECK]
    assert slide.page == "translate" and slide.query["kind"] == "cross" and slide.query["s"] == SENTENCE


def test_the_page_speaks_chinese():
    at = page("zh", tab="importance")
    assert at.title[0].value == "注意力是解释吗？"
    assert [tab.label for tab in at.tabs][:2] == ["1 · 注意力与归因并排", "2 · 哪些头一致"]
    assert any("开发集" in m.value for m in at.markdown)


def test_the_words_say_what_is_measured():
    """ρ runs over source tokens, every full stop counts as a sink (sink_shares counts them all), rows are the steps
    labelled by the token each reads, and 中文 calls rollout 注意力累积 (first as 注意力累积（rollout）), never 展开."""
    from lessons.explanation import sink_shares

    en, zh = strings("en"), strings("zh")
    weights = np.full((1, 1, 1, 5), 0.2)
    present, shares, _ = sink_shares(weights, ["a", ".", "b", ".", "</s>"])
    assert present == ["</s>", "."] and shares[0, 1] == pytest.approx(0.4)  # both full stops, not the last alone
    assert "final full stop" not in en["explain.caveat.sinks"] and "句末" not in zh["explain.caveat.sinks"]
    assert "source words" not in en["explain.open.agreement"] and "源词" not in zh["explain.open.agreement"]
    assert "being written" not in en["explain.maps.caption"] and "正在写出" not in zh["explain.maps.caption"]
    assert "training set's {source} sentences" in en["explain.roles.caption"]
    assert "按训练集中的{source}句子计" in zh["explain.roles.caption"]
    page_zh = [v for k, v in zh.items() if k.startswith("explain.")]
    assert not [v for v in page_zh if "展开" in v]
    assert "注意力累积（rollout）" in zh["explain.papers"]
    assert zh["explain.papers"].index("注意力累积（rollout）") == zh["explain.papers"].index("注意力累积")
