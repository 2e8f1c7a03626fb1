"""The explorer's rollout view: the map drawn is lessons.explanation's rollout of the sentence's own attention, on
the kind's query and key axes, with its caption in both languages, and a link that reopens it. What the rollout's
help says in both languages, and the head view's numbers: tests/test_rollout_view.py."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from lessons.explanation import cross_rollout, rollout
from model import DEFAULT_BEAM
from tests.support.paths import ROOT

SENTENCE = "The weather is very nice today, so we will go to the park."


def opened(link: dict[str, str]) -> AppTest:
    """A new session opening the translate page with `link` as its query string."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"s": SENTENCE, "beam": str(DEFAULT_BEAM), **link})
    at.switch_page("app_pages/pages/translate.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def the_chart(at: AppTest) -> dict:
    (chart,) = at.get("plotly_chart")
    return json.loads(chart.proto.spec)


def cells(spec: dict) -> np.ndarray:
    """A heatmap's values as the browser gets them: JSON lists (viz.sent.sent_figure), a hidden cell null."""
    return np.array(spec["data"][0]["z"], dtype=float)


def axis_titles(spec: dict) -> tuple[str, str]:
    layout = spec["layout"]
    y, x = layout.get("yaxis2", layout["yaxis"]), layout.get("xaxis2", layout["xaxis"])  # the axes with the labels
    return y["title"]["text"].replace("<br>", " "), x["title"]["text"].replace("<br>", " ")


def test_choosing_rollout_draws_the_rollout_of_the_sentences_attention(translator):
    result = translator.translate(SENTENCE)
    at = opened({"kind": "encoder_self", "layer": "1"})
    at.segmented_control(key="explorer.view").set_value("rollout").run()
    assert not at.exception
    spec = the_chart(at)
    np.testing.assert_allclose(cells(spec), rollout(result.encoder_self[:1]), atol=1e-5)
    assert axis_titles(spec) == ("queries (English source tokens)", "keys (English source tokens)")
    assert spec["layout"]["title"]["text"].startswith("Rollout · encoder self-attention · layers 1 to 1")
    hover = spec["data"][0]["hovertemplate"]  # each cell's query, key and exact value on hover
    assert "queries (English source tokens)" in hover and "rollout share: <b>%{z:." in hover
    # Through all three encoder layers, then cross-attention of decoder layer 2 traced through the encoder.
    at.segmented_control(key="explorer.layer").set_value(2).run()
    np.testing.assert_allclose(cells(the_chart(at)), rollout(result.encoder_self), atol=1e-5)
    at.segmented_control(key="explorer.kind").set_value("cross").run()
    at.segmented_control(key="explorer.layer").set_value(1).run()
    spec = the_chart(at)
    np.testing.assert_allclose(cells(spec), cross_rollout(result.cross, result.encoder_self, 1), atol=1e-5)
    assert not np.allclose(cells(spec), result.cross[1].mean(axis=0), atol=1e-3)  # not the raw layer average
    assert axis_titles(spec) == ("queries (Chinese target tokens)", "keys (English source tokens)")
    caption = "\n".join(c.value for c in at.caption)
    assert "Rollout (Abnar & Zuidema 2020) is not raw attention" in caption


def test_the_head_picker_gives_way_to_the_layer_only():
    at = opened({"view": "rollout", "kind": "cross"})
    keys = {c.key for c in at.segmented_control}
    assert "explorer.layer" in keys and "explorer.head" not in keys


@pytest.mark.parametrize("lang, title, said", [
    ("en", "Rollout · cross-attention of layer 3, through the encoder", "not raw attention"),
    ("zh", "注意力累积 · 第 3 层交叉注意力（经由编码器）", "注意力累积（rollout，Abnar & Zuidema 2020）不是原始注意力"),
])
def test_a_link_to_the_rollout_view_reopens_it(translator, lang, title, said):
    result = translator.translate(SENTENCE)
    at = opened({"lang": lang, "kind": "cross", "view": "rollout", "layer": "3"})
    assert at.segmented_control(key="explorer.view").value == "rollout"
    assert not [w for w in at.warning if w.icon == ":material/link_off:"]  # no value of the link was ignored
    spec = the_chart(at)
    assert spec["layout"]["title"]["text"].startswith(title)
    np.testing.assert_allclose(cells(spec), cross_rollout(result.cross, result.encoder_self, 2), atol=1e-5)
    assert said in "\n".join(c.value for c in at.caption)
    link = {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}
    assert {k: link[k] for k in ("kind", "view", "layer", "lang")} == {"kind": "cross", "view": "rollout",
                                                                       "layer": "3", "lang": lang}
    again = opened(link)  # the link it wrote opens the same map
    np.testing.assert_allclose(cells(the_chart(again)), cells(spec))


def table_of(at: AppTest) -> tuple[str, np.ndarray]:
    """The header line and the numbers of the view's "copy" text (the CSV's rows, tab-separated)."""
    (code,) = [c.value for c in at.code if c.value.startswith("# kind=")]
    head, labels, *rows = code.splitlines()
    return head, np.array([[float(x) for x in row.split("\t")[1:]] for row in rows])


def test_the_rollout_gives_its_numbers_out(translator):
    """The rolled-out numbers drawn, said to be a rollout in the header (written where the rollout is drawn:
    rollout_view.rollout_chart). The head view's, every weight of its head: tests/test_rollout_view.py."""
    at = opened({"kind": "cross", "view": "rollout", "layer": "2", "head": "3", "min": "0.3"})
    head, numbers = table_of(at)
    result = translator.translate(SENTENCE, beam=DEFAULT_BEAM)
    assert head == f"# kind=cross, view=rollout, layer=2, head=average, sentence={SENTENCE}"
    expected = cross_rollout(result.cross, result.encoder_self, 1)
    assert numbers.shape == expected.shape and np.allclose(numbers, expected, atol=1e-6)
