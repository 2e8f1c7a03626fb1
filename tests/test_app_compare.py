"""The compare page's one-model comparisons in a running page (streamlit.testing): the pair buttons fill both
sentences, a server offering one model opens on two heads, every comparison picks its layer and head with the
explorer's buttons and titles its axes short. What the maps, the difference map B − A and the captions hold is
checked on the page's views in tests/test_compare_view.py; two models: tests/test_app_marian.py."""

from __future__ import annotations

import json

import pytest

from app_pages.state import examples, models, state_keys
from app_pages.shell.text import md_escape
from i18n import strings
from tests.support.apptest import app

PAGE = "app_pages/pages/compare.py"


def charts(at) -> dict[str, dict]:
    return {chart.key: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}


def mode(at, name: str):
    at.segmented_control(key="compare.mode").set_value(name).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_the_pair_buttons_fill_both_sentences_and_the_mistranslated_pair_is_labelled_so():
    at = mode(app(page=PAGE), "sentences")
    assert [at.text_input(key=k).value for k in ("compare.sentence_a", "compare.sentence_b")] == list(
        examples.SENTENCE_PAIRS[0].sentences)  # the page opens on a pair the model translates right
    wrong = at.pills(key="compare.wrong_pair")
    assert wrong.label == strings("en")["compare.goes_wrong"] == "Where it goes wrong"
    wrong.set_value(0).run()
    assert [at.text_input(key=k).value for k in ("compare.sentence_a", "compare.sentence_b")] == list(
        examples.WHERE_IT_GOES_WRONG[0].sentences)
    at.pills(key="compare.pair").set_value(1).run()
    assert [at.text_input(key=k).value for k in ("compare.sentence_a", "compare.sentence_b")] == list(
        examples.SENTENCE_PAIRS[1].sentences)
    assert at.pills(key="compare.wrong_pair").value is None


@pytest.fixture
def only_en_zh(monkeypatch):
    """This server offers the English → Chinese model alone (checkpoints/ may hold zh-en too)."""
    from app_pages.state import server

    folders = server.model_folders()
    monkeypatch.setattr(server, "model_folders", lambda: {"en-zh": folders["en-zh"]})


def test_with_one_model_offered_the_page_opens_on_two_heads(only_en_zh):
    """This server offers one model: Compare opened on two models, en-zh against en-zh (one map twice), and told a
    student to add a model that the server does not let a student add."""
    at = app(page=PAGE)
    assert models.model_names() == ["en-zh"]
    assert at.segmented_control(key="compare.mode").value == "heads"
    assert {"compare.chart.a", "compare.chart.b", "compare.chart.difference"} <= set(charts(at))
    assert "sidebar" not in strings("en")["compare.intro"] and "侧边栏" not in strings("zh")["compare.intro"]
    at = mode(at, "models")  # still there to choose: the caption under its maps says first why they are one map twice
    assert [c.value for c in at.caption if c.value.startswith(f"**{strings('en')['compare.one_model']}** ")]
    assert [m.value for m in at.markdown if m.value.endswith(strings("en")["compare.one_map_twice"])]
    assert at.session_state[state_keys.SENTENCE] == "I have a dream."


@pytest.mark.parametrize(("name", "pickers"), [("models", ("compare.layer", "compare.head")),
                                               ("heads", ("compare.a.layer", "compare.a.head", "compare.b.layer",
                                                          "compare.b.head")),
                                               ("sentences", ("compare.layer", "compare.head"))])
def test_every_comparison_picks_layer_and_head_with_the_explorers_buttons(translator, name, pickers, only_en_zh):
    """One kind of control for one choice on every page: the explorer's segmented buttons, not drop-downs here; and
    the maps' short axis titles ("queries", "keys") are said in full once, under them."""
    at = mode(app("I have a dream.", page=PAGE), name)
    assert {key: at.segmented_control(key=key).value for key in pickers}
    assert not [box.key for box in at.selectbox if box.key and box.key.endswith((".layer", ".head"))]
    en = strings("en")
    named = {side: en["axis.{}_tokens".format(side)].format(language=en[f"language.{code}"])
             for side, code in (("source", "en"), ("target", "zh"))}  # the model's languages named (issue 49)
    note = en["axis.note"].format(queries=en["axis.queries_of"].format(tokens=named["target"]),
                                  keys=en["axis.keys_of"].format(tokens=named["source"]))
    assert [c.value for c in at.caption if md_escape(note) in c.value or note in c.value], [c.value for c in at.caption]
    titles = {axis["title"]["text"] for spec in charts(at).values() for name, axis in spec["layout"].items()
              if name.startswith(("xaxis", "yaxis")) and axis.get("title", {}).get("text")}  # a thinned axis's overlay
    assert titles == {en["axis.queries"], en["axis.keys"]}, titles

