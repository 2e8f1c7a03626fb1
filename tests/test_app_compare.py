"""The compare page's one-model comparisons in-process (streamlit.testing): two heads of one sentence and one head
for two sentences, each with its difference map B − A (or the reason there is none); two models stays as it was
(tests/test_app_marian.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from app_pages import state_keys
from app_pages.text import md_escape
from i18n import strings
from lessons.attention_maps import pick
from tests.test_app_explanation import cells
from tests.test_app_explorer import app

PAGE = "app_pages/pages/compare.py"


def charts(at) -> dict[str, dict]:
    return {chart.key: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}


def heat(spec: dict) -> tuple[dict, np.ndarray]:
    """The heatmap trace of a chart and its values as the browser gets them."""
    assert spec["data"][0]["type"] == "heatmap"
    return spec["data"][0], cells(spec).astype(float)


def mode(at, name: str):
    at.segmented_control(key="compare.mode").set_value(name).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_two_heads_show_both_and_their_difference(translator):
    at = mode(app("I have a dream.", page=PAGE), "heads")
    shown = charts(at)
    assert set(shown) == {"compare.chart.a", "compare.chart.b", "compare.chart.difference"}
    cross = translator.translate("I have a dream.").cross
    trace, diff = heat(shown["compare.chart.difference"])
    np.testing.assert_allclose(diff, pick(cross, 0, 1) - pick(cross, 0, 0), atol=1e-4)  # B = head 2, A = head 1
    assert trace["zmin"] == -trace["zmax"] == pytest.approx(-np.abs(diff).max(), abs=1e-6)  # centred on 0
    assert trace["colorscale"][0][1] != trace["colorscale"][-1][1]  # diverging, not the maps' white-to-blue
    top = f"{np.abs(diff).max():.2g}"
    assert trace["colorbar"]["ticktext"] == [f"−{top}", "0", top]  # the bar says how far the scale runs
    # One translation for both maps, said once (the same sentence through the same model), not above each map.
    translation = translator.translate("I have a dream.").translation
    said = [m.value for m in at.markdown if translation in m.value]
    assert said == [strings("en")["compare.heads_translation"].format(translation=md_escape(translation))], said
    at.segmented_control(key="compare.b.head").set_value(0).run()  # the same head twice: no difference at all
    _, diff = heat(charts(at)["compare.chart.difference"])
    assert np.abs(diff).max() == 0


def test_two_sentences_one_word_apart_differ_over_their_shared_prefix(translator):
    at = mode(app(page=PAGE), "sentences")
    at.segmented_control(key="compare.kind").set_value("encoder_self").run()
    tired, wide = (translator.translate(at.text_input(key=k).value) for k in ("compare.sentence_a", "compare.sentence_b"))
    shared = next(i for i, (x, y) in enumerate(zip(tired.source_tokens, wide.source_tokens)) if x != y)
    assert len(tired.source_tokens) != len(wide.source_tokens) and shared > 5  # "▁tired" is one token, "▁w ide" two
    _, diff = heat(charts(at)["compare.chart.difference"])
    layer, head = at.session_state["compare.layer"], at.session_state["compare.head"]
    expected = pick(wide.encoder_self, layer, head)[:shared, :shared] - pick(tired.encoder_self, layer, head)[:shared, :shared]
    np.testing.assert_allclose(diff, expected, atol=1e-4)
    assert any(f"shared first {shared} rows and {shared} columns" in c.value for c in at.caption)


def test_sentences_of_one_length_compare_every_cell_and_label_the_tokens_that_differ(translator):
    at = mode(app(page=PAGE), "sentences")
    at.text_input(key="compare.sentence_b").input("The animal didn't cross the street because it was too sleepy.").run()
    at.segmented_control(key="compare.kind").set_value("encoder_self").run()
    spec = charts(at)["compare.chart.difference"]
    labels = spec["layout"]["xaxis"]["ticktext"]
    assert len(labels) == len(translator.translate(at.text_input(key="compare.sentence_a").value).source_tokens)
    assert not any("shared first" in c.value for c in at.caption)


def test_sentences_that_differ_from_the_first_token_say_why_there_is_no_difference_map():
    at = mode(app(page=PAGE), "sentences")
    at.text_input(key="compare.sentence_b").input("Hello.").run()
    assert "compare.chart.difference" not in charts(at)
    assert any("No difference map" in info.value for info in at.info)


def test_two_models_is_still_the_first_mode():
    at = app(page=PAGE)
    assert at.segmented_control(key="compare.mode").value == "models"
    assert {"compare.chart.left", "compare.chart.right"} <= set(charts(at))
    assert at.session_state[state_keys.SENTENCE] == "I have a dream."


def test_a_name_read_as_another_is_said_under_the_maps(translator):
    """The maps of "Alice is my friend." show ▁Tom (model/translation/names.py): the caption under them says why."""
    result = translator.translate("Alice is my friend.")
    assert "▁Tom" in result.source_tokens
    note = md_escape(strings("en")["model.names_read_as"].format(swaps="Alice → Tom"))
    at = mode(app("Alice is my friend.", page=PAGE), "heads")
    assert [c.value for c in at.caption if note in c.value], [c.value for c in at.caption]
    at = mode(app("I have a dream.", page=PAGE), "heads")
    assert not [c.value for c in at.caption if "Alice" in c.value]


@pytest.mark.parametrize(("name", "pickers"), [("models", ("compare.layer", "compare.head")),
                                               ("heads", ("compare.a.layer", "compare.a.head", "compare.b.layer",
                                                          "compare.b.head")),
                                               ("sentences", ("compare.layer", "compare.head"))])
def test_every_comparison_picks_layer_and_head_with_the_explorers_buttons(translator, name, pickers):
    """One kind of control for one choice on every page: the explorer's segmented buttons, not drop-downs here; and
    the maps' short axis titles ("queries", "keys") are said in full once, under them."""
    at = mode(app("I have a dream.", page=PAGE), name)
    assert {key: at.segmented_control(key=key).value for key in pickers}
    assert not [box.key for box in at.selectbox if box.key and box.key.endswith((".layer", ".head"))]
    en = strings("en")
    note = en["axis.note"].format(queries=en["axis.cross.queries"], keys=en["axis.cross.keys"])
    assert [c.value for c in at.caption if md_escape(note) in c.value or note in c.value], [c.value for c in at.caption]
    titles = {axis["title"]["text"] for spec in charts(at).values() for name, axis in spec["layout"].items()
              if name.startswith(("xaxis", "yaxis")) and axis.get("title", {}).get("text")}  # a thinned axis's overlay
    assert titles == {en["axis.queries"], en["axis.keys"]}, titles
