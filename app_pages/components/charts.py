"""Every chart of the app: drawn once at the size its figure asks for, enlarged as a whole in presentation mode."""

from __future__ import annotations

from collections.abc import Callable

import plotly.graph_objects as go
import streamlit as st

from app_pages.shell.screen import CONTENT_PX, present_factor
from viz.sent import sent_figure
from viz.style import MIN_FONT_PX, min_font_px_at


def chart(fig: go.Figure, key: str, *, width: str = "content", present_max_px: int | None = None, **kwargs):
    """Every chart of the app, drawn at the size its figure asks for, enlarged as a whole in presentation mode
    (less than PRESENT_SCALE where that would not fit the screen: a chart is seen whole or not at all;
    `present_max_px`: the height left for it below the controls above it, where they take more than usual).

    The camera button saves an SVG named after the chart's key (Plotly would cut a long title into the name).
    """
    factor = present_factor(fig, present_max_px)
    config = {"displaylogo": False, "toImageButtonOptions": {"format": "svg", "filename": key.replace(".", "-")}}
    # theme=None: the figure is drawn as viz built it; Streamlit's theme reserves room the figure's own margins
    # already hold, and would narrow a 6-column map's cells below the size its labels are laid out for.
    return st.plotly_chart(sent_figure(fig, factor, CONTENT_PX), key=key, width=width, config=config, theme=None,
                           **kwargs)


def fitted_map(build: Callable[..., go.Figure], layout: dict, present_max_px: int | None = None) -> go.Figure:
    """build(**layout), where `layout` is map_limits'; in presentation mode, where chart() will enlarge that figure
    more than map_limits could count on (a map narrower than its limits), built again with labels laid out for
    that enlargement, if that shows more of them, none under 11 px: Compare's B − A kept every other label."""
    fig = build(**layout)
    if "min_font_px" not in layout:  # not presenting
        return fig
    smaller = min_font_px_at(present_factor(fig, present_max_px))
    if smaller >= layout["min_font_px"]:
        return fig
    refit = build(**{**layout, "min_font_px": smaller})
    better = labels_shown(refit) > labels_shown(fig) and smaller * present_factor(refit, present_max_px) >= MIN_FONT_PX
    return refit if better else fig


def labels_shown(fig: go.Figure) -> int:
    """How many tick labels the figure's axes draw (a heatmap with thinned labels keeps every one on a hidden axis,
    for its hovers)."""
    axes = [*fig.select_xaxes(), *fig.select_yaxes()]
    return sum(len(axis.ticktext or ()) for axis in axes if axis.showticklabels is not False)
