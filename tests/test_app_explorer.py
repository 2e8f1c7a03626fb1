"""The app end to end in-process (streamlit.testing): translate and decoding pages, and that views never re-run the model."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import examples, result_cache, state_keys
from app_pages.shell import text
from model import Translator
from tests.support.apptest import app, specs
from viz.labels import token_labels

SHORT = "I have a dream."
REPEATED = "The dog saw the cat and the cat saw the dog."


@pytest.fixture
def model_calls(monkeypatch):
    """Every result the model produced during the test, in order (a spy on Translator.translate)."""
    calls: list = []
    original = Translator.translate

    def spy(self, text, *args, **kwargs):
        result = original(self, text, *args, **kwargs)
        calls.append(result)
        return result

    monkeypatch.setattr(Translator, "translate", spy)
    return calls


def markdown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_app_starts_on_translate_page():
    at = app()
    assert at.text_area(key="translate.input").value == examples.DEFAULT_SENTENCE
    assert len(at.get("plotly_chart")) == 1


def test_typing_a_sentence_shows_its_translation(model_calls):
    result_cache.shared().clear()  # so the model really runs and the spy sees this result
    at = app()
    at.text_area(key="translate.input").input("Who are you?")
    at.button(key="translate.submit").click().run()
    assert not at.exception
    (result,) = [r for r in model_calls if r.source_text == "Who are you?"]
    assert "### " + text.md_escape(result.translation) in markdown_text(at)
    assert at.session_state[state_keys.SENTENCE] == "Who are you?"


def test_example_pill_translates_it():
    at = app()
    at.pills(key="translate.example").set_value("Who are you?").run()
    assert not at.exception
    assert at.session_state[state_keys.SENTENCE] == "Who are you?"
    assert at.text_area(key="translate.input").value == "Who are you?"


def test_translate_page_every_view(translator):
    """The pickers walk every kind and view of the short sentence; what each view draws on sentences of every length
    (each token labelled, every head in the grid, the lines' legend): tests/test_explorer_views.py."""
    at = app(SHORT)
    tokens = token_labels(translator.src_tok.tokens(translator.prepare(SHORT)[1]))
    (heatmap,) = specs(at)  # default: encoder self-attention, layer 1, average of heads
    assert heatmap["layout"]["xaxis"]["ticktext"] == tokens == heatmap["layout"]["yaxis"]["ticktext"]
    for kind in ("encoder_self", "decoder_self", "cross"):
        at.segmented_control(key="explorer.kind").set_value(kind).run()
        at.segmented_control(key="explorer.view").set_value("grid").run()
        assert not at.exception
        grid, opened = specs(at)
        assert sum(trace["type"] == "heatmap" for trace in grid["data"]) == 3 * 8
        at.segmented_control(key="explorer.view").set_value("lines").run()
        assert not at.exception
        (lines,) = specs(at)
        assert any(trace.get("showlegend") for trace in lines["data"])
        at.segmented_control(key="explorer.view").set_value("head").run()


def test_changing_layer_head_view_does_not_call_the_model(model_calls):
    at = app(REPEATED)
    before = len(model_calls)
    at.segmented_control(key="explorer.layer").set_value(2).run()
    at.segmented_control(key="explorer.head").set_value(3).run()
    (heatmap,) = specs(at)
    assert "layer 3" in heatmap["layout"]["title"]["text"] and "head 4" in heatmap["layout"]["title"]["text"]
    at.segmented_control(key="explorer.view").set_value("grid").run()
    at.segmented_control(key="explorer.kind").set_value("cross").run()
    at.segmented_control(key="explorer.view").set_value("lines").run()
    at.switch_page("app_pages/pages/decoding.py").run()
    at.select_slider(key="decoding.step").set_value(2).run()
    assert not at.exception
    assert len(model_calls) == before


def test_decoding_page_steps():
    """The step slider and the every-head toggle on the short sentence; what each step draws on sentences of every
    length: tests/test_explorer_views.py."""
    at = app(SHORT, page="app_pages/pages/decoding.py", beam=2)
    steps = at.select_slider(key="decoding.step")
    last = len(steps.options)
    for step in sorted({1, 2, last}):
        steps.set_value(step).run()
        assert not at.exception
        mask, cross, candidates, *beam = specs(at)
        keys = mask["layout"]["xaxis"]["ticktext"]
        assert len(keys) == last  # every target position is a column of the mask row
        assert set(keys[step:]) <= {"·"}  # positions not yet written are not labelled with the final answer
        assert len(beam) <= 1
        colours = candidates["data"][0]["marker"]["color"]
        assert colours.count("#e4572e") == 1  # exactly one chosen candidate
        steps = at.select_slider(key="decoding.step")
    at.toggle(key="decoding.every_head").set_value(True).run()
    assert not at.exception
    assert len(specs(at)[1]["layout"]["yaxis"]["ticktext"]) == 3 * 8


def test_decoding_page_shows_beams_when_beam_search(model_calls):
    at = app("Who are you?", page="app_pages/pages/decoding.py", beam=3)
    charts = specs(at)
    assert len(charts) == 4
    names = {trace.get("name") for trace in charts[3]["data"]}  # the beam's tree: its nodes, its chosen path
    assert {"kept", "pruned", "chosen translation"} <= names


def test_markup_in_the_sentence_stays_text():
    at = app("<b>Hi</b> & *you* [x](y) :red[z]")
    (heatmap,) = specs(at)
    ticks = heatmap["layout"]["xaxis"]["ticktext"]
    assert "&lt;" in ticks and "<" not in ticks  # Plotly would render a raw "<b>" as bold
    badges = [m.value for m in at.markdown if "badge[" in m.value]
    assert ":blue-badge[\\*]" in badges and ":blue-badge[\\<]" in badges  # escaped, not emphasis or HTML
    assert ":blue-badge[\\[]" in badges  # st.badge escapes brackets itself; escaping twice breaks the badge


def test_truncation_notice_is_shown_and_long_input_still_renders():
    at = app(" ".join(["The dog saw the cat."] * 60))  # far beyond the model's source length
    assert any("truncated" in notice.value for notice in at.info)
    (heatmap,) = specs(at)
    assert len(heatmap["layout"]["xaxis"]["ticktext"]) > 100
    at.segmented_control(key="explorer.view").set_value("lines").run()
    assert not at.exception


@pytest.mark.parametrize("beam, words", [(4, "measured at beam 4, the beam of this translation"),
                                         (1, "measured at beam 4; this translation used beam 1")])
def test_confidence_says_at_which_beam_its_thresholds_were_measured(beam, words):
    import json

    from model import DEFAULT_CHECKPOINT

    measured = json.loads((DEFAULT_CHECKPOINT / "training_log.json").read_text())["calibration"]["beam"]
    assert measured == 4, "the expected texts assume the shipped calibration's beam"
    at = app("I have a dream.", beam=beam)
    assert words in " ".join(c.value for c in at.caption)
