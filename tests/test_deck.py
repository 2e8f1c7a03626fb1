"""The slide deck as data (lessons/deck.py): its JSON inside an exported HTML file, read back strictly; and the
difference map of the compare page (B − A, lessons/deck.py and viz/heatmap.difference_heatmap)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lessons.deck import (
    MAX_FILE_BYTES, MAX_SLIDES, MAX_TITLE, BadDeck, Slide, difference, from_json, json_in_html, moved,
    to_json,
)
from viz.heatmap import difference_heatmap
from viz.options import Labels

PAGES = {"translate": {"s", "kind", "layer", "head", "lang"}, "compare": {"s", "kind", "layer", "head"}}
SLIDES = [Slide("translate", {"s": "I have a dream.", "kind": "cross", "layer": "2", "head": "5"}, "Cross, layer 2"),
          Slide("compare", {"s": "</script><script>alert(1)</script>", "kind": "encoder_self", "layer": "1",
                            "head": "average"}, "<b>x</b> & 梦想")]


def in_html(text: str) -> bytes:
    return f'<html><body><script type="application/json" id="deck">{text}</script></body></html>'.encode()


def test_a_deck_reads_back_as_it_was_written_even_with_markup_in_it():
    text = to_json(SLIDES)
    assert "<" not in text and ">" not in text  # nothing in it can close the <script> element it sits in
    assert from_json(json_in_html(in_html(text)), PAGES) == SLIDES


@pytest.mark.parametrize("change, key", [
    (lambda d: d.update(format="other/9"), "format"),
    (lambda d: d.update(slides=[]), "count"),
    (lambda d: d.update(slides=d["slides"] * (MAX_SLIDES + 1)), "count"),
    (lambda d: d["slides"][0].update(page="model_card"), "page"),
    (lambda d: d["slides"][0]["query"].update(evil="1"), "name"),
    (lambda d: d["slides"][1]["query"].update(lang="en"), "name"),  # compare's slides carry no lang here
    (lambda d: d["slides"][0]["query"].update(s=["a list"]), "field"),
    (lambda d: d["slides"][0]["query"].update(s="x" * 10_000), "field"),
    (lambda d: d["slides"][0].update(title="t" * (MAX_TITLE + 1)), "field"),
    (lambda d: d["slides"][0].update(extra=1), "field"),
    (lambda d: d["slides"].__setitem__(0, "not a slide"), "field"),
])
def test_a_hostile_deck_is_refused_with_a_reason(change, key):
    data = json.loads(to_json(SLIDES))
    change(data)
    with pytest.raises(BadDeck) as caught:
        from_json(json.dumps(data), PAGES)
    assert caught.value.key == key


@pytest.mark.parametrize("document, key", [
    (b"<html>no deck here</html>", "no_deck"),
    (b"\xff\xfe not utf-8", "no_deck"),
    (in_html("[]") + in_html("[]"), "no_deck"),  # two decks: which one?
    (b" " * (MAX_FILE_BYTES + 1), "size"),
])
def test_a_file_without_exactly_one_deck_is_refused(document, key):
    with pytest.raises(BadDeck) as caught:
        json_in_html(document)
    assert caught.value.key == key


@pytest.mark.parametrize("text", ["{not json", "[" * 100_000, "null", '{"format": "attention-deck/1"}'])
def test_broken_json_is_refused(text):
    with pytest.raises(BadDeck):
        from_json(text, PAGES)


def test_moving_a_slide_swaps_it_with_its_neighbour_and_stops_at_the_ends():
    assert moved(["a", "b", "c"], 2, -1) == ["a", "c", "b"]
    assert moved(["a", "b", "c"], 0, 1) == ["b", "a", "c"]
    assert moved(["a", "b", "c"], 0, -1) == ["a", "b", "c"]
    assert moved(["a", "b", "c"], 2, 1) == ["a", "b", "c"]


def test_difference_is_b_minus_a_on_the_same_axes_only():
    a, b = np.array([[0.25, 0.75], [1.0, 0.0]]), np.array([[0.5, 0.5], [0.0, 1.0]])
    np.testing.assert_allclose(difference(a, b), [[0.25, -0.25], [-1.0, 1.0]])
    with pytest.raises(ValueError, match="different shapes"):
        difference(a, np.ones((2, 3)))


def test_difference_map_is_centred_on_zero_with_a_diverging_scale():
    diff = np.array([[0.1, -0.4], [0.2, 0.0]])
    fig = difference_heatmap(diff, Labels(["a", "b"], ["c", "d"], value_label="B − A"), title="B − A",
                             mask=np.tril(np.ones((2, 2), bool)))
    (heat,) = [trace for trace in fig.data if trace.type == "heatmap"]
    assert heat.zmin == -heat.zmax and heat.zmax == pytest.approx(0.2)  # the masked −0.4 sets no scale
    colours = [c for _, c in heat.colorscale]
    assert colours[0] != colours[-1] and colours[len(colours) // 2] == "rgb(247,247,247)"  # near-white at 0


@pytest.mark.parametrize("sentence", [
    "x" * 601, ("I have a dream. " * 70)[:1000],  # longer than the old 600-character limit, within the app's 1,000
    "First line.\nSecond line.", "a\r\nb\tc",  # line breaks and tabs, as a text area or a link sends them
])
def test_a_deck_keeps_every_sentence_the_app_accepts(sentence):
    """Issue 53: a slide of a 601-to-1,000-character sentence, or one with a line break, exported and was then
    refused on import."""
    slide = Slide("translate", {"s": sentence, "kind": "cross", "layer": "1", "head": "1"}, f"Cross — {sentence[:39]}")
    assert from_json(json_in_html(in_html(to_json([slide]))), PAGES) == [slide]


def test_a_link_value_may_be_as_long_as_the_longest_sentence_the_app_takes_and_no_longer():
    from lessons.deck import MAX_VALUE
    from model import MAX_CHARS

    assert MAX_VALUE == MAX_CHARS
    slide = {"page": "translate", "query": {"s": "x" * (MAX_VALUE + 1)}, "title": "t"}
    with pytest.raises(BadDeck):
        from_json(json.dumps({"format": "attention-deck/1", "slides": [slide]}), PAGES)
