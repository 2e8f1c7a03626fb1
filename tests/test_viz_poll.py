"""The class poll's tally chart (viz/poll.py)."""

from __future__ import annotations

import pytest

from viz.options import Room
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


PATCHING = [f"{kind} · layer {layer}" for kind in ("encoder self", "decoder self", "cross") for layer in (1, 2, 3)]


def test_names_too_long_to_stand_under_bars_get_a_row_each_within_the_room():
    """A patching poll's nine kind × layer names stood on their side and ran below a 1280×800 screen: a row each,
    the first on top, no name turned, the figure within its room, the answer still marked."""
    room = Room(460, 330)
    fig = tally_bars(PATCHING, [1, 2, 1, 1, 0, 0, 0, 3, 0], answer=7, title="Votes so far: 8", room=room,
                     answer_label="the measured answer")
    votes, answer = fig.data
    assert votes.orientation == answer.orientation == "h"
    assert list(votes.y) == [0, 1, 2, 3, 4, 5, 6, 8] and list(votes.x) == [1, 2, 1, 1, 0, 0, 0, 0]
    assert list(answer.y) == [7] and list(answer.x) == [3] and answer.marker.color == HIGHLIGHT_COLOR
    assert list(fig.layout.yaxis.ticktext) == PATCHING and list(fig.layout.yaxis.range) == [8.5, -0.5]  # first on top
    assert not fig.layout.yaxis.tickangle and not fig.layout.xaxis.tickangle
    assert fig.layout.width <= room.max_width and fig.layout.height <= room.max_height
    assert not fig.layout.showlegend and answer.name == "the measured answer"  # the page names it beside
    (band,) = fig.layout.shapes
    assert (band.y0, band.y1) == (6.5, 7.5)


def test_short_names_keep_upright_bars():
    fig = tally_bars(["▁I", "▁have", "▁a", "▁dream", ".", "</s>"], [1, 0, 2, 0, 0, 0], room=Room(460, 330))
    assert fig.data[0].orientation is None and not fig.layout.xaxis.tickangle
