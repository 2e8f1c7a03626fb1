"""The slide deck in-process (streamlit.testing): Pin to deck under the explorer's map, the deck page's list
(reorder, rename, delete), presenting, and a saved deck read back (and a hostile one refused)."""

from __future__ import annotations

import io
import json
import struct
import zipfile

import numpy as np
import pytest

from app_pages.components import deck_images, decks
from app_pages.state import state_keys
from app_pages.shell.text import md_escape
from app_pages.shell.link_values import BadLinkValue
from lessons.deck import BadDeck, Slide, to_json
from tests.support.apptest import app

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


def explorer_view(at, **controls):
    """The explorer's segmented controls set in order: explorer_view(at, kind="cross", view="grid", layer=1)."""
    for name, value in controls.items():
        at.segmented_control(key=f"explorer.{name}").set_value(value).run()
    return at


def deck_page(at):
    at.switch_page("app_pages/pages/deck.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def titles(at) -> list[str]:
    return [box.value for box in at.text_input if box.key.startswith("deck.rename.")]


def heading(at) -> str:
    """A presented slide's title: the heading above its chart (in the chart it ran under Plotly's mode bar)."""
    return next(m.value for m in at.markdown if m.value.startswith("#### "))


def title_key(at, index: int) -> str:
    """The key of slide `index`'s title box in the session's last run (decks.title_key: it changes as slides move)."""
    moves = at.session_state[decks.TITLES_ROUND] if decks.TITLES_ROUND in at.session_state else 0
    return f"deck.rename.{moves}.{at.session_state[state_keys.LANG]}.{index}"


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
    keys = [box.key for box in pinned.text_input]
    pinned.button(key="deck.up.2").click().run()
    assert titles(pinned)[0].startswith("Cross-attention · layer 1") and "layer 3" in titles(pinned)[1]
    assert not set(keys) & {box.key for box in pinned.text_input}  # new boxes: the browser's old values are not theirs
    pinned.button(key="deck.down.0").click().run()
    assert [s.query["layer"] for s in pinned.session_state[state_keys.DECK]] == ["3", "1", "2"]
    pinned.text_input(key=title_key(pinned, 1)).input("Where 梦想 looks").run()
    assert titles(pinned)[1] == "Where 梦想 looks"
    assert pinned.session_state[state_keys.DECK][1].title == "Where 梦想 looks"
    pinned.button(key="deck.delete.0").click().run()
    assert titles(pinned) == ["Where 梦想 looks", "Cross-attention · layer 2 · head 1 — I have a dream."]
    assert not pinned.exception


def test_titles_the_app_made_follow_the_interfaces_language_and_a_typed_one_stays(pinned):
    """Issue 51: slides pinned in English kept English titles in 中文 mode."""
    pinned.text_input(key=title_key(pinned, 2)).input("Where 梦想 looks").run()
    pinned.session_state[state_keys.LANG] = "zh"
    pinned.run()
    assert titles(pinned) == ["交叉注意力 · 第 1 层 · 第 1 个头 — I have a dream.",
                              "交叉注意力 · 第 2 层 · 第 1 个头 — I have a dream.", "Where 梦想 looks"]
    pinned.session_state[state_keys.LANG] = "en"
    pinned.run()
    assert titles(pinned) == [f"Cross-attention · layer {n} · head 1 — I have a dream." for n in (1, 2)] + [
        "Where 梦想 looks"]
    pinned.segmented_control(key="deck.mode").set_value("present").run()
    pinned.session_state[state_keys.LANG] = "zh"
    pinned.run()
    assert heading(pinned) == "#### " + md_escape("交叉注意力 · 第 1 层 · 第 1 个头 — I have a dream.")
    assert not pinned.exception


def test_play_in_present_plays_and_edit_leaves_it(pinned):
    """Play's timer is drawn beside the slides (stepper.stepped_view): without it, pressing Play reran the page
    without end (an AppTest run timed out)."""
    pinned.segmented_control(key="deck.mode").set_value("present").run()
    pinned.button(key="deck.play").click().run(timeout=60)
    assert not pinned.exception and pinned.button(key="deck.play").label == "Pause"
    pinned.segmented_control(key="deck.mode").set_value("edit").run()
    assert len(titles(pinned)) == 3 and not pinned.exception


def test_present_shows_one_slide_and_next_moves_on(pinned, translator):
    pinned.segmented_control(key="deck.mode").set_value("present").run()
    (chart,) = pinned.get("plotly_chart")
    assert "layer 1" in heading(pinned)  # the title, above the chart
    pinned.button(key="deck.next").click().run()
    (chart,) = pinned.get("plotly_chart")
    assert "layer 2" in heading(pinned) and not pinned.exception


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


def test_a_pin_on_decoding_makes_a_slide_that_reopens_that_step(translator):
    at = app("I have a dream.", page="app_pages/pages/decoding.py")
    at.button(key="decoding.next").click().run()
    at.button(key="decoding.next").click().run()  # step 3
    at.segmented_control(key="decoding.layer").set_value(1).run()
    at.segmented_control(key="decoding.head").set_value(2).run()
    at.button(key="decoding.pin").click().run()
    assert not at.exception, [e.message for e in at.exception]
    (slide,) = at.session_state[state_keys.DECK]
    assert slide.page == "decoding" and slide.title == "Decoding step 3 · layer 2 · head 3 — I have a dream."
    assert [toast.value for toast in at.toast] == [
        "Pinned as slide 1: Decoding step 3 · layer 2 · head 3 — I have a dream\\."]
    deck_page(at)
    opens = [(link.proto.page, link.proto.query_string) for link in at.get("page_link")]
    assert opens == [("decoding", "s=I+have+a+dream.&model=en-zh&step=3&layer=2&head=3")]
    at.segmented_control(key="deck.mode").set_value("present").run()
    (chart,) = at.get("plotly_chart")
    bars = json.loads(chart.proto.spec)["data"][0]
    row = translator.translate("I have a dream.").cross[1, 2, 2]  # layer 2, head 3, step 3's row
    assert np.allclose(bars["y"], row, atol=1e-6) and "Decoding step 3" in heading(at)
    layout = json.loads(chart.proto.spec)["layout"]  # the few bars fill the slide's width or height, not a column's
    small = decks.slide_figure(slide)
    assert max(layout["width"] / decks.SLIDE_PX[0], layout["height"] / decks.SLIDE_PX[1]) > 0.95 or \
        layout["width"] >= decks.SLIDE_MAX_SCALE * small.layout.width - 1
    assert decks.read_file(in_html([slide])) == [slide]


def test_a_pin_on_every_head_or_on_rollout_saves_that_view_and_the_deck_redraws_it(translator):
    """Pin under the grid's opened map saves the grid (view=grid), not the one map; the rollout view has its own pin;
    presenting redraws each: the grid's small maps with the opened one outlined, the rollout's numbers (recomputed
    here from the paper's definition, not with the function the page calls)."""
    at = explorer_view(app("I have a dream."), kind="cross", view="grid", layer=1, head=3)
    at.button(key="explorer.chart.opened.pin").click().run()
    explorer_view(at, view="rollout")
    at.button(key="explorer.chart.rollout.pin").click().run()
    assert not at.exception, [e.message for e in at.exception]
    grid, roll = at.session_state[state_keys.DECK]
    assert (grid.query["view"], grid.query["layer"], grid.query["head"]) == ("grid", "2", "4")
    assert grid.title == "Cross-attention · All heads · layer 2 · head 4 — I have a dream."
    assert roll.query["view"] == "rollout" and roll.title.startswith("Cross-attention · Rollout · layer 2 · ")
    deck_page(at)
    assert [link.proto.query_string for link in at.get("page_link")][0].endswith("&view=grid&layer=2&head=4")
    at.segmented_control(key="deck.mode").set_value("present").run()
    (chart,) = at.get("plotly_chart")
    result = translator.translate("I have a dream.")
    layers, heads = result.cross.shape[:2]
    assert len(json.loads(chart.proto.spec)["data"]) >= layers * heads  # one small map per layer and head
    at.button(key="deck.next").click().run()
    (chart,) = at.get("plotly_chart")
    (heatmap,) = [d for d in json.loads(chart.proto.spec)["data"] if d["type"] == "heatmap"]
    z = np.array(heatmap["z"], dtype=float)
    # Rollout (Abnar & Zuidema 2020) into decoder layer 2: its head-averaged cross-attention reads encoder outputs,
    # each a mixture of the input: every encoder layer mixes as ½·(head average) + ½·I (rows still sum to 1),
    # the first layer's mixing applied first.
    n = result.encoder_self.shape[-1]
    mixing = [(layer.mean(axis=0) + np.eye(n)) / 2 for layer in result.encoder_self.astype(float)]
    expected = result.cross[1].astype(float).mean(axis=0) @ np.linalg.multi_dot([*reversed(mixing), np.eye(n)])
    assert z.shape == expected.shape and np.allclose(z, expected, atol=1e-6)
    assert np.allclose(z.sum(axis=1), 1, atol=1e-5)  # still a distribution over the input tokens
    assert decks.read_file(in_html([grid, roll])) == [grid, roll]


def test_a_pin_on_the_head_view_saves_its_focused_query_and_threshold(translator):
    at = explorer_view(app("I have a dream."), kind="cross", view="lines")
    at.selectbox(key="explorer.query").set_value(2).run()
    at.slider(key="explorer.min_weight").set_value(0.05).run()
    at.button(key="explorer.chart.lines.pin").click().run()
    assert not at.exception, [e.message for e in at.exception]
    (slide,) = at.session_state[state_keys.DECK]
    assert (slide.query["view"], slide.query["query"], slide.query["min"]) == ("lines", "2", "0.05")
    assert slide.title == "Cross-attention · Head view · layer 1 · average of heads — I have a dream."
    shown = json.loads(at.get("plotly_chart")[0].proto.spec)["data"]  # the explorer's own lines
    deck_page(at)
    assert decks.read_file(in_html([slide])) == [slide]
    at.segmented_control(key="deck.mode").set_value("present").run()
    (chart,) = at.get("plotly_chart")
    rebuilt = json.loads(chart.proto.spec)["data"]

    def lines(traces):  # what each trace draws, not how large (the slide is drawn larger)
        return [(d.get("name"), json.dumps(d.get("x")), json.dumps(d.get("y"))) for d in traces]
    assert lines(rebuilt) == lines(shown)  # the same lines: query 2's only, weight ≥ 0.05


def test_a_decoding_slide_past_the_translations_end_is_refused_plainly():
    at = deck_page(app("I have a dream."))
    slide = Slide("decoding", {"s": "I have a dream.", "model": "en-zh", "step": "60", "layer": "1", "head": "1"}, "x")
    at.session_state[state_keys.DECK] = [slide]
    at.run()
    assert "Slide 1 cannot be drawn" in at.warning[0].value and "decoding step 60, but this translation has" in \
        at.warning[0].value
    with pytest.raises(BadDeck):
        decks.slide_figure(slide)


@pytest.mark.skipif(deck_images.browser() is None, reason="no kaleido, or no Chrome/Chromium for it")
def test_the_deck_saves_as_a_zip_of_one_png_per_slide_at_each_figures_size(pinned):
    figures = [decks.slide_figure(slide) for slide in pinned.session_state[state_keys.DECK]]
    archive = zipfile.ZipFile(io.BytesIO(deck_images.png_zip(figures)))
    assert archive.namelist() == ["slide-01.png", "slide-02.png", "slide-03.png"]
    for name, fig in zip(archive.namelist(), figures):
        png = archive.read(name)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
        assert struct.unpack(">II", png[16:24]) == (fig.layout.width, fig.layout.height)
        assert len(png) > 5_000  # a drawn chart, not an empty canvas


def test_a_browser_path_that_names_nothing_is_no_browser(monkeypatch, tmp_path):
    monkeypatch.setenv("BROWSER_PATH", str(tmp_path / "chromium"))  # kaleido's own override: a missing file
    assert deck_images.browser() is None


@pytest.mark.parametrize("lang, sentence", [("en", "no such browser"), ("zh", "没有这样的浏览器")])
def test_without_a_browser_the_png_button_is_off_and_says_why(monkeypatch, lang, sentence):
    monkeypatch.setattr(deck_images, "browser", lambda: None)
    at = app("I have a dream.", lang=lang)
    at.session_state[state_keys.DECK] = [Slide("translate", {"s": "I have a dream.", "model": "en-zh",
                                                              "kind": "cross", "layer": "1", "head": "1"}, "x")]
    deck_page(at)
    assert at.get("download_button")[1].proto.disabled
    assert any(sentence in caption.value for caption in at.caption) and not at.exception


LONG = ("Everything about the beautiful mountains interested everybody yesterday. " * 20)[:1000]


@pytest.mark.parametrize("sentence", [LONG, "I have a dream.\nWho are you?"])
def test_a_pinned_slide_of_any_sentence_the_app_accepts_exports_and_imports_back_equal(sentence):
    """Issue 53: a slide whose sentence was over 600 characters exported, then its import was refused."""
    at = app(sentence)
    at.segmented_control(key="explorer.kind").set_value("cross").run()
    at.button(key=PIN).click().run()
    assert not at.exception, [e.message for e in at.exception]
    (slide,) = at.session_state[state_keys.DECK]
    assert len(slide.query["s"]) > 600 if sentence == LONG else "Who are you?" in slide.query["s"]
    exported = decks.document([slide], [decks.slide_figure(slide)]).encode()  # what the deck page's download holds
    assert decks.read_file(exported) == [slide]


TEACHING_PINS = [("qkv", "live", "qkv.live.pin", "qkv.live.steps"),
                 ("masks", "live", "masks.live.pin", "masks.live.masked-weights"),
                 ("multihead", "why", "multihead.why.pin", "multihead.why.fig")]


@pytest.mark.parametrize("page, tab, pin, chart", TEACHING_PINS)
def test_a_pin_on_a_teaching_page_makes_a_slide_that_presents_reads_back_and_reopens_that_view(page, tab, pin, chart):
    """Q·K·V, Masks and Multi-head pin their live view (issue 62 item 5): the deck presents it, saves and reads it
    back, and its link opens the page on that tab with that view's pickers."""
    from app_pages.shell import registry
    from tests.support.apptest import open_page, opened

    state = {"qkv": {"qkv.live.kind": "cross", "qkv.live.layer": 1, "qkv.live.head": 3, "qkv.live.cross.query": 2},
             "masks": {"masks.live.layer": 2, "masks.live.head": 4},
             "multihead": {"multihead.why.kind": "decoder_self", "multihead.why.layer": 1}}[page]
    at = open_page(page, tab=tab, **state)
    at.button(key=pin).click().run()
    assert not at.exception, [e.message for e in at.exception]
    (slide,) = at.session_state[state_keys.DECK]
    assert slide.page == page and [toast.value for toast in at.toast] == [
        f"Pinned as slide 1: {md_escape(slide.title)}"]
    assert decks.read_file(in_html([slide])) == [slide]
    deck_page(at).segmented_control(key="deck.mode").set_value("present").run()
    assert not at.exception and heading(at) == "#### " + md_escape(slide.title) and len(at.get("plotly_chart")) == 1
    reopened = opened(slide.query, registry.PAGE[page].script)
    assert chart in [c.key for c in reopened.get("plotly_chart")]
    for key, value in state.items():
        assert reopened.session_state[key] == value, key


def test_a_teaching_slide_past_its_sentences_queries_is_refused_plainly():
    slide = Slide("qkv", {"s": "I have a dream.", "model": "en-zh", "kind": "cross", "layer": "1", "head": "1",
                          "query": "60"}, "x")
    with pytest.raises(BadDeck) as caught:
        decks.slide_figure(slide)
    assert caught.value.key == "query" and caught.value.values["query"] == 60


class Upload:
    """What st.file_uploader hands a callback: the file's bytes through getvalue()."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def getvalue(self) -> bytes:
        return self.data


def test_an_import_sends_present_back_to_the_first_slide(monkeypatch, translator):
    """Presented at its last slide and playing, then a deck imported: Present opens on slide 1, not playing (the
    uploader's callback, with the session's state as a dict: AppTest cannot hand a file uploader a file)."""
    import streamlit as st

    deck = [Slide("translate", {"s": "I have a dream.", "model": "en-zh", "kind": "cross", "layer": str(n),
                                "head": "1"}, f"slide {n}") for n in (1, 2, 3)]
    state = {decks.SLIDE: 2, decks.PLAYING: True, state_keys.DECK: deck[:1], decks.UPLOAD: Upload(in_html(deck))}
    monkeypatch.setattr(st, "session_state", state)
    decks.import_upload()
    assert state[state_keys.DECK] == deck and state[decks.SLIDE] == 0 and state[decks.PLAYING] is False
    assert state[decks.IMPORTED] == ("success", "Imported 3 slides.")
