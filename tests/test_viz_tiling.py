"""viz.tiling.side_by_side: figures laid out for columns become one figure that draws each where its column would."""

from __future__ import annotations

import numpy as np
import pytest

from viz.options import Labels, Room
from viz.style import MASKED_COLOR
from viz.teaching_masks import mask_stage_figure
from viz.tiling import side_by_side

COLUMN, GAP = 402, 16
TOKENS = ["▁i", "▁have", "▁a", "▁dream"]
CAUSAL = np.tril(np.ones((4, 4), dtype=bool))


def stages():
    """The masks page's first row: M (no colour bar, grey −∞ cells) and the scores (a colour bar)."""
    labels = dict(query_title="queries (the tokens doing the attending)", key_title="keys (the tokens attended to)")
    mask = mask_stage_figure("mask", np.where(CAUSAL, 0.0, -np.inf), Labels(TOKENS, TOKENS, value_label="M", **labels),
                             title="① The mask M", room=Room(COLUMN))
    scores = mask_stage_figure("scores", np.arange(16.0).reshape(4, 4) - 8,
                               Labels(TOKENS, TOKENS, value_label="score", **labels), title="② Scores",
                               room=Room(COLUMN))
    return mask, scores


def plot_px(fig) -> tuple[float, float]:
    """Left and right edge of a figure's plot area, in px from its left edge."""
    return fig.layout.margin.l, fig.layout.width - fig.layout.margin.r


def test_each_figure_keeps_its_place_data_axes_colour_bar_and_title():
    mask, scores = stages()
    both = side_by_side([mask, scores], COLUMN, GAP)
    width = 2 * COLUMN + GAP
    assert (both.layout.width, both.layout.height) == (width, max(mask.layout.height, scores.layout.height))
    assert len(both.data) == len(mask.data) + len(scores.data)
    np.testing.assert_array_equal(np.asarray(both.data[len(mask.data)].z), scores.data[0].z)

    # The second figure's axes are its own, renumbered, anchored to each other, where its column puts its plot.
    first = {(t.xaxis, t.yaxis) for t in both.data[: len(mask.data)]}
    second = {(t.xaxis, t.yaxis) for t in both.data[len(mask.data):]}
    assert first == {("x", "y")} and second == {("x2", "y2")}
    assert both.layout.yaxis2.anchor == "x2" and both.layout.xaxis2.anchor == "y2"
    left, right = plot_px(scores)
    assert np.allclose(np.array(both.layout.xaxis2.domain) * width, [COLUMN + GAP + left, COLUMN + GAP + right])
    assert np.allclose(np.array(both.layout.xaxis.domain) * width, plot_px(mask))
    top, bottom = scores.layout.margin.t, scores.layout.height - scores.layout.margin.b
    assert np.allclose((1 - np.array(both.layout.yaxis2.domain)) * both.layout.height, [bottom, top])

    # The colour bar stays right of its plot; each title stays at its figure's top left.
    assert both.data[len(mask.data)].colorbar.x * width == pytest.approx(COLUMN + GAP + right)
    titles = {a.text: a.x * width for a in both.layout.annotations if a.text in ("① The mask M", "② Scores")}
    assert titles == {"① The mask M": 0, "② Scores": pytest.approx(COLUMN + GAP)}
    # M's grey gaps: its plot keeps its own grey background under the cells.
    grey = [s for s in both.layout.shapes if s.fillcolor == MASKED_COLOR]
    assert [(s.xref, s.yref, s.layer) for s in grey] == [("x domain", "y domain", "below")]


def test_each_figure_needs_its_size_and_a_column_it_fits():
    mask, scores = stages()
    with pytest.raises(ValueError, match="at least one"):
        side_by_side([], COLUMN, GAP)
    with pytest.raises(ValueError, match="wider than its column"):
        side_by_side([mask, scores], COLUMN - 100, GAP)
    sized = scores.to_dict()
    sized["layout"].pop("width")
    with pytest.raises(ValueError, match="layout.width and layout.height"):
        side_by_side([mask, type(scores)(sized)], COLUMN, GAP)
