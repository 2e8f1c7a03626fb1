"""The compare page's one-model comparisons in-process (streamlit.testing): two heads of one sentence and one head
for two sentences, each with its difference map B − A (or the reason there is none); two models stays as it was
(tests/test_app_marian.py)."""

from __future__ import annotations

import html
import json

import numpy as np
import pytest

from app_pages.state import examples, models, state_keys
from app_pages.shell.text import md_escape
from i18n import strings
from lessons.attention_maps import pick
from lessons.token_alignment import token_spans
from tests.support.apptest import app, cells

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


def test_the_difference_map_covers_the_changed_word_of_another_length(translator):
    """"…too tired." against "…too wide.": "▁tired" is one token, "▁w ide" two. The B − A map lines the sentences up
    and keeps the changed word (it covered only the 13 tokens before it, and paired rows of different characters
    under a caption that said it covered the shared prefix): its column is B's two columns added less A's one."""
    tired, wide = examples.WHERE_IT_GOES_WRONG[0].sentences
    at = mode(app(page=PAGE), "sentences")
    at.text_input(key="compare.sentence_a").input(tired).run()
    at.text_input(key="compare.sentence_b").input(wide).run()
    a, b = translator.translate(tired), translator.translate(wide)
    assert "▁tired" in a.source_tokens and "▁w" in b.source_tokens and len(a.source_tokens) != len(b.source_tokens)
    layer, head = at.session_state["compare.layer"], at.session_state["compare.head"]
    spec = charts(at)["compare.chart.difference"]
    _, diff = heat(spec)
    keys, rows = ([html.unescape(label) for label in spec["layout"][axis]["ticktext"]] for axis in ("xaxis", "yaxis"))
    assert "▁tired/▁wide" in keys and len(keys) == len(a.source_tokens)  # every token, the changed word included
    col, w = keys.index("▁tired/▁wide"), b.source_tokens.index("▁w")
    # the rows: the two translations lined up the same way, each differing run one row (its rows averaged)
    assert rows[0] == "<s>" and all(("/" in r) or (r in a.target_tokens and r in b.target_tokens) for r in rows)
    spans = token_spans(a.target_tokens, b.target_tokens)
    on_b = pick(b.cross, layer, head)[:, w:w + 2].sum(axis=1)
    on_a = pick(a.cross, layer, head)[:, a.source_tokens.index("▁tired")]
    expected = [on_b[s.b.start:s.b.stop].mean() - on_a[s.a.start:s.a.stop].mean() for s in spans]
    np.testing.assert_allclose(diff[:, col], expected, atol=1e-4)
    (note,) = [c.value for c in at.caption if "lined up" in c.value]
    assert "▁tired/▁wide" in note.replace("\\", "") and "shared first" not in note


def test_sentences_one_token_apart_compare_every_cell(translator):
    at = mode(app(page=PAGE), "sentences")
    at.segmented_control(key="compare.kind").set_value("encoder_self").run()
    sick, busy = (translator.translate(at.text_input(key=k).value) for k in ("compare.sentence_a", "compare.sentence_b"))
    assert len(sick.source_tokens) == len(busy.source_tokens)
    spec = charts(at)["compare.chart.difference"]
    assert [html.unescape(x) for x in spec["layout"]["xaxis"]["ticktext"]] == [x if x == y else f"{x}/{y}" for x, y in
                                                  zip(sick.source_tokens, busy.source_tokens)]
    _, diff = heat(spec)
    layer, head = at.session_state["compare.layer"], at.session_state["compare.head"]
    np.testing.assert_allclose(diff, pick(busy.encoder_self, layer, head) - pick(sick.encoder_self, layer, head),
                               atol=1e-4)


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


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_name_read_as_another_ends_the_maps_caption_as_the_language_writes(lang):
    """The names note is the caption's last sentence, joined as the rest: in 中文 no space after 。 before it (it was
    appended with a space whatever the language)."""
    at = mode(app("Alice and Bob are friends.", page=PAGE, lang=lang), "heads")
    said = [c.value for c in at.caption if "Alice" in c.value]
    assert said, [c.value for c in at.caption]
    assert ("。 " not in said[0]) if lang == "zh" else (". " in said[0])
