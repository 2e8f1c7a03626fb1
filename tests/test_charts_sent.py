"""What the browser gets for a chart (viz.sent.sent_figure): the figure viz built, with its arrays as JSON
lists, no empty template and a data revision, so that Plotly.js calculates and draws it once each time Streamlit
shows it (tests/test_redraw_browser.py counts that in Chromium)."""

from __future__ import annotations

import base64
import json

import numpy as np
import plotly.io as pio
import plotly.tools
import pytest

from viz.sent import sent_figure
from viz.decoding import attention_bar
from viz.heatmap import attention_heatmap
from viz.options import Labels
from viz.style import styled_figure

TOKENS = ["▁I", "▁have", "▁a", "▁dream", ".", "</s>"]


def sent(fig) -> dict:
    """The figure as Streamlit sends it to the browser (st.plotly_chart's own two steps)."""
    return json.loads(pio.to_json(plotly.tools.return_figure_from_figure_or_data(fig, True), validate=False))


def typed(array: dict) -> np.ndarray:
    """plotly.py's base64 typed-array spec, decoded."""
    shape = [int(n) for n in str(array.get("shape", -1)).split(",")]
    return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).reshape(shape)


@pytest.fixture
def causal_map():
    rng = np.random.default_rng(0)
    weights = rng.random((6, 6)).astype(np.float32)
    return attention_heatmap(weights,
                             Labels(TOKENS, TOKENS, query_title="query", key_title="key", value_label="weight"),
                             mask=np.tril(np.ones((6, 6), bool)))


def without(spec: dict, keys: tuple[str, ...]) -> dict:
    return {k: v for k, v in spec.items() if k not in keys}


def test_arrays_arrive_as_lists_with_the_same_numbers(causal_map):
    before, after = sent(causal_map), sent(sent_figure(causal_map))
    assert "bdata" in json.dumps(before) and "bdata" not in json.dumps(after)
    z_before, z_after = typed(before["data"][0]["z"]), np.array(after["data"][0]["z"], dtype=float)
    assert np.isnan(z_after).sum() == 15  # the masked cells: null in JSON
    np.testing.assert_array_equal(z_after, z_before)  # float32 values carried exactly, as doubles
    assert after["data"][0]["x"] == typed(before["data"][0]["x"]).tolist()
    arrays, added = ("x", "y", "z"), ("datarevision", "template")  # nothing else changed
    assert [without(t, arrays) for t in after["data"]] == [without(t, arrays) for t in before["data"]]
    assert without(after["layout"], added) == without(before["layout"], added)


def test_no_empty_template_and_a_data_revision_that_names_the_figure(causal_map):
    layout = sent(sent_figure(causal_map))["layout"]
    assert layout.get("template") is None  # Plotly.react took a template copied anew as a change
    assert layout["datarevision"] == sent_figure(causal_map).layout.datarevision  # the same figure, the same
    other = attention_bar(np.array([0.5, 0.25, 0.25], np.float32), TOKENS[:3], key_title="key", value_label="w")
    changed = attention_bar(np.array([0.5, 0.25, 0.24], np.float32), TOKENS[:3], key_title="key", value_label="w")
    assert sent_figure(other).layout.datarevision != sent_figure(changed).layout.datarevision
    assert causal_map.layout.datarevision is None and isinstance(causal_map.data[0].z, np.ndarray)  # a copy


def test_a_template_with_content_is_kept():
    shared = {"layout": {"xaxis": {"showgrid": False}}}
    fig = styled_figure([], "title", template=shared, width=300, height=200)
    assert sent(sent_figure(fig))["layout"]["template"] == shared


def test_an_enlarged_figure_arrives_as_lists_too(causal_map):
    after = sent(sent_figure(causal_map, 1.3))
    assert "bdata" not in json.dumps(after) and after["layout"]["width"] == pytest.approx(causal_map.layout.width * 1.3)
