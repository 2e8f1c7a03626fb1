"""The class poll's tally chart (viz/poll.py)."""

from __future__ import annotations

import pytest

from viz.poll import VOTES_COLOR, tally_bars
from viz.style import HIGHLIGHT_COLOR


def test_one_bar_per_option_with_its_count():
    fig = tally_bars(["▁I", "▁dream", "</s>"], [2, 5, 0], title="Votes")
    (bars,) = fig.data
    assert list(bars.x) == [0, 1, 2] and list(bars.y) == [2, 5, 0] and bars.marker.color == VOTES_COLOR
    assert not fig.layout.showlegend and not fig.layout.shapes
    assert list(fig.layout.xaxis.ticktext) == ["▁I", "▁dream", "&lt;/s&gt;"]  # tokens escaped for Plotly


def test_the_revealed_answer_has_its_own_colour_and_legend_entry():
    fig = tally_bars(["▁I", "<b>x</b>", "</s>"], [2, 5, 0], answer=1, answer_label="the model's answer")
    votes, answer = fig.data
    assert list(votes.x) == [0, 2] and list(votes.y) == [2, 0]
    assert list(answer.x) == [1] and list(answer.y) == [5] and answer.marker.color == HIGHLIGHT_COLOR
    assert answer.name == "the model's answer" and list(answer.customdata) == ["&lt;b&gt;x&lt;/b&gt;"]
    assert fig.layout.showlegend and fig.layout.barmode == "overlay"
    (band,) = fig.layout.shapes  # the answer's slot is shaded: it shows even where no one voted for it
    assert (band.x0, band.x1, band.fillcolor) == (0.5, 1.5, HIGHLIGHT_COLOR)


def test_bad_input_says_what_to_pass():
    with pytest.raises(ValueError, match="labels"):
        tally_bars(["a", "b"], [1, 2, 3])
    with pytest.raises(ValueError, match="answer"):
        tally_bars(["a", "b"], [1, 2], answer=2)
    with pytest.raises(ValueError, match="non-negative"):
        tally_bars(["a", "b"], [1, -2])
