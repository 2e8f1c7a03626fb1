"""Links that share a view (st.query_params), settings that survive navigation, and the decoding controls.

A link is typed, pasted or crafted by anyone: every value it carries is read or ignored with a notice, never an error.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import examples, state_keys
from model import DEFAULT_BEAM
from tests.support.apptest import link_of, opened
from tests.support.paths import ROOT

CHECKPOINTS = ROOT / "checkpoints"

DECODING = "app_pages/pages/decoding.py"


def chart_titles(at: AppTest) -> list[str]:
    return [json.loads(c.proto.spec)["layout"].get("title", {}).get("text", "") for c in at.get("plotly_chart")]


def test_a_link_restores_sentence_language_and_explorer_view():
    at = opened({"s": "Who are you?", "lang": "zh", "beam": "2", "kind": "cross", "view": "head", "layer": "2",
                 "head": "4"})
    assert at.session_state[state_keys.SENTENCE] == "Who are you?"
    assert at.session_state[state_keys.LANG] == "zh" and at.session_state[state_keys.BEAM] == 2
    assert at.segmented_control(key="explorer.kind").value == "cross"
    assert at.segmented_control(key="explorer.layer").value == 1 and at.segmented_control(key="explorer.head").value == 3
    (title,) = chart_titles(at)
    assert "第 2 层" in title and "4" in title
    assert not at.warning
    # The link it writes back opens the same view.
    assert link_of(at) | {"present": "0", "model": "en-zh"} == link_of(at)
    assert {k: link_of(at)[k] for k in ("s", "lang", "beam", "kind", "layer", "head")} == {
        "s": "Who are you?", "lang": "zh", "beam": "2", "kind": "cross", "layer": "2", "head": "4"}


def test_the_beam_slider_redraws_with_the_sessions_beam_not_its_minimum():
    """A browser whose slider lost its value (a run cut short by the next click) redraws it from the element's
    default and sends that back as the user's choice: that default is the session's beam on every run, so a
    search of beam 3 never turns into greedy search (1) behind the user's back."""
    at = opened({"beam": "3"})
    for _ in range(2):  # the link's run, and a later one where the beam is no longer newly set
        (slider,) = at.sidebar.slider
        assert list(slider.proto.default) == [3] and slider.value == 3
        at.run()
    at.sidebar.slider[0].set_value(6).run()
    assert list(at.sidebar.slider[0].proto.default) == [6] and at.session_state[state_keys.BEAM] == 6


def test_changing_the_view_updates_the_link():
    at = opened({})
    at.segmented_control(key="explorer.kind").set_value("decoder_self").run()
    at.segmented_control(key="explorer.head").set_value(-1).run()
    link = link_of(at)
    assert link["kind"] == "decoder_self" and link["head"] == "average" and link["s"] == examples.DEFAULT_SENTENCE
    at.toggle(key=state_keys.PRESENT).set_value(True).run()
    assert link_of(at)["present"] == "1"


@pytest.mark.parametrize("name, value", [
    ("beam", "abc"), ("beam", "99"), ("beam", "1e9"), ("lang", "fr"), ("model", "../../etc/passwd"),
    ("kind", "<script>alert(1)</script>"), ("layer", "0"), ("layer", "-3"), ("head", "9"), ("view", "everything"),
    ("s", "x" * 5000), ("present", "yes"), ("unknown", "1"), ("query", "-1"), ("min", "nan"), ("min", "0.9"),
    ("min", "abc"),
])
def test_bad_or_hostile_link_values_are_ignored_with_a_notice(name, value):
    at = opened({name: value, "s": "I like my dog."} if name != "s" else {name: value})
    (notice,) = at.warning
    assert f"{name}=" in notice.value and "ignored" in notice.value
    # A plain sentence that says what would work, never Python's own words ("invalid literal for int()").
    assert not any(python in notice.value for python in ("literal", "int(", "[", "is outside", "is not one of")), notice.value
    if name in ("beam", "layer", "head"):
        assert "whole number from 1 to" in notice.value
    if name == "query":  # a position, numbered from 0 as the picker shows it
        assert "whole number from 0 to" in notice.value
    if name == "min":
        assert "a number from 0 to 0.5" in notice.value.replace("\\", "")
    assert at.get("plotly_chart"), "the page still draws with its defaults"
    assert at.session_state[state_keys.BEAM] == DEFAULT_BEAM and at.session_state[state_keys.LANG] == "en"


def test_a_link_restores_the_head_views_focused_query_and_threshold():
    at = opened({"s": "I like my dog.", "kind": "cross", "view": "lines", "layer": "2", "head": "3", "query": "2",
                 "min": "0.25"})
    assert not at.warning
    assert at.selectbox(key="explorer.query").value == 2 and at.slider(key="explorer.min_weight").value == 0.25
    at.slider(key="explorer.min_weight").set_value(0.3).run()
    assert {k: link_of(at)[k] for k in ("view", "query", "min")} == {"view": "lines", "query": "2", "min": "0.3"}


def test_decoding_link_opens_its_step_and_heads():
    at = opened({"s": "Who are you?", "step": "3", "layer": "average", "head": "2"}, page=DECODING)
    assert at.select_slider(key="decoding.step").value == 3
    assert at.segmented_control(key="decoding.layer").value == -1 and at.segmented_control(key="decoding.head").value == 1
    assert link_of(at)["step"] == "3"


def test_a_step_past_the_end_of_this_translation_falls_back_to_the_first():
    at = opened({"s": "Who are you?", "step": "40"}, page=DECODING)
    assert at.select_slider(key="decoding.step").value == 1


def test_explorer_settings_survive_a_visit_to_another_page():
    at = opened({"s": "Who are you?"})
    at.segmented_control(key="explorer.kind").set_value("cross").run()
    at.segmented_control(key="explorer.view").set_value("grid").run()
    at.segmented_control(key="explorer.layer").set_value(2).run()
    at.switch_page(DECODING).run()
    at.switch_page("app_pages/pages/qkv.py").run()
    at.switch_page("app_pages/pages/translate.py").run()
    assert not at.exception
    assert at.segmented_control(key="explorer.kind").value == "cross"
    assert at.segmented_control(key="explorer.view").value == "grid"
    assert at.segmented_control(key="explorer.layer").value == 2


def test_previous_next_and_play_move_through_the_steps():
    at = opened({"s": "Who are you?"}, page=DECODING)
    last = len(at.select_slider(key="decoding.step").options)
    assert at.button(key="decoding.prev").disabled
    at.button(key="decoding.next").click().run()
    at.button(key="decoding.next").click().run()
    assert at.select_slider(key="decoding.step").value == 3
    at.button(key="decoding.prev").click().run()
    assert at.select_slider(key="decoding.step").value == 2
    at.select_slider(key="decoding.step").set_value(last).run()
    assert at.button(key="decoding.next").disabled
    at.button(key="decoding.play").click().run()  # at the last step, Play starts again from the first
    assert at.select_slider(key="decoding.step").value == 1 and at.session_state["decoding.playing"]
    at.button(key="decoding.play").click().run()  # pause
    assert not at.session_state["decoding.playing"]


def test_playing_goes_on_at_a_new_speed_and_stops_on_any_other_control():
    at = opened({"s": "Who are you?"}, page=DECODING)
    at.button(key="decoding.play").click().run()
    assert at.session_state["decoding.playing"]
    at.segmented_control(key="decoding.speed").set_value("fast").run()  # the speed is the player's own control
    assert at.session_state["decoding.playing"] and not at.exception
    at.segmented_control(key="decoding.layer").set_value(1).run()  # another control: the user took over
    assert not at.session_state["decoding.playing"]
    assert at.select_slider(key="decoding.step").value == 1 and not at.exception

