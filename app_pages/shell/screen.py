"""Presentation sizing in one place: what a chart or map may take at 1280×800, plainly and enlarged in presentation
mode (presentation.py says whether it is on and how much it enlarges)."""

from __future__ import annotations

import plotly.graph_objects as go

from app_pages.shell.presentation import chart_scale, presenting
from viz.style import MAX_WIDTH_PX, min_font_px_at


CONTENT_PX = 700  # the width Streamlit draws a figure at that has none of its own (plotly.js's default)
PRESENT_MAX_PX = (1120, 680)  # a chart in presentation mode: the main area with the sidebar closed, at 1280×800


def present_factor(fig: go.Figure, present_max_px: int | None = None) -> float:
    """How many times chart() enlarges `fig`: 1, or in presentation mode PRESENT_SCALE or less where that would
    not fit the screen (`present_max_px`: see chart)."""
    factor = chart_scale()
    if factor != 1:
        sizes = [(fig.layout.width or CONTENT_PX, PRESENT_MAX_PX[0]),
                 (fig.layout.height, present_max_px or PRESENT_MAX_PX[1])]
        factor = min([factor, *(limit / size for size, limit in sizes if size)])
    return factor


# What a popover in the main area may hold, in width. Streamlit opens a popover rightward from its button, or, where
# the viewport has no room for it on the right, leftward from the button's right edge: a popover 704 px wide whose
# button is 662 px from the left at 1280×800 opens leftward, over the sidebar. 420 px and the body's 24-px padding
# fit rightward from a button in the main area's left 60 % and leftward from one further right.
POPOVER_PX = 420
HALF_COLUMN_PX = 400  # one of two columns at 1280 px with the sidebar open: its figures lay out their labels for that
PRESENT_MAP_PX = 440  # an explorer map's height before presentation mode enlarges it: with its controls, one screen
CONTROL_ROW_PX = 80  # what one more row of controls above a map takes, before presentation mode enlarges it
# The height left under the explorer's controls in presentation mode at 1280×800 (they end about 290 px down): a map
# laid out up to PRESENT_MAP_PX tall is enlarged only as far as this allows (chart's present_max_px).
EXPLORER_PRESENT_PX = 505


def explorer_present_px(extra_rows: int = 0) -> int:
    """The height an explorer map may take once enlarged, under its controls and `extra_rows` rows more."""
    return EXPLORER_PRESENT_PX - round(extra_rows * CONTROL_ROW_PX * chart_scale())


def map_limits(extra_rows: int = 0, plain_px: float | None = None, *, max_width: float = MAX_WIDTH_PX,
               present_px: tuple[float, float] | None = None, present_zoom: float | None = None) -> dict:
    """Keyword arguments that size an explorer map so that it and the controls above it (the explorer's, and
    `extra_rows` rows more) fit one screen in presentation mode; elsewhere `plain_px` (the height a page's controls
    leave at 1280×800) or, without it, the figures' own limits. `max_width`: what the map may take on the page;
    `present_px`: (width, height) it may take once enlarged, where a page's columns and controls leave it other room
    than the explorer's (Compare's), laid out for `present_zoom` times (PRESENT_SCALE if None).

    In presentation mode chart() enlarges a map at least `zoom` times (PRESENT_SCALE, or less where these limits
    would not fit the screen so enlarged), so its labels are laid out that much smaller and still show at 11 px:
    a 16-token sentence keeps every row's label on the projector (laid out at 11 px and then enlarged to 14 px, it
    would show every other one). A map given `present_px` is laid out for a `present_zoom` enlargement to fill it:
    laid out for the explorer's height less its rows of controls instead, Compare's maps would be enlarged 1.03 times
    and use two thirds of their columns' width. (A short room may be better used by smaller text: the cells get what
    the margins' text does not take.)"""
    if presenting() and present_px:
        zoom = present_zoom or chart_scale()
        return {"max_width": present_px[0] / zoom, "max_height": present_px[1] / zoom,
                "min_font_px": min_font_px_at(zoom)}
    if presenting():
        height = PRESENT_MAP_PX - extra_rows * CONTROL_ROW_PX
        zoom = min(chart_scale(), PRESENT_MAX_PX[0] / max_width, PRESENT_MAX_PX[1] / height)
        return {"max_width": max_width, "max_height": height, "min_font_px": min_font_px_at(zoom)}
    return {"max_width": max_width, **({} if plain_px is None else {"max_height": plain_px})}
