"""Display pieces every page shares: charts, token chips, links to other pages, numbers as percentages."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from app_pages.shell import registry
from app_pages.shell.presentation import chart_scale, presenting
from app_pages.shell.text import md_escape, t
from model import WORD_START
from viz.style import MAX_WIDTH_PX, MIN_FONT_PX, figure_spec, min_font_px_at, scaled

_BADGE_SPECIAL = frozenset("\\`*_{}()<>#+-.!|~:$&=\"'%^@/;,?")  # md_escape's set less brackets: st.badge escapes those


def token_chips(
    tokens: list[str], color: str = "blue", special_color: str = "gray", probs: list[float] | None = None,
    low: list[bool] | None = None, key: str | None = None, marked: list[bool] | None = None,
) -> None:
    """Tokens as a wrapped row of badges; hovering one shows its position, so repeated tokens stay distinguishable.

    With `probs`, each chip also shows the model's probability for its token (exact on hover), and the
    chips marked in `low` are red with a warning sign. The chips marked in `marked` are red (e.g. changed tokens).
    """
    with st.container(horizontal=True, gap="small", key=key):
        for i, token in enumerate(tokens):
            special = token.startswith("<") and token.endswith(">")
            label, tip = md_escape(token, _BADGE_SPECIAL), t("chips.position", n=i)
            chip_color, icon = special_color if special else color, None
            if probs is not None:
                label += " " + md_escape(f"{probs[i]:.0%}", _BADGE_SPECIAL)
                tip = t("chips.probability", prob=f"{probs[i]:.1%}", n=i)
                if low is not None and low[i]:
                    chip_color, icon = "red", ":material/warning:"
            if marked is not None and marked[i]:
                chip_color = "red"
            st.badge(label, color=chip_color, icon=icon, help=tip)


# A number as the pages print it (1,024, −0.1234, 1.2e-07, −∞): nothing in it is Markdown, so a table shows it as
# it is sent and a test reads it as it is; any other text in a table is escaped.
PLAIN_NUMBER = re.compile(r"[−+-]?(\d[\d,]*(\.\d+)?(e[+-]?\d+)?|∞)")


def _inert(cell):
    return md_escape(cell) if isinstance(cell, str) and not PLAIN_NUMBER.fullmatch(cell) else cell


def table(data, *, hide_index: bool = False, width: str = "content") -> None:
    """Every table of the app (a DataFrame, or columns as a dict): a static table with every row and column on
    screen, its text as typed.

    st.table, not st.dataframe: the interactive grid's 486-KB script and its canvas slowed every page that shows a
    table (a new tab of Inside, Multi-head shapes, Anatomy or Q·K·V drew its first chart 0.4–0.9 s later, in an A/B
    of the two on one machine), and a teaching table of a few rows needs no sorting or scrolling.

    st.table renders each cell, header and index label as Markdown, so every one that is text, not a plain number,
    is escaped (md_escape): a token such as "**x**" or "evil.example" shows as written, never bold or as a link."""
    frame = relabelled(pd.DataFrame(data), _inert, lambda label: _inert(str(label)))
    st.table(frame, hide_index=hide_index, width=width)


def relabelled(frame: pd.DataFrame, cell: Callable, label: Callable) -> pd.DataFrame:
    """`frame` with `cell` applied to every cell and `label` to every column name and index label, and to the
    index's name where it has one: a table's text as st.table is sent it, or as a reader sees it (tests.support.tables)."""
    out = frame.map(cell)
    out.columns = [label(c) for c in frame.columns]
    out.index = pd.Index([label(i) for i in frame.index],
                         name=None if frame.index.name is None else label(frame.index.name))
    return out


PRESENT_MAX_PX = (1120, 680)  # a chart in presentation mode: the main area with the sidebar closed, at 1280×800


def word_start_note(tokens: list[str]) -> str:
    """The one explanation of ▁, for a caption under a chart whose labels show it (else nothing)."""
    return t("tokens.word_start") if any(token.startswith(WORD_START) for token in tokens) else ""


def chart(fig: go.Figure, key: str, *, width: str = "content", present_max_px: int | None = None, **kwargs):
    """Every chart of the app, drawn at the size its figure asks for, enlarged as a whole in presentation mode
    (less than PRESENT_SCALE where that would not fit the screen: a chart is seen whole or not at all;
    `present_max_px`: the height left for it below the controls above it, where they take more than usual).

    The camera button saves an SVG named after the chart's key (Plotly would cut a long title into the name).
    """
    factor = present_factor(fig, present_max_px)
    config = {"displaylogo": False, "toImageButtonOptions": {"format": "svg", "filename": key.replace(".", "-")}}
    # theme=None: the figure is drawn as viz built it; Streamlit's theme reserves room the figure's own margins
    # already hold, and narrowed a 6-column map's cells below the size its labels were laid out for.
    fig = scaled(fig, factor, CONTENT_PX) if factor != 1 else fig
    return st.plotly_chart(redrawn_once(fig), key=key, width=width, config=config, theme=None, **kwargs)


def redrawn_once(fig: go.Figure) -> go.Figure:
    """A copy of `fig` that Plotly draws once, not twice, each time Streamlit shows it: its arrays as JSON lists,
    without the empty template, with a `layout.datarevision` (a digest of the figure).

    Why: whenever a chart appears or changes, Streamlit draws it, then hands Plotly.react a copy of the same figure
    (its theme pass, which runs even with theme=None). Plotly.react takes a data array as changed unless its layout
    has a datarevision and the array is a plain array; a NumPy array reaches it as a typed array (plotly.py sends
    those base64-encoded), which it always takes as changed, and so is a template that is a new object. So it
    calculated and drew every chart a second time: for each Next on Decoding, eight draws of four charts (CDP
    logpoints in Plotly.react's diff), now four. A changed figure gets another digest (and Streamlit mounts a new
    chart for it: its element id hashes the figure), so no change is missed. A template with content (the model
    view's shared axes) is kept, and that chart is still drawn twice.
    """
    digest = hashlib.blake2b(digest_size=8)
    spec = json_lists(figure_spec(fig), digest)
    layout = spec["layout"]
    if layout.get("template") == EMPTY_TEMPLATE:
        del layout["template"]
    layout["datarevision"] = digest.hexdigest()
    out = go.Figure(spec, _validate=False)  # validated already, when `fig` was built
    if "template" not in layout:
        out.layout.template = None  # the constructor put plotly.py's default one (9 KB) there
    return out


EMPTY_TEMPLATE = go.Figure(layout={"template": go.layout.Template()}).layout.to_plotly_json()["template"]


def json_lists(node, digest):
    """`node` (dicts and lists of a figure's properties) with every NumPy array as a list; every value is also fed
    to `digest` (an array as its bytes: hashing the JSON instead took 17 of a 128×256 map's 30 ms here)."""
    if isinstance(node, np.ndarray):
        digest.update(f"{node.dtype}{node.shape}".encode())
        digest.update(np.ascontiguousarray(node).tobytes())
        return node.tolist()
    if isinstance(node, dict):
        listed = {}
        for key, value in node.items():
            digest.update(f"{key}:".encode())
            listed[key] = json_lists(value, digest)
        return listed
    if isinstance(node, (list, tuple)):
        digest.update(b"[")
        listed = [json_lists(value, digest) for value in node]
        digest.update(b"]")
        return listed
    digest.update(repr(node).encode())
    return node


CONTENT_PX = 700  # the width Streamlit draws a figure at that has none of its own (plotly.js's default)


def present_factor(fig: go.Figure, present_max_px: int | None = None) -> float:
    """How many times chart() enlarges `fig`: 1, or in presentation mode PRESENT_SCALE or less where that would
    not fit the screen (`present_max_px`: see chart)."""
    factor = chart_scale()
    if factor != 1:
        sizes = [(fig.layout.width or CONTENT_PX, PRESENT_MAX_PX[0]),
                 (fig.layout.height, present_max_px or PRESENT_MAX_PX[1])]
        factor = min([factor, *(limit / size for size, limit in sizes if size)])
    return factor


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


# What a popover in the main area may hold, in width. Streamlit opens a popover rightward from its button, or, where
# the viewport has no room for it on the right, leftward from the button's right edge: at its own 704 px the numbers'
# TSV popover (its button 662 px from the left at 1280×800) opened leftward, over the sidebar. 420 px and the body's
# 24-px padding fit rightward from a button in the main area's left 60 % and leftward from one further right.
POPOVER_PX = 420
HALF_COLUMN_PX = 400  # one of two columns at 1280 px with the sidebar open: its figures lay out their labels for that
PRESENT_MAP_PX = 440  # an explorer map's height before presentation mode enlarges it: with its controls, one screen
CONTROL_ROW_PX = 80  # what one more row of controls above a map takes, before presentation mode enlarges it


def map_limits(extra_rows: int = 0, plain_px: float | None = None, *, max_width: float = MAX_WIDTH_PX,
               present_px: tuple[float, float] | None = None, present_zoom: float | None = None) -> dict:
    """Keyword arguments that size an explorer map so that it and the controls above it (the explorer's, and
    `extra_rows` rows more) fit one screen in presentation mode; elsewhere `plain_px` (the height a page's controls
    leave at 1280×800) or, without it, the figures' own limits. `max_width`: what the map may take on the page;
    `present_px`: (width, height) it may take once enlarged, where a page's columns and controls leave it other room
    than the explorer's (Compare's), laid out for `present_zoom` times (PRESENT_SCALE if None).

    In presentation mode chart() enlarges a map at least `zoom` times (PRESENT_SCALE, or less where these limits
    would not fit the screen so enlarged), so its labels are laid out that much smaller and still show at 11 px:
    a 16-token sentence keeps every row's label on the projector, where laid out at 11 px before being enlarged to
    14 px it showed every other one. A map given `present_px` is laid out for a `present_zoom` enlargement to fill
    it: laid out for the explorer's height less its rows of controls instead, Compare's were enlarged 1.03 times and
    used two thirds of their columns' width. (A short room may be better used by smaller text: the cells get what
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


def page_link(name: str, label: str, icon: str | None = None) -> None:
    """A link to another page of the app (registry.py), with its navigation icon unless `icon` says otherwise."""
    page = registry.PAGE[name]
    st.page_link(page.script, label=label, icon=icon or page.icon)


def percent(rate: float | None, digits: int = 0) -> str:
    """A rate (0–1) as a percentage; "–" where there was nothing to measure."""
    return "–" if rate is None else f"{rate:.{digits}%}"


def kept(key: str, options, fallback=None):
    """The choice to draw the widget keyed `key` with, as its default: the session's own, or where it has none among
    `options`, `fallback` (else the first option), stored as the session's. A browser that lost a widget's value (a
    run cut short by the next click, runner.fastReruns) sends none, and Streamlit then returns the widget's default
    as the user's choice: a segmented control without one returned None, an error box on every page (the browser
    benchmark met it on its way between two pages); a drop-down or slider went back to its first option."""
    options = list(options)
    if key not in st.session_state or st.session_state[key] not in options:  # None may be an option ("all")
        st.session_state[key] = options[0] if fallback is None else fallback
    return st.session_state[key]


def keep_valid(key: str, options: list) -> None:
    """Forget a widget's stored choice that a new sentence or model made impossible (e.g. step 12 of 8): for a widget
    that may hold no choice (pills); one that always holds one is drawn with kept."""
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]
