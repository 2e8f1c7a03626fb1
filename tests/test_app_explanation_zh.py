"""Is attention an explanation? with the Chinese → English model (issue 49), drawn (streamlit.testing): the alignment
tab's gold sentences are offered turned round (the Chinese sentence first), and the tab draws the gold map without
an error. What each tab says and computes for zh-en, in English and 中文: tests/test_explanation_view.py. No
assertion on what the zh-en model writes: its weights change with every training run."""

from __future__ import annotations

import pytest

from evaluation.alignment.directions import directed
from evaluation.alignment.gold import load_gold
from tests.support.explanation import page
from tests.support.paths import ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                                reason=f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")


def test_the_alignment_tab_offers_the_gold_turned_round():
    at = page("en", "align", model="zh-en", sentence="我有一个梦想。")
    assert not at.error and not at.exception
    first = directed(load_gold()[0], "zh")
    assert at.selectbox(key="explain.align.pair").options[0] == f"{first.source} — {first.target}"
    assert at.get("plotly_chart")
