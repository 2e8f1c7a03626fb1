"""The grid of every layer and head (the explorer's "All heads") keeps its layer names apart however short its rows
(issue 51: a 63-word sentence's cross-attention rows were ~25 px tall, and the upright names "layer 1", "layer 2",
"layer 3", each ~40 px long, ran together in Chromium)."""

from __future__ import annotations

import numpy as np
import pytest

from viz.model_view import COLORBAR_PX, LAYER_GAP_PX, model_view
from viz.options import Labels
from viz.style import LINE_EM, text_em


def layer_names(fig):
    """The layer names (the annotations right of the maps) with the px height of the row each names."""
    plot_h = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    rows = sorted({tuple(fig.layout[name].domain) for name in fig.layout if name.startswith("yaxis")}, reverse=True)
    names = [a for a in fig.layout.annotations if a.x == 1]
    return [(a, (top - bottom) * plot_h) for a, (bottom, top) in zip(names, rows)]


@pytest.mark.parametrize(("rows", "columns"), [(6, 6), (25, 40), (12, 60), (25, 80), (60, 62)])
@pytest.mark.parametrize("label", ["layer {n}", "第 {n} 层"])
def test_every_layer_name_fits_its_row(rows, columns, label):
    rng = np.random.default_rng(0)
    fig = model_view(rng.random((3, 8, rows, columns), dtype=np.float32),
                     Labels([f"q{i}" for i in range(rows)], [f"k{i}" for i in range(columns)]), layer_label=label)
    assert fig.layout.width <= 820
    names = layer_names(fig)
    assert len(names) == 3
    for annotation, row_px in names:
        size = annotation.font.size
        if annotation.textangle == 90:  # upright: along the row
            assert text_em(annotation.text) * size <= row_px + 1, (annotation.text, size, row_px)
        else:  # across: a line high, no nearer its neighbours' than a row and the gap; left of the colour bar
            assert LINE_EM * size <= row_px + LAYER_GAP_PX, (annotation.text, size, row_px)
            assert text_em(annotation.text) * size <= fig.layout.margin.r - COLORBAR_PX, annotation.text
