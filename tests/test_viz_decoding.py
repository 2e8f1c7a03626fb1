"""Structure of the decoding-step figures: mask row, cross-attention bars, candidates, beams."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from i18n import strings
from viz.decoding import CHOSEN_COLOR, attention_bar, candidates_chart, causal_mask_row
from viz.options import Labels, Room

TARGET = ["<s>", "我", "有", "一", "个", "梦", "想", "。"]


class TestCausalMaskRow:
    def test_prefix_visible_future_masked(self):
        row = np.array([0.5, 0.3, 0.2, 0, 0, 0, 0, 0], np.float32)
        fig = causal_mask_row(row,
                              Labels(None, TARGET, query_title="query", key_title="keys (target prefix)",
                                     masked_label="masked (future)"),
                              2)
        (hm,) = fig.data
        assert hm.z.shape == (1, 8)
        np.testing.assert_array_equal(hm.z[0, :3], row[:3])
        assert np.isnan(hm.z[0, 3:]).all()
        assert list(fig.layout.xaxis.ticktext) == ["&lt;s&gt;", *TARGET[1:-1], "。"]
        assert list(fig.layout.yaxis.ticktext) == ["有"]  # the query is the token read at this step
        assert (hm.zmin, hm.zmax) == (0.0, 1.0)
        assert fig.layout.annotations  # the grey cells are explained

    def test_last_step_has_no_masked_cell(self):
        fig = causal_mask_row(np.full(8, 1 / 8, np.float32),
                              Labels(None, TARGET, query_title="query", key_title="keys (target prefix)",
                                     masked_label="masked (future)"),
                              7)
        assert not np.isnan(fig.data[0].z).any()
        assert not fig.layout.annotations

    def test_bad_step_or_length(self):
        with pytest.raises(ValueError, match="step must be an integer in \\[0, 7\\]"):
            causal_mask_row(np.zeros(8),
                            Labels(None, TARGET, query_title="query", key_title="keys (target prefix)",
                                   masked_label="masked (future)"),
                            8)
        with pytest.raises(ValueError, match="labels.keys has 8 labels but the array has 5 positions"):
            causal_mask_row(np.zeros(5),
                            Labels(None, TARGET, query_title="query", key_title="keys (target prefix)",
                                   masked_label="masked (future)"),
                            1)


class TestAttentionBar:
    def test_bars_match_weights_and_tokens(self):
        source = ["▁I", "▁have", "▁a", "▁dream", ".", "</s>"]
        w = np.array([0.1, 0.6, 0.05, 0.2, 0.03, 0.02], np.float32)
        fig = attention_bar(w, source, key_title="keys (source tokens)")
        (bar,) = fig.data
        np.testing.assert_array_equal(bar.y, w)
        assert list(bar.x) == list(range(6))
        assert list(fig.layout.xaxis.ticktext)[-1] == "&lt;/s&gt;"
        low, high = fig.layout.yaxis.range
        assert low == 0 and 1 < high < 1.5  # a fixed 0–1 scale, with room for the numbers above the bars
        assert "%{y:.4f}" in bar.hovertemplate and "%{pointNumber} · %{customdata}" in bar.hovertemplate
        assert list(bar.customdata)[-1] == "&lt;/s&gt;"

    def test_wrong_shape(self):
        with pytest.raises(ValueError, match="1 dimensions"):
            attention_bar(np.zeros((2, 3)), list("abc"))


class TestCandidates:
    def test_chosen_is_highlighted(self):
        fig = candidates_chart(["我", "你", "他"], [0.7, 0.2, 0.05], 1)
        (bar,) = fig.data
        np.testing.assert_allclose(bar.x, [0.7, 0.2, 0.05], rtol=1e-6)
        assert list(bar.marker.color).count(CHOSEN_COLOR) == 1 and bar.marker.color[1] == CHOSEN_COLOR
        assert list(fig.layout.yaxis.ticktext) == ["我", "你", "他"]
        assert "%{x:.4f}" in bar.hovertemplate

    def test_repeated_candidate_tokens_stay_separate(self):
        fig = candidates_chart(["▁a", "a", "▁a"], [0.5, 0.3, 0.1], 0)
        assert list(fig.data[0].y) == [0, 1, 2]

    def test_bad_chosen(self):
        with pytest.raises(ValueError, match="chosen"):
            candidates_chart(["a"], [1.0], 3)

    @pytest.mark.parametrize("lang", ["en", "zh"])
    def test_fits_decodings_side_column(self, lang):
        """Decoding gives it 320 px; a wider figure Streamlit narrows to its column, and Plotly draws it twice."""
        s = strings(lang)
        fig = candidates_chart(["。", "是", "到", "</s>", "一"], [0.45, 0.08, 0.08, 0.03, 0.02], 0, room=Room(320),
                               token_title=s["axis.candidate"], value_label=s["axis.probability"])
        assert fig.layout.width <= 320


def test_chinese_labels_stand_upright_beside_byte_tokens_where_they_fit():
    """爱丽丝和鲍勃是朋友。 as the zh-en model reads it: 鲍 and 勃 are byte tokens (<0xE9> <0xB2> <0x8D> …), each as wide
    as four characters on one line, and they turned every label of Decoding's "where it looked" bars on its side at
    1280×800 (the page's left column, LEFT_PX). Each byte token now goes on two lines and every label stands upright
    in a font no smaller than the minimum, the bottom margin holding both lines; without byte tokens nothing changes."""
    from viz.style import LINE_EM, MIN_FONT_PX

    LEFT_PX = 480  # app_pages/pages/decoding.py's LEFT_PX (importing the page would run it)

    tokens = ["爱", "丽", "丝", "和", "<0xE9>", "<0xB2>", "<0x8D>", "<0xE5>", "<0x8B>", "<0x83>", "是", "朋", "友", "。",
              "</s>"]
    fig = attention_bar(np.full(len(tokens), 1 / len(tokens)), tokens, key_title="键（中文源句词元）",
                        value_label="权重", max_width=LEFT_PX)
    axis = fig.layout.xaxis
    assert axis.tickangle == 0 and axis.tickfont.size >= MIN_FONT_PX
    assert list(axis.ticktext[3:6]) == ["和", "&lt;0x<br>E9&gt;", "&lt;0x<br>B2&gt;"]
    assert fig.layout.margin.b >= 2 * LINE_EM * axis.tickfont.size
    plain = attention_bar(np.full(8, 0.125), list("我有一个梦想。") + ["</s>"], max_width=LEFT_PX)
    assert "<br>" not in "".join(plain.layout.xaxis.ticktext) and plain.layout.xaxis.tickangle == 0
