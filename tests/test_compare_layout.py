"""Compare's maps at 1280×800 (issue 60): Both ways opens on the layer whose maps show most (computed, not layer 1,
where every head averaged is nearly even; the page opening on it, every row and column of a pill's pair labelled and
one colour bar: tests/test_app_compare_zh.py's run per language); a colour bar laid across under a map starts below
the x axis's title, where Plotly draws it (it sat on the title)."""

from __future__ import annotations

import numpy as np

from lessons.attention_maps import clearest_layer
from viz.heatmap import X_TITLE_FLOOR_PX, attention_heatmap
from viz.options import Labels, Room


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
