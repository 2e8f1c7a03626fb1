"""The explanation page's per-head grids and pruning chart: a colour scale and every cell's number on the ρ and
BLEU-drop grids, and each knock-out's paired interval on the pruning curves (error bars) and the drop grid (hover)
— on the figures alone and as the page draws them from the training log."""

from __future__ import annotations

import json

import numpy as np
import pytest

from app_pages.shell.screen import HALF_COLUMN_PX
from tests.support.apptest import cells, specs
from tests.support.explanation import page
from viz.explanation import head_grid_figure, pruning_figure
from viz.options import Frame, Labels, Room


def grid(values, **extra):
    return head_grid_figure(values, Labels(None, None, value_label="ρ", query_title="layer", key_title="head"),
                            room=Room(HALF_COLUMN_PX, 360),
                            title="This sentence (integrated gradients): Spearman ρ of each cross head", bound=1.0,
                            **extra)


def test_a_head_grid_has_its_colour_bar_and_every_cells_number(translator):
    rho = translator.training_log["agreement"]["integrated_gradients"]["rho"]
    heat = grid(rho).data[0]
    assert heat.showscale and heat.colorbar.title.text == "ρ"
    assert (heat.zmin, heat.zmax) == (-1.0, 1.0)
    assert heat.texttemplate == "%{z:.2f}"  # each cell prints its own value, to 2 decimals
    assert np.allclose(np.asarray(heat.z, dtype=float), rho, atol=1e-6)


def test_a_head_grid_too_small_for_its_numbers_refuses():
    with pytest.raises(ValueError, match="do not fit"):
        head_grid_figure(np.zeros((3, 8)), Labels(None, None, value_label="ρ", query_title="layer", key_title="head"),
                         room=Room(HALF_COLUMN_PX, 200), title="t", bound=1.0)


def test_a_head_grids_hover_carries_each_heads_interval():
    values = np.array([[0.5, -0.25], [1.0, 0.0]])
    spans = np.array([[[0.1, 0.9], [-0.6, 0.1]], [[0.4, 1.6], [-0.3, 0.3]]])
    heat = grid(values, intervals=spans, interval_title="95 % interval").data[0]
    assert np.allclose(np.asarray(heat.customdata, dtype=float), spans)
    assert "95 % interval: <b>%{customdata[0]:.2f} – %{customdata[1]:.2f}</b>" in heat.hovertemplate
    with pytest.raises(ValueError, match="intervals needs"):
        grid(values, intervals=spans[:1], interval_title="95 % interval")


def pruning_from(log: dict):
    curves = log["heads"]["pruning"]
    spans = [[[p.get("bleu_drop", np.nan), p.get("low", np.nan), p.get("high", np.nan)] for p in c]
             for c in curves.values()]
    return pruning_figure([p["removed"] for p in next(iter(curves.values()))],
                          [[p["bleu"] for p in c] for c in curves.values()], list(curves),
                          frame=Frame("t", "heads knocked out", "BLEU"), drop_title="BLEU drop",
                          intervals=spans), curves


def test_the_pruning_curves_error_bars_are_the_logs_paired_intervals(translator):
    figure, curves = pruning_from(translator.training_log)
    for line, curve in zip(figure.data, curves.values()):
        up, down = np.asarray(line.error_y.array, dtype=float), np.asarray(line.error_y.arrayminus, dtype=float)
        assert up[0] == down[0] == 0  # the whole model: no interval
        for point, above, below in zip(curve[1:], up[1:], down[1:]):
            # The bar spans the BLEUs the drop's interval allows: bleu + drop − high … bleu + drop − low.
            assert above == pytest.approx(point["bleu_drop"] - point["low"], abs=1e-4)
            assert below == pytest.approx(point["high"] - point["bleu_drop"], abs=1e-4)
        assert line.customdata[0] == "—"
        assert list(line.customdata[1:]) == [f"{p['bleu_drop']:.2f} ({p['low']:.2f} – {p['high']:.2f})"
                                             for p in curve[1:]]
        assert "BLEU drop: <b>%{customdata}</b>" in line.hovertemplate


def test_the_page_draws_the_grids_with_scales_numbers_and_intervals(translator):
    log = translator.training_log
    heads_tab = {s["layout"]["title"]["text"]: s for s in specs(page(tab="heads"))}
    dev = next(s for title, s in heads_tab.items() if "unseen dev sentences" in title)
    assert len(heads_tab) == 2
    for spec in heads_tab.values():
        assert spec["data"][0]["showscale"] and spec["data"][0]["texttemplate"] == "%{z:.2f}"
    assert np.allclose(cells(dev), log["agreement"]["integrated_gradients"]["rho"], atol=1e-6)
    importance = specs(page(tab="importance"))
    drops = next(s for s in importance if s["data"][0]["type"] == "heatmap")
    single = [s for s in log["heads"]["single"] if s["kind"] == "cross"]
    assert drops["data"][0]["showscale"] and drops["data"][0]["texttemplate"] == "%{z:.2f}"
    assert np.allclose(cells(drops), [[s["bleu_drop"] for s in single if s["layer"] == layer] for layer in range(3)])
    assert np.allclose(np.array(drops["data"][0]["customdata"], dtype=float).reshape(-1, 2),
                       [[s["low"], s["high"]] for s in single])
    curves = next(s for s in importance if s["data"][0]["type"] == "scatter")
    cross = next(line for line in curves["data"] if line["name"] == "Cross-attention")
    after = log["heads"]["pruning"]["cross"][4]
    assert json.dumps(cross["customdata"][4], ensure_ascii=False) == json.dumps(
        f"{after['bleu_drop']:.2f} ({after['low']:.2f} – {after['high']:.2f})", ensure_ascii=False)
