"""Compare's maps at 1280×800 (issue 60): Both ways opens on the layer whose maps show most (computed, not layer 1,
where every head averaged is nearly even), labels every row and column of a pill's pair, and shares one colour bar;
a colour bar laid across under a map starts below the x axis's title, where Plotly draws it (it sat on the title)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import state_keys
from lessons.attention_maps import clearest_layer
from tests.support.paths import ROOT, ZH_CHECKPOINT
from viz.heatmap import X_TITLE_FLOOR_PX, attention_heatmap
from viz.options import Labels, Room

PAGE = "app_pages/pages/compare.py"


def test_clearest_layer_is_the_least_even_one():
    even = np.full((2, 3, 4), 1 / 4)  # (heads, rows, keys): every row spread evenly
    one_hot = np.zeros((2, 3, 4))
    one_hot[:, :, 1] = 1
    half = (even + one_hot) / 2
    weights = np.stack([even, one_hot, half])  # (layers, heads, Tq, Tk)
    assert clearest_layer(weights) == 1
    # averaged over two models' arrays; the one with fewer layers stands in with its last for the ones it lacks
    assert clearest_layer(np.stack([even, half, even]), np.stack([even, one_hot])) == 1
    assert clearest_layer(np.stack([even, even])) == 0  # a tie: the first


def app(model: str, sentence: str, lang: str = "en") -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state[state_keys.CHECKPOINT] = model
    at.session_state[state_keys.SENTENCE] = sentence
    at.session_state[state_keys.LANG] = lang
    at.session_state["compare.mode"] = "directions"
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def labels_shown(spec: dict, axis: str) -> int:
    """How many labels an axis letter ("x", "y") draws: its overlay's where it thins them (viz.heatmap)."""
    axes = [a for name, a in spec["layout"].items() if name.startswith(f"{axis}axis") and a.get("showticklabels", True)]
    return sum(len(a.get("ticktext", ())) for a in axes)


needs_zh = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(), reason="no zh-en checkpoint")


@needs_zh
@pytest.mark.parametrize(("model", "other", "sentence"), [("en-zh", "zh-en", "Tom bought three apples yesterday."),
                                                          ("zh-en", "en-zh", "汤姆昨天买了三本书。")])
def test_both_ways_opens_on_the_clearest_layer_with_every_label(translator, zh_translator, model, other, sentence):
    """A pill of each direction: the page opens on the layer clearest_layer computes from both models' cross-attention
    (not layer 1), and both maps label every row and column (the transposed one thinned its rows to every other one
    for the en-zh pill, laid out under a title row and beside its own colour bar); one colour bar, on the right map."""
    models = {"en-zh": translator, "zh-en": zh_translator}
    left = models[model].translate(sentence)
    right = models[other].translate(left.translation)
    at = app(model, sentence)
    expected = clearest_layer(left.cross, right.cross)
    assert at.session_state["compare.layer"] == expected and expected != 0
    assert at.segmented_control(key="compare.layer").value == expected
    specs = {chart.key: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}
    shapes = {"compare.chart.left": left.cross.shape[2:], "compare.chart.right": right.cross.shape[2:][::-1]}
    for key, (rows, cols) in shapes.items():
        assert (labels_shown(specs[key], "y"), labels_shown(specs[key], "x")) == (rows, cols), key
    assert not specs["compare.chart.left"]["data"][0]["showscale"]
    assert specs["compare.chart.right"]["data"][0]["showscale"]


def test_a_colour_bar_across_starts_below_where_plotly_draws_the_x_title():
    """Short x labels (Chinese characters) leave Plotly's x title lower than the labels' room: the bar laid across
    under the axis starts below X_TITLE_FLOOR_PX, a pad's gap more, and the figure's bottom margin holds it."""
    chars = list("他没来上学因为他病了很忙。")
    fig = attention_heatmap(np.full((13, 13), 1 / 13),
                            Labels(chars, chars, query_title="queries", key_title="keys", value_label="weight"),
                            room=Room(max_width=400, max_height=560), compact_scale=True)
    bar = fig.data[0].colorbar
    assert bar.orientation == "h"
    plot_h = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    assert -bar.y * plot_h >= X_TITLE_FLOOR_PX + 6  # its title's top, drawn 6 px above y, clears the axis title
    assert fig.layout.margin.b >= X_TITLE_FLOOR_PX + 6 + 64
