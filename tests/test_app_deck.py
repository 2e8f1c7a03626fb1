"""The slide deck in-process (streamlit.testing): Pin to deck under the explorer's map, the deck page's list
(reorder, rename, delete), presenting, and a saved deck read back (and a hostile one refused)."""

from __future__ import annotations

import pytest

from app_pages import decks, state_keys
from app_pages.link_values import BadLinkValue
from lessons.deck import BadDeck, Slide, to_json
from tests.test_app_explorer import app

PIN = "explorer.chart.head.pin"


def pin_three(at):
    """Pins three views of the explorer: cross-attention layer 1, 2 and 3, head 1."""
    at.segmented_control(key="explorer.kind").set_value("cross").run()
    for layer in range(3):
        at.segmented_control(key="explorer.layer").set_value(layer).run()
        at.segmented_control(key="explorer.head").set_value(0).run()
        at.button(key=PIN).click().run()
        assert not at.exception, [e.message for e in at.exception]
        assert [toast.value for toast in at.toast] == [
            f"Pinned as slide {layer + 1}: Cross\\-attention · layer {layer + 1} · head 1 — I have a dream\\."]
    return at


def deck_page(at):
    at.switch_page("app_pages/pages/deck.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def titles(at) -> list[str]:
    return [box.value for box in at.text_input if box.key.startswith("deck.rename.")]


@pytest.fixture
def pinned():
    return deck_page(pin_three(app("I have a dream.")))


def test_three_pins_make_three_slides_each_titled_and_linked_to_its_view(pinned):
    deck = pinned.session_state[state_keys.DECK]
    assert [s.query["layer"] for s in deck] == ["1", "2", "3"]
    assert all(s.page == "translate" and s.query["kind"] == "cross" and s.query["s"] == "I have a dream." for s in deck)
    assert titles(pinned) == [f"Cross-attention · layer {n} · head 1 — I have a dream." for n in (1, 2, 3)]
    opens = [(link.proto.page, link.proto.query_string) for link in pinned.get("page_link")]
    assert opens == [("translate", f"s=I+have+a+dream.&model=en-zh&kind=cross&view=head&layer={n}&head=1")
                     for n in (1, 2, 3)]  # each slide's "Open this view": the explorer's link to that map


def test_slides_move_rename_and_delete(pinned):
    pinned.button(key="deck.up.2").click().run()
    assert titles(pinned)[0].startswith("Cross-attention · layer 1") and "layer 3" in titles(pinned)[1]
    pinned.button(key="deck.down.0").click().run()
    assert [s.query["layer"] for s in pinned.session_state[state_keys.DECK]] == ["3", "1", "2"]
    pinned.text_input(key="deck.rename.1").input("Where 梦想 looks").run()
    assert titles(pinned)[1] == "Where 梦想 looks"
    assert pinned.session_state[state_keys.DECK][1].title == "Where 梦想 looks"
    pinned.button(key="deck.delete.0").click().run()
    assert titles(pinned) == ["Where 梦想 looks", "Cross-attention · layer 2 · head 1 — I have a dream."]
    assert not pinned.exception


def test_present_shows_one_slide_and_next_moves_on(pinned, translator):
    pinned.segmented_control(key="deck.mode").set_value("present").run()
    (chart,) = pinned.get("plotly_chart")
    assert "layer 1" in chart.proto.spec
    pinned.button(key="deck.next").click().run()
    (chart,) = pinned.get("plotly_chart")
    assert "layer 2" in chart.proto.spec and not pinned.exception


def test_a_saved_deck_reads_back_and_a_value_the_model_cannot_show_is_refused(pinned):
    deck = pinned.session_state[state_keys.DECK]
    assert decks.read_file(in_html(deck)) == deck
    with pytest.raises(BadLinkValue) as caught:
        decks.read_file(in_html([Slide("translate", {**deck[0].query, "layer": "99"}, "x")]))
    assert caught.value.name == "layer"
    with pytest.raises(BadDeck) as caught:
        decks.read_file(in_html([Slide("translate", {"s": "x", "kind": "cross"}, "x")]))
    assert caught.value.key == "field"


def in_html(deck) -> bytes:
    return f'<html><script type="application/json" id="deck">{to_json(deck)}</script></html>'.encode()
